// What a member's order counts for in money, from its merged state (shared/orders/order-state.ts keeps the
// state; the program's figures read the same amount from the order's item): pure, over the fields it needs.

/** The refunds an order's state knows, by id, and the newest snapshot's refunded aggregate; minor units. */
export interface OrderRefunds {
  refunds: Record<string, { minor: number }>;
  aggregate_refunded_minor: number;
}

/**
 * What refunds took of the eligible amount: the refunds known by id, each counted once. A snapshot that lists
 * its refunds adds them to those, so its aggregate is never more; only a source without a refunds list gives
 * an aggregate of refunds without ids, which then counts when it is the larger (none of them counted twice).
 */
export function effectiveRefundedMinor(facts: OrderRefunds): number {
  const byId = Object.values(facts.refunds).reduce((sum, refund) => sum + refund.minor, 0);
  return Math.max(byId, facts.aggregate_refunded_minor);
}

/** The eligible amount of an order that counts, minor units: its subtotal less what refunds took, never below 0. */
export function countedAmountMinor(facts: OrderRefunds & { subtotal_minor: number }): number {
  return Math.max(0, facts.subtotal_minor - effectiveRefundedMinor(facts));
}
