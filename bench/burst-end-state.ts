// What the webhook burst's orders must leave on every member, computed from the order amounts and the
// purchase rule alone (integer minor units, none of the engine's code), and the comparison with what is stored.

/** One paid order of the burst: whose it is and its subtotal in minor units (cents). */
export interface BurstOrder {
  customerId: string;
  subtotalMinor: number;
}

/** The burst shop's one purchase rule: `points` per whole `unitMinor` of the subtotal. */
export interface BurstRule {
  points: number;
  unitMinor: number;
}

/** A member's balance as the check compares them; `total_spend` in currency units, to the cent. */
export interface MemberFigures {
  current_points: number;
  lifetime_points: number;
  orders_count: number;
  total_spend: number;
  earning_entries: number;
}

const FIELDS = ['current_points', 'lifetime_points', 'orders_count', 'total_spend', 'earning_entries'] as const;

/**
 * Every customer's figures after the orders, for members who started at zero in a shop without tiers or
 * campaigns and with `pending_days` 0: each order counts once and adds its subtotal to the spend; an order
 * worth at least one unit adds one approved entry of floor(subtotal / unit) × points; a smaller one adds
 * no entry. Customers without an order keep zeros.
 */
export function expectedEndState(
  customerIds: readonly string[],
  orders: readonly BurstOrder[],
  rule: BurstRule,
  minorDigits = 2,
): Map<string, MemberFigures> {
  const spendMinor = new Map<string, number>();
  const figures = new Map<string, MemberFigures>(
    customerIds.map((id) => [id, { current_points: 0, lifetime_points: 0, orders_count: 0, total_spend: 0, earning_entries: 0 }]),
  );
  for (const order of orders) {
    const member = figures.get(order.customerId);
    if (!member) throw new Error(`order for customer ${order.customerId}, who is not among the burst's customers`);
    const points = Math.floor(order.subtotalMinor / rule.unitMinor) * rule.points;
    member.orders_count += 1;
    spendMinor.set(order.customerId, (spendMinor.get(order.customerId) ?? 0) + order.subtotalMinor);
    if (points > 0) {
      member.current_points += points;
      member.lifetime_points += points;
      member.earning_entries += 1;
    }
  }
  for (const [id, minor] of spendMinor) figures.get(id)!.total_spend = minor / 10 ** minorDigits;
  return figures;
}

/**
 * One line per customer whose stored figures differ from the expected ones (a missing profile counts as
 * a mismatch); empty when the end state is exact. Spend is compared to the cent.
 */
export function endStateMismatches(
  expected: ReadonlyMap<string, MemberFigures>,
  actual: ReadonlyMap<string, MemberFigures | null>,
): string[] {
  const lines: string[] = [];
  for (const [id, want] of expected) {
    const got = actual.get(id);
    if (!got) {
      lines.push(`customer ${id}: no profile`);
      continue;
    }
    const differences = FIELDS.filter((field) =>
      field === 'total_spend' ? Math.round(got[field] * 100) !== Math.round(want[field] * 100) : got[field] !== want[field],
    );
    if (differences.length > 0)
      lines.push(`customer ${id}: ${differences.map((field) => `${field} ${got[field]} (expected ${want[field]})`).join(', ')}`);
  }
  return lines;
}
