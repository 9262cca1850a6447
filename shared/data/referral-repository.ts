// The referred friends (POST /v1/referrals, GET /v1/customers/{identifier}/referrals). A referral is
// written in one transaction before its code exists on the platform: the mailbox guard (one referral per
// mailbox and shop), the referrer's counter for the UTC day (only while under the cap), the referral in
// `issuing` and the guard that finds it by its code. Concurrent requests for one mailbox, or past the cap,
// are refused by those conditions, never by a read before the write. Once the code exists the referral
// becomes `active`; a code that could not be created takes the whole write back. The mailbox guard is keyed
// by the mailbox's keyed hash under the shop's key (one item in the shop's partition, read once per warm
// function), so the friend's address lives only in the referral item, which customers/redact clears.
import { randomBytes } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent } from '../domain/events';
import type { FriendReferral } from '../domain/referral';
import { documentClient, tableName } from './client';
import { commit, commitOne, type Write } from './commit';
import { countAll, queryAll } from './item-reads';
import { customerPk } from './items/customer-profile';
import {
  activateFriendReferralWrite,
  completeFriendReferralWrite,
  countFriendOfDay,
  dropLegacyMailboxGuard,
  eraseFriendAddress,
  forgetReferralCreatedEvent,
  FRIEND_EMAIL_HASH_KEY,
  FRIEND_REFERRAL_PREFIX,
  friendCodeKey,
  friendEmailHashKeyKey,
  friendEmailKey,
  friendReferralKey,
  friendReferralOf,
  type FriendReferralRef,
  guardFriendCode,
  guardFriendMailbox,
  recordFriendReferral,
  refOf,
  releaseFriendGuard,
  storeFriendEmailHashKey,
  uncountFriendOfDay,
  withdrawIssuingReferral,
} from './items/friend-referral';

const hashKeys = new Map<string, Promise<Buffer>>();

/**
 * The shop's key of the mailbox hashes: read once per warm function, written on the shop's first referral
 * (a conditional Put, so concurrent first referrals agree on one key). With `create` false, null for a shop
 * that has none yet (it never referred a friend), and nothing is written.
 */
export function friendEmailHashKey(shopId: string): Promise<Buffer>;
export function friendEmailHashKey(shopId: string, create: false): Promise<Buffer | null>;
export async function friendEmailHashKey(shopId: string, create = true): Promise<Buffer | null> {
  const cached = hashKeys.get(shopId);
  if (cached) return cached;
  if (!create) {
    const found = await readHashKey(shopId, false);
    if (found) hashKeys.set(shopId, Promise.resolve(found));
    return found;
  }
  const key = readOrCreateHashKey(shopId);
  hashKeys.set(shopId, key);
  key.catch(() => hashKeys.delete(shopId));
  return key;
}

/** Forgets the cached keys (the shop was erased). */
export function clearFriendEmailHashKeys(): void {
  hashKeys.clear();
}

async function readHashKey(shopId: string, consistent: boolean): Promise<Buffer | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: friendEmailHashKeyKey(shopId), ConsistentRead: consistent }),
  );
  const value = result.Item?.[FRIEND_EMAIL_HASH_KEY];
  return typeof value === 'string' ? Buffer.from(value, 'base64') : null;
}

async function readOrCreateHashKey(shopId: string): Promise<Buffer> {
  const read = (consistent: boolean) => readHashKey(shopId, consistent);
  const found = await read(false);
  if (found) return found;
  const fresh = randomBytes(32);
  if ((await commitOne(storeFriendEmailHashKey(shopId, fresh))).committed) return fresh;
  const written = await read(true);
  if (!written) throw new Error(`The mailbox hash key of shop ${shopId} could not be read`);
  return written;
}

/** The sort key of a referral in its referrer's partition. */
export const referralSortKey = (referral: FriendReferral): string => refOf(referral).referral_sk;

export interface FriendReferralWrite {
  referral: FriendReferral;
  /** The referrer's UTC day (`YYYY-MM-DD`) and the most friends it may hold. */
  day: string;
  maxPerDay: number;
  /** Recorded on the request's Idempotency-Key claim in the same transaction. */
  checkpoint?: Write;
}

export type FriendReferralWriteOutcome =
  | 'written'
  /** The mailbox was referred before in this shop. */
  | 'already_referred'
  /** The referrer has referred `maxPerDay` friends this UTC day. */
  | 'cap_reached'
  /** This very referral exists (a retry of the same request). */
  | 'already_written'
  /** The request's Idempotency-Key claim was taken over by a retry: nothing written. */
  | 'superseded'
  | 'conflict';

export async function writeFriendReferral(write: FriendReferralWrite): Promise<FriendReferralWriteOutcome> {
  const { referral, day, maxPerDay, checkpoint } = write;
  const mailbox = guardFriendMailbox(referral);
  const count = countFriendOfDay(referral, day, maxPerDay);
  const record = recordFriendReferral(referral);
  // One token per attempt (commit's own): the SDK's retry of a call whose answer was lost is then a no-op, not a refusal.
  const outcome = await commit([mailbox, count, record, guardFriendCode(referral), ...(checkpoint ? [checkpoint] : [])]);
  if (outcome.committed) return 'written';
  const { refusal } = outcome;
  if (refusal.kind === 'conflict') return 'conflict';
  if (refusal.failed.includes(record.name)) return 'already_written';
  if (checkpoint && refusal.failed.includes(checkpoint.name)) return 'superseded';
  if (refusal.failed.includes(mailbox.name)) return 'already_referred';
  if (refusal.failed.includes(count.name)) return 'cap_reached';
  throw new Error(`A referral was refused by '${refusal.failed.join("', '")}'`);
}

/**
 * The referral's code exists on the platform: `issuing` becomes `active`. False when it is not `issuing`.
 * `events` (its `referral.created`) commit with the activation, or not at all.
 */
export async function activateFriendReferral(
  referral: FriendReferral,
  platformDiscountId: string,
  events: readonly DomainEvent[] = [],
): Promise<boolean> {
  const activation = activateFriendReferralWrite(referral, platformDiscountId);
  if (events.length === 0) return (await commitOne(activation)).committed;
  const outcome = await commit([activation], { events });
  if (outcome.committed) return true;
  if (outcome.refusal.kind === 'condition' && outcome.refusal.failed.includes(activation.name)) return false;
  throw new Error(`The activation of referral ${referral.id} was held by another write`);
}

/**
 * Takes back a referral whose code could not be created (still `issuing`): the referral, both guards and
 * its place in the day's count, in one transaction. False when it is no longer `issuing`.
 */
export async function cancelFriendReferral(referral: FriendReferral, day: string): Promise<boolean> {
  const outcome = await commit([
    withdrawIssuingReferral(referral),
    releaseFriendGuard(referral, 'mailbox'),
    releaseFriendGuard(referral, 'code'),
    uncountFriendOfDay(referral, day),
  ]);
  if (outcome.committed) return true;
  if (outcome.refusal.kind === 'condition') return false;
  throw new Error(`The referral ${referral.id} could not be taken back: another write held one of its items`);
}

export async function getFriendReferral(shopId: string, referrerId: string, referralSk: string): Promise<FriendReferral | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: friendReferralKey(shopId, referrerId, referralSk), ConsistentRead: true }),
  );
  return result.Item ? friendReferralOf(result.Item) : null;
}

/** The referral a friend's discount code belongs to, or null for any other code. */
export async function findFriendReferralByCode(
  shopId: string,
  discountCode: string,
): Promise<(FriendReferralRef & { referral_code: string }) | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: friendCodeKey(shopId, discountCode) }));
  const item = result.Item;
  if (!item) return null;
  return {
    referrer_id: String(item.referrer_id),
    referral_sk: String(item.referral_sk),
    referral_id: String(item.referral_id),
    referral_code: String(item.referral_code),
  };
}

/** The referral of a mailbox in this shop (by its keyed hash), or null. */
export async function findFriendReferralByEmail(
  shopId: string,
  emailKey: string,
  consistent = false,
): Promise<(FriendReferralRef & { referral_code: string | null }) | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: friendEmailKey(shopId, emailKey), ConsistentRead: consistent }),
  );
  const item = result.Item;
  if (!item) return null;
  return {
    referrer_id: String(item.referrer_id),
    referral_sk: String(item.referral_sk),
    referral_id: String(item.referral_id),
    referral_code: typeof item.referral_code === 'string' ? item.referral_code : null,
  };
}

/**
 * The friend's data erased (customers/redact): the referral keeps its code, dates and status for its
 * referrer, without the address (`email` and `canonical_email` removed). The mailbox guard, which holds a
 * keyed hash and no address, stays so that the mailbox is still referred once. A guard of an earlier
 * layout, keyed by the address itself (`legacyGuardKey`), is deleted. True when this call cleared the address
 * (false for a referral already cleared, so a redelivery changes nothing).
 */
export async function redactFriendReferral(shopId: string, ref: FriendReferralRef, at: string, legacyGuardKey?: string): Promise<boolean> {
  if (legacyGuardKey !== undefined) await commitOne(dropLegacyMailboxGuard(shopId, legacyGuardKey));
  // The referral's event, delivered within seconds of its commit, holds the address too until its TTL.
  await commitOne(forgetReferralCreatedEvent(shopId, ref.referral_id));
  return (await commitOne(eraseFriendAddress(shopId, ref, at))).committed;
}

/**
 * The friend's first paid order counted as referred by this referral: `completed`, once (a replay changes
 * nothing). False when there is no such active referral.
 */
export async function completeFriendReferral(
  shopId: string,
  ref: FriendReferralRef,
  completion: { friendId: string; orderId: string; at: string },
): Promise<boolean> {
  return (await commitOne(completeFriendReferralWrite(shopId, ref, completion))).committed;
}

/** One page of a referrer's referrals, newest first, and how many there are (`issuing` ones are not shown). */
export async function listFriendReferrals(
  shopId: string,
  referrerId: string,
  offset: number,
  limit: number,
): Promise<{ referrals: FriendReferral[]; total: number }> {
  const input = {
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: '#status <> :issuing',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pk': customerPk(shopId, referrerId), ':prefix': FRIEND_REFERRAL_PREFIX, ':issuing': 'issuing' },
  };
  const page = () => queryAll({ ...input, ScanIndexForward: false }, offset + limit);
  if (offset === 0) {
    const [items, total] = await Promise.all([page(), countAll(input)]);
    return { referrals: items.map(friendReferralOf), total };
  }
  const total = await countAll(input);
  if (offset >= total) return { referrals: [], total };
  return { referrals: (await page()).slice(offset).map(friendReferralOf), total };
}
