// POST /shopper/rewards/{id}/redeem: the signed-in member buys a reward, exactly as POST
// /v1/rewards/{id}/purchase does for them (validations, statuses, the saga, Idempotency-Key, reconciliation).
import { type PurchaseHooks, purchaseReward } from '../../shared/purchases/purchase-reward';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { redemptionResource } from '../../shared/shopper/shopper-resource';
import { parseRedeemBody, shopperHandler, signedInCustomer } from '../../shared/shopper/shopper-requests';

/** The handler; `hooks` let a test stop an invocation part-way, as for the /v1 purchase. */
export const redeemHandler = (hooks: PurchaseHooks = {}) =>
  shopperHandler(
    async ({ shopper, body, path, idempotency }) => {
      const customerId = signedInCustomer(shopper);
      const { points } = parseRedeemBody(body);
      const shop = await shopCatalog(shopper.shopId);
      const purchase = await purchaseReward(shop, path('id'), { customerIdentifier: customerId, points }, connectedPlatform(shop), {
        ...hooks,
        claim: idempotency,
        actor: { type: 'customer' },
      });
      return { statusCode: 201, body: { data: redemptionResource(purchase) } };
    },
    { jsonBody: true, idempotent: true },
  );

export const handler = redeemHandler();
