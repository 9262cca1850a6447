// GET /v1/earning-rules: the shop's rules with points for an optional customer. The rules come from
// the cached shop configuration (tens per shop), so filtering, sorting and paging happen in memory.
import { resolveCustomer } from '../customers/customer-service';
import type { CustomerRecord } from '../domain/customer';
import type { Campaign, EarningRule, ShopCatalog, VipTier } from '../domain/shop';
import { now as clockNow } from '../runtime/clock';
import { earningRuleContext, earningRulePoints, type EarningRulePoints } from '../domain/earning-rule-points';
import type { EarningRulesQuery } from './earning-rules-requests';

export interface EarningRulesPage {
  rules: Array<{ rule: EarningRule; points: EarningRulePoints }>;
  /** Rules matching the filter, across all pages. */
  total: number;
  tier: VipTier | null;
  campaign: Campaign | null;
}

export async function listEarningRules(shop: ShopCatalog, query: EarningRulesQuery, now = clockNow()): Promise<EarningRulesPage> {
  const { page, sort } = query;
  let customer: CustomerRecord | null = null;
  if (query.customerIdentifier !== undefined) customer = (await resolveCustomer(shop.settings.id, query.customerIdentifier)).record;
  // Excluded customers are outside the program: no tier boost.
  const context = earningRuleContext(shop, customer, now);
  const { tier, campaign } = context;

  const direction = sort.descending ? -1 : 1;
  const compare = (a: EarningRule, b: EarningRule) => {
    const x = a[sort.field];
    const y = b[sort.field];
    return (x < y ? -direction : x > y ? direction : 0) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
  };
  const rules = shop.earningRules.filter((rule) => query.isActive === undefined || rule.is_active === query.isActive).sort(compare);

  return {
    rules: rules.slice(page.offset, page.offset + page.size).map((rule) => ({ rule, points: earningRulePoints(rule, context) })),
    total: rules.length,
    tier,
    campaign,
  };
}
