// PUT /v1/customers/{identifier}: change date of birth, anniversary date or exclusion.
import { customerResource } from '../../shared/customers/customer-resource';
import { parseExcludeVip, parseUpdateBody } from '../../shared/customers/customer-requests';
import { updateCustomer } from '../../shared/customers/customer-service';
import { createHandler } from '../../shared/staff/staff-requests';
import { queryParameters } from '../../shared/http/query';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(
  async ({ caller, event, body, path }) => {
    const excludeVip = parseExcludeVip(queryParameters(event));
    const changes = parseUpdateBody(body);
    const shop = await shopCatalog(caller.shopId);
    const record = await updateCustomer(caller.shopId, path('identifier'), changes);
    return { statusCode: 200, body: { data: customerResource(record, shop, { excludeVip }) } };
  },
  { jsonBody: true, idempotent: true },
);
