// The purchase saga's writes: reserve (deduct + pending entry), activate, refund, and the unsettled
// purchases the reconciler reads. Every state change is conditional on the entry still being in the
// state the writer saw, so two writers (request and reconciler, or two reconcilers) never both act.
import { GetCommand, TransactWriteCommand, UpdateCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { PurchaseRecord, RewardEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { cancellationReasons, isConditionalCheckFailed, isTransactionConflict } from './dynamodb-errors';
import { type DueAttributes, dueAttributes } from './items/due';
import { customerKey } from './items/customer-profile';
import { type Item, queryAll } from './items';
import { redemptionCountKey } from './items/redemption-count';
import { rewardDue, rewardEntryItem, rewardEntryKey, UNSETTLED_PURCHASES, unsettledAttributes } from './items/reward-entry';
import { GLOBAL_INDEXES } from './table';
import { retryUntil } from '../runtime/retry';

/** `superseded`: the request's Idempotency-Key claim was taken over by a retry; nothing was written. */
export type ReserveOutcome = 'reserved' | 'refused_by_customer' | 'redemption_limit' | 'conflict' | 'superseded';

type TransactItems = NonNullable<TransactWriteCommandInput['TransactItems']>;
export type TransactItem = TransactItems[number];

/** `:duePk` and `:dueAt` for an update expression. */
const prefixed = (due: DueAttributes) => ({ ':duePk': due.due_pk, ':dueAt': due.due_at });

/**
 * Deducts the points and writes the pending entry in one transaction, conditional on the customer
 * being a member with enough points (and, with a limit, on the redemption count being under it).
 * `checkpoint` (an Idempotency-Key's progress record) commits with it, or nothing does.
 */
export async function reservePurchase(
  purchase: PurchaseRecord,
  maxRedemptions: number | null,
  inactivityDeadline: string | null = null,
  checkpoint?: TransactItem,
): Promise<ReserveOutcome> {
  const { shop_id: shopId, customer_id: customerId, points_spent: points } = purchase;
  // Spending is activity: with inactivity expiry a new period starts, waiting for its reminder first.
  const activity = inactivityDeadline
    ? {
        expression: ', points_last_activity_at = :now, points_expire_at = :deadline, due_pk = :duePk, due_at = :dueAt',
        values: {
          ':deadline': inactivityDeadline,
          ...prefixed(dueAttributes(shopId, 'inactivity-remind', inactivityDeadline, customerId)),
        },
      }
    : { expression: ', points_last_activity_at = :now, points_expire_at = :none REMOVE due_pk, due_at', values: { ':none': null } };
  const transactItems: TransactItems = [
    {
      Update: {
        TableName: tableName(),
        Key: customerKey(shopId, customerId),
        UpdateExpression:
          'SET current_points = current_points - :points, redeemed_points = redeemed_points + :points, #version = #version + :one, updated_at = :now' +
          activity.expression,
        ConditionExpression: '#status = :member AND current_points >= :points',
        ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
        ExpressionAttributeValues: { ':points': points, ':one': 1, ':now': purchase.created_at, ':member': 'member', ...activity.values },
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
    await documentClient().send(new TransactWriteCommand({ ClientRequestToken: purchase.id, TransactItems: transactItems }));
    return 'reserved';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (!reasons) {
      if (isTransactionConflict(error)) return 'conflict';
      throw error;
    }
    if (checkpoint && reasons[transactItems.length - 1] === 'ConditionalCheckFailed') return 'superseded';
    if (reasons[0] === 'ConditionalCheckFailed') return 'refused_by_customer';
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
  const { shop_id: shopId, customer_id: customerId, points_spent: points } = purchase;
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
    {
      Update: {
        TableName: tableName(),
        Key: customerKey(shopId, customerId),
        UpdateExpression:
          'SET current_points = current_points + :points, redeemed_points = redeemed_points - :points, #version = #version + :one, updated_at = :now',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':points': points, ':one': 1, ':now': now },
      },
    },
  ];
  if (purchase.counted) {
    transactItems.push({
      Update: {
        TableName: tableName(),
        Key: redemptionCountKey(shopId, customerId, purchase.reward_id),
        UpdateExpression: 'ADD #count :minus',
        ExpressionAttributeNames: { '#count': 'redemptions' },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    });
  }
  let lastConflict: unknown;
  const refunded = await retryUntil(REFUND_ATTEMPTS, REFUND_BACKOFF, async (): Promise<boolean | undefined> => {
    try {
      await documentClient().send(new TransactWriteCommand({ TransactItems: transactItems }));
      return true;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons?.[0] === 'ConditionalCheckFailed') return false;
      // A refund must not be lost to a transient conflict with another write of the same customer.
      if (!isTransactionConflict(error)) throw error;
      lastConflict = error;
      return undefined;
    }
  });
  if (refunded === undefined) throw lastConflict;
  return refunded;
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
