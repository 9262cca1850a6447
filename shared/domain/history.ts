// Earning and reward history entries as stored on the customer's partition.

import type { RewardKind } from './shop';

export type EarningStatus = 'pending' | 'approved' | 'rejected';

/** Who made a write through the staff routes (`/admin/api`): the staff user the admin ID token names. */
export interface StaffActor {
  type: 'staff';
  id: string;
}
/** An API key that made a change through /v1: its id and its name when the write was made. */
export interface ApiKeyActor {
  type: 'api_key';
  id: string;
  name: string;
}
/** Who made a change by request: a staff user (/admin/api) or an API key (/v1). */
export type RequestActor = StaffActor | ApiKeyActor;
/** The signed-in shopper, on their own redemption (/shopper). */
export interface CustomerActor {
  type: 'customer';
}
/** Who made a redemption: a requester, or the shopper themselves. */
export type PurchaseActor = RequestActor | CustomerActor;
/**
 * Who an entry is by, as staff answers say it: the recorded requester (or `customer`, the shopper's own
 * redemption), or `shopify` (an order, a customer webhook) or `system` (a scheduled job, the configuration, an import), or `unknown` (a request of before
 * requesters were recorded).
 */
export type EntryActor = PurchaseActor | { type: 'shopify' } | { type: 'system' } | { type: 'unknown' };
export type RewardStatus = 'active' | 'used' | 'expired';

export interface EarningEntry {
  id: string;
  earning_rule_id: string | null;
  action: string;
  points: number;
  base_points: number;
  points_multiplier: number;
  status: EarningStatus;
  order_id: string | null;
  order_number: string | null;
  /**
   * An order entry's channel (Shopify's `source_name`: `web`, `pos`...): read by staff (`/admin/api` answers'
   * `order_source_name`), never in `/v1` answers. Absent on other entries and on order entries made before it was kept.
   */
  order_source_name?: string | null;
  points_due_at: string | null;
  points_given_at: string | null;
  points_expiry_at: string | null;
  created_at: string;
  updated_at: string;
  /**
   * Who made the entry by request: a staff user (SURFACES-CONTRACT.md) or an API key, on a manual adjustment
   * or a redemption's refund. Absent on the entries of orders, webhooks and jobs.
   */
  actor?: RequestActor;
}

export interface RewardEntry {
  id: string;
  reward_id: string;
  reward_name: string;
  reward_discount_type: string;
  points_spent: number;
  /** The code the member uses at checkout; null for a `store_credit` entry, which has none. */
  discount_code: string | null;
  status: RewardStatus;
  is_refunded: boolean;
  discount_code_redeemed_at: string | null;
  redeemed_at: string;
  expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** A `store_credit` entry's Shopify store credit transaction (the credit); absent for the code kinds. */
  store_credit_transaction_id?: string;
}

export interface PurchaseDiscount {
  type: RewardKind;
  value: number;
  minimum_spend: number;
  product_variant_id?: string;
}

export type PurchaseStatus = 'pending' | 'active' | 'refunded';

/** A reward-history entry as the saga stores it: the API fields plus what settling it needs. */
export interface PurchaseRecord extends Omit<RewardEntry, 'status'> {
  status: PurchaseStatus | RewardEntry['status'];
  shop_id: string;
  customer_id: string;
  platform_discount_id: string | null;
  /**
   * Discount definition sent to the platform (kept so the purchase can be audited): the kind, its value (the
   * amount, the percentage, the shipping cap (0: none), the variant's price, the money credited), the minimum
   * spend and, for `free_product`, the variant.
   */
  discount: PurchaseDiscount;
  /**
   * A `store_credit` purchase: when its one credit was sent to the platform (recorded before sending). Set,
   * the credit may exist, and whoever settles the purchase looks for it instead of crediting again.
   */
  store_credit_sent_at?: string;
  /** A `store_credit` entry's undo: when its one debit was sent (recorded before sending), as for the credit. */
  store_credit_debit_sent_at?: string;
  /** The debit transaction of an undone `store_credit` entry. */
  store_credit_debit_transaction_id?: string;
  /** Whether the purchase counts against the reward's max_redemptions. */
  counted: boolean;
  /** Set on a refund whose code may exist on the platform (unreachable while creating it). */
  code_cleanup?: boolean;
  /**
   * When an undo of the redemption started (before its code is deleted), until it commits or the code is
   * known to be there again: while set on an active, unrefunded entry, the reconciler checks its code.
   */
  refund_started_at?: string | null;
  refund_reason?: string;
  /** Who made the redemption (absent on one made before requesters were recorded). */
  actor?: PurchaseActor;
}

/** What makes one earning entry different from another approved at the same moment. */
export type ApprovedEntryFields = Pick<EarningEntry, 'id' | 'earning_rule_id' | 'action' | 'points' | 'base_points' | 'points_multiplier'> &
  Partial<Pick<EarningEntry, 'order_id' | 'order_number' | 'actor'>>;

/**
 * An entry approved at `now`, given at once (manual adjustments, signup, referral, order points without
 * a return window): one place decides the dates and defaults such an entry carries.
 */
export function approvedEntry(fields: ApprovedEntryFields, now: string): EarningEntry {
  return {
    order_id: null,
    order_number: null,
    ...fields,
    status: 'approved',
    points_due_at: null,
    points_given_at: now,
    points_expiry_at: null,
    created_at: now,
    updated_at: now,
  };
}
