// POST /shopper/member: the signed-in customer joins, enrolled exactly as POST /v1/customers enrols (the
// signup award once); 201 new, 200 already a member, with GET /shopper/member's body. A guest: 401.
import { enrollCustomer } from '../../shared/customers/customer-service';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { memberDocument } from '../../shared/shopper/shopper-resource';
import { memberView } from '../../shared/shopper/shopper-program';
import { shopperHandler, signedInCustomer } from '../../shared/shopper/shopper-requests';

export const handler = shopperHandler(
  async ({ shopper }) => {
    const customerId = signedInCustomer(shopper);
    const shop = await shopCatalog(shopper.shopId);
    const { created, record } = await enrollCustomer(shopper.shopId, customerId, connectedPlatform(shop), shop);
    return { statusCode: created ? 201 : 200, body: memberDocument(shop, true, await memberView(shop, record)) };
  },
  { jsonBody: true, idempotent: true },
);
