// The referred friend's items (POST /v1/referrals): the referral itself in the referrer's partition
// (`FRIEND#<created_at>#<id>`, so the referrer's referrals list newest first), the guard that makes a
// mailbox referred once per shop (keyed by the mailbox's keyed hash, never the address, under the shop's
// key kept in the shop's partition), the guard that finds a referral by its discount code (an order paid
// with the code counts as referred by it), and the referrer's counter of friends per UTC day, which
// leaves through the table's TTL a week after its day.
import type { FriendReferral } from '../../domain/referral';
import { TTL_ATTRIBUTE } from '../table';
import { customerPk } from './customer-profile';
import { type Item, type ItemKey, type ItemType, recordOf, shopPk } from './item-type';

export const FRIEND_REFERRAL_PREFIX = 'FRIEND#';
export const FRIEND_COUNT_PREFIX = 'FRIENDCOUNT#';

export const friendReferralSk = (createdAt: string, id: string) => `${FRIEND_REFERRAL_PREFIX}${createdAt}#${id}`;

export const friendReferralKey = (shopId: string, referrerId: string, sk: string): ItemKey => ({
  pk: customerPk(shopId, referrerId),
  sk,
});

/** One referral per mailbox and shop, keyed by the mailbox's keyed hash (`mailboxKey` of email-identity.ts). */
export const friendEmailKey = (shopId: string, emailKey: string): ItemKey => ({
  pk: `SHOP#${shopId}#FRIENDEMAIL#${emailKey}`,
  sk: 'FRIENDEMAIL',
});

/** The shop's key of the mailbox hashes (random, written once; it goes with the shop's partition). */
export const friendEmailHashKeyKey = (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'FRIENDEMAILKEY' });

/** The key's attribute (base64). */
export const FRIEND_EMAIL_HASH_KEY = 'key';

/** The referral a friend's discount code belongs to (codes compared in upper case, as Shopify matches them). */
export const friendCodeKey = (shopId: string, discountCode: string): ItemKey => ({
  pk: `SHOP#${shopId}#FRIENDCODE#${discountCode.toUpperCase()}`,
  sk: 'FRIENDCODE',
});

/** A referrer's friends in one UTC day (`YYYY-MM-DD`). */
export const friendCountKey = (shopId: string, referrerId: string, day: string): ItemKey => ({
  pk: customerPk(shopId, referrerId),
  sk: `${FRIEND_COUNT_PREFIX}${day}`,
});

/** The counter's attribute. */
export const FRIEND_COUNT = 'friends';

const KEPT_AFTER_DAY_MS = 7 * 86_400_000;

/** The day counter's TTL (epoch seconds): a week after the day ends. */
export const friendCountTtl = (day: string): number =>
  Math.floor((Date.parse(`${day}T00:00:00.000Z`) + 86_400_000 + KEPT_AFTER_DAY_MS) / 1000);

export const friendReferralTypes: readonly ItemType[] = [
  {
    name: 'referred friend (POST /v1/referrals)',
    key: friendReferralKey('<shop>', '<referrer id>', friendReferralSk('<created_at>', '<id>')),
  },
  { name: 'referred-friend guard (once per mailbox)', key: friendEmailKey('<shop>', '<mailbox hash>') },
  { name: "shop's key of the referred-friend mailbox hashes", key: friendEmailHashKeyKey('<shop>') },
  { name: 'referred-friend code -> referral', key: friendCodeKey('<shop>', '<CODE>') },
  {
    name: "referrer's friends per UTC day",
    key: friendCountKey('<shop>', '<platform id>', '<day>'),
    indexed: [TTL_ATTRIBUTE],
    derived: [TTL_ATTRIBUTE],
  },
];

/** Where a guard points: the referral's partition and sort key. */
export interface FriendReferralRef {
  referrer_id: string;
  referral_sk: string;
  referral_id: string;
}

export const refOf = (referral: FriendReferral): FriendReferralRef => ({
  referrer_id: referral.referrer_platform_customer_id,
  referral_sk: friendReferralSk(referral.created_at, referral.id),
  referral_id: referral.id,
});

export const friendReferralItem = (referral: FriendReferral): Item => {
  const ref = refOf(referral);
  return { ...friendReferralKey(referral.shop_id, ref.referrer_id, ref.referral_sk), ...referral };
};

export const friendEmailItem = (referral: FriendReferral): Item => ({
  ...friendEmailKey(referral.shop_id, referral.email_key),
  ...refOf(referral),
  referral_code: referral.referral_code,
});

export const friendCodeItem = (referral: FriendReferral): Item => ({
  ...friendCodeKey(referral.shop_id, referral.discount_code),
  ...refOf(referral),
  referral_code: referral.referral_code,
});

export const friendReferralOf = (item: Item): FriendReferral => recordOf<FriendReferral>(item, {});
