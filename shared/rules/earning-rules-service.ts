// GET /v1/earning-rules: the shop's rules with points for an optional customer. The rules come from
// the cached shop configuration (tens per shop), so filtering, sorting and paging happen in memory.
import { resolveCustomer } from '../customers/customer-service';
import type { EarningRule, ShopCatalog, VipTier } from '../domain/shop';
import { resolveTier } from '../domain/tiers';
import { invalid } from '../domain/errors';
import { type Page, pageMeta, parseFilters, parsePage, parseSort } from '../http/query';
import { activeCampaign, earningRulePoints } from './earning-rule-points';
import { earningRuleResource } from './earning-rule-resource';

const SORTS = ['created_at', 'name'] as const;
const FILTERS = ['is_active', 'customer_identifier'] as const;

export async function listEarningRules(shop: ShopCatalog, query: Record<string, string>, now = new Date()) {
  const page: Page = parsePage(query);
  const sort = parseSort(query, SORTS, '-created_at');
  const filters = parseFilters(query, FILTERS);
  if (filters.is_active !== undefined && filters.is_active !== 'true' && filters.is_active !== 'false') {
    throw invalid("filter[is_active] must be 'true' or 'false'");
  }

  let tier: VipTier | null = null;
  if (filters.customer_identifier !== undefined) {
    const { record } = await resolveCustomer(shop.settings.id, filters.customer_identifier);
    // Excluded customers are outside the program: no tier boost.
    tier = record.status === 'member' ? resolveTier(record, shop.tiers, shop.settings.vip_settings) : null;
  }
  const campaign = activeCampaign(shop.campaigns, now);

  const direction = sort.descending ? -1 : 1;
  const compare = (a: EarningRule, b: EarningRule) => {
    const x = a[sort.field];
    const y = b[sort.field];
    return (x < y ? -direction : x > y ? direction : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
  const rules = shop.earningRules
    .filter((rule) => filters.is_active === undefined || String(rule.is_active) === filters.is_active)
    .sort(compare);
  const context = { tier, campaign, vipSettings: shop.settings.vip_settings };

  return {
    data: rules.slice(page.offset, page.offset + page.size).map((rule) => earningRuleResource(rule, earningRulePoints(rule, context))),
    meta: {
      ...pageMeta(rules.length, page),
      loyalty_mode: shop.settings.loyalty_mode,
      currency: shop.settings.currency,
      tier_info: tier ? { multiplier: tier.points_multiplier, name: tier.name, mode: shop.settings.vip_settings.points_multiplier_mode } : null,
      campaign_info: campaign ? { name: campaign.name } : null,
    },
  };
}
