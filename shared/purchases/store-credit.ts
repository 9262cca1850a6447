// Store credit exactly once (docs/decisions.md, "Store credit exactly once"). Shopify's storeCreditAccountCredit
// and storeCreditAccountDebit take no idempotency key, so the service makes them exactly once itself:
// - a purchase records `store_credit_sent_at` on its entry (conditionally: pending, none recorded) before it sends
//   its one credit, and the adapter never retries a credit that may have reached Shopify;
// - whoever finds that marker (a lost answer, a retry with the same Idempotency-Key, the reconciler) never sends
//   another credit: it looks for the purchase's own transaction among the account's latest ones (a credit of the
//   amount, with the purchase's expiry, made since the marker, held by no other entry of the member) and records
//   it; the reconciler, minutes later, gives the points back when there is none;
// - an undo's debit works the same way with `store_credit_debit_sent_at`.
import {
  claimedStoreCreditTransactions,
  getPurchase,
  markStoreCreditSent,
  recordPurchaseCredit,
  refundPurchase,
} from '../data/purchase-repository';
import { failed, unavailable } from '../domain/errors';
import type { MemberFacts } from '../domain/events';
import type { PurchaseRecord } from '../domain/history';
import { countMetric, logger } from '../observability/powertools';
import { type Platform, PlatformRefusedError, StoreCreditRefusedError, type StoreCreditTransaction } from '../platform/port';
import { nowIso } from '../runtime/clock';
import { type PurchaseHooks, rewardPurchasedEvent } from './purchase-reward';

export const CREDIT_FAILED = 'Failed to credit the store credit account. Points have not been deducted.';

export const CREDIT_UNCONFIRMED =
  'Shopify did not confirm the store credit. The purchase is settled within minutes: the credit is recorded, or the points are given back.';

/**
 * How much earlier than the moment recorded before sending a transaction may be stamped: the platform's clock
 * and ours differ. A transaction older than that is not this purchase's.
 */
export const CLOCK_SKEW_MS = 5 * 60 * 1000;

const cents = (amount: number | string) => Math.round(Number(amount) * 1e6);

/** The same second, or both none: the platform may keep an expiry to the second only. */
function sameMoment(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return a === b;
  return Math.floor(Date.parse(a) / 1000) === Math.floor(Date.parse(b) / 1000);
}

/**
 * The oldest transaction of the member's account that is this one's: of its kind and amount (a debit is
 * negative), made since `sentAt` (less the clock skew), matching `expiresAt` for a credit, and held by no other
 * entry of the member. Null when there is none.
 */
async function findOwnTransaction(
  entry: PurchaseRecord,
  platform: Platform,
  currency: string,
  wanted: { kind: 'credit' | 'debit'; sentAt: string },
): Promise<StoreCreditTransaction | null> {
  const [transactions, claimed] = await Promise.all([
    platform.listStoreCreditTransactions(entry.customer_id, currency),
    claimedStoreCreditTransactions(entry.shop_id, entry.customer_id),
  ]);
  const since = Date.parse(wanted.sentAt) - CLOCK_SKEW_MS;
  const amount = cents(entry.discount.value) * (wanted.kind === 'debit' ? -1 : 1);
  const own = transactions.filter(
    (transaction) =>
      transaction.kind === wanted.kind &&
      transaction.currency === currency &&
      cents(transaction.amount) === amount &&
      Date.parse(transaction.createdAt) >= since &&
      (wanted.kind === 'debit' || sameMoment(transaction.expiresAt, entry.expires_at)) &&
      !claimed.has(transaction.id),
  );
  // Newest first: the last one is the oldest, the first one made after the marker.
  return own.at(-1) ?? null;
}

/** The purchase's own credit, when its marker says one was sent; null when none was sent or none is found. */
export function findOwnCredit(purchase: PurchaseRecord, platform: Platform, currency: string): Promise<StoreCreditTransaction | null> {
  if (!purchase.store_credit_sent_at) return Promise.resolve(null);
  return findOwnTransaction(purchase, platform, currency, { kind: 'credit', sentAt: purchase.store_credit_sent_at });
}

/** The undo's own debit, when its marker says one was sent; null when none was sent or none is found. */
export function findOwnDebit(entry: PurchaseRecord, platform: Platform, currency: string): Promise<StoreCreditTransaction | null> {
  if (!entry.store_credit_debit_sent_at) return Promise.resolve(null);
  return findOwnTransaction(entry, platform, currency, { kind: 'debit', sentAt: entry.store_credit_debit_sent_at });
}

/** A platform failure while looking: the purchase stays as it is (pending), for a retry or the reconciler. */
async function lookForCredit(purchase: PurchaseRecord, platform: Platform, currency: string): Promise<StoreCreditTransaction> {
  let found: StoreCreditTransaction | null;
  try {
    found = await findOwnCredit(purchase, platform, currency);
  } catch (error) {
    if (error instanceof PlatformRefusedError) throw unavailable(error.callerDetail);
    throw unavailable(CREDIT_UNCONFIRMED);
  }
  if (!found) throw unavailable(CREDIT_UNCONFIRMED);
  return found;
}

/**
 * Credits a reserved `store_credit` purchase and records it `used` with its transaction. At most one credit is
 * ever sent for a purchase: a purchase whose credit was sent before (by this request's lost answer, or by a
 * stopped invocation whose Idempotency-Key this retry took over) is only looked for. A refusal by Shopify gives
 * the points back at once; an unknown outcome not resolved by looking leaves the purchase pending (503) for the
 * reconciler, which records the credit when it finds it and gives the points back when it does not.
 */
export async function issueStoreCredit(
  reserved: PurchaseRecord,
  platform: Platform,
  currency: string,
  hooks: PurchaseHooks,
  member: MemberFacts | null,
): Promise<PurchaseRecord> {
  let purchase = reserved;
  let transaction: StoreCreditTransaction | null = null;
  if (!purchase.store_credit_sent_at) {
    const sentAt = nowIso();
    if (await markStoreCreditSent(purchase, sentAt)) {
      purchase = { ...purchase, store_credit_sent_at: sentAt };
      transaction = await sendCredit(purchase, platform, currency);
    } else {
      // Another writer got there first (a retry that took this request's key over, the reconciler): as it is now.
      const current = await getPurchase(purchase.shop_id, purchase.customer_id, purchase.id);
      if (!current || current.status === 'refunded') throw failed(CREDIT_FAILED);
      if (current.status !== 'pending') return current;
      purchase = current;
    }
  }
  transaction ??= await lookForCredit(purchase, platform, currency);

  await hooks.afterCode?.(purchase);

  const now = nowIso();
  const events = member ? [rewardPurchasedEvent(purchase, member, now)] : [];
  if (!(await recordPurchaseCredit(purchase, transaction.id, now, events))) {
    const settled = await getPurchase(purchase.shop_id, purchase.customer_id, purchase.id);
    if (settled?.status === 'used' && settled.store_credit_transaction_id === transaction.id) return settled;
    // Settled otherwise meanwhile (refunded by the reconciler): cannot happen while the reconciler waits minutes
    // before it gives points back; logged and counted so an operator can take the credit back.
    countMetric('StoreCreditUnaccounted');
    logger.error('A store credit was made for a purchase settled otherwise', {
      shop_id: purchase.shop_id,
      reward_history_entry_id: purchase.id,
      store_credit_transaction_id: transaction.id,
    });
    throw failed(CREDIT_FAILED);
  }
  countMetric('RewardsPurchased');
  return { ...purchase, status: 'used', store_credit_transaction_id: transaction.id, updated_at: now };
}

/**
 * The purchase's one credit, its marker recorded. Shopify's refusal: nothing was credited, the points go back at
 * once. An unknown outcome (no answer, a server error): the credit is looked for, and stays in doubt (503, the
 * purchase pending) when it is not found.
 */
async function sendCredit(purchase: PurchaseRecord, platform: Platform, currency: string): Promise<StoreCreditTransaction> {
  try {
    return await platform.creditStoreCredit({
      customerId: purchase.customer_id,
      amount: purchase.discount.value,
      currency,
      expiresAt: purchase.expires_at,
    });
  } catch (error) {
    countMetric('StoreCreditFailures');
    if (error instanceof StoreCreditRefusedError || error instanceof PlatformRefusedError) {
      if (await refundPurchase(purchase, 'platform_error', false, nowIso())) countMetric('PurchasesRefunded');
      if (error instanceof StoreCreditRefusedError) throw failed(CREDIT_FAILED);
      throw unavailable(error.callerDetail);
    }
    logger.warn('A store credit may or may not have been made; looking for it', {
      shop_id: purchase.shop_id,
      reward_history_entry_id: purchase.id,
      error: String(error),
    });
    return lookForCredit(purchase, platform, currency);
  }
}
