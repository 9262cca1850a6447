// GET /v1/earning-rules: earning rules with points for an optional customer.
import { createHandler } from '../../shared/staff/staff-requests';
import { queryParameters } from '../../shared/http/query';
import { earningRulesDocument } from '../../shared/rules/earning-rule-resource';
import { parseEarningRulesQuery } from '../../shared/rules/earning-rules-requests';
import { listEarningRules } from '../../shared/rules/earning-rules-service';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller, event }) => {
  const query = parseEarningRulesQuery(queryParameters(event));
  const shop = await shopCatalog(caller.shopId);
  return { statusCode: 200, body: earningRulesDocument(await listEarningRules(shop, query), query.page, shop) };
});
