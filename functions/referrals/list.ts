// GET /v1/customers/{identifier}/referrals: one page of the friends a member referred, pending or completed.
import { createHandler } from '../../shared/staff/staff-requests';
import { pageMeta, queryParameters } from '../../shared/http/query';
import { listReferrals } from '../../shared/referrals/list-referrals';
import { parseReferralsQuery } from '../../shared/referrals/referral-requests';
import { listedReferralResource } from '../../shared/referrals/referral-resource';

export const handler = createHandler(async ({ caller, event, path }) => {
  const page = parseReferralsQuery(queryParameters(event));
  const list = await listReferrals(caller.shopId, path('identifier'), page);
  return { statusCode: 200, body: { data: list.referrals.map(listedReferralResource), meta: pageMeta(list.total, page) } };
});
