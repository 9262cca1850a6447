// What an order of a cart would earn for the verified shopper, before it is placed (SURFACES-CONTRACT.md,
// POST /shopper/estimate): the order engine's own figures, never a second calculation. The cart becomes the
// figures a paid order of it would carry (its lines with the order-level discount allocated as Shopify
// allocates it) and goes through `eligibleAmounts` (platform/eligible-amount.ts), as the webhook's order does;
// the eligible amount is priced with the shopper's purchase rates (`earningFigures`, `purchasePoints`), which
// the engine's order pricing shares; when the points arrive is the engine's `purchasePointsTiming`. Read-only.
import type { CustomerRecord } from '../domain/customer';
import { earningFigures, purchasePoints } from '../domain/earning-offer';
import { decimalToMinor, formatMinorUnits, minorDigits } from '../domain/money';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { purchasePointsTiming } from '../orders/order-state';
import { eligibleAmounts, type EligibleOrderFigures } from '../platform/eligible-amount';

/** One cart line, amounts in minor units of the shop's currency: the unit price, and the line's tax for all its units. */
export interface EstimateLine {
  quantity: number;
  unitPriceMinor: number;
  giftCard: boolean;
  taxMinor: number;
}

/** The cart of POST /shopper/estimate: its lines and its order-level discount, minor units of the shop's currency. */
export interface EstimateCart {
  lines: EstimateLine[];
  discountMinor: number;
}

export interface OrderEstimate {
  points: number;
  status: 'pending' | 'approved';
  points_due_at: string | null;
  /** The eligible amount, a decimal string of the shop's currency. */
  eligible_amount: string;
}

/**
 * Spreads an order-level discount over amounts in proportion to them, in minor units, as Shopify allocates an
 * order's discount across its lines: each gets its share rounded down, and the minor units left go one each to
 * the largest remainders (the earliest line on a tie). Never more than the amounts hold in all.
 */
export function allocateDiscount(amounts: readonly number[], discount: number): number[] {
  const total = amounts.reduce((sum, amount) => sum + amount, 0);
  const spread = Math.min(discount, total);
  if (spread <= 0) return amounts.map(() => 0);
  // BigInt: amount × discount may pass 2^53 for a large cart.
  const exact = amounts.map((amount) => BigInt(amount) * BigInt(spread));
  const shares = exact.map((value) => Number(value / BigInt(total)));
  let left = spread - shares.reduce((sum, share) => sum + share, 0);
  const order = exact
    .map((value, index) => ({ index, remainder: value % BigInt(total) }))
    .sort((a, b) => (a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1));
  for (const { index } of order) {
    if (left === 0) break;
    shares[index]! += 1;
    left -= 1;
  }
  return shares;
}

/**
 * The figures a paid order of the cart would carry: each line's unit price, quantity and tax, the order-level
 * discount allocated over the lines that are not gift cards (Shopify discounts never apply to gift cards, so
 * a gift-card line is taken out at its full price; a discount larger than the other lines is capped at them),
 * and the subtotal after discounts. The shop's prices include tax or not as its settings say.
 */
export function cartOrderFigures(cart: EstimateCart, currency: string, taxesIncluded: boolean): EligibleOrderFigures {
  const money = (minor: number) => formatMinorUnits(minor, currency);
  const discountable = cart.lines.map((line) => (line.giftCard ? 0 : line.unitPriceMinor * line.quantity));
  const discounts = allocateDiscount(discountable, cart.discountMinor);
  const subtotal = cart.lines.reduce((sum, line, index) => sum + line.unitPriceMinor * line.quantity - discounts[index]!, 0);
  return {
    subtotal: money(subtotal),
    taxesIncluded,
    lines: cart.lines.map((line, index) => ({
      giftCard: line.giftCard,
      unitPrice: money(line.unitPriceMinor),
      quantity: line.quantity,
      discounts: discounts[index]! > 0 ? [money(discounts[index]!)] : [],
      taxes: line.taxMinor > 0 ? [money(line.taxMinor)] : [],
    })),
    refunds: [],
    currentSubtotal: null,
  };
}

/**
 * What an order of the cart paid at `now` would earn: for a member, at their tier and the running campaign;
 * for a guest or a customer who has not joined, what a new member without a tier would earn (no signup
 * points); for an excluded member nothing. Points that would wait for the shop's return window are `pending`
 * until `points_due_at`; no points means nothing waits (`approved`, no due date).
 */
export function estimateOrder(shop: ShopCatalog, member: CustomerRecord | null, cart: EstimateCart, now: Date): OrderEstimate {
  const { currency } = shop.settings;
  const settings = shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS;
  const { eligible } = eligibleAmounts(cartOrderFigures(cart, currency, settings.taxes_included === true));
  const digits = minorDigits(currency);
  const eligibleMinor = decimalToMinor(eligible, digits);
  // As the order engine prices an order: the eligible amount in major units from its minor units.
  const points = purchasePoints(earningFigures(shop, member, now).purchase, eligibleMinor / 10 ** digits);
  const timing = points > 0 ? purchasePointsTiming(now.toISOString(), settings.pending_days) : purchasePointsTiming(now.toISOString(), 0);
  return { points, status: timing.status, points_due_at: timing.points_due_at, eligible_amount: formatMinorUnits(eligibleMinor, currency) };
}
