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
/** A new member's referral code taken, only if no one holds it. */
export const guardReferralCode = (shopId: string, code: string, customerId: string): Write =>
  namedWrite('guard the referral code', {
    Put: { TableName: tableName(), Item: referralCodeItem(shopId, code, customerId), ConditionExpression: 'attribute_not_exists(pk)' },
  });

/** A removed member's referral code given up. */
export const releaseReferralCode = (shopId: string, code: string): Write =>
  namedWrite('release the referral code', { Delete: { TableName: tableName(), Key: referralCodeKey(shopId, code) } });
