// GET /v1/customers/{identifier}: one customer by platform id or e-mail.
import { customerResource } from '../../shared/customers/customer-resource';
import { parseExcludeVip } from '../../shared/customers/customer-requests';
import { resolveCustomer } from '../../shared/customers/customer-service';
import { createHandler } from '../../shared/staff/staff-requests';
import { queryParameters } from '../../shared/http/query';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller, event, path }) => {
  const excludeVip = parseExcludeVip(queryParameters(event));
  const [shop, customer] = await Promise.all([shopCatalog(caller.shopId), resolveCustomer(caller.shopId, path('identifier'))]);
  return { statusCode: 200, body: { data: customerResource(customer.record, shop, { excludeVip }) } };
});
