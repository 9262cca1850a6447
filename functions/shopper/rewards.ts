// GET /shopper/member/rewards: the signed-in member's codes still to use, newest first, with their rewards.
import { queryParameters } from '../../shared/http/query';
import { nowIso } from '../../shared/runtime/clock';
import { shopCatalog } from '../../shared/shops/shop-catalog';
import { memberRewards } from '../../shared/shopper/shopper-rewards';
import { memberRewardsDocument } from '../../shared/shopper/shopper-resource';
import { parseActivityPage, shopperHandler, signedInCustomer } from '../../shared/shopper/shopper-requests';

export const handler = shopperHandler(async ({ shopper, event }) => {
  const customerId = signedInCustomer(shopper);
  const page = parseActivityPage(queryParameters(event));
  const shop = await shopCatalog(shopper.shopId);
  const now = nowIso();
  return { statusCode: 200, body: memberRewardsDocument(await memberRewards(shop, customerId, page, now), page) };
});
