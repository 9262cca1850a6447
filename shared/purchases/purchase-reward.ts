// Reward purchase saga: reserve (points deducted + pending entry, one transaction) -> create the
// discount code on the platform -> activate (a `store_credit` reward: credit the member's store credit account,
// at most once per purchase, see ./store-credit.ts -> the entry `used`). A platform failure refunds in a compensating
// transaction; a crash in between leaves a pending entry that the reconciler settles. With an
// Idempotency-Key the reservation is recorded on the key's claim in the same transaction, so a retry
// that takes over a stopped invocation's claim finishes that purchase (its code is deterministic)
// instead of buying a second time, or buys afresh once the purchase was refunded.
import { addDays } from '../domain/dates';
import { randomUUID } from 'node:crypto';
import { getCustomer } from '../data/customer-repository';
import { activatePurchase, getPurchase, refundPurchase, reservePurchase } from '../data/purchase-repository';
import { issueStoreCredit } from './store-credit';
import { type IdempotencyClaim, recordProgressItem } from '../data/idempotency-repository';
import { type DomainEvent, type MemberFacts, memberFacts } from '../domain/events';
import { type PurchaseActor, type PurchaseRecord } from '../domain/history';
import { nowIso } from '../runtime/clock';
import type { ShopCatalog } from '../domain/shop';
import { resolveCustomer } from '../customers/customer-service';
import { customerNotFound, DOMAIN_DETAILS, failed, unavailable, unprocessable } from '../domain/errors';
import { type Platform, PlatformError, PlatformRefusedError, PlatformUnavailableError } from '../platform/port';
import { countMetric } from '../observability/powertools';
import { retryUntil } from '../runtime/retry';
import { type CodePurchase, discountCodeFor, discountCodeInputOf, isCodePurchase } from './discount-code';
import { insufficientPoints, planPurchase } from './purchase-rules';
import type { PurchaseInput } from './purchase-requests';

export const CODE_FAILED = 'Failed to create discount code. Points have not been deducted.';

/** Test seams that stand for a crash at the two points where one leaves work for the reconciler. */
export interface PurchaseHooks {
  afterReserve?: (purchase: PurchaseRecord) => Promise<void>;
  afterCode?: (purchase: PurchaseRecord) => Promise<void>;
}

export interface PurchaseOptions extends PurchaseHooks {
  /** The request's claim on its Idempotency-Key: the reservation is recorded on it, or resumed from it. */
  claim?: IdempotencyClaim;
  /** Who is buying (a staff user, an API key, the shopper), kept on the entry for staff's "By". */
  actor?: PurchaseActor;
}

/** What a purchase records on its Idempotency-Key's claim: enough to find the entry again. */
interface PurchaseProgress {
  purchase_id: string;
  customer_id: string;
}

const RESERVE_ATTEMPTS = 30;

/** Purchases hold the customer longer than a points write (three items), so racing buyers wait longer. */
const RESERVE_BACKOFF = { baseMs: 2.5, capMs: 100 };

export async function purchaseReward(
  shop: ShopCatalog,
  rewardId: string,
  input: PurchaseInput,
  platform: Platform,
  options: PurchaseOptions = {},
): Promise<PurchaseRecord> {
  const shopId = shop.settings.id;
  const { claim } = options;
  const resumed = claim?.resumed ? await resumePurchase(shop, claim.resumed as unknown as PurchaseProgress, platform) : null;
  if (resumed) return resumed;
  let customer = (await resolveCustomer(shopId, input.customerIdentifier)).record;

  const purchase = await retryUntil(RESERVE_ATTEMPTS + 1, RESERVE_BACKOFF, async (attempt): Promise<PurchaseRecord | undefined> => {
    const plan = planPurchase(shop, customer, rewardId, input.points);
    const now = nowIso();
    const id = randomUUID();
    const { reward } = plan;
    const storeCredit = reward.discount_type === 'store_credit';
    const candidate: PurchaseRecord = {
      id,
      shop_id: shopId,
      customer_id: customer.platform_customer_id,
      reward_id: reward.id,
      reward_name: plan.rewardName,
      reward_discount_type: reward.discount_type,
      points_spent: plan.pointsToSpend,
      discount_code: storeCredit ? null : discountCodeFor(id),
      status: 'pending',
      is_refunded: false,
      discount_code_redeemed_at: null,
      redeemed_at: now,
      expires_at: reward.expiry_days === null ? null : addDays(now, reward.expiry_days),
      created_at: now,
      updated_at: now,
      platform_discount_id: null,
      discount: {
        type: reward.discount_type,
        value: plan.discountValue,
        minimum_spend: reward.minimum_spend,
        ...(reward.product_variant_id ? { product_variant_id: reward.product_variant_id } : {}),
      },
      counted: reward.max_redemptions !== null,
      ...(options.actor ? { actor: options.actor } : {}),
    };
    const expiry = shop.settings.earning_settings?.points_expiry;
    const deadline = expiry?.mode === 'inactivity' ? addDays(now, expiry.days) : null;
    const progress: PurchaseProgress = { purchase_id: id, customer_id: candidate.customer_id };
    const checkpoint = claim ? recordProgressItem(claim, { ...progress }) : undefined;
    const outcome = await reservePurchase(candidate, reward.max_redemptions, deadline, checkpoint);
    if (outcome === 'reserved') return candidate;
    // A retry took this request's key over: this invocation outlived its own time and must not buy too.
    if (outcome === 'superseded') throw failed('The purchase was taken over by a retry of the same request.');
    if (outcome === 'redemption_limit') {
      throw unprocessable(
        'Redemption Limit Reached',
        `Customer has already redeemed this reward the maximum of ${reward.max_redemptions} times`,
      );
    }
    if (attempt >= RESERVE_ATTEMPTS) return undefined;
    // The customer changed under us (excluded, or spent the points elsewhere): validate again from
    // the fresh record so the caller gets the spec's answer for what is true now.
    const fresh = await getCustomer(shopId, customer.platform_customer_id, true);
    if (!fresh) throw customerNotFound(input.customerIdentifier);
    customer = fresh.record;
    if (outcome === 'refused_by_customer' && customer.status === 'member' && customer.current_points < candidate.points_spent) {
      throw insufficientPoints(customer.current_points, candidate.points_spent);
    }
    return undefined;
  });
  if (!purchase) throw failed('The purchase could not be completed. Please try again.');

  await options.afterReserve?.(purchase);
  // The member as the reservation left it: the record it was planned against, the points spent.
  const member = memberFacts({ ...customer, current_points: customer.current_points - purchase.points_spent }, shop.tiers);
  return issueReward(shop, purchase, platform, options, false, member);
}

/** The platform step of a reserved purchase: its code, or its store credit. */
function issueReward(
  shop: ShopCatalog,
  purchase: PurchaseRecord,
  platform: Platform,
  hooks: PurchaseHooks,
  lookFirst: boolean,
  member: MemberFacts | null,
): Promise<PurchaseRecord> {
  if (isCodePurchase(purchase)) return issueCode(purchase, platform, hooks, lookFirst, member);
  return issueStoreCredit(purchase, platform, shop.settings.currency, hooks, member);
}

/**
 * The purchase's event, committed with its activation: every redemption a shopper can use is announced once,
 * with the member as the purchase left it (`member`).
 */
export function rewardPurchasedEvent(purchase: PurchaseRecord, member: MemberFacts, now: string): DomainEvent {
  return {
    type: 'reward.purchased',
    shop_id: purchase.shop_id,
    customer_id: purchase.customer_id,
    occurred_at: now,
    reward_history_entry_id: purchase.id,
    reward_id: purchase.reward_id,
    reward_name: purchase.reward_name,
    points_spent: purchase.points_spent,
    discount_code: purchase.discount_code,
    expires_at: purchase.expires_at,
    redeemed_at: purchase.redeemed_at,
    ...member,
  };
}

/** The member facts of a purchase's member as stored now (a resumed or reconciled purchase: the reservation is in it). */
export async function storedMemberFacts(purchase: PurchaseRecord, tiers: ShopCatalog['tiers']): Promise<MemberFacts | null> {
  const stored = await getCustomer(purchase.shop_id, purchase.customer_id, true);
  return stored ? memberFacts(stored.record, tiers) : null;
}

/**
 * A purchase a stopped invocation reserved under the same Idempotency-Key: an active one is the answer;
 * a pending one is finished; null when there is none or it was refunded (the caller buys afresh).
 */
async function resumePurchase(shop: ShopCatalog, progress: PurchaseProgress, platform: Platform): Promise<PurchaseRecord | null> {
  const purchase = await getPurchase(shop.settings.id, progress.customer_id, progress.purchase_id);
  if (!purchase) return null;
  countMetric('PurchasesResumed');
  if (purchase.status === 'active' || (purchase.status === 'used' && !isCodePurchase(purchase))) return purchase;
  if (purchase.status === 'pending') return issueReward(shop, purchase, platform, {}, true, await storedMemberFacts(purchase, shop.tiers));
  return null;
}

/**
 * Creates the reserved purchase's code on the platform and activates the entry. `lookFirst` (a resumed
 * purchase): the stopped invocation may have created the code already, so it is looked up before one
 * is created.
 */
async function issueCode(
  purchase: CodePurchase,
  platform: Platform,
  hooks: PurchaseHooks,
  lookFirst: boolean,
  member: MemberFacts | null,
): Promise<PurchaseRecord> {
  let platformDiscountId: string;
  try {
    const existing = lookFirst ? await platform.findDiscountCode(purchase.discount_code) : null;
    const code = existing ?? (await platform.createDiscountCode(discountCodeInputOf(purchase)));
    platformDiscountId = code.id;
  } catch (error) {
    const unreachable = error instanceof PlatformUnavailableError;
    // Unless the platform said no to the only attempt that reached it, the code may still have been
    // created: the refund then keeps the entry in the reconciler's index until the code is confirmed
    // absent (or deleted). A "no" after a timed-out attempt does not prove the code absent, nor does a
    // "no" to a resumed purchase, whose stopped invocation may have created it.
    const codeMayExist = lookFirst || !(error instanceof PlatformError) || error.earlierAttemptMayHaveApplied;
    countMetric('DiscountCodeFailures');
    if (await refundPurchase(purchase, unreachable ? 'platform_unreachable' : 'platform_error', codeMayExist, nowIso())) {
      countMetric('PurchasesRefunded');
    }
    if (error instanceof PlatformRefusedError) throw unavailable(error.callerDetail);
    throw unreachable ? unavailable(DOMAIN_DETAILS.platformUnreachable) : failed(CODE_FAILED);
  }

  await hooks.afterCode?.(purchase);

  const now = nowIso();
  const events = member ? [rewardPurchasedEvent(purchase, member, now)] : [];
  if (!(await activatePurchase(purchase, platformDiscountId, now, events))) {
    // Settled by someone else while we were away: the reconciler (after minutes) or a retry that took
    // this request's key over. Activated with this code: that is this purchase. Refunded: the code must
    // not stay usable.
    const settled = await getPurchase(purchase.shop_id, purchase.customer_id, purchase.id);
    if (settled?.status === 'active' && settled.platform_discount_id === platformDiscountId) return settled;
    await platform.deleteDiscountCode(platformDiscountId).catch(() => undefined);
    throw failed(CODE_FAILED);
  }
  countMetric('RewardsPurchased');
  return { ...purchase, status: 'active', platform_discount_id: platformDiscountId };
}
