// JSON:API forms of what a shopper sees (SURFACES-CONTRACT.md): the program, the member's own page, a
// redemption, the activity and what a cart would earn. Customer-facing only: no e-mail, no internal field of an entry (an
// adjustment's note, its audit figures), nothing of another member.
import type { PurchaseRecord } from '../domain/history';
import { referralUrl } from '../domain/referral';
import type { ShopCatalog } from '../domain/shop';
import { primaryThreshold } from '../domain/tiers';
import { vipTierAttributes } from '../customers/customer-resource';
import { pageMeta } from '../http/query';
import type { ActivityLine, ActivityPage } from './shopper-activity';
import type { OrderEstimate } from './shopper-estimate';
import type { MemberView, ShopperProgram } from './shopper-program';
import type { RewardsPage } from './shopper-rewards';
import type { UnusedRewardCode } from '../data/history-repository';
import { storeCreditTransactionOf } from '../history/history-resource';

export function programResource({ shop, earning, rewards, tiers }: ShopperProgram) {
  const { settings } = shop;
  const { campaign } = earning;
  return {
    type: 'program',
    id: settings.id,
    attributes: {
      loyalty_mode: settings.loyalty_mode,
      currency: settings.currency,
      earning_rules: earning.rules.map(({ rule, points }) => ({
        id: rule.id,
        name: rule.name,
        action: rule.action,
        customer_facing_label: rule.customer_facing_label,
        call_to_action_url: rule.call_to_action_url,
        points: points.points,
        spend_unit: rule.action === 'purchase' ? (rule.spend_unit ?? null) : null,
      })),
      campaign: campaign && {
        id: campaign.id,
        name: campaign.name,
        multiplier: campaign.multiplier,
        ends_at: new Date(campaign.ends_at).toISOString(),
      },
      purchase_rates: earning.purchase.map((rate) => ({
        rule_id: rate.rule_id,
        spend_unit: rate.spend_unit,
        points_to_give: rate.points_to_give,
        tier_multiplier: rate.tier_multiplier,
        campaign_multiplier: rate.campaign_multiplier,
      })),
      figures_until: earning.until,
      rewards: rewards.map((reward) => ({
        id: reward.id,
        name: reward.name,
        description: reward.description,
        discount_type: reward.discount_type,
        discount_amount: reward.discount_amount,
        minimum_spend: reward.minimum_spend,
        redemption_mode: reward.redemption_mode,
        points_cost: reward.points_cost,
        flexible:
          reward.redemption_mode === 'flexible' && reward.flexible_config
            ? {
                min_points: reward.flexible_config.min_points,
                max_points: reward.flexible_config.max_points,
                points_per_unit: reward.flexible_config.points_per_unit,
              }
            : null,
        vip_tier_id: reward.vip_tier_id,
        expiry_days: reward.expiry_days,
        product_variant_id: reward.product_variant_id ?? null,
      })),
      vip_tiers: tiers.map((tier) => ({
        id: tier.id,
        name: tier.name,
        threshold: primaryThreshold(tier, settings.vip_settings),
        points_multiplier: tier.points_multiplier,
        badge_color: tier.badge_color,
        badge_image_url: tier.badge_image_url,
      })),
    },
  };
}

export interface MemberMeta {
  logged_in: boolean;
  member: boolean;
}

/** GET /shopper/member's body: the member's own page, or `data: null` for a guest or a customer who has not joined. */
export function memberDocument(shop: ShopCatalog, loggedIn: boolean, view: MemberView | null) {
  const meta: MemberMeta = { logged_in: loggedIn, member: view !== null };
  if (!view) return { data: null, meta };
  const { record, tier, nextTier } = view;
  const { settings } = shop;
  return {
    data: {
      type: 'shopper_member',
      id: record.platform_customer_id,
      attributes: {
        first_name: record.first_name,
        current_points: record.current_points,
        lifetime_points: record.lifetime_points,
        pending_points: view.pendingPoints,
        loyalty_status: record.status,
        vip_tier: tier && vipTierAttributes(tier, settings.vip_settings),
        next_tier: nextTier && {
          id: nextTier.tier.id,
          name: nextTier.tier.name,
          threshold: nextTier.threshold,
          remaining: nextTier.remaining,
        },
        referral_url: referralUrl(settings.referral_base_url, record.referral_code),
        referral_code: record.referral_code,
        points_expiring: view.pointsExpiring,
        redeemable_reward_ids: view.redeemableRewardIds,
      },
    },
    meta,
  };
}

export function redemptionResource(purchase: PurchaseRecord) {
  return {
    type: 'redemption',
    id: purchase.id,
    attributes: {
      reward_id: purchase.reward_id,
      reward_name: purchase.reward_name,
      points_spent: purchase.points_spent,
      discount_code: purchase.discount_code,
      expires_at: purchase.expires_at,
      status: purchase.status,
      ...storeCreditTransactionOf(purchase),
    },
  };
}

export function activityResource(line: ActivityLine) {
  return {
    type: 'activity',
    id: line.id,
    attributes: {
      kind: line.kind,
      points: line.points,
      label: line.label,
      status: line.status,
      created_at: line.created_at,
      discount_code: line.discount_code,
    },
  };
}

export function activityDocument(page: ActivityPage, request: { number: number; size: number }) {
  return {
    data: page.lines.map(activityResource),
    meta: { ...pageMeta(page.total, { ...request, offset: (request.number - 1) * request.size }) },
  };
}

/** One code the member can still use: the reward, the discount the code gives and until when. */
export function memberRewardResource(code: UnusedRewardCode) {
  return {
    type: 'member_reward',
    id: code.id,
    attributes: {
      reward_id: code.reward_id,
      reward_name: code.reward_name,
      discount_code: code.discount_code,
      discount_type: code.discount?.type ?? code.reward_discount_type,
      discount_value: code.discount?.value ?? null,
      minimum_spend: code.discount?.minimum_spend ?? null,
      points_spent: code.points_spent,
      expires_at: code.expires_at,
      created_at: code.created_at,
    },
  };
}

export function memberRewardsDocument(page: RewardsPage, request: { number: number; size: number }) {
  return {
    data: page.codes.map(memberRewardResource),
    meta: { ...pageMeta(page.total, { ...request, offset: (request.number - 1) * request.size }) },
  };
}

/** POST /shopper/estimate's body: what an order of the cart would earn (no id: nothing is stored). */
export function estimateDocument(estimate: OrderEstimate) {
  return {
    data: {
      type: 'estimate',
      attributes: {
        points: estimate.points,
        status: estimate.status,
        points_due_at: estimate.points_due_at,
        eligible_amount: estimate.eligible_amount,
      },
    },
  };
}
