// JSON:API form of a VIP tier with the rewards attached to it, and the meta of the tier listing.
import type { Reward, ShopSettings, VipTier } from '../domain/shop';
import { primaryThreshold } from '../domain/tiers';

function tierReward(reward: Reward) {
  return {
    id: reward.id,
    name: reward.name,
    description: reward.description,
    discount_type: reward.discount_type,
    reward_type: reward.reward_type,
    points_cost: reward.points_cost,
    discount_amount: reward.discount_amount,
    minimum_spend: reward.minimum_spend,
    is_active: reward.is_active,
    max_redemptions: reward.max_redemptions,
    expiry_days: reward.expiry_days,
    product_variant_id: reward.product_variant_id ?? null,
    created_at: reward.created_at,
  };
}

/**
 * Rewards follow the tier's `reward_ids` order, which is how the merchant arranged them. A deleted
 * reward is gone for customers, so it is left out; an inactive one is still shown, flagged by is_active.
 */
export function vipTierResource(tier: VipTier, rewards: readonly Reward[], settings: ShopSettings) {
  const byId = new Map(rewards.map((reward) => [reward.id, reward]));
  const attached = tier.reward_ids.flatMap((id) => {
    const reward = byId.get(id);
    return reward && !reward.deleted ? [tierReward(reward)] : [];
  });
  return {
    type: 'vip_tier',
    id: tier.id,
    attributes: {
      name: tier.name,
      description: tier.description,
      threshold: primaryThreshold(tier, settings.vip_settings),
      threshold_points: tier.threshold_points,
      threshold_spend: tier.threshold_spend,
      threshold_orders: tier.threshold_orders,
      points_multiplier: tier.points_multiplier,
      position: tier.position,
      badge_image_url: tier.badge_image_url,
      badge_color: tier.badge_color,
      rewards: attached,
      created_at: tier.created_at,
    },
  };
}

/**
 * Every tier comes in one response, so the pagination fields describe that single page; pageMeta is not
 * used because its page size would be zero for a shop without tiers.
 */
export function vipTierListMeta(settings: ShopSettings, tierCount: number) {
  const vip = settings.vip_settings;
  return {
    total: tierCount,
    page: 1,
    per_page: tierCount,
    total_pages: tierCount > 0 ? 1 : 0,
    entry_method: vip.entry_method,
    entry_methods_extra: vip.entry_methods_extra,
    entry_logic: vip.entry_logic,
    points_multiplier_mode: vip.points_multiplier_mode,
    loyalty_mode: settings.loyalty_mode,
    currency: settings.currency,
  };
}
