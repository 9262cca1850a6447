// POST /v1/rewards/{id}/purchase: spend points on a reward and get a discount code.
import { createHandler } from '../../shared/staff/staff-requests';
import { type PurchaseHooks, purchaseReward } from '../../shared/purchases/purchase-reward';
import { parsePurchaseBody } from '../../shared/purchases/purchase-requests';
import { purchaseResource } from '../../shared/purchases/purchase-resource';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';

/** The handler; `hooks` let a test stop an invocation part-way, as a function cut off by its limit would be. */
export const purchaseHandler = (hooks: PurchaseHooks = {}) =>
  createHandler(
    async ({ caller, body, path, idempotency }) => {
      const input = parsePurchaseBody(body);
      const shop = await shopCatalog(caller.shopId);
      // Who buys (a staff user on /admin/api, an API key on /v1) is kept on the entry.
      const actor = caller.actor ?? caller.keyActor;
      const purchase = await purchaseReward(shop, path('id'), input, connectedPlatform(shop), {
        ...hooks,
        claim: idempotency,
        ...(actor ? { actor } : {}),
      });
      return { statusCode: 201, body: { data: purchaseResource(purchase, shop.settings) } };
    },
    { jsonBody: true, idempotent: true },
  );

export const handler = purchaseHandler();
