// Points an earning rule gives once the VIP tier and the active bonus campaign are applied. Pure.
import type { Campaign, EarningRule, VipSettings, VipTier } from '../domain/shop';

/** The campaign running at `now` (starts_at <= now < ends_at); of several, the highest multiplier. */
export function activeCampaign(campaigns: readonly Campaign[], now: Date): Campaign | null {
  const time = now.getTime();
  const running = campaigns.filter((c) => Date.parse(c.starts_at) <= time && time < Date.parse(c.ends_at));
  running.sort((a, b) => b.multiplier - a.multiplier || Date.parse(a.starts_at) - Date.parse(b.starts_at));
  return running[0] ?? null;
}

/** A tier boosts every rule, except in `purchase` multiplier mode, where it boosts purchase rules only. */
export function tierBoostApplies(rule: EarningRule, tier: VipTier | null, vipSettings: VipSettings): boolean {
  if (!tier) return false;
  return vipSettings.points_multiplier_mode !== 'purchase' || rule.category === 'purchase';
}

export interface EarningRulePoints {
  points: number;
  base_points: number;
  tier_boost: number | null;
  campaign_boost: number | null;
}

/**
 * Rounding: the multipliers are applied to the base points first and the product is rounded once,
 * half away from zero (5 x 1.25 = 6.25 -> 6; 5 x 1.5 = 7.5 -> 8). The product is first snapped to
 * 9 decimals so binary float noise (5 x 1.1 x 3 = 16.500000000000004) cannot move a result.
 */
export function earningRulePoints(
  rule: EarningRule,
  context: { tier: VipTier | null; campaign: Campaign | null; vipSettings: VipSettings },
): EarningRulePoints {
  const tierBoost = tierBoostApplies(rule, context.tier, context.vipSettings) ? context.tier!.points_multiplier : null;
  const campaignBoost = context.campaign ? context.campaign.multiplier : null;
  const product = Math.round(rule.points_to_give * (tierBoost ?? 1) * (campaignBoost ?? 1) * 1e9) / 1e9;
  const points = Math.sign(product) * Math.round(Math.abs(product));
  return { points: points === 0 ? 0 : points, base_points: rule.points_to_give, tier_boost: tierBoost, campaign_boost: campaignBoost };
}
