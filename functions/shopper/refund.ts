// POST /shopper/member/rewards/{id}/refund: the signed-in member undoes one of their own unused redemptions (the
// checkout's "Undo" before paying), exactly as POST /v1/customers/{identifier}/reward-history/{id}/refund does
// for them: the code deleted on the platform first, then the points back in one write; the same validations,
// statuses, error details and Idempotency-Key (scoped to the shopper). `{id}` is the redemption's id, the one
// POST /shopper/rewards/{id}/redeem answered. Another member's entry is not this member's: 404.
import { loyaltyModeMeta, rewardHistoryResource } from '../../shared/history/history-resource';
import { refundRedemption } from '../../shared/purchases/refund-redemption';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { shopperHandler, signedInCustomer } from '../../shared/shopper/shopper-requests';

export const handler = shopperHandler(
  async ({ shopper, path, idempotency }) => {
    const customerId = signedInCustomer(shopper);
    const shop = await shopCatalog(shopper.shopId);
    // The entry is looked up under the verified customer only, so no id reaches another member's history.
    const entry = await refundRedemption(shop, customerId, path('id'), connectedPlatform(shop), { claim: idempotency });
    return { statusCode: 200, body: { data: rewardHistoryResource(entry), meta: loyaltyModeMeta(shop.settings) } };
  },
  { jsonBody: true, idempotent: true },
);
