// A loyalty member as stored: figures, status, dates and referral code.
import { calendarDateOf } from './dates';
import type { RequestActor } from './history';

export type LoyaltyStatus = 'member' | 'excluded';
export const LOYALTY_STATUSES: readonly LoyaltyStatus[] = ['member', 'excluded'];

export interface CustomerRecord {
  shop_id: string;
  platform_customer_id: string;
  email: string;
  first_name: string;
  last_name: string;
  current_points: number;
  lifetime_points: number;
  redeemed_points: number;
  status: LoyaltyStatus;
  /** `YYYY-MM-DD` or null. */
  date_of_birth: string | null;
  /** `YYYY-MM-DD` or null; defaults to the platform account's creation date. */
  anniversary_date: string | null;
  referral_code: string;
  /** Tier inputs besides lifetime points (spend in major currency units, orders as a count). */
  total_spend: number;
  orders_count: number;
  /** Tier last written with the figures; the API recomputes the tier from the current configuration. */
  vip_tier_id: string | null;
  platform_created_at: string | null;
  created_at: string;
  updated_at: string;
  // The points calendar (points-ledger.ts); internal, never part of the API's fields.
  /** Sum of every expiry batch ever given; absent on profiles written before batches existed. */
  points_batch_total?: number;
  /** Last earning or spending (inactivity expiry counts from it). */
  points_last_activity_at?: string | null;
  /** When the whole balance expires for inactivity, as written with the last activity. */
  points_expire_at?: string | null;
  /** The inactivity deadline a `points.expiring_soon` went out for (once per period). */
  points_expiry_reminded_for?: string | null;
  /** Calendar year of the last birthday award. */
  birthday_awarded_year?: number | null;
  /** The platform's `updated_at` of the e-mail and names last taken from customers/update. */
  platform_updated_at?: string | null;
  // The points write queue (docs/architecture.md#one-hot-customer); internal, never part of the API's fields.
  /** Adjustments accepted and not committed yet, oldest first: whichever writer commits next applies them all. */
  points_queue?: QueuedAdjustment[];
  /** What the last commit of the queue applied, one receipt per adjustment, for the writers that were waiting. */
  points_receipts?: AdjustmentReceipt[];
}

/** The platform customer a member is enrolled from. */
export interface EnrollingCustomer {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  createdAt: string | null;
}

/**
 * A member just enrolled, nothing earned yet: the platform customer's details, the anniversary from the
 * platform account's creation, member since `since` (the enrolment, or an earlier date the caller has).
 */
export function newMemberRecord(
  shopId: string,
  customer: EnrollingCustomer,
  dates: { since: string; now: string },
  referralCode: string,
): CustomerRecord {
  return {
    shop_id: shopId,
    platform_customer_id: customer.id,
    email: customer.email,
    first_name: customer.firstName,
    last_name: customer.lastName,
    current_points: 0,
    lifetime_points: 0,
    redeemed_points: 0,
    status: 'member',
    date_of_birth: null,
    anniversary_date: calendarDateOf(customer.createdAt),
    referral_code: referralCode,
    total_spend: 0,
    orders_count: 0,
    vip_tier_id: null,
    platform_created_at: customer.createdAt,
    created_at: dates.since,
    updated_at: dates.now,
  };
}

/** A manual points adjustment waiting in its member's queue: everything needed to apply it and write its entry. */
export interface QueuedAdjustment {
  /** The id of the earning-history entry it writes: applied at most once, with that entry, in one transaction. */
  id: string;
  adjustment: number;
  update_lifetime_points: boolean;
  note: string | null;
  send_email: boolean;
  /** When it was accepted: its entry's `created_at` and its events' `occurred_at`. */
  at: string;
  /** Made by staff through /admin/api: who, kept on its entry. */
  actor?: RequestActor;
}

/** What a committed adjustment did, as the writer that asked for it answers. */
export interface AdjustmentReceipt {
  id: string;
  applied: number;
  before: number;
  after: number;
}

/** What the platform tells about a member (customers/update): the program follows it. */
export interface PlatformDetails {
  email?: string;
  first_name?: string;
  last_name?: string;
  /** The platform's `updated_at` of the details: an older customers/update never overwrites a newer one. */
  platform_updated_at?: string | null;
}

/** Any change of a member's profile other than its points: the API's fields and the platform's. */
export type MemberChanges = CustomerChanges & PlatformDetails;

/** The fields of a customer that PUT may change. */
export interface CustomerChanges {
  date_of_birth?: string | null;
  anniversary_date?: string | null;
  status?: LoyaltyStatus;
}
