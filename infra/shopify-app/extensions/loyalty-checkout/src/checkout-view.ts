// What the checkout blocks show, derived from Shopify's cart and the /shopper answers and nothing else: the
// service decides what a member may redeem (`redeemable_reward_ids`) and what an order earns (the estimate);
// this module only turns the cart into the estimate's body and words and orders the rest. Pure, so jest
// checks it without a browser.
import type { Estimate, EstimateCart, Member, Program, ProgramReward } from './checkout-api';

/** Money as Shopify's extension APIs give it. */
export interface Money {
  amount: number;
  currencyCode: string;
}

/** The part of Shopify's CartLine the estimate reads. */
export interface CheckoutLine {
  merchandise: { id: string };
  quantity: number;
  cost: { totalAmount: Money };
  discountAllocations: ReadonlyArray<{ discountedAmount: Money }>;
}

/** The decimals of a currency (USD 2, JPY 0), as the shopper's browser knows them. */
export function currencyDigits(currency: string): number {
  try {
    return new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    return 2;
  }
}

const toMinor = (amount: number, digits: number) => Math.round(amount * 10 ** digits);
const toDecimal = (minor: number, digits: number) => (digits === 0 ? String(minor) : (minor / 10 ** digits).toFixed(digits));

/**
 * The cart as POST /shopper/estimate takes it: each line's unit price before discounts (what the line costs after
 * its discounts, plus those discounts, per unit), and the order's discount (every discount allocated to the lines
 * and to the cart). A line whose amount does not divide into whole minor units per unit is sent as one unit of its
 * whole amount: the estimate only reads price × quantity, so the points are the same. Null for an empty cart.
 * Shopify's checkout API does not say which lines are gift cards, so none is sent as one.
 */
export function estimateCart(
  lines: readonly CheckoutLine[],
  cartDiscounts: ReadonlyArray<{ discountedAmount: Money }>,
  currency: string,
): EstimateCart | null {
  const digits = currencyDigits(currency);
  let discount = cartDiscounts.reduce((sum, allocation) => sum + toMinor(allocation.discountedAmount.amount, digits), 0);
  const sent = lines
    .filter((line) => line.quantity > 0)
    .map((line) => {
      const lineDiscount = line.discountAllocations.reduce(
        (sum, allocation) => sum + toMinor(allocation.discountedAmount.amount, digits),
        0,
      );
      discount += lineDiscount;
      const whole = Math.max(0, toMinor(line.cost.totalAmount.amount, digits) + lineDiscount);
      const even = whole % line.quantity === 0;
      return {
        variant_id: line.merchandise.id,
        quantity: even ? line.quantity : 1,
        price: toDecimal(even ? whole / line.quantity : whole, digits),
        gift_card: false,
      };
    });
  if (sent.length === 0) return null;
  return { lines: sent, discount: toDecimal(discount, digits), currency };
}

/** How a reward's kind reads, as the account page names it ("$5 off", "Free shipping", "A free item worth $10"). */
export function rewardValue(
  reward: Pick<ProgramReward, 'discount_type' | 'discount_amount'>,
  amount: number,
  money: (value: number) => string,
  t: (key: string, replacements?: Record<string, string | number>) => string,
): string {
  if (reward.discount_type === 'free_shipping')
    return amount ? t('kind.freeShippingCap', { amount: money(amount) }) : t('kind.freeShipping');
  if (reward.discount_type === 'percentage') return t('kind.percentage', { amount });
  if (reward.discount_type === 'free_product') return t('kind.freeProduct', { amount: money(amount) });
  if (reward.discount_type === 'store_credit') return t('kind.storeCredit', { amount: money(amount) });
  return t('kind.fixed', { amount: money(amount) });
}

/** A flexible reward's discount for `points`: one unit per `points_per_unit`, rounded down to the cent. */
export function flexibleDiscount(reward: ProgramReward, points: number): number {
  const unit = reward.flexible?.points_per_unit ?? 1;
  return Math.floor((points / unit) * 100) / 100;
}

/** The most points a flexible reward takes from this balance, in its steps from its minimum. */
export function flexibleMost(reward: ProgramReward, balance: number): number {
  const flexible = reward.flexible;
  if (!flexible) return reward.points_cost;
  const step = flexible.points_per_unit ?? 1;
  return Math.max(
    flexible.min_points,
    flexible.min_points + Math.floor((Math.min(flexible.max_points, balance) - flexible.min_points) / step) * step,
  );
}

export interface CheckoutOffer {
  reward: ProgramReward;
  /** What a redemption spends at least: the cost, or a flexible reward's minimum. */
  cost: number;
}

/**
 * The rewards a member can spend on in checkout now: those the service would accept (`redeemable_reward_ids`),
 * but never store credit, which is credited to the customer's account rather than applied as a code
 * (docs/decisions.md, "Checkout spends points on codes only").
 */
export function checkoutOffers(program: Program, member: Member): CheckoutOffer[] {
  return program.rewards
    .filter((reward) => reward.discount_type !== 'store_credit' && member.redeemable_reward_ids.includes(reward.id))
    .map((reward) => ({ reward, cost: reward.flexible ? reward.flexible.min_points : reward.points_cost }));
}

export interface TierProgress {
  next: string;
  remaining: number;
  /** 0 to 100: lifetime progress from the current threshold (0 without a tier) to the next one. */
  percent: number;
}

export function tierProgress(member: Member, program: Program): TierProgress | null {
  const next = member.next_tier;
  if (!next) return null;
  const currentThreshold = program.vip_tiers.find((tier) => tier.id === member.vip_tier?.id)?.threshold ?? 0;
  const span = next.threshold - currentThreshold;
  const done = next.threshold - next.remaining - currentThreshold;
  const percent = span <= 0 ? 100 : Math.max(0, Math.min(100, Math.round((done / span) * 100)));
  return { next: next.name, remaining: next.remaining, percent };
}

/**
 * When the order's points arrive, as of when the order was placed: the estimate dates a pending award from the
 * moment it is asked (`askedAt`), the order from its own `processedAt`, so the order status page, visited days
 * later, moves the due date back by the time since the order. Null: approved at once.
 */
export function pointsDueAt(estimate: Estimate, askedAt: number, processedAt: string | null | undefined): string | null {
  if (estimate.points_due_at === null) return null;
  if (!processedAt) return estimate.points_due_at;
  const placed = Date.parse(processedAt);
  if (Number.isNaN(placed) || placed > askedAt) return estimate.points_due_at;
  return new Date(Date.parse(estimate.points_due_at) - (askedAt - placed)).toISOString();
}
