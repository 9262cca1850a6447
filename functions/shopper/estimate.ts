// POST /shopper/estimate: what an order of the cart in the body would earn for the verified shopper (guests
// too), computed as the order engine computes a paid order's points. Reads the shop and the member; writes nothing.
import { now } from '../../shared/runtime/clock';
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { estimateOrder } from '../../shared/shopper/shopper-estimate';
import { shopperMember } from '../../shared/shopper/shopper-program';
import { estimateDocument } from '../../shared/shopper/shopper-resource';
import { parseEstimateBody, shopperHandler } from '../../shared/shopper/shopper-requests';

export const handler = shopperHandler(
  async ({ shopper, body }) => {
    // The shop's configuration is cached per warm function: a malformed cart is refused before any read of the member.
    const shop = await shopCatalog(shopper.shopId);
    const cart = parseEstimateBody(body, shop.settings.currency);
    const member = await shopperMember(shopper.shopId, shopper.customerId);
    return { statusCode: 200, body: estimateDocument(estimateOrder(shop, member, cart, now())) };
  },
  { jsonBody: true, readOnly: true },
);
