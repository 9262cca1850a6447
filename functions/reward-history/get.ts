// GET /v1/customers/{identifier}/reward-history/{id}: one redeemed reward of the customer.
import { createHandler } from '../../shared/staff/staff-requests';
import { loyaltyModeMeta, rewardHistoryResource } from '../../shared/history/history-resource';
import { getRewardHistoryEntry } from '../../shared/history/history-service';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller, path }) => {
  const [shop, entry] = await Promise.all([
    shopCatalog(caller.shopId),
    getRewardHistoryEntry(caller.shopId, path('identifier'), path('id')),
  ]);
  return {
    statusCode: 200,
    body: { data: rewardHistoryResource(entry, { staff: caller.actor !== undefined }), meta: loyaltyModeMeta(shop.settings) },
  };
});
