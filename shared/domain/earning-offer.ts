// Every earning figure a shopper is shown, from one place: each active rule's points now for this
// shopper (tier multiplier and the running campaign applied), the running campaign with its end, and
// the purchase rates a storefront multiplies a price by. The shopper routes answer with it, the
// storefront panel and product block and the customer account page show what it answers, and the
// order engine prices an order's purchase rules with the same `purchaseBasePoints` and
// `earningRulePoints`, so a price shown and an order of that amount earn the same points.
// Pure: no clock, no I/O.
import type { CustomerRecord } from './customer';
import {
  boostedPoints,
  earningRuleContext,
  earningRulePoints,
  type EarningRuleContext,
  type EarningRulePoints,
} from './earning-rule-points';
import type { Campaign, EarningRule, ShopCatalog } from './shop';

/** A purchase rule as an order prices it: `points_to_give` per whole `spend_unit` of the amount, or per order (null). */
export type PurchaseRule = Pick<EarningRule, 'points_to_give'> & { spend_unit?: number | null };

/**
 * One purchase rule's rate for a shopper now: the storefront multiplies a price by it exactly as the order
 * engine does (`purchasePoints`): whole spend units × `points_to_give`, then × `tier_multiplier` ×
 * `campaign_multiplier`, rounded once, half away from zero.
 */
export interface PurchaseRate {
  rule_id: string;
  /** Currency units per award; null: the rule gives `points_to_give` once per order that counts. */
  spend_unit: number | null;
  points_to_give: number;
  tier_multiplier: number | null;
  campaign_multiplier: number | null;
}

export interface EarningFigures {
  /** Every active rule with its points now (a purchase rule's: for one whole spend unit). */
  rules: Array<{ rule: EarningRule; points: EarningRulePoints }>;
  /** The campaign running now, which every figure above includes. */
  campaign: Campaign | null;
  /** The active purchase rules' rates (the product block's figure for a price is `purchasePoints(purchase, price)`). */
  purchase: PurchaseRate[];
  /** When a campaign starts or ends next: the figures hold until then (for the same tier); null: no change is due. */
  until: string | null;
}

/** Whole spend units in an amount, with float noise snapped off (0.1 + 0.2 units are 0.3, not 0.30000000000000004). */
export function wholeUnits(amount: number, unit: number): number {
  return Math.floor(Math.round((amount / unit) * 1e9) / 1e9);
}

/** A purchase rule's points before any multiplier for an amount (major units) of an order that counts (`counts`). */
export function purchaseBasePoints(rule: PurchaseRule, amount: number, counts: boolean): number {
  if (rule.spend_unit) return wholeUnits(amount, rule.spend_unit) * rule.points_to_give;
  return counts ? rule.points_to_give : 0;
}

/** The next campaign start or end after `now`, ISO, or null. */
function nextCampaignChange(campaigns: readonly Campaign[], now: Date): string | null {
  const time = now.getTime();
  const changes = campaigns
    .flatMap((campaign) => [Date.parse(campaign.starts_at), Date.parse(campaign.ends_at)])
    .filter((at) => at > time)
    .sort((a, b) => a - b);
  return changes.length ? new Date(changes[0]!).toISOString() : null;
}

/** The figures of a context (a tier, or none, and the campaign running at `now`). */
export function earningFiguresIn(shop: ShopCatalog, context: EarningRuleContext, now: Date): EarningFigures {
  const active = shop.earningRules.filter((rule) => rule.is_active);
  const rules = active.map((rule) => ({ rule, points: earningRulePoints(rule, context) }));
  const purchase = rules
    .filter(({ rule }) => rule.action === 'purchase')
    .map(({ rule, points }) => ({
      rule_id: rule.id,
      spend_unit: rule.spend_unit ?? null,
      points_to_give: rule.points_to_give,
      tier_multiplier: points.tier_boost,
      campaign_multiplier: points.campaign_boost,
    }));
  return { rules, campaign: context.campaign, purchase, until: nextCampaignChange(shop.campaigns, now) };
}

/**
 * The figures a shopper is shown at `now`: a member's tier (none for a guest, a customer who has not joined
 * or an excluded member) and the running campaign, as an order paid now would be priced. A guest's and a
 * non-member's purchase rates are what they would earn as a new member; an excluded member's orders earn
 * nothing (they are outside the program), so they have none.
 */
export function earningFigures(shop: ShopCatalog, customer: CustomerRecord | null, now: Date): EarningFigures {
  const figures = earningFiguresIn(shop, earningRuleContext(shop, customer, now), now);
  return customer?.status === 'excluded' ? { ...figures, purchase: [] } : figures;
}

/**
 * The points an order of `amount` (major units, the eligible amount) earns at these rates: each rule's base
 * points multiplied and rounded once (`earningRulePoints`), summed over the rules, as the order engine
 * awards them one entry per rule.
 */
export function purchasePoints(rates: readonly PurchaseRate[], amount: number): number {
  let total = 0;
  for (const rate of rates) {
    total += boostedPoints(purchaseBasePoints(rate, amount, amount > 0), rate.tier_multiplier, rate.campaign_multiplier);
  }
  return total;
}
