// GET /shopper/member: the signed-in member's own page; `data: null` for a guest or a customer who has not joined.
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { memberDocument } from '../../shared/shopper/shopper-resource';
import { shopperMemberView } from '../../shared/shopper/shopper-program';
import { shopperHandler } from '../../shared/shopper/shopper-requests';

export const handler = shopperHandler(async ({ shopper }) => {
  const shop = await shopCatalog(shopper.shopId);
  const view = await shopperMemberView(shop, shopper.customerId);
  return { statusCode: 200, body: memberDocument(shop, shopper.customerId !== null, view) };
});
