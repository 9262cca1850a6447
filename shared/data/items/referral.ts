// The referral items: the guard that makes a referral code unique within a shop (and names its owner),
// and the award guard that credits a referrer once per referred customer.
import { type Item, type ItemKey, type ItemType } from './item-type';

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
