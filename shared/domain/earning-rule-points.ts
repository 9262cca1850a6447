// Points an earning rule gives once the customer's VIP tier and the running bonus campaign are applied.
// Pure: no clock, no I/O, so the multiplier and rounding rules are testable on their own.
import type { CustomerRecord } from './customer';
import type { Campaign, EarningRule, ShopCatalog, VipSettings, VipTier } from './shop';
import { resolveTier } from './tiers';

/**
 * The campaign running at `now` (starts_at <= now < ends_at, so back-to-back campaigns never overlap).
 * Campaigns do not stack: of several running, the highest multiplier wins, and of equal multipliers the
 * one that started first, so the answer does not depend on configuration order.
 */
export function activeCampaign(campaigns: readonly Campaign[], now: Date): Campaign | null {
  const time = now.getTime();
  const running = campaigns.filter((c) => Date.parse(c.starts_at) <= time && time < Date.parse(c.ends_at));
  running.sort((a, b) => b.multiplier - a.multiplier || Date.parse(a.starts_at) - Date.parse(b.starts_at));
  return running[0] ?? null;
}

/** A tier boosts every rule, except in `purchase` multiplier mode, where it boosts purchase rules only. */
export function tierBoostApplies(rule: Pick<EarningRule, 'category'>, tier: VipTier | null, vipSettings: VipSettings): boolean {
  if (!tier) return false;
  return vipSettings.points_multiplier_mode !== 'purchase' || rule.category === 'purchase';
}

export interface EarningRulePoints {
  points: number;
  base_points: number;
  tier_boost: number | null;
  campaign_boost: number | null;
}

export interface EarningRuleContext {
  /** The customer's qualifying tier; null without a customer, below the lowest tier, or excluded. */
  tier: VipTier | null;
  campaign: Campaign | null;
  vipSettings: VipSettings;
}

/**
 * What prices a shop's rules for a customer at `now`: the tier the member's balance reaches (none without a
 * customer, and none for an excluded one: they are outside the program) and the running campaign. GET
 * /v1/earning-rules shows its points with this, and POST .../actions awards them with it.
 */
export function earningRuleContext(shop: ShopCatalog, customer: CustomerRecord | null, now: Date): EarningRuleContext {
  const vipSettings = shop.settings.vip_settings;
  return {
    tier: customer && customer.status === 'member' ? resolveTier(customer, shop.tiers, vipSettings) : null,
    campaign: activeCampaign(shop.campaigns, now),
    vipSettings,
  };
}

/** Rounds to a whole number, half away from zero, after snapping float noise off the 9th decimal. */
function roundPoints(value: number): number {
  const snapped = Math.round(value * 1e9) / 1e9;
  const rounded = Math.sign(snapped) * Math.round(Math.abs(snapped));
  return rounded === 0 ? 0 : rounded; // never -0 in JSON-bound numbers
}

/** Base points times the tier's and the campaign's multipliers (null: none), rounded once as below. */
export function boostedPoints(base: number, tierBoost: number | null, campaignBoost: number | null): number {
  return roundPoints(base * (tierBoost ?? 1) * (campaignBoost ?? 1));
}

/**
 * Rounding rule: multiply base points by every multiplier first and round once at the end, half away
 * from zero (5 x 1.25 = 6.25 -> 6; 5 x 1.5 = 7.5 -> 8). Rounding per multiplier would drift from what a
 * person computes by hand. Binary floats make 50 x 1.15 come out as 57.49999999999999 and
 * 5 x 1.1 x 3 as 16.500000000000004, so the product is snapped to 9 decimals before rounding:
 * both are exact halves and give 58 and 17.
 */
export function earningRulePoints(rule: Pick<EarningRule, 'points_to_give' | 'category'>, context: EarningRuleContext): EarningRulePoints {
  const { tier, campaign, vipSettings } = context;
  const tierBoost = tier && tierBoostApplies(rule, tier, vipSettings) ? tier.points_multiplier : null;
  const campaignBoost = campaign ? campaign.multiplier : null;
  return {
    points: boostedPoints(rule.points_to_give, tierBoost, campaignBoost),
    base_points: rule.points_to_give,
    tier_boost: tierBoost,
    campaign_boost: campaignBoost,
  };
}
