// POST /v1/customers: enrol a platform customer (201 new, 200 already enrolled).
import { customerResource } from '../../shared/customers/customer-resource';
import { parseEnrollBody } from '../../shared/customers/customer-requests';
import { enrollCustomer } from '../../shared/customers/customer-service';
import { createHandler } from '../../shared/staff/staff-requests';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(
  async ({ caller, body }) => {
    const customerId = parseEnrollBody(body);
    const shop = await shopCatalog(caller.shopId);
    const { created, record } = await enrollCustomer(caller.shopId, customerId, connectedPlatform(shop), shop);
    return { statusCode: created ? 201 : 200, body: { data: customerResource(record, shop, { excludeVip: false }) } };
  },
  { jsonBody: true, idempotent: true },
);
