// POST /v1/referrals: a member refers a friend, who gets a single-use discount code from the shop's friend reward.
import { createHandler } from '../../shared/staff/staff-requests';
import { createReferral, type ReferralHooks } from '../../shared/referrals/create-referral';
import { parseCreateReferralBody } from '../../shared/referrals/referral-requests';
import { referralResource } from '../../shared/referrals/referral-resource';
import { connectedPlatform } from '../../shared/shops/connected-platform';
import { shopCatalog } from '../../shared/shops/shop-catalog';

/** The handler; `hooks` let a test stop an invocation part-way, as a function cut off by its limit would be. */
export const createReferralHandler = (hooks: ReferralHooks = {}) =>
  createHandler(
    async ({ caller, body, idempotency }) => {
      const input = parseCreateReferralBody(body);
      const shop = await shopCatalog(caller.shopId);
      const referral = await createReferral(shop, input, connectedPlatform(shop), { ...hooks, claim: idempotency });
      return { statusCode: 201, body: { data: referralResource(referral) } };
    },
    { jsonBody: true, idempotent: true },
  );

export const handler = createReferralHandler();
