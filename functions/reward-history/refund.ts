// POST /v1/customers/{identifier}/reward-history/{id}/refund: undo an unused redemption (code deleted, points back).
import { createHandler } from '../../shared/staff/staff-requests';
import { loyaltyModeMeta, rewardHistoryResource } from '../../shared/history/history-resource';
import { refundRedemption } from '../../shared/purchases/refund-redemption';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(
  async ({ caller, path, idempotency }) => {
    const shop = await shopCatalog(caller.shopId);
    // Who undid it (a staff user on /admin/api, an API key on /v1) is kept on the entry giving the points back.
    const actor = caller.actor ?? caller.keyActor;
    const entry = await refundRedemption(shop, path('identifier'), path('id'), connectedPlatform(shop), {
      claim: idempotency,
      ...(actor ? { actor } : {}),
    });
    return {
      statusCode: 200,
      body: { data: rewardHistoryResource(entry, { staff: caller.actor !== undefined }), meta: loyaltyModeMeta(shop.settings) },
    };
  },
  { idempotent: true },
);
