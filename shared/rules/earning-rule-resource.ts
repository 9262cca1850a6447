// JSON:API form of an earning rule with its computed points.
import type { EarningRule } from '../domain/shop';
import type { EarningRulePoints } from './earning-rule-points';

export function earningRuleResource(rule: EarningRule, points: EarningRulePoints) {
  return {
    type: 'earning_rule',
    id: rule.id,
    attributes: {
      name: rule.name,
      description: rule.description,
      action: rule.action,
      category: rule.category,
      is_active: rule.is_active,
      points_to_give: rule.points_to_give,
      customer_facing_label: rule.customer_facing_label,
      call_to_action_url: rule.call_to_action_url,
      created_at: rule.created_at,
      points: points.points,
      base_points: points.base_points,
      tier_boost: points.tier_boost,
      campaign_boost: points.campaign_boost,
    },
  };
}
