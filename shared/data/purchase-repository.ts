// The purchase saga's writes: reserve (deduct + pending entry), activate, refund, and the unsettled
// purchases the reconciler reads; and the undoing of an active redemption (its points back). Every state change is conditional on the entry still being in the
// state the writer saw, so two writers (request and reconciler, or two reconcilers) never both act.
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { EarningEntry, PurchaseRecord } from '../domain/history';
import { documentClient, tableName } from './client';
import { commit, commitOne, type Write } from './commit';
import { type Item, queryAll } from './item-reads';
import { type StoredCustomer, writeMemberBalance } from './items/customer-profile';
import { recordEarningEntry } from './items/earning-entry';
import { type BalanceLeft, deductPoints, givePointsBack, spendsWholeBalance } from './items/purchase-points';
import { countRedemption, giveRedemptionBack } from './items/redemption-count';
import {
  activateRewardEntry,
  clearStoreCreditDebit,
  creditRewardEntry,
  recordStoreCreditSent,
  REWARD_ENTRY_PREFIX,
  startStoreCreditDebit,
  reissueRewardEntryCode,
  startRewardEntryRefund,
  leaveUnsettledPurchases,
  recordPendingPurchase,
  refundActiveRewardEntry,
  refundPendingPurchase,
  rewardEntryKey,
  UNSETTLED_PURCHASES,
} from './items/reward-entry';
import { GLOBAL_INDEXES } from './table';
import { retryUntil } from '../runtime/retry';

/** `superseded`: the request's Idempotency-Key claim was taken over by a retry; nothing was written. */
export type ReserveOutcome = 'reserved' | 'refused_by_customer' | 'redemption_limit' | 'conflict' | 'superseded';

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
  checkpoint?: Write,
): Promise<ReserveOutcome> {
  // Without inactivity expiry nothing is due on the profile whatever the balance left: one write.
  const outcome = await reserveOnce(
    purchase,
    maxRedemptions,
    inactivityDeadline,
    checkpoint,
    inactivityDeadline ? 'some' : 'any',
    purchase.id,
  );
  if (outcome !== 'spends-all') return outcome;
  // A new token: this is another write than the one refused (the SDK's own retries of it share it).
  const again = await reserveOnce(purchase, maxRedemptions, inactivityDeadline, checkpoint, 'none', randomUUID());
  return again === 'spends-all' ? 'refused_by_customer' : again;
}

async function reserveOnce(
  purchase: PurchaseRecord,
  maxRedemptions: number | null,
  inactivityDeadline: string | null,
  checkpoint: Write | undefined,
  left: BalanceLeft,
  token: string,
): Promise<ReserveOutcome | 'spends-all'> {
  const deduction = deductPoints(purchase, inactivityDeadline, left);
  const counting =
    maxRedemptions === null ? null : countRedemption(purchase.shop_id, purchase.customer_id, purchase.reward_id, maxRedemptions);
  const writes = [deduction, recordPendingPurchase(purchase), ...(counting ? [counting] : []), ...(checkpoint ? [checkpoint] : [])];
  // Idempotent under the SDK's own retries (see writePointsChange): one token per purchase attempt.
  const outcome = await commit(writes, { token });
  if (outcome.committed) return 'reserved';
  const { refusal } = outcome;
  if (refusal.kind === 'conflict') return 'conflict';
  if (checkpoint && refusal.failed.includes(checkpoint.name)) return 'superseded';
  if (refusal.failed.includes(deduction.name)) {
    return left === 'some' && spendsWholeBalance(purchase, refusal.current(deduction.name)) ? 'spends-all' : 'refused_by_customer';
  }
  if (counting && refusal.failed.includes(counting.name)) return 'redemption_limit';
  throw new Error(`A reservation was refused by '${refusal.failed.join("', '")}'`);
}

/** A purchase as stored, whatever its status (a consistent read): for resuming one a stopped invocation left. */
export async function getPurchase(shopId: string, customerId: string, id: string): Promise<PurchaseRecord | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: rewardEntryKey(shopId, customerId, id), ConsistentRead: true }),
  );
  return (result.Item as PurchaseRecord | undefined) ?? null;
}

/**
 * pending -> active with the platform's discount id; false when someone else settled it first. `events`
 * (the purchase's `reward.purchased`) commit with the activation, or not at all: with any, the activation is
 * a transaction instead of a single update.
 */
export async function activatePurchase(
  purchase: PurchaseRecord,
  platformDiscountId: string,
  now: string,
  events: readonly DomainEvent[] = [],
): Promise<boolean> {
  return settleWith(purchase, activateRewardEntry(purchase, platformDiscountId, now), events);
}

/**
 * pending -> used for a `store_credit` purchase whose credit was made (transaction `transactionId`); false when
 * someone else settled it first. `events` commit with it, as for an activation.
 */
export async function recordPurchaseCredit(
  purchase: PurchaseRecord,
  transactionId: string,
  now: string,
  events: readonly DomainEvent[] = [],
): Promise<boolean> {
  return settleWith(purchase, creditRewardEntry(purchase, transactionId, now), events);
}

/** Records that a `store_credit` purchase's credit is being sent; false when it is no longer pending or one was sent. */
export async function markStoreCreditSent(purchase: PurchaseRecord, sentAt: string): Promise<boolean> {
  return (await commitOne(recordStoreCreditSent(purchase, sentAt))).committed;
}

/** Records that an undo's debit is being sent; false when the entry is refunded or a debit was already sent. */
export async function markStoreCreditDebitSent(
  shopId: string,
  customerId: string,
  entry: PurchaseRecord,
  sentAt: string,
): Promise<boolean> {
  return (await commitOne(startStoreCreditDebit(shopId, customerId, entry, sentAt))).committed;
}

/** An undo's debit that was refused or never made: the entry is as before the undo; false when it changed meanwhile. */
export async function clearStoreCreditDebitSent(
  shopId: string,
  customerId: string,
  entry: PurchaseRecord,
  sentAt: string,
): Promise<boolean> {
  return (await commitOne(clearStoreCreditDebit(shopId, customerId, entry, sentAt))).committed;
}

/**
 * The store credit transactions the member's entries already account for (credits of their purchases, debits of
 * their undos): a transaction found on the platform is one purchase's own only if no other entry holds it.
 */
export async function claimedStoreCreditTransactions(shopId: string, customerId: string): Promise<Set<string>> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    FilterExpression: 'attribute_exists(store_credit_transaction_id)',
    ProjectionExpression: 'store_credit_transaction_id, store_credit_debit_transaction_id',
    ExpressionAttributeValues: { ':pk': rewardEntryKey(shopId, customerId, '').pk, ':prefix': REWARD_ENTRY_PREFIX },
  });
  const ids = items.flatMap((item) => [item.store_credit_transaction_id, item.store_credit_debit_transaction_id]);
  return new Set(ids.filter((id): id is string => typeof id === 'string'));
}

async function settleWith(purchase: PurchaseRecord, activation: Write, events: readonly DomainEvent[]): Promise<boolean> {
  if (events.length === 0) return (await commitOne(activation)).committed;
  // A transaction: another one holding the entry (a reconciler's) is waited out, not taken for a refusal.
  const activated = await retryUntil(ACTIVATION_ATTEMPTS, REFUND_BACKOFF, async (): Promise<boolean | undefined> => {
    const outcome = await commit([activation], { events });
    if (outcome.committed) return true;
    if (outcome.refusal.kind === 'condition' && outcome.refusal.failed.includes(activation.name)) return false;
    return undefined;
  });
  if (activated === undefined)
    throw new Error(`The activation of purchase ${purchase.id} was held by other writes ${ACTIVATION_ATTEMPTS} times`);
  return activated;
}

/** Marks an undo as started (before the code is deleted); false when the entry is no longer active and unrefunded. */
export async function markRefundStarted(shopId: string, customerId: string, purchase: PurchaseRecord, now: string): Promise<boolean> {
  return (await commitOne(startRewardEntryRefund(shopId, customerId, purchase, now))).committed;
}

/**
 * Records the platform id of an active entry's code issued again; false when the entry is no longer active and
 * unrefunded (used, expired or refunded meanwhile: then the code issued again must go).
 */
export async function recordReissuedCode(
  shopId: string,
  customerId: string,
  purchase: PurchaseRecord,
  platformDiscountId: string,
  now: string,
  settled: boolean,
): Promise<boolean> {
  return (await commitOne(reissueRewardEntryCode(shopId, customerId, purchase, platformDiscountId, now, settled))).committed;
}

/**
 * pending -> refunded, giving the points back (and the redemption count) in the same transaction.
 * With `codeMayExist` the entry stays in the reconciler's index until the code is known to be gone.
 * False when the entry was no longer pending (already settled by someone else).
 */
export async function refundPurchase(purchase: PurchaseRecord, reason: string, codeMayExist: boolean, now: string): Promise<boolean> {
  const { shop_id: shopId, customer_id: customerId } = purchase;
  const entry = refundPendingPurchase(purchase, reason, codeMayExist, now);
  const redemption = purchase.counted ? [giveRedemptionBack(shopId, customerId, purchase.reward_id)] : [];
  let points = givePointsBack(purchase, now, null);
  let lastRefusal: string | undefined;
  const refunded = await retryUntil(REFUND_ATTEMPTS, REFUND_BACKOFF, async (): Promise<boolean | undefined> => {
    const outcome = await commit([entry, points, ...redemption]);
    if (outcome.committed) return true;
    const { refusal } = outcome;
    // A refund must not be lost to a transient conflict with another write of the same customer.
    if (refusal.kind === 'conflict') {
      lastRefusal = 'a transaction conflict';
      return undefined;
    }
    if (refusal.failed.includes(entry.name)) return false;
    // The points come back to a member whose deadline is not in the due work (it had no points left):
    // write it back in, derived from the profile DynamoDB answered with.
    points = givePointsBack(purchase, now, refusal.current(points.name));
    lastRefusal = `'${refusal.failed.join("', '")}'`;
    return undefined;
  });
  if (refunded === undefined)
    throw new Error(`The refund of purchase ${purchase.id} was refused ${REFUND_ATTEMPTS} times, last by ${lastRefusal}`);
  return refunded;
}

const REFUND_ATTEMPTS = 22;
const ACTIVATION_ATTEMPTS = 10;
const REFUND_BACKOFF = { baseMs: 5, capMs: 200 };

/** The code of a refunded purchase is confirmed gone from the platform: leave the reconciler's index. */
export async function markCodeCleaned(purchase: PurchaseRecord, now: string): Promise<boolean> {
  return (await commitOne(leaveUnsettledPurchases(purchase, now))).committed;
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
  checkpoint?: Write;
  /** The refund's domain events: committed with it, or not at all. */
  events?: readonly DomainEvent[];
  /** A `store_credit` entry's undo: the debit transaction that took the credit back. */
  debitTransactionId?: string;
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
  const entry = refundActiveRewardEntry(shopId, customerId, purchase, now, write.debitTransactionId);
  const writes = [
    entry,
    writeMemberBalance(customer, next),
    recordEarningEntry(shopId, customerId, write.entry),
    ...(purchase.counted ? [giveRedemptionBack(shopId, customerId, purchase.reward_id)] : []),
    ...(write.checkpoint ? [write.checkpoint] : []),
  ];
  const outcome = await commit(writes, { events: write.events ?? [] });
  if (outcome.committed) return { outcome: 'refunded' };
  const { refusal } = outcome;
  if (refusal.kind === 'conflict') return { outcome: 'conflict' };
  if (refusal.failed.includes(entry.name)) {
    const old = refusal.current(entry.name);
    return { outcome: 'entry_changed', current: old ? (old as unknown as PurchaseRecord) : null };
  }
  if (write.checkpoint && refusal.failed.includes(write.checkpoint.name)) return { outcome: 'superseded' };
  return { outcome: 'conflict' };
}
