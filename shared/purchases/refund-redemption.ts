// Undoing a redemption (docs/program.md#undo-a-redemption): an active reward-history entry whose code was not
// used gets its discount code deleted on the platform first (a platform failure changes nothing: 503), then,
// in one conditional transaction, `is_refunded`, the points back (current up, redeemed down), an approved
// `reward_refund` entry (a batch of its own in batch expiry mode) and the redemption count; `reward.refunded`
// is published after the commit. The entry's condition is the one an order using the code writes under, so
// the code ends either used or refunded, never both.
import { getCustomer } from '../data/customer-repository';
import { type IdempotencyClaim, recordProgressItem } from '../data/idempotency-repository';
import {
  clearStoreCreditDebitSent,
  getPurchase,
  markRefundStarted,
  markStoreCreditDebitSent,
  recordReissuedCode,
  writeRedemptionRefund,
} from '../data/purchase-repository';
import type { CustomerRecord } from '../domain/customer';
import { customerNotFound, DOMAIN_DETAILS, echoed, failed, notFound, notPermitted, unavailable, unprocessable } from '../domain/errors';
import { type DomainEvent, memberFacts } from '../domain/events';
import { approvedEntry, type EarningEntry, type PurchaseRecord, type RequestActor, type RewardEntry } from '../domain/history';
import { movePoints, tierProgramOf } from '../domain/member-points';
import { giveBatches } from '../domain/points-ledger';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { countMetric, logger } from '../observability/powertools';
import {
  type Platform,
  PlatformError,
  PlatformRefusedError,
  PlatformUnavailableError,
  StoreCreditRefusedError,
  type StoreCreditTransaction,
} from '../platform/port';
import { nowIso } from '../runtime/clock';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { resolveCustomerId } from '../customers/customer-service';
import { VISIBLE_REWARD_STATUSES } from '../data/items/reward-entry';
import { deterministicId } from '../domain/deterministic-id';
import { type CodePurchase, discountCodeInputOf, isCodePurchase } from './discount-code';
import { findOwnDebit } from './store-credit';
import { formatMoney } from '../domain/money';
import { flexibleValue } from './purchase-rules';

/** The earning-history action of the entry that gives a redemption's points back. */
export const REWARD_REFUND_ACTION = 'reward_refund';

/** What a refund records on its Idempotency-Key's claim: the refund committed. */
interface RefundProgress {
  refunded_entry_id: string;
  customer_id: string;
}

// As for the other writers of one member's profile: enough rounds for dozens of concurrent writers.
const MAX_ATTEMPTS = 120;

// A sort key holds at most 1024 bytes; a longer id cannot name an entry (as for GET of an entry).
const MAX_ENTRY_ID_BYTES = 1000;

const entryNotFound = (id: string) => notFound(`Reward history entry '${echoed(id)}' not found`);

/** The id of the entry that gives a redemption's points back: one per redemption, whoever writes it. */
export function rewardRefundEntryId(shopId: string, rewardEntryId: string): string {
  return deterministicId({ joined: ['reward-refund', shopId, rewardEntryId] }, { as: 'uuid-5' });
}

/**
 * Why an entry cannot be refunded at `now` (a 422 naming the reason), or null when it can: used, expired
 * (by its status, or by its end date before the code-expiry job got to it) or refunded already.
 */
export function refundRefusal(
  entry: Pick<RewardEntry, 'id' | 'status' | 'is_refunded' | 'expires_at' | 'discount_code_redeemed_at'> &
    Partial<Pick<RewardEntry, 'reward_discount_type'>>,
  now: string,
) {
  if (entry.is_refunded) return unprocessable('Reward Already Refunded', `Reward history entry '${entry.id}' has already been refunded`);
  // A store credit entry is `used` from the start: what decides is whether the account still holds the credit.
  if (entry.status === 'used' && entry.reward_discount_type !== 'store_credit') {
    const when = entry.discount_code_redeemed_at ? ` on ${entry.discount_code_redeemed_at}` : '';
    return unprocessable('Reward Used', `Reward history entry '${entry.id}' cannot be refunded: its discount code was used${when}`);
  }
  if (entry.status === 'expired' || (entry.expires_at !== null && entry.expires_at <= now)) {
    return unprocessable('Reward Expired', `Reward history entry '${entry.id}' cannot be refunded: it expired on ${entry.expires_at}`);
  }
  return null;
}

/** A purchase as callers see it: in one of the reward history's statuses (not one the saga is still settling). */
type VisiblePurchase = PurchaseRecord & { status: RewardEntry['status'] };

const visible = (entry: PurchaseRecord | null): entry is VisiblePurchase =>
  entry !== null && (VISIBLE_REWARD_STATUSES as readonly string[]).includes(entry.status);

export async function refundRedemption(
  shop: ShopCatalog,
  identifier: string,
  entryId: string,
  platform: Platform,
  options: { claim?: IdempotencyClaim; actor?: RequestActor } = {},
): Promise<RewardEntry> {
  const shopId = shop.settings.id;
  const { claim } = options;
  const customerId = await resolveCustomerId(shopId, identifier);
  // A retry that took over a stopped invocation's claim after its refund committed answers with the entry.
  const progress = claim?.resumed as unknown as RefundProgress | null | undefined;
  if (progress?.refunded_entry_id === entryId && progress.customer_id === customerId) {
    const done = await getPurchase(shopId, customerId, entryId);
    if (visible(done) && done.is_refunded) return done;
  }

  const tooLong = Buffer.byteLength(entryId) > MAX_ENTRY_ID_BYTES;
  const [profile, read] = await Promise.all([
    getCustomer(shopId, customerId, true),
    tooLong ? Promise.resolve(null) : getPurchase(shopId, customerId, entryId),
  ]);
  const customer = profile;
  if (!customer) throw customerNotFound(identifier);
  if (customer.record.status !== 'member') throw notPermitted(DOMAIN_DETAILS.customerExcluded);
  if (!visible(read)) throw entryNotFound(entryId);
  const purchase = read;
  const refusal = refundRefusal(purchase, nowIso());
  if (refusal) throw refusal;
  if (!isCodePurchase(purchase)) {
    const debit = await debitStoreCredit(shop, customerId, purchase, platform);
    return commitRefund(shop, customerId, identifier, entryId, purchase, claim, customer, options.actor, debit.id);
  }

  // Recorded before the code is deleted: if this undo fails after the deletion and cannot issue the code again,
  // the purchase reconciler finds the entry and does (reissueCode).
  if (!(await markRefundStarted(shopId, customerId, purchase, nowIso()))) {
    const current = await getPurchase(shopId, customerId, entryId);
    if (!visible(current)) throw entryNotFound(entryId);
    throw refundRefusal(current, nowIso()) ?? failed('The refund could not be completed. Please try again.');
  }
  try {
    await deleteCode(purchase, platform);
    return await commitRefund(shop, customerId, identifier, entryId, purchase, claim, customer, options.actor);
  } catch (error) {
    // The code may be gone (deleted, or a deletion whose answer was lost) and the refund did not commit:
    // unless the entry ended meanwhile (used, expired or refunded by another request), the shopper gets the
    // code back, so a failed refund never loses it.
    await restoreCode(shopId, customerId, purchase, platform);
    throw error;
  }
}

/** The refund's one transaction, retried over conflicts with other writes to the member. */
async function commitRefund(
  shop: ShopCatalog,
  customerId: string,
  identifier: string,
  entryId: string,
  purchase: VisiblePurchase,
  claim: IdempotencyClaim | undefined,
  read: Awaited<ReturnType<typeof getCustomer>>,
  actor: RequestActor | undefined,
  debitTransactionId?: string,
): Promise<RewardEntry> {
  const shopId = shop.settings.id;
  let customer = read;
  const checkpoint = claim ? recordProgressItem(claim, { refunded_entry_id: entryId, customer_id: customerId }) : undefined;
  let committed: { entry: VisiblePurchase; events: readonly DomainEvent[] } | undefined;
  const outcome = await retryUntil(MAX_ATTEMPTS, CONTENTION_BACKOFF, async (attempt): Promise<'refunded' | undefined> => {
    if (attempt > 0 || !customer) {
      customer = await getCustomer(shopId, customerId, true);
      if (!customer) throw customerNotFound(identifier);
    }
    const current = customer;
    if (current.record.status !== 'member') throw notPermitted(DOMAIN_DETAILS.customerExcluded);
    const now = nowIso();
    const { ledger, refunded, events } = plannedRefund(shop, current.record, {
      customerId,
      purchase,
      actor,
      debitTransactionId,
      now,
    });
    const written = await writeRedemptionRefund({
      customer: current,
      next: ledger.record,
      purchase: purchase,
      entry: { ...ledger.entries[0]!, reward_history_entry_id: purchase.id } as EarningEntry,
      now,
      ...(checkpoint ? { checkpoint } : {}),
      events,
      ...(debitTransactionId !== undefined ? { debitTransactionId } : {}),
    });
    if (written.outcome === 'conflict') return undefined;
    if (written.outcome === 'superseded') throw failed('The refund was taken over by a retry of the same request.');
    if (written.outcome === 'entry_changed') {
      // Used by an order, expired or refunded since it was read: the answer says which.
      if (!visible(written.current)) throw entryNotFound(entryId);
      throw refundRefusal(written.current, now) ?? failed('The refund could not be completed. Please try again.');
    }
    committed = { entry: refunded, events };
    return 'refunded';
  });
  if (outcome === undefined || !committed) throw failed('The refund could not be completed. Please try again.');
  countMetric('RedemptionsRefunded');
  return committed.entry;
}

/**
 * Issues the code of a refund that did not commit again, when the entry is still active and unrefunded: the
 * same code, value, customer and end, as the purchase created it. If the platform cannot be reached the entry
 * stays active without its code until a retry of the refund (the same `Idempotency-Key` resumes it) or an
 * operator: logged and counted (`RefundCodeRestoreFailed`), never thrown over the refund's own error.
 */
async function restoreCode(shopId: string, customerId: string, purchase: PurchaseRecord, platform: Platform): Promise<void> {
  try {
    // The entry stays in the reconciler's index: a deletion that timed out may still be applied after this
    // (a server can finish a request its client gave up on), so the reconciler looks again once the undo is
    // minutes old, and only then takes the entry out of its index.
    if (await reissueCode(shopId, customerId, purchase, platform, false)) countMetric('RefundCodesRestored');
  } catch (error) {
    countMetric('RefundCodeRestoreFailed');
    logger.error('A refund that did not commit could not issue its code again', {
      shop_id: purchase.shop_id,
      reward_history_entry_id: purchase.id,
      error: String(error),
    });
  }
}

/**
 * The code of an entry whose undo started and did not commit, there again: found on the platform or created
 * as the purchase created it, and its id recorded on the entry (which leaves the reconciler's index). False
 * when the entry is no longer active and unrefunded (then a code issued meanwhile is deleted again). Platform
 * failures are thrown: the entry stays in the reconciler's index.
 */
export async function reissueCode(
  shopId: string,
  customerId: string,
  purchase: PurchaseRecord,
  platform: Platform,
  settled: boolean,
): Promise<boolean> {
  const current = await getPurchase(shopId, customerId, purchase.id);
  if (!current || !isCodePurchase(current) || current.status !== 'active' || current.is_refunded) return false;
  const code =
    (await platform.findDiscountCode(current.discount_code)) ??
    (await platform.createDiscountCode(discountCodeInputOf(current, customerId)));
  if (await recordReissuedCode(shopId, customerId, current, code.id, nowIso(), settled)) return true;
  // Ended while the code was issued again: it must not stay usable.
  await platform.deleteDiscountCode(code.id);
  return false;
}

/**
 * Deletes the entry's code on the platform. A code the platform no longer has (deleted by an earlier attempt
 * of this refund) is looked up by its code, and nothing is left to delete; so is the code of an entry that
 * never recorded the platform's id (one loaded from a configuration file). Any platform failure is a 503.
 */
async function deleteCode(purchase: CodePurchase, platform: Platform): Promise<void> {
  try {
    if (purchase.platform_discount_id) {
      try {
        await platform.deleteDiscountCode(purchase.platform_discount_id);
        return;
      } catch (error) {
        // The platform answered "no" (for instance: no such discount); whether the code is gone is asked below.
        if (!(error instanceof PlatformError) || error instanceof PlatformRefusedError) throw error;
      }
    }
    const existing = await platform.findDiscountCode(purchase.discount_code);
    if (existing) await platform.deleteDiscountCode(existing.id);
  } catch (error) {
    if (error instanceof PlatformRefusedError) throw unavailable(error.callerDetail);
    if (error instanceof PlatformUnavailableError || error instanceof PlatformError) throw unavailable(DOMAIN_DETAILS.platformUnreachable);
    throw error;
  }
}

/**
 * The entry with the amount its purchase credited: as recorded, or for an entry brought over without one (a
 * configuration file's), the reward's as the catalog defines it (a flexible reward's for the points spent).
 */
function withCreditAmount<T extends PurchaseRecord>(shop: ShopCatalog, entry: T): T {
  if (entry.discount) return entry;
  const reward = shop.rewards.find((candidate) => candidate.id === entry.reward_id);
  if (!reward)
    throw unprocessable('Reward Unknown', `Reward history entry '${entry.id}' cannot be refunded: its reward is no longer in the catalog`);
  const value =
    reward.redemption_mode === 'flexible' && reward.flexible_config
      ? flexibleValue(entry.points_spent, reward.flexible_config.points_per_unit, shop.settings.currency)
      : reward.discount_amount;
  return { ...entry, discount: { type: 'store_credit', value, minimum_spend: 0 } };
}

export const DEBIT_UNCONFIRMED =
  "Shopify did not confirm the store credit's debit. The refund is settled within minutes: completed if the debit was made, else left undone.";

/**
 * The store credit of an entry taken back: the same amount debited from the member's account, at most once
 * (`store_credit_debit_sent_at` recorded before sending). An account that no longer holds it: 422, and the entry is
 * as it was. An unknown outcome not resolved by looking: 503, the entry in the reconciler's index, which completes
 * the refund when it finds the debit and clears the undo when it does not.
 */
async function debitStoreCredit(
  shop: ShopCatalog,
  customerId: string,
  read: VisiblePurchase,
  platform: Platform,
): Promise<StoreCreditTransaction> {
  const shopId = shop.settings.id;
  const entry = withCreditAmount(shop, read);
  const { currency } = shop.settings;
  const look = async (sent: PurchaseRecord): Promise<StoreCreditTransaction> => {
    const found = await findOwnDebit(sent, platform, currency).catch((error: unknown) => {
      if (error instanceof PlatformRefusedError) throw unavailable(error.callerDetail);
      throw unavailable(DEBIT_UNCONFIRMED);
    });
    if (!found) throw unavailable(DEBIT_UNCONFIRMED);
    return found;
  };
  // An earlier undo sent its debit and did not finish: never a second debit, only its own looked for.
  if (entry.store_credit_debit_sent_at) return look(entry);
  const sentAt = nowIso();
  if (!(await markStoreCreditDebitSent(shopId, customerId, entry, sentAt))) {
    const current = await getPurchase(shopId, customerId, entry.id);
    if (!visible(current)) throw entryNotFound(entry.id);
    throw refundRefusal(current, nowIso()) ?? unavailable(DEBIT_UNCONFIRMED);
  }
  const sent = { ...entry, store_credit_debit_sent_at: sentAt };
  try {
    return await platform.debitStoreCredit({ customerId, amount: entry.discount.value, currency });
  } catch (error) {
    if (error instanceof StoreCreditRefusedError || error instanceof PlatformRefusedError) {
      // Shopify said no: nothing was debited, and the entry goes back to what it was.
      await clearStoreCreditDebitSent(shopId, customerId, sent, sentAt);
      if (error instanceof StoreCreditRefusedError && (error.code === 'INSUFFICIENT_FUNDS' || error.code === 'ACCOUNT_NOT_FOUND')) {
        throw unprocessable(
          'Store Credit Spent',
          `Reward history entry '${entry.id}' cannot be refunded: the customer's store credit account no longer holds the ${formatMoney(entry.discount.value, currency)} it credited (the customer has spent it)`,
        );
      }
      if (error instanceof PlatformRefusedError && !(error instanceof StoreCreditRefusedError)) throw unavailable(error.callerDetail);
      throw unavailable(DOMAIN_DETAILS.platformUnreachable);
    }
    logger.warn('A store credit debit may or may not have been made; looking for it', {
      shop_id: shopId,
      reward_history_entry_id: entry.id,
      error: String(error),
    });
    return look(sent);
  }
}

/**
 * The reconciler's end of a store credit undo left in doubt (`store_credit_debit_sent_at` set, minutes ago): its
 * debit found, the refund commits (the points back); none made, the entry is as before the undo. False when the
 * entry changed meanwhile.
 */
export async function settleStoreCreditUndo(
  shop: ShopCatalog,
  entry: PurchaseRecord,
  platform: Platform,
): Promise<'refunded' | 'cleared' | 'skipped'> {
  const shopId = shop.settings.id;
  const customerId = entry.customer_id;
  const stored = await getPurchase(shopId, customerId, entry.id);
  if (!visible(stored) || stored.is_refunded || !stored.store_credit_debit_sent_at) return 'skipped';
  const current = withCreditAmount(shop, stored);
  const debit = await findOwnDebit(current, platform, shop.settings.currency);
  if (!debit) {
    return (await clearStoreCreditDebitSent(shopId, customerId, current, stored.store_credit_debit_sent_at)) ? 'cleared' : 'skipped';
  }
  await commitRefund(shop, customerId, customerId, current.id, current, undefined, null, undefined, debit.id);
  return 'refunded';
}

/** The refund's entry (the points back as a batch of their own), the member after it, the purchase refunded and its events. */
function plannedRefund(
  shop: ShopCatalog,
  record: CustomerRecord,
  {
    customerId,
    purchase,
    actor,
    debitTransactionId,
    now,
  }: {
    customerId: string;
    purchase: VisiblePurchase;
    actor: RequestActor | undefined;
    debitTransactionId: string | undefined;
    now: string;
  },
) {
  const shopId = shop.settings.id;
  const earningSettings = shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS;
  const points = purchase.points_spent;
  const entry = approvedEntry(
    {
      id: rewardRefundEntryId(shopId, purchase.id),
      earning_rule_id: null,
      action: REWARD_REFUND_ACTION,
      points,
      base_points: points,
      points_multiplier: 1,
      ...(actor ? { actor } : {}),
    },
    now,
  );
  // Spending never lowered lifetime points, so giving the points back does not raise them.
  const move = movePoints(record, { points, lifetime: 0, send_email: true, now }, tierProgramOf(shop));
  const figures: CustomerRecord = { ...move.next, redeemed_points: Math.max(0, record.redeemed_points - points) };
  // The points come back as a batch of their own at the end of the line (batch mode: with its own expiry).
  const ledger = giveBatches(record, figures, [entry], earningSettings, now);
  const refunded: VisiblePurchase = {
    ...purchase,
    is_refunded: true,
    updated_at: now,
    ...(debitTransactionId !== undefined ? { store_credit_debit_transaction_id: debitTransactionId } : {}),
  };
  // The refund's events, committed with it: each with the member as the refund leaves it.
  const facts = memberFacts(ledger.record, shop.tiers);
  const events = (
    [
      {
        type: 'reward.refunded' as const,
        shop_id: shopId,
        customer_id: customerId,
        occurred_at: now,
        reward_history_entry_id: refunded.id,
        reward_id: refunded.reward_id,
        discount_code: refunded.discount_code,
        points,
        earning_history_entry_id: entry.id,
        current_points: ledger.record.current_points,
      },
      ...move.events,
    ] as DomainEvent[]
  ).map((event): DomainEvent => ({ ...event, ...facts }));
  return { ledger, refunded, events };
}
