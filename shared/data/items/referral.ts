// The referral items: the guard that makes a referral code unique within a shop (and names its owner),
// and the award guard that credits a referrer once per referred customer; the guards' named writes.
import type { Write } from '../write';
import { defineItem } from './define-item';
import type { ItemKey, ItemType } from './item-type';

export const referralCodeKey = (shopId: string, code: string): ItemKey => ({ pk: `SHOP#${shopId}#REF#${code}`, sk: 'REF' });

/** Makes a referral award once per referred customer. */
export const referralAwardKey = (shopId: string, referredId: string): ItemKey => ({
  pk: `SHOP#${shopId}#REFERRAL#${referredId}`,
  sk: 'REFERRAL',
});

export const referralCode = defineItem({ name: 'referral-code guard', key: referralCodeKey, placeholder: ['<shop>', '<code>'] });
export const referralAward = defineItem({
  name: 'referral award guard (once per referred customer)',
  key: referralAwardKey,
  placeholder: ['<shop>', '<referred id>'],
});

export const referralTypes: readonly ItemType[] = [referralCode.type, referralAward.type];

/** A new member's referral code claimed: only if no one holds it. */
export function claimReferralCode(shopId: string, code: string, customerId: string): Write {
  return referralCode.put('claim the referral code', referralCodeKey(shopId, code), { customer_id: customerId }, { ifNew: true });
}

/**
 * A member's referral code freed (`newOwner` null) or handed to another customer; only the member's own
 * guard (or none): a code imported twice must not free or take another member's code.
 */
export function releaseReferralCode(shopId: string, code: string, ownerId: string, newOwner: string | null = null): Write {
  const condition = { condition: 'attribute_not_exists(pk) OR customer_id = :me', values: { ':me': ownerId } };
  const key = referralCodeKey(shopId, code);
  if (newOwner === null) return referralCode.delete('free the referral code', key, condition);
  return referralCode.put('hand the referral code over', key, { customer_id: newOwner }, condition);
}

/** The award guard of the referral this customer completed, deleted. */
export function forgetReferralAward(shopId: string, referredId: string): Write {
  return referralAward.delete('forget the referral award', referralAwardKey(shopId, referredId));
}

/** The name of the award guard's write: a refusal of it means the referred customer's award was made. */
export const RECORD_REFERRAL_AWARD = 'record the referral award';

/** The award guard of `referredId`, refused if the award was made already. */
export const recordReferralAward = (shopId: string, referredId: string, referrerId: string, orderId: string): Write =>
  referralAward.put(
    RECORD_REFERRAL_AWARD,
    referralAwardKey(shopId, referredId),
    { referrer_id: referrerId, order_id: orderId },
    { ifNew: true },
  );

/** A removed member's referral code given up, whoever holds it (an import's member, taken back with the import). */
export const dropReferralCode = (shopId: string, code: string): Write =>
  referralCode.delete('drop the referral code', referralCodeKey(shopId, code));
