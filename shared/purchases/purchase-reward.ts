// Reward purchase saga: reserve (points deducted + pending entry, one transaction) -> create the
// discount code on the platform -> activate. A platform failure refunds in a compensating
// transaction; a crash in between leaves a pending entry that the reconciler settles.
import { addDays } from '../domain/dates';
import { randomUUID } from 'node:crypto';
import { getCustomer } from '../data/customer-repository';
import { activatePurchase, refundPurchase, reservePurchase } from '../data/purchase-repository';
import { type PurchaseRecord } from '../domain/history';
import { nowIso } from '../runtime/clock';
import type { ShopCatalog } from '../domain/shop';
import { resolveCustomer } from '../customers/customer-service';
import { customerNotFound, DOMAIN_DETAILS, failed, unavailable, unprocessable } from '../domain/errors';
import { type Platform, PlatformError, PlatformRefusedError, PlatformUnavailableError } from '../platform/port';
import { countMetric } from '../observability/powertools';
import { retryUntil } from '../runtime/retry';
import { discountCodeFor } from './discount-code';
import { insufficientPoints, planPurchase } from './purchase-rules';
import type { PurchaseInput } from './purchase-requests';

export const CODE_FAILED = 'Failed to create discount code. Points have not been deducted.';

/** Test seams that stand for a crash at the two points where one leaves work for the reconciler. */
export interface PurchaseHooks {
  afterReserve?: (purchase: PurchaseRecord) => Promise<void>;
  afterCode?: (purchase: PurchaseRecord) => Promise<void>;
}

const RESERVE_ATTEMPTS = 30;

/** Purchases hold the customer longer than a points write (three items), so racing buyers wait longer. */
const RESERVE_BACKOFF = { baseMs: 2.5, capMs: 100 };

export async function purchaseReward(
  shop: ShopCatalog,
  rewardId: string,
  input: PurchaseInput,
  platform: Platform,
  hooks: PurchaseHooks = {},
): Promise<PurchaseRecord> {
  const shopId = shop.settings.id;
  let customer = (await resolveCustomer(shopId, input.customerIdentifier)).record;

  const purchase = await retryUntil(RESERVE_ATTEMPTS + 1, RESERVE_BACKOFF, async (attempt): Promise<PurchaseRecord | undefined> => {
    const plan = planPurchase(shop, customer, rewardId, input.points);
    const now = nowIso();
    const id = randomUUID();
    const { reward } = plan;
    const candidate: PurchaseRecord = {
      id,
      shop_id: shopId,
      customer_id: customer.platform_customer_id,
      reward_id: reward.id,
      reward_name: plan.rewardName,
      reward_discount_type: reward.discount_type,
      points_spent: plan.pointsToSpend,
      discount_code: discountCodeFor(id),
      status: 'pending',
      is_refunded: false,
      discount_code_redeemed_at: null,
      redeemed_at: now,
      expires_at: reward.expiry_days === null ? null : addDays(now, reward.expiry_days),
      created_at: now,
      updated_at: now,
      platform_discount_id: null,
      discount: { type: reward.discount_type, value: plan.discountValue, minimum_spend: reward.minimum_spend },
      counted: reward.max_redemptions !== null,
    };
    const expiry = shop.settings.earning_settings?.points_expiry;
    const deadline = expiry?.mode === 'inactivity' ? addDays(now, expiry.days) : null;
    const outcome = await reservePurchase(candidate, reward.max_redemptions, deadline);
    if (outcome === 'reserved') return candidate;
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

  await hooks.afterReserve?.(purchase);

  let platformDiscountId: string;
  try {
    const code = await platform.createDiscountCode({
      code: purchase.discount_code,
      title: `Loyalty reward: ${purchase.reward_name}`,
      customerId: purchase.customer_id,
      discountType: purchase.discount.type,
      amount: purchase.discount.value,
      minimumSpend: purchase.discount.minimum_spend,
      startsAt: purchase.created_at,
      endsAt: purchase.expires_at,
    });
    platformDiscountId = code.id;
  } catch (error) {
    const unreachable = error instanceof PlatformUnavailableError;
    // Unless the platform said no to the only attempt that reached it, the code may still have been
    // created: the refund then keeps the entry in the reconciler's index until the code is confirmed
    // absent (or deleted). A "no" after a timed-out attempt does not prove the code absent.
    const codeMayExist = !(error instanceof PlatformError) || error.earlierAttemptMayHaveApplied;
    countMetric('DiscountCodeFailures');
    if (await refundPurchase(purchase, unreachable ? 'platform_unreachable' : 'platform_error', codeMayExist, nowIso())) {
      countMetric('PurchasesRefunded');
    }
    if (error instanceof PlatformRefusedError) throw unavailable(error.callerDetail);
    throw unreachable ? unavailable(DOMAIN_DETAILS.platformUnreachable) : failed(CODE_FAILED);
  }

  await hooks.afterCode?.(purchase);

  if (!(await activatePurchase(purchase, platformDiscountId, nowIso()))) {
    // Settled by the reconciler while we were away (only after minutes): it refunded, so the code
    // must not stay usable.
    await platform.deleteDiscountCode(platformDiscountId).catch(() => undefined);
    throw failed(CODE_FAILED);
  }
  countMetric('RewardsPurchased');
  return { ...purchase, status: 'active', platform_discount_id: platformDiscountId };
}
