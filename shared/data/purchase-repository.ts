// The purchase saga's writes: reserve (deduct + pending entry), activate, refund, and the unsettled
// purchases the reconciler reads; and the undoing of an active redemption (its points back). Every state change is conditional on the entry still being in the
// state the writer saw, so two writers (request and reconciler, or two reconcilers) never both act.
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { EarningEntry, PurchaseRecord, RewardEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { cancellationReasons, cancelledItem, isConditionalCheckFailed, isTransactionConflict } from './dynamodb-errors';
import type { DueAttributes } from './items/due';
import { customerKey, profileDueUpdate, storedCustomerOf, type StoredCustomer } from './items/customer-profile';
import { earningEntryItem } from './items/earning-entry';
import { type Item, queryAll } from './items';
import { redemptionCountKey, redemptionGivenBack } from './items/redemption-count';
import { rewardDue, rewardEntryItem, rewardEntryKey, UNSETTLED_PURCHASES, unsettledAttributes } from './items/reward-entry';
import { GLOBAL_INDEXES } from './table';
import { memberProfilePut } from './transactions';
import { retryUntil } from '../runtime/retry';

/** `superseded`: the request's Idempotency-Key claim was taken over by a retry; nothing was written. */
export type ReserveOutcome = 'reserved' | 'refused_by_customer' | 'redemption_limit' | 'conflict' | 'superseded';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type TransactItem = TransactItems[number];

/** `:duePk` and `:dueAt` for an update expression. */
const prefixed = (due: DueAttributes) => ({ ':duePk': due.due_pk, ':dueAt': due.due_at });

/** What a reservation assumes of the balance it deducts from: some points are left, none are, or either (no inactivity work). */
type Balance = 'points-left' | 'spends-all' | 'any';

/**
 * Deducts the points and writes the pending entry in one transaction, conditional on the customer
 * being a member with enough points (and, with a limit, on the redemption count being under it).
 * `checkpoint` (an Idempotency-Key's progress record) commits with it, or nothing does.
 *
 * Spending is activity: with inactivity expiry (`inactivityDeadline`) a new period starts, and the profile's
 * due work is what `profileDue` derives for it, which depends on the balance left. The deduction is written
 * assuming points are left (conditional on it); when DynamoDB answers that the member spends exactly the
 * whole balance, it is written again for an empty balance (nothing due), conditional on that.
 */
export async function reservePurchase(
  purchase: PurchaseRecord,
  maxRedemptions: number | null,
  inactivityDeadline: string | null = null,
  checkpoint?: TransactItem,
): Promise<ReserveOutcome> {
  // Without inactivity expiry nothing is due on the profile whatever the balance left: one write.
  const outcome = await reserveOnce(
    purchase,
    maxRedemptions,
    inactivityDeadline,
    checkpoint,
    inactivityDeadline ? 'points-left' : 'any',
    purchase.id,
  );
  if (outcome !== 'spends-all') return outcome;
  // A new token: this is another write than the one refused (the SDK's own retries of it share it).
  const again = await reserveOnce(purchase, maxRedemptions, inactivityDeadline, checkpoint, 'spends-all', randomUUID());
  return again === 'spends-all' ? 'refused_by_customer' : again;
}

async function reserveOnce(
  purchase: PurchaseRecord,
  maxRedemptions: number | null,
  inactivityDeadline: string | null,
  checkpoint: TransactItem | undefined,
  balance: Balance,
  token: string,
): Promise<ReserveOutcome | 'spends-all'> {
  const { shop_id: shopId, customer_id: customerId, points_spent: points } = purchase;
  // The profile after the deduction as far as its due work goes: a member in a new period, not reminded yet.
  const due = profileDueUpdate({
    shop_id: shopId,
    platform_customer_id: customerId,
    status: 'member',
    current_points: balance === 'spends-all' ? 0 : points,
    points_expire_at: inactivityDeadline,
    points_expiry_reminded_for: null,
  });
  const enough = { 'points-left': 'current_points > :points', 'spends-all': 'current_points = :points', any: 'current_points >= :points' }[
    balance
  ];
  const transactItems: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: customerKey(shopId, customerId),
        UpdateExpression:
          'SET current_points = current_points - :points, redeemed_points = redeemed_points + :points, #version = #version + :one, ' +
          `updated_at = :now, points_last_activity_at = :now, points_expire_at = :deadline${due.set ? `, ${due.set}` : ''}` +
          (due.remove ? ` REMOVE ${due.remove}` : ''),
        ConditionExpression: `#status = :member AND ${enough}`,
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
        ExpressionAttributeValues: {
          ':points': points,
          ':one': 1,
          ':now': purchase.created_at,
          ':member': 'member',
          ':deadline': inactivityDeadline,
          ...due.values,
        },
        // The profile comes back with a refusal: whether the member spends exactly the whole balance.
        ...(balance === 'points-left' ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
      },
    },
    {
      Put: {
        TableName: tableName(),
        Item: { ...rewardEntryItem(shopId, customerId, purchase as RewardEntry), ...unsettledAttributes(purchase.created_at) },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  if (maxRedemptions !== null) {
    transactItems.push({
      Update: {
        TableName: tableName(),
        Key: redemptionCountKey(shopId, customerId, purchase.reward_id),
        UpdateExpression: 'ADD #count :one',
        ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
        ExpressionAttributeNames: { '#count': 'redemptions' },
        ExpressionAttributeValues: { ':one': 1, ':max': maxRedemptions },
      },
    });
  }
  if (checkpoint) transactItems.push(checkpoint);
  try {
    // Idempotent under the SDK's own retries (see writePointsChange): one token per purchase attempt.
    await documentClient().send(new TransactWriteCommand({ ClientRequestToken: token, TransactItems: transactItems }));
    return 'reserved';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) {
      if (isTransactionConflict(error)) return 'conflict';
      throw error;
    }
    if (checkpoint && reasons[transactItems.length - 1] === 'ConditionalCheckFailed') return 'superseded';
    if (reasons[0] === 'ConditionalCheckFailed') {
      const profile = balance === 'points-left' ? cancelledItem(error, 0) : null;
      return profile?.status === 'member' && profile.current_points === points ? 'spends-all' : 'refused_by_customer';
    }
    if (maxRedemptions !== null && reasons[2] === 'ConditionalCheckFailed') return 'redemption_limit';
    if (reasons.includes('TransactionConflict')) return 'conflict';
    throw error;
  }
}

/** A purchase as stored, whatever its status (a consistent read): for resuming one a stopped invocation left. */
export async function getPurchase(shopId: string, customerId: string, id: string): Promise<PurchaseRecord | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: rewardEntryKey(shopId, customerId, id), ConsistentRead: true }),
  );
  return (result.Item as PurchaseRecord | undefined) ?? null;
}

/** pending -> active with the platform's discount id; false when someone else settled it first. */
export async function activatePurchase(purchase: PurchaseRecord, platformDiscountId: string, now: string): Promise<boolean> {
  // An active code with an end date waits in the due-work index for the code-expiry job.
  const due = rewardDue(purchase.shop_id, { ...purchase, status: 'active' });
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rewardEntryKey(purchase.shop_id, purchase.customer_id, purchase.id),
        UpdateExpression:
          `SET #status = :active, platform_discount_id = :discountId, updated_at = :now${due ? ', due_pk = :duePk, due_at = :dueAt' : ''} ` +
          'REMOVE unsettled_pk, unsettled_since',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':active': 'active',
          ':pending': 'pending',
          ':discountId': platformDiscountId,
          ':now': now,
          ...(due ? prefixed(due) : {}),
        },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/**
 * pending -> refunded, giving the points back (and the redemption count) in the same transaction.
 * With `codeMayExist` the entry stays in the reconciler's index until the code is known to be gone.
 * False when the entry was no longer pending (already settled by someone else).
 */
export async function refundPurchase(purchase: PurchaseRecord, reason: string, codeMayExist: boolean, now: string): Promise<boolean> {
  const { shop_id: shopId, customer_id: customerId } = purchase;
  const transactItems: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: rewardEntryKey(shopId, customerId, purchase.id),
        UpdateExpression: codeMayExist
          ? 'SET #status = :refunded, is_refunded = :true, refund_reason = :reason, updated_at = :now, code_cleanup = :true, unsettled_since = :now'
          : 'SET #status = :refunded, is_refunded = :true, refund_reason = :reason, updated_at = :now REMOVE unsettled_pk, unsettled_since',
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':refunded': 'refunded', ':pending': 'pending', ':true': true, ':reason': reason, ':now': now },
      },
    },
    profileRefund(purchase, now, null),
  ];
  if (purchase.counted) transactItems.push(redemptionGivenBack(tableName(), shopId, customerId, purchase.reward_id));
  let lastConflict: unknown;
  const refunded = await retryUntil(REFUND_ATTEMPTS, REFUND_BACKOFF, async (): Promise<boolean | undefined> => {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: transactItems }));
      return true;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons?.[0] === 'ConditionalCheckFailed') return false;
      if (reasons?.[1] === 'ConditionalCheckFailed') {
        // The points come back to a member whose deadline is not in the due work (it had no points left):
        // write it back in, derived from the profile DynamoDB answered with.
        transactItems[1] = profileRefund(purchase, now, cancelledItem(error, 1));
        lastConflict = error;
        return undefined;
      }
      // A refund must not be lost to a transient conflict with another write of the same customer.
      if (!isTransactionConflict(error)) throw error;
      lastConflict = error;
      return undefined;
    }
  });
  if (refunded === undefined) throw lastConflict;
  return refunded;
}

/**
 * The refund's write of the profile: the points and the redemption go back. Nothing due changes while the
 * profile is in the due work already, has no inactivity deadline, or is no member (the first write, `read`
 * null, is conditional on that and answers the profile when refused). Otherwise the profile spent its whole
 * balance, and what `profileDue` derives for it with the points back is written too, conditional on the
 * fields it was derived from.
 */
function profileRefund(purchase: PurchaseRecord, now: string, read: Item | null): TransactItem {
  const { shop_id: shopId, customer_id: customerId, points_spent: points } = purchase;
  const set =
    'SET current_points = current_points + :points, redeemed_points = redeemed_points - :points, #version = #version + :one, updated_at = :now';
  const base = {
    TableName: tableName(),
    Key: customerKey(shopId, customerId),
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const values = { ':points': points, ':one': 1, ':now': now, ':member': 'member' };
  if (!read) {
    return {
      Update: {
        ...base,
        UpdateExpression: set,
        ConditionExpression:
          'attribute_exists(due_pk) OR attribute_not_exists(points_expire_at) OR attribute_type(points_expire_at, :null) OR #status <> :member',
        ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
        ExpressionAttributeValues: { ...values, ':null': 'NULL' },
      },
    };
  }
  const { record } = storedCustomerOf(read);
  const due = profileDueUpdate({ ...record, current_points: record.current_points + points });
  const reminded = record.points_expiry_reminded_for ?? null;
  return {
    Update: {
      ...base,
      UpdateExpression: `${set}${due.set ? `, ${due.set}` : ''}${due.remove ? ` REMOVE ${due.remove}` : ''}`,
      ConditionExpression:
        'attribute_not_exists(due_pk) AND #status = :member AND points_expire_at = :deadline AND ' +
        (reminded === null
          ? '(attribute_not_exists(points_expiry_reminded_for) OR attribute_type(points_expiry_reminded_for, :null))'
          : 'points_expiry_reminded_for = :reminded'),
      ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
      ExpressionAttributeValues: {
        ...values,
        ':deadline': record.points_expire_at ?? null,
        ...(reminded === null ? { ':null': 'NULL' } : { ':reminded': reminded }),
        ...due.values,
      },
    },
  };
}

const REFUND_ATTEMPTS = 22;
const REFUND_BACKOFF = { baseMs: 5, capMs: 200 };

/** The code of a refunded purchase is confirmed gone from the platform: leave the reconciler's index. */
export async function markCodeCleaned(purchase: PurchaseRecord, now: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: rewardEntryKey(purchase.shop_id, purchase.customer_id, purchase.id),
        UpdateExpression: 'SET code_cleanup = :false, updated_at = :now REMOVE unsettled_pk, unsettled_since',
        ConditionExpression: '#status = :refunded AND code_cleanup = :true',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':refunded': 'refunded', ':true': true, ':false': false, ':now': now },
      }),
    );
    return true;
  } catch (error) {
    if (isConditionalCheckFailed(error)) return false;
    throw error;
  }
}

/** Unsettled purchases older than `before` (ISO), oldest first, across all shops. */
export async function listUnsettledPurchases(before: string, limit = 500): Promise<PurchaseRecord[]> {
  const items: Item[] = await queryAll(
    {
      IndexName: GLOBAL_INDEXES.unsettledPurchases.indexName,
      KeyConditionExpression: 'unsettled_pk = :pk AND unsettled_since < :before',
      ExpressionAttributeValues: { ':pk': UNSETTLED_PURCHASES, ':before': before },
    },
    limit,
  );
  return items as unknown as PurchaseRecord[];
}

export interface RedemptionRefundWrite {
  /** The profile as read, and its figures with the points back. */
  customer: StoredCustomer;
  next: CustomerRecord;
  /** The active entry being refunded, as read. */
  purchase: PurchaseRecord;
  /** The approved `reward_refund` entry that gives the points back. */
  entry: EarningEntry;
  now: string;
  /** An Idempotency-Key's progress record: commits with the refund, or nothing does. */
  checkpoint?: TransactItem;
}

/**
 * `entry_changed`: the reward entry is no longer active and unrefunded (used, expired or refunded by another
 * writer), with the entry as it is now; `conflict`: the profile changed since it was read, or another
 * transaction held one of the items (read again and retry); `superseded`: the Idempotency-Key's claim was
 * taken over by a retry. Nothing is written in any of these.
 */
export type RedemptionRefundOutcome =
  | { outcome: 'refunded' }
  | { outcome: 'entry_changed'; current: PurchaseRecord | null }
  | { outcome: 'conflict' }
  | { outcome: 'superseded' };

/**
 * Undoes an active, unused redemption in one transaction: the entry's `is_refunded` (its status stays, and it
 * leaves the code-expiry job's due work), the profile's figures with the points back (conditional on the
 * version read), the approved entry that gives them back, and the redemption count. The entry's condition is
 * the one the order that uses its code writes under (`#status = active`, never refunded): of the two, only
 * one commits.
 */
export async function writeRedemptionRefund(write: RedemptionRefundWrite): Promise<RedemptionRefundOutcome> {
  const { purchase, customer, next, now } = write;
  // The member's ids from the profile: an entry loaded from a configuration file does not carry them.
  const { shop_id: shopId, platform_customer_id: customerId } = next;
  const transactItems: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: rewardEntryKey(shopId, customerId, purchase.id),
        UpdateExpression: 'SET is_refunded = :true, refund_reason = :reason, updated_at = :now REMOVE due_pk, due_at',
        ConditionExpression: '#status = :active AND (attribute_not_exists(is_refunded) OR is_refunded = :false)',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':active': 'active', ':true': true, ':false': false, ':reason': 'refunded_by_request', ':now': now },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    },
    memberProfilePut(customer, next),
    {
      Put: {
        TableName: tableName(),
        Item: earningEntryItem(shopId, customerId, write.entry),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
  ];
  if (purchase.counted) transactItems.push(redemptionGivenBack(tableName(), shopId, customerId, purchase.reward_id));
  if (write.checkpoint) transactItems.push(write.checkpoint);
  try {
    await documentClient().send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: transactItems }));
    return { outcome: 'refunded' };
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) {
      if (isTransactionConflict(error)) return { outcome: 'conflict' };
      throw error;
    }
    if (reasons[0] === 'ConditionalCheckFailed') {
      const old = cancelledItem(error, 0);
      return { outcome: 'entry_changed', current: old ? (old as unknown as PurchaseRecord) : null };
    }
    if (write.checkpoint && reasons[transactItems.length - 1] === 'ConditionalCheckFailed') return { outcome: 'superseded' };
    if (reasons.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) return { outcome: 'conflict' };
    throw error;
  }
}
