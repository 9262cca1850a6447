// GET /v1/customers: one page of the shop's customers, filtered and sorted.
import { customerResource } from '../../shared/customers/customer-resource';
import { parseCustomerListQuery } from '../../shared/customers/customer-requests';
import { listCustomers } from '../../shared/customers/customer-service';
import { createHandler } from '../../shared/staff/staff-requests';
import { pageMeta, queryParameters } from '../../shared/http/query';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller, event }) => {
  const { page, listQuery } = parseCustomerListQuery(queryParameters(event));
  const [shop, list] = await Promise.all([shopCatalog(caller.shopId), listCustomers(caller.shopId, listQuery)]);
  return {
    statusCode: 200,
    body: {
      data: list.records.map((record) => customerResource(record, shop, { excludeVip: false })),
      meta: { ...pageMeta(list.total, page), loyalty_mode: shop.settings.loyalty_mode, currency: shop.settings.currency },
    },
  };
});
