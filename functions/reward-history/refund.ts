// POST /v1/customers/{identifier}/reward-history/{id}/refund: undo an unused redemption (code deleted, points back).
import { createHandler } from '../../shared/staff/staff-requests';
import { loyaltyModeMeta, rewardHistoryResource } from '../../shared/history/history-resource';
import { refundRedemption } from '../../shared/purchases/refund-redemption';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(
  async ({ caller, path, idempotency }) => {
    const shop = await shopCatalog(caller.shopId);
    const entry = await refundRedemption(shop, path('identifier'), path('id'), connectedPlatform(shop), { claim: idempotency });
    return { statusCode: 200, body: { data: rewardHistoryResource(entry), meta: loyaltyModeMeta(shop.settings) } };
  },
  { idempotent: true },
);
