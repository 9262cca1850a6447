// The referred friend's items (POST /v1/referrals): the referral itself in the referrer's partition
// (`FRIEND#<created_at>#<id>`, so the referrer's referrals list newest first), the guard that makes a
// mailbox referred once per shop (keyed by the mailbox's keyed hash, never the address, under the shop's
// key kept in the shop's partition), the guard that finds a referral by its discount code (an order paid
// with the code counts as referred by it), and the referrer's counter of friends per UTC day, which
// leaves through the table's TTL a week after its day. The named writes of a referral's life follow.
import type { FriendReferral } from '../../domain/referral';
import { TTL_ATTRIBUTE } from '../table';
import type { Write } from '../write';
import { customerPk } from './customer-profile';
import { defineItem } from './define-item';
import { domainEventKey, forgetEvent } from './domain-event';
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

export const friendReferralItemType = defineItem({
  name: 'referred friend (POST /v1/referrals)',
  key: (shopId: string, referrerId: string, createdAt: string, id: string) =>
    friendReferralKey(shopId, referrerId, friendReferralSk(createdAt, id)),
  placeholder: ['<shop>', '<referrer id>', '<created_at>', '<id>'],
});
export const friendMailboxGuard = defineItem({
  name: 'referred-friend guard (once per mailbox)',
  key: friendEmailKey,
  placeholder: ['<shop>', '<mailbox hash>'],
});
export const friendEmailHashKeyItem = defineItem({
  name: "shop's key of the referred-friend mailbox hashes",
  key: friendEmailHashKeyKey,
  placeholder: ['<shop>'],
});
export const friendCodeGuard = defineItem({
  name: 'referred-friend code -> referral',
  key: friendCodeKey,
  placeholder: ['<shop>', '<CODE>'],
});
export const friendCount = defineItem({
  name: "referrer's friends per UTC day",
  key: friendCountKey,
  placeholder: ['<shop>', '<platform id>', '<day>'],
  indexed: [TTL_ATTRIBUTE],
  derived: [TTL_ATTRIBUTE],
});

export const friendReferralTypes: readonly ItemType[] = [
  friendReferralItemType.type,
  friendMailboxGuard.type,
  friendEmailHashKeyItem.type,
  friendCodeGuard.type,
  friendCount.type,
];

/**
 * The id of a referral's `referral.created` event, one per referral: the event carries the friend's address,
 * and its item is found by key when the friend or the referrer is erased.
 */
export const referralCreatedEventId = (referralId: string) => `referral-created-${referralId}`;

/** The item of a referral's `referral.created` event, from the referral's id or its sort key. */
export const referralCreatedEventKey = (shopId: string, referral: { id: string } | { sk: string }): ItemKey =>
  domainEventKey(shopId, referralCreatedEventId('id' in referral ? referral.id : referral.sk.slice(referral.sk.lastIndexOf('#') + 1)));

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

/** What a guard holds: where its referral is, and its referral code. */
const guardOf = (referral: FriendReferral) => ({ ...refOf(referral), referral_code: referral.referral_code });

export const friendEmailItem = (referral: FriendReferral): Item =>
  friendMailboxGuard.item(friendEmailKey(referral.shop_id, referral.email_key), guardOf(referral));

export const friendCodeItem = (referral: FriendReferral): Item =>
  friendCodeGuard.item(friendCodeKey(referral.shop_id, referral.discount_code), guardOf(referral));

export const friendReferralOf = (item: Item): FriendReferral => recordOf<FriendReferral>(item, {});

// ---- named writes ---------------------------------------------------------------------------------------

const referralKeyOf = (referral: FriendReferral): ItemKey => {
  const ref = refOf(referral);
  return friendReferralKey(referral.shop_id, ref.referrer_id, ref.referral_sk);
};

/** The mailbox's guard: one referral per mailbox and shop. */
export const guardFriendMailbox = (referral: FriendReferral): Write =>
  friendMailboxGuard.put('guard the mailbox', friendEmailKey(referral.shop_id, referral.email_key), guardOf(referral), { ifNew: true });

/** The referral itself, in `issuing` until its code exists; only if it does not exist. */
export const recordFriendReferral = (referral: FriendReferral): Write =>
  friendReferralItemType.put('record the referral', referralKeyOf(referral), referral, { ifNew: true });

/** The guard that finds the referral by its discount code. */
export const guardFriendCode = (referral: FriendReferral): Write =>
  friendCodeGuard.put('guard the code', friendCodeKey(referral.shop_id, referral.discount_code), guardOf(referral), { ifNew: true });

/** One more friend of the referrer on the UTC day, only while under `maxPerDay`; the counter leaves by TTL. */
export function countFriendOfDay(referral: FriendReferral, day: string, maxPerDay: number): Write {
  return friendCount.update(
    "count the referrer's friend of the day",
    friendCountKey(referral.shop_id, referral.referrer_platform_customer_id, day),
    {
      add: { [FRIEND_COUNT]: 1 },
      set: { [TTL_ATTRIBUTE]: friendCountTtl(day) },
      condition: 'attribute_not_exists(#count) OR #count < :max',
      names: { '#count': FRIEND_COUNT },
      values: { ':max': maxPerDay },
    },
  );
}

/** The referral's code exists on the platform: `issuing` becomes `active`. */
export function activateFriendReferralWrite(referral: FriendReferral, platformDiscountId: string): Write {
  return friendReferralItemType.update('activate the referral', referralKeyOf(referral), {
    set: { status: 'active', platform_discount_id: platformDiscountId },
    condition: '#status = :issuing',
    values: { ':issuing': 'issuing' },
  });
}

/** A referral whose code could not be created taken back, only while still `issuing`. */
export function withdrawIssuingReferral(referral: FriendReferral): Write {
  return friendReferralItemType.delete('withdraw the issuing referral', referralKeyOf(referral), {
    condition: '#status = :issuing',
    values: { ':issuing': 'issuing' },
  });
}

/** A guard of the referral (mailbox or code) deleted, only while it still points at this referral. */
export function releaseFriendGuard(referral: FriendReferral, guard: 'mailbox' | 'code'): Write {
  const condition = { condition: 'referral_id = :id', values: { ':id': referral.id } };
  return guard === 'mailbox'
    ? friendMailboxGuard.delete('release the mailbox guard', friendEmailKey(referral.shop_id, referral.email_key), condition)
    : friendCodeGuard.delete('release the code guard', friendCodeKey(referral.shop_id, referral.discount_code), condition);
}

/** The referral's place in its referrer's count of the day given back, only while it is positive. */
export function uncountFriendOfDay(referral: FriendReferral, day: string): Write {
  return friendCount.update(
    "give the referrer's friend of the day back",
    friendCountKey(referral.shop_id, referral.referrer_platform_customer_id, day),
    { add: { [FRIEND_COUNT]: -1 }, condition: '#count > :zero', names: { '#count': FRIEND_COUNT }, values: { ':zero': 0 } },
  );
}

/**
 * The friend's first paid order counted as referred by the referral: `completed`, once, only while it is
 * `active` (a replay changes nothing).
 */
export function completeFriendReferralWrite(
  shopId: string,
  ref: FriendReferralRef,
  completion: { friendId: string; orderId: string; at: string },
): Write {
  return friendReferralItemType.update('complete the referral', friendReferralKey(shopId, ref.referrer_id, ref.referral_sk), {
    set: {
      status: 'completed',
      completed_at: completion.at,
      friend_platform_customer_id: completion.friendId,
      order_id: completion.orderId,
    },
    condition: '#status = :active',
    values: { ':active': 'active' },
  });
}

/**
 * The friend's address erased from the referral (`email` and `canonical_email` removed), once: only while
 * it is this referral and still holds an address.
 */
export function eraseFriendAddress(shopId: string, ref: FriendReferralRef, at: string): Write {
  return friendReferralItemType.update("erase the friend's address", friendReferralKey(shopId, ref.referrer_id, ref.referral_sk), {
    remove: ['email', 'canonical_email'],
    setIfAbsent: { email_redacted_at: at },
    condition: 'id = :id AND (attribute_exists(email) OR attribute_exists(canonical_email))',
    values: { ':id': ref.referral_id },
  });
}

/** A mailbox guard of an earlier layout, keyed by the address itself, deleted (the friend's erasure). */
export const dropLegacyMailboxGuard = (shopId: string, legacyGuardKey: string): Write =>
  friendMailboxGuard.delete('drop the legacy mailbox guard', friendEmailKey(shopId, legacyGuardKey));

/** The referral's `referral.created` event deleted: it holds the friend's address until its TTL. */
export const forgetReferralCreatedEvent = (shopId: string, referralId: string): Write =>
  forgetEvent(shopId, referralCreatedEventId(referralId));

/** The shop's key of the mailbox hashes, written once: concurrent first referrals agree on one key. */
export const storeFriendEmailHashKey = (shopId: string, key: Buffer): Write =>
  friendEmailHashKeyItem.put(
    "store the shop's mailbox hash key",
    friendEmailHashKeyKey(shopId),
    { [FRIEND_EMAIL_HASH_KEY]: key.toString('base64') },
    { ifNew: true },
  );
