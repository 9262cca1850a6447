// JSON:API form of earning rules with their computed points, and of the list's meta.
import type { EarningRule, ShopCatalog } from '../domain/shop';
import { type Page, pageMeta } from '../http/query';
import type { EarningRulePoints } from '../domain/earning-rule-points';
import type { EarningRulesPage } from './earning-rules-service';

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

export function earningRulesDocument(list: EarningRulesPage, page: Page, shop: ShopCatalog) {
  const { settings } = shop;
  return {
    data: list.rules.map(({ rule, points }) => earningRuleResource(rule, points)),
    meta: {
      ...pageMeta(list.total, page),
      loyalty_mode: settings.loyalty_mode,
      currency: settings.currency,
      tier_info: list.tier
        ? { multiplier: list.tier.points_multiplier, name: list.tier.name, mode: settings.vip_settings.points_multiplier_mode }
        : null,
      campaign_info: list.campaign ? { name: list.campaign.name } : null,
    },
  };
}
