// GET /v1/earning-rules: earning rules with points for an optional customer.
import { createHandler } from '../../shared/http/handler';
import { queryParameters } from '../../shared/http/query';
import { listEarningRules } from '../../shared/rules/earning-rules-service';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller, event }) => {
  const shop = await shopCatalog(caller.shopId);
  return { statusCode: 200, body: await listEarningRules(shop, queryParameters(event)) };
});
