// GET /v1/customers/{identifier}/referrals: the friends a member referred, newest first, a page at a time.
import { resolveCustomer } from '../customers/customer-service';
import { listFriendReferrals } from '../data/referral-repository';
import type { FriendReferral } from '../domain/referral';

export async function listReferrals(
  shopId: string,
  identifier: string,
  page: { offset: number; size: number },
): Promise<{ referrals: FriendReferral[]; total: number }> {
  const customer = await resolveCustomer(shopId, identifier);
  return listFriendReferrals(shopId, customer.record.platform_customer_id, page.offset, page.size);
}
