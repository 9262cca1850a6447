// The referral items: the guard that makes a referral code unique within a shop (and names its owner),
// and the award guard that credits a referrer once per referred customer; the guards' named writes.
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import { type Item, type ItemKey, type ItemType } from './item-type';
import { putNewRequest } from './update';

export const referralCodeKey = (shopId: string, code: string): ItemKey => ({ pk: `SHOP#${shopId}#REF#${code}`, sk: 'REF' });

/** Makes a referral award once per referred customer. */
export const referralAwardKey = (shopId: string, referredId: string): ItemKey => ({
  pk: `SHOP#${shopId}#REFERRAL#${referredId}`,
  sk: 'REFERRAL',
});

export const referralTypes: readonly ItemType[] = [
  { name: 'referral-code guard', key: referralCodeKey('<shop>', '<code>') },
  { name: 'referral award guard (once per referred customer)', key: referralAwardKey('<shop>', '<referred id>') },
];

export const referralCodeItem = (shopId: string, code: string, customerId: string): Item => ({
  ...referralCodeKey(shopId, code),
  customer_id: customerId,
});

/** A new member's referral code claimed: only if no one holds it. */
export function claimReferralCode(shopId: string, code: string, customerId: string): Write {
  return namedWrite('claim the referral code', {
    Put: { TableName: tableName(), Item: referralCodeItem(shopId, code, customerId), ConditionExpression: 'attribute_not_exists(pk)' },
  });
}

/**
 * A member's referral code freed (`newOwner` null) or handed to another customer; only the member's own
 * guard (or none): a code imported twice must not free or take another member's code.
 */
export function releaseReferralCode(shopId: string, code: string, ownerId: string, newOwner: string | null = null): Write {
  const condition = { ConditionExpression: 'attribute_not_exists(pk) OR customer_id = :me', ExpressionAttributeValues: { ':me': ownerId } };
  const key = referralCodeKey(shopId, code);
  if (newOwner === null) return namedWrite('free the referral code', { Delete: { TableName: tableName(), Key: key, ...condition } });
  return namedWrite('hand the referral code over', {
    Put: { TableName: tableName(), Item: referralCodeItem(shopId, code, newOwner), ...condition },
  });
}

/** The award guard of the referral this customer completed, deleted. */
export function forgetReferralAward(shopId: string, referredId: string): Write {
  return namedWrite('forget the referral award', { Delete: { TableName: tableName(), Key: referralAwardKey(shopId, referredId) } });
}

export const referralAwardItem = (shopId: string, referredId: string, referrerId: string, orderId: string): Item => ({
  ...referralAwardKey(shopId, referredId),
  referrer_id: referrerId,
  order_id: orderId,
});

/** The name of the award guard's write: a refusal of it means the referred customer's award was made. */
export const RECORD_REFERRAL_AWARD = 'record the referral award';

/** The award guard of `referredId`, refused if the award was made already. */
export const recordReferralAward = (shopId: string, referredId: string, referrerId: string, orderId: string): Write =>
  namedWrite(RECORD_REFERRAL_AWARD, putNewRequest(referralAwardItem(shopId, referredId, referrerId, orderId)));

/** A removed member's referral code given up, whoever holds it (an import's member, taken back with the import). */
export const dropReferralCode = (shopId: string, code: string): Write =>
  namedWrite('drop the referral code', { Delete: { TableName: tableName(), Key: referralCodeKey(shopId, code) } });
