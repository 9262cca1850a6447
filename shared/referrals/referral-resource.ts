// The referral resource: what POST /v1/referrals answers and GET /v1/customers/{identifier}/referrals lists.
import type { FriendReferral } from '../domain/referral';

/** `pending` until the friend's first paid order counted as referred by the member, then `completed`. */
export function referralStatus(referral: FriendReferral): 'pending' | 'completed' {
  return referral.status === 'completed' ? 'completed' : 'pending';
}

export function referralResource(referral: FriendReferral) {
  return {
    type: 'referral',
    id: referral.id,
    attributes: {
      referral_code: referral.referral_code,
      referrer_platform_customer_id: referral.referrer_platform_customer_id,
      // null once the friend's data was erased (customers/redact), as the spec shows a cleared value.
      email: referral.email ?? null,
      discount_code: referral.discount_code,
      expires_at: referral.expires_at,
      created_at: referral.created_at,
    },
  };
}

/** A listed referral also says where it stands, and when it was completed. */
export function listedReferralResource(referral: FriendReferral) {
  const resource = referralResource(referral);
  return {
    ...resource,
    attributes: { ...resource.attributes, status: referralStatus(referral), completed_at: referral.completed_at },
  };
}
