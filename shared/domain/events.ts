// The domain events a member's changes produce, as marketing integrations receive them; where they are
// published is the event adapter's (shared/events/domain-events.ts).

export interface PointsAdjustedEvent {
  type: 'points.adjusted';
  shop_id: string;
  customer_id: string;
  requested_adjustment: number;
  adjustment: number;
  points_before: number;
  points_after: number;
  lifetime_points: number;
  earning_history_entry_id: string;
  send_email: boolean;
  occurred_at: string;
}

export interface TierChangedEvent {
  type: 'tier.changed';
  shop_id: string;
  customer_id: string;
  from_tier_id: string | null;
  to_tier_id: string | null;
  send_email: boolean;
  occurred_at: string;
}

/**
 * What orders, referrals (the referrer's award, and a referred friend's code), privacy requests, customer merges and a redemption's refund publish
 * (docs/earning-engine.md lists the fields of each).
 */
export interface EarningEvent {
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
    | 'customer.merged';
  shop_id: string;
  customer_id: string;
  occurred_at: string;
  [field: string]: unknown;
}

export type DomainEvent = PointsAdjustedEvent | TierChangedEvent | EarningEvent;
