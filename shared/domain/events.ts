// The domain events a member's changes produce, as marketing integrations receive them
// (../../docs/events.md, EVENTS-CONTRACT.md). An event is committed in the transaction of its change
// (shared/data/commit.ts, `events`), which gives it its `id` and `notify`; the table's stream delivers it.

/** What an e-mail needs about the member, without another read: the profile after the change. */
export interface MemberFacts {
  email: string;
  first_name: string;
  /** The balance after the change. */
  points_balance: number;
  tier: { id: string; name: string } | null;
}

/** The member facts of `record` (the profile after the change), its tier named from the shop's tiers. */
export function memberFacts(
  record: { email: string; first_name: string; current_points: number; vip_tier_id: string | null },
  tiers: ReadonlyArray<{ id: string; name: string }>,
): MemberFacts {
  const tier = record.vip_tier_id === null ? undefined : tiers.find((candidate) => candidate.id === record.vip_tier_id);
  return {
    email: record.email,
    first_name: record.first_name,
    points_balance: record.current_points,
    tier: tier ? { id: tier.id, name: tier.name } : null,
  };
}

/** What every event may carry besides its type's own fields; `id` and `notify` are set when it is committed. */
export interface EventCommon extends Partial<Omit<MemberFacts, 'email'>> {
  /** The member's address (`referral.created`'s is the referrer's; the friend's is its `friend_email`: docs/earning-engine.md). */
  email?: string | null;
  /** Unique and stable: a redelivery carries the same id. */
  id?: string;
  /** False when the change came with `send_email: false`; otherwise true. */
  notify?: boolean;
}

export interface PointsAdjustedEvent extends EventCommon {
  type: 'points.adjusted';
  shop_id: string;
  customer_id: string;
  requested_adjustment: number;
  adjustment: number;
  points_before: number;
  points_after: number;
  lifetime_points: number;
  earning_history_entry_id: string;
  /** When the adjustment's entry gave (or took) the points: the day the program's figures count it on. */
  points_given_at?: string | null;
  send_email: boolean;
  occurred_at: string;
}

export interface TierChangedEvent extends EventCommon {
  type: 'tier.changed';
  shop_id: string;
  customer_id: string;
  from_tier_id: string | null;
  to_tier_id: string | null;
  send_email: boolean;
  occurred_at: string;
}

/**
 * A member's order counted differently by the program (the program's figures, SURFACES-CONTRACT.md): first
 * counted when paid, its eligible amount lowered by a refund, or no longer counted when cancelled. Committed
 * with the order's effects; the amounts are decimal strings of `currency` (docs/events.md).
 */
export interface OrderCountedEvent extends EventCommon {
  type: 'order.counted';
  shop_id: string;
  customer_id: string;
  order_id: string;
  order_number: string;
  /** When the order was paid (its processed time): the day the figures count it on. */
  paid_at: string;
  currency: string;
  /** The order counts now (paid, not cancelled, not a test order the shop leaves out), and did before this change. */
  counted: boolean;
  counted_before: boolean;
  /** The eligible amount the order counts for now, and before this change ("0.00" while it does not count). */
  eligible_amount: string;
  eligible_amount_before: string;
  /** The order used a reward code of this program (a referred friend's code is not one). */
  reward_code_used: boolean;
  /** The member's counted orders (imported counts included) before and after this change. */
  orders_count_before: number;
  orders_count: number;
  occurred_at: string;
}

/**
 * What orders, referrals (the referrer's award, and a referred friend's code), privacy requests, customer merges and a redemption's refund publish
 * (docs/earning-engine.md lists the fields of each).
 */
export interface EarningEvent extends EventCommon {
  type:
    | 'points.pending'
    | 'points.approved'
    | 'points.removed'
    | 'points.expiring_soon'
    | 'points.expired'
    | 'reward.used'
    | 'reward.expired'
    | 'reward.refunded'
    | 'referral.created'
    | 'referral.completed'
    | 'customer.data_requested'
    | 'customer.merged'
    | 'customer.enrolled'
    | 'customer.erased'
    | 'reward.purchased'
    | 'points.earned'
    | 'import.undone';
  shop_id: string;
  customer_id: string;
  occurred_at: string;
  [field: string]: unknown;
}

export type DomainEvent = PointsAdjustedEvent | TierChangedEvent | OrderCountedEvent | EarningEvent;

/** An event as committed and delivered: with its id and whether it may start an e-mail. */
export type CommittedEvent = DomainEvent & { id: string; notify: boolean };

/** `notify` as the contract carries it from the change's `send_email` (absent: true). */
export const notifyOf = (event: DomainEvent): boolean =>
  event.notify ??
  (typeof (event as { send_email?: unknown }).send_email === 'boolean' ? (event as { send_email: boolean }).send_email : true);

/** The events of one change, each with the member facts of the profile after it (`memberFacts`). */
export const withMemberFacts = <E extends DomainEvent>(
  events: readonly E[],
  record: Parameters<typeof memberFacts>[0],
  tiers: Parameters<typeof memberFacts>[1],
): E[] => {
  const facts = memberFacts(record, tiers);
  return events.map((event) => ({ ...event, ...facts }));
};
