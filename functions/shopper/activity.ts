// GET /shopper/member/activity: the signed-in member's earning and reward history merged, newest first.
import { queryParameters } from '../../shared/http/query';
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { memberActivity } from '../../shared/shopper/shopper-activity';
import { activityDocument } from '../../shared/shopper/shopper-resource';
import { parseActivityPage, shopperHandler, signedInCustomer } from '../../shared/shopper/shopper-requests';

export const handler = shopperHandler(async ({ shopper, event }) => {
  const customerId = signedInCustomer(shopper);
  const page = parseActivityPage(queryParameters(event));
  const shop = await shopCatalog(shopper.shopId);
  return { statusCode: 200, body: activityDocument(await memberActivity(shop, customerId, page), page) };
});
