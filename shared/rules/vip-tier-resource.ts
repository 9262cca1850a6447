// JSON:API form of a VIP tier with the rewards attached to it.
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
    created_at: reward.created_at,
  };
}

/** Rewards in the tier's order; deleted or unknown ids are left out. */
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
