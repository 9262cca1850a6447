// The referred friends (POST /v1/referrals, GET /v1/customers/{identifier}/referrals). A referral is
// written in one transaction before its code exists on the platform: the mailbox guard (one referral per
// mailbox and shop), the referrer's counter for the UTC day (only while under the cap), the referral in
// `issuing` and the guard that finds it by its code. Concurrent requests for one mailbox, or past the cap,
// are refused by those conditions, never by a read before the write. Once the code exists the referral
// becomes `active`; a code that could not be created takes the whole write back. The mailbox guard is keyed
// by the mailbox's keyed hash under the shop's key (one item in the shop's partition, read once per warm
// function), so the friend's address lives only in the referral item, which customers/redact clears.
import { randomBytes, randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { FriendReferral } from '../domain/referral';
import { documentClient, tableName } from './client';
import { cancellationReasons, isConditionalCheckFailed, isTransactionConflict, writtenUnlessRefused } from './dynamodb-errors';
import { countAll, queryAll } from './items';
import { customerPk } from './items/customer-profile';
import {
  FRIEND_COUNT,
  FRIEND_EMAIL_HASH_KEY,
  FRIEND_REFERRAL_PREFIX,
  friendCodeItem,
  friendCodeKey,
  friendCountKey,
  friendCountTtl,
  friendEmailHashKeyKey,
  friendEmailItem,
  friendEmailKey,
  friendReferralItem,
  friendReferralKey,
  friendReferralOf,
  type FriendReferralRef,
  refOf,
} from './items/friend-referral';
import { TTL_ATTRIBUTE } from './table';
import type { TransactItem } from './transactions';

export type { FriendReferralRef } from './items/friend-referral';

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
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...friendEmailHashKeyKey(shopId), [FRIEND_EMAIL_HASH_KEY]: fresh.toString('base64') },
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
    return fresh;
  } catch (error) {
    if (!isConditionalCheckFailed(error)) throw error;
    const written = await read(true);
    if (!written) throw new Error(`The mailbox hash key of shop ${shopId} could not be read`);
    return written;
  }
}

/** The sort key of a referral in its referrer's partition. */
export const referralSortKey = (referral: FriendReferral): string => refOf(referral).referral_sk;

export interface FriendReferralWrite {
  referral: FriendReferral;
  /** The referrer's UTC day (`YYYY-MM-DD`) and the most friends it may hold. */
  day: string;
  maxPerDay: number;
  /** Recorded on the request's Idempotency-Key claim in the same transaction. */
  checkpoint?: TransactItem;
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
  const items: TransactItem[] = [
    { Put: { TableName: tableName(), Item: friendEmailItem(referral), ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      Update: {
        TableName: tableName(),
        Key: friendCountKey(referral.shop_id, referral.referrer_platform_customer_id, day),
        UpdateExpression: 'ADD #count :one SET #ttl = :ttl',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
        ExpressionAttributeNames: { '#count': FRIEND_COUNT, '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':one': 1, ':max': maxPerDay, ':ttl': friendCountTtl(day) },
      },
    },
    { Put: { TableName: tableName(), Item: friendReferralItem(referral), ConditionExpression: 'attribute_not_exists(pk)' } },
    { Put: { TableName: tableName(), Item: friendCodeItem(referral), ConditionExpression: 'attribute_not_exists(pk)' } },
    ...(checkpoint ? [checkpoint] : []),
  ];
  try {
    // One token per attempt: the SDK's retry of a call whose answer was lost is then a no-op, not a refusal.
    await documentClient().send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: items }));
    return 'written';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons?.[2] === 'ConditionalCheckFailed') return 'already_written';
    if (checkpoint && reasons?.[4] === 'ConditionalCheckFailed') return 'superseded';
    if (reasons?.[0] === 'ConditionalCheckFailed') return 'already_referred';
    if (reasons?.[1] === 'ConditionalCheckFailed') return 'cap_reached';
    if (isTransactionConflict(error)) return 'conflict';
    throw error;
  }
}

/** The referral's code exists on the platform: `issuing` becomes `active`. False when it is not `issuing`. */
export async function activateFriendReferral(referral: FriendReferral, platformDiscountId: string): Promise<boolean> {
  const ref = refOf(referral);
  return writtenUnlessRefused(
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: friendReferralKey(referral.shop_id, ref.referrer_id, ref.referral_sk),
        UpdateExpression: 'SET #status = :active, platform_discount_id = :id',
        ConditionExpression: '#status = :issuing',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'active', ':issuing': 'issuing', ':id': platformDiscountId },
      }),
    ),
  );
}

/**
 * Takes back a referral whose code could not be created (still `issuing`): the referral, both guards and
 * its place in the day's count, in one transaction. False when it is no longer `issuing`.
 */
export async function cancelFriendReferral(referral: FriendReferral, day: string): Promise<boolean> {
  const ref = refOf(referral);
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Delete: {
              TableName: tableName(),
              Key: friendReferralKey(referral.shop_id, ref.referrer_id, ref.referral_sk),
              ConditionExpression: '#status = :issuing',
              ExpressionAttributeNames: { '#status': 'status' },
              ExpressionAttributeValues: { ':issuing': 'issuing' },
            },
          },
          {
            Delete: {
              TableName: tableName(),
              Key: friendEmailKey(referral.shop_id, referral.email_key),
              ConditionExpression: 'referral_id = :id',
              ExpressionAttributeValues: { ':id': referral.id },
            },
          },
          {
            Delete: {
              TableName: tableName(),
              Key: friendCodeKey(referral.shop_id, referral.discount_code),
              ConditionExpression: 'referral_id = :id',
              ExpressionAttributeValues: { ':id': referral.id },
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: friendCountKey(referral.shop_id, ref.referrer_id, day),
              UpdateExpression: 'ADD #count :minus',
              ConditionExpression: '#count > :zero',
              ExpressionAttributeNames: { '#count': FRIEND_COUNT },
              ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
            },
          },
        ],
      }),
    );
    return true;
  } catch (error) {
    if (cancellationReasons(error)?.includes('ConditionalCheckFailed')) return false;
    throw error;
  }
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
  if (legacyGuardKey !== undefined) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: friendEmailKey(shopId, legacyGuardKey) }));
  }
  return writtenUnlessRefused(
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: friendReferralKey(shopId, ref.referrer_id, ref.referral_sk),
        UpdateExpression: 'REMOVE email, canonical_email SET email_redacted_at = if_not_exists(email_redacted_at, :at)',
        ConditionExpression: 'id = :id AND (attribute_exists(email) OR attribute_exists(canonical_email))',
        ExpressionAttributeValues: { ':id': ref.referral_id, ':at': at },
      }),
    ),
  );
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
  return writtenUnlessRefused(
    documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: friendReferralKey(shopId, ref.referrer_id, ref.referral_sk),
        UpdateExpression: 'SET #status = :completed, completed_at = :at, friend_platform_customer_id = :friend, order_id = :order',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':completed': 'completed',
          ':active': 'active',
          ':at': completion.at,
          ':friend': completion.friendId,
          ':order': completion.orderId,
        },
      }),
    ),
  );
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
