// GET /shopper/program: the program as the verified shopper sees it (guests too); a member's tier prices the rules.
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { programResource } from '../../shared/shopper/shopper-resource';
import { shopperMember, shopperProgram } from '../../shared/shopper/shopper-program';
import { shopperHandler } from '../../shared/shopper/shopper-requests';

export const handler = shopperHandler(async ({ shopper }) => {
  const [shop, member] = await Promise.all([shopCatalog(shopper.shopId), shopperMember(shopper.shopId, shopper.customerId)]);
  return { statusCode: 200, body: { data: programResource(shopperProgram(shop, member)) } };
});
