// POST /v1/rewards/{id}/purchase: spend points on a reward and get a discount code.
import { createHandler } from '../../shared/http/handler';
import { purchaseReward } from '../../shared/purchases/purchase-reward';
import { parsePurchaseBody } from '../../shared/purchases/purchase-requests';
import { purchaseResource } from '../../shared/purchases/purchase-resource';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';

export const handler = createHandler(
  async ({ caller, body, path }) => {
    const input = parsePurchaseBody(body);
    const shop = await shopCatalog(caller.shopId);
    const purchase = await purchaseReward(shop, path('id'), input, connectedPlatform(shop));
    return { statusCode: 201, body: { data: purchaseResource(purchase, shop.settings) } };
  },
  { jsonBody: true, idempotent: true },
);
