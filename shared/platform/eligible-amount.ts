// The eligible amount of an order (SHOPIFY-CONTRACT.md, "What an order earns"), one calculation for both
// order sources: the subtotal after discounts, less the line taxes it contains when the shop's prices
// include tax, less the gift-card lines (the money is spent again when the card is used), and what refunds
// took back of it on the same basis: each refund's lines less the money it did not return (its refund
// discrepancies). The webhook and GraphQL mappers only gather the figures.
import { addAmounts, isNegativeAmount, multiplyAmount, subtractAmounts } from '../domain/money';
import type { PlatformRefundLine } from './port';

/** One line item as both sources describe it; amounts are decimal strings of the shop's currency. */
export interface EligibleLine {
  giftCard: boolean;
  unitPrice: string;
  quantity: number;
  /** Each discount allocated to the line (its share of order and code discounts). */
  discounts: string[];
  /** Each tax line of the line item. */
  taxes: string[];
}

/** One refunded line: its subtotal (after discounts) and the tax refunded with it. */
export type EligibleRefundLine = PlatformRefundLine;

/**
 * One refund: its lines and the amounts of its `refund_discrepancy` order adjustments, which Shopify writes
 * as the lines' value minus the money refunded (`-5.85` for 5.85 returned without any line).
 */
export interface EligibleRefund {
  lines: EligibleRefundLine[];
  discrepancies: string[];
}

export interface EligibleOrderFigures {
  subtotal: string;
  taxesIncluded: boolean;
  lines: EligibleLine[];
  /** Every refund; null when the source gave no refunds (then `currentSubtotal` decides). */
  refunds: EligibleRefund[] | null;
  /** The subtotal after refunds and edits, for a source without a refunds list. */
  currentSubtotal: string | null;
}

const ZERO = '0.00';

function atLeastZero(amount: string): string {
  return isNegativeAmount(amount) ? addAmounts(ZERO) : amount;
}

/** What a gift-card line cost the buyer: price times quantity less its discounts. */
function giftCardAmount(line: EligibleLine): string {
  return subtractAmounts(multiplyAmount(line.unitPrice, line.quantity), addAmounts(ZERO, ...line.discounts));
}

/** The part of refunded lines that had been eligible: gift cards left out, their tax too when it was included. */
export function refundedEligible(lines: EligibleRefundLine[], taxesIncluded: boolean): string {
  const counted = lines.filter((line) => !line.giftCard);
  const subtotal = addAmounts(ZERO, ...counted.map((line) => line.subtotal));
  return atLeastZero(taxesIncluded ? subtractAmounts(subtotal, addAmounts(ZERO, ...counted.map((line) => line.tax))) : subtotal);
}

/**
 * What one refund takes from the eligible amount: its lines on the eligible basis minus its refund
 * discrepancies, never below zero. (Never more than is still eligible: the order's state caps the sum.)
 */
export function refundTakes(refund: EligibleRefund, taxesIncluded: boolean): string {
  return atLeastZero(subtractAmounts(refundedEligible(refund.lines, taxesIncluded), addAmounts(ZERO, ...refund.discrepancies)));
}

/**
 * The eligible amount before refunds, how much of it refunds took back (never below zero, never above the
 * eligible amount), and what each refund takes, in the source's order (null without a refunds list).
 */
export function eligibleAmounts(figures: EligibleOrderFigures): { eligible: string; refunded: string; taken: string[] | null } {
  const tax = figures.taxesIncluded ? addAmounts(ZERO, ...figures.lines.flatMap((line) => line.taxes)) : ZERO;
  const giftCards = addAmounts(ZERO, ...figures.lines.filter((line) => line.giftCard).map(giftCardAmount));
  const eligible = atLeastZero(subtractAmounts(subtractAmounts(figures.subtotal, tax), giftCards));
  const taken = figures.refunds?.map((refund) => refundTakes(refund, figures.taxesIncluded)) ?? null;
  const refunded =
    taken !== null
      ? atMost(addAmounts(ZERO, ...taken), eligible)
      : atLeastZero(subtractAmounts(figures.subtotal, figures.currentSubtotal ?? figures.subtotal));
  return { eligible, refunded, taken };
}

function atMost(amount: string, limit: string): string {
  return isNegativeAmount(subtractAmounts(limit, amount)) ? limit : amount;
}
