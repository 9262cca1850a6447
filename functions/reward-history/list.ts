// GET /v1/customers/{identifier}/reward-history: one page of a customer's redeemed rewards.
import { createHandler } from '../../shared/staff/staff-requests';
import { pageMeta, queryParameters } from '../../shared/http/query';
import { parseRewardHistoryQuery } from '../../shared/history/history-requests';
import { loyaltyModeMeta, rewardHistoryResource } from '../../shared/history/history-resource';
import { listRewardHistory } from '../../shared/history/history-service';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller, event, path }) => {
  const { page, listQuery } = parseRewardHistoryQuery(queryParameters(event));
  const [shop, list] = await Promise.all([shopCatalog(caller.shopId), listRewardHistory(caller.shopId, path('identifier'), listQuery)]);
  return {
    statusCode: 200,
    body: {
      data: list.entries.map((entry) => rewardHistoryResource(entry, { staff: caller.actor !== undefined })),
      meta: { ...pageMeta(list.total, page), ...loyaltyModeMeta(shop.settings) },
    },
  };
});
