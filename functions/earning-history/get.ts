// GET /v1/customers/{identifier}/earning-history/{id}: one earning entry of the customer.
import { createHandler } from '../../shared/staff/staff-requests';
import { earningHistoryResource, loyaltyModeMeta } from '../../shared/history/history-resource';
import { getEarningHistoryEntry } from '../../shared/history/history-service';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(async ({ caller, path }) => {
  const [shop, entry] = await Promise.all([
    shopCatalog(caller.shopId),
    getEarningHistoryEntry(caller.shopId, path('identifier'), path('id')),
  ]);
  return {
    statusCode: 200,
    body: { data: earningHistoryResource(entry, { staff: caller.actor !== undefined }), meta: loyaltyModeMeta(shop.settings) },
  };
});
