// The shop's configuration as the domain sees it: settings, earning rules, campaigns, tiers, rewards.

export type LoyaltyMode = 'points' | 'store_credit';
export type EntryMethod = 'points' | 'spend' | 'orders';

export interface VipSettings {
  entry_method: EntryMethod;
  entry_methods_extra: EntryMethod[];
  entry_logic: 'AND' | 'OR';
  points_multiplier_mode: 'purchase' | 'all' | null;
}

export interface PointsExpiry {
  mode: 'batch' | 'inactivity';
  days: number;
}

/** How orders earn over time (EARNING-CONTRACT.md): the return window and the expiry of points. */
export interface EarningSettings {
  /** Order points wait this many days before they are approved; 0 approves them at once. */
  pending_days: number;
  points_expiry: PointsExpiry | null;
  expiry_reminder_days: number;
  /**
   * customers/create enrols the new platform customer, and an order of a platform customer who is not a
   * member enrols them first (SHOPIFY-CONTRACT.md, "Topics"). Absent on settings written before it: off.
   */
  auto_enroll?: boolean;
  /** Test orders (`test: true`) earn and count as spend like any order. Absent on older settings: off. */
  count_test_orders?: boolean;
  /**
   * The shop's prices include tax: what a cart would earn (POST /shopper/estimate) is counted without its lines'
   * tax, as a paid order with `taxes_included` is. A paid order says it itself. Absent on older settings: off.
   */
  taxes_included?: boolean;
}

export const DEFAULT_EARNING_SETTINGS: EarningSettings = {
  pending_days: 0,
  points_expiry: null,
  expiry_reminder_days: 30,
  auto_enroll: false,
  count_test_orders: false,
  taxes_included: false,
};

/** The shop enrols platform customers by itself (customers/create, and orders of non-members). */
export function autoEnrolls(settings: ShopSettings): boolean {
  return (settings.earning_settings ?? DEFAULT_EARNING_SETTINGS).auto_enroll === true;
}

/** The referred friend's reward (POST /v1/referrals): a single-use code from `friend_reward_id`, no points charged. */
export interface ReferralSettings {
  friend_reward_id: string;
  /** How many friends one referrer may refer in a UTC day. */
  max_friends_per_day: number;
}

export interface ShopSettings {
  id: string;
  name: string;
  loyalty_mode: LoyaltyMode;
  currency: string;
  referral_base_url: string;
  vip_settings: VipSettings;
  /** Absent on settings written before the earning engine existed: the defaults apply. */
  earning_settings?: EarningSettings;
  /** Null or absent: referred friends get nothing, and POST /v1/referrals is refused. */
  referral_settings?: ReferralSettings | null;
  /**
   * Set by app/uninstalled: the store removed the app, so nothing may ask the platform for anything until
   * the shop's configuration is applied again (which writes the settings without it).
   */
  uninstalled_at?: string | null;
  /**
   * The app was granted `read_all_orders`: without it Shopify shows an app the last 60 days of orders only,
   * so reconciliation never asks further back (SHOPIFY-CONTRACT.md). Absent on older settings: not granted.
   */
  read_all_orders?: boolean;
  /** What the program's figures take from the configuration; absent on older settings: no point value set. */
  analytics?: { point_value: string | null };
}

export interface EarningRule {
  id: string;
  name: string;
  description: string | null;
  action: string;
  category: string;
  is_active: boolean;
  points_to_give: number;
  customer_facing_label: string;
  call_to_action_url: string | null;
  created_at: string;
  /** Purchase rules: points_to_give per whole spend_unit of the eligible amount; null or absent: per order. */
  spend_unit?: number | null;
  /** Action rules (earned through POST .../actions): how often a member may earn it; absent: once per lifetime. */
  limit?: ActionLimit | null;
}

/** The calendar periods an action's limit counts in (UTC; weeks are ISO weeks, from Monday). */
export const ACTION_LIMIT_PERIODS = ['lifetime', 'day', 'week', 'month', 'year'] as const;
export type ActionLimitPeriod = (typeof ACTION_LIMIT_PERIODS)[number];

/** At most `times` awards of one action rule per member and `per` period. */
export interface ActionLimit {
  times: number;
  per: ActionLimitPeriod;
}

export interface Campaign {
  id: string;
  name: string;
  multiplier: number;
  starts_at: string;
  ends_at: string;
}

export interface VipTier {
  id: string;
  name: string;
  description: string;
  threshold_points: number | null;
  threshold_spend: number | null;
  threshold_orders: number | null;
  points_multiplier: number;
  position: number;
  badge_image_url: string | null;
  badge_color: string;
  reward_ids: string[];
  created_at: string;
}

export interface FlexibleConfig {
  min_points: number;
  max_points: number;
  points_per_unit: number;
}

/**
 * What a reward gives (docs/program.md#reward-kinds): a code worth an amount (`fixed`) or a percentage off, a code
 * for free shipping, a code that frees one unit of one product variant, or money credited to the member's
 * Shopify store credit account (no code).
 */
export const REWARD_KINDS = ['fixed', 'percentage', 'free_shipping', 'free_product', 'store_credit'] as const;
export type RewardKind = (typeof REWARD_KINDS)[number];

export interface Reward {
  id: string;
  name: string;
  description: string | null;
  discount_type: RewardKind;
  reward_type: 'standard' | 'vip' | 'entry';
  redemption_mode: 'fixed' | 'flexible';
  points_cost: number;
  discount_amount: number;
  minimum_spend: number;
  is_active: boolean;
  deleted: boolean;
  max_redemptions: number | null;
  expiry_days: number | null;
  vip_tier_id: string | null;
  flexible_config: FlexibleConfig | null;
  /** The platform's product variant a `free_product` reward makes free; null for the other kinds. */
  product_variant_id: string | null;
  created_at: string;
}

/** Everything a handler needs to know about a shop, read in one query and cached per warm function. */
export interface ShopCatalog {
  settings: ShopSettings;
  earningRules: EarningRule[];
  campaigns: Campaign[];
  tiers: VipTier[];
  rewards: Reward[];
}
