// What the loyalty page shows, derived from the /shopper answers and nothing else: the service decides
// what a member may redeem (`redeemable_reward_ids`), this module only words and orders it. Pure, so
// jest checks it against the twin's real answers.
import type { ActivityEntry, Member, Program, ProgramReward, ShopperErrorKind } from './shopper-api';

/** The loyalty page's address in customer accounts: Shopify's `extension:{handle}/` protocol (shopify.extension.toml's handle). */
export const LOYALTY_PAGE_HREF = 'extension:loyalty-page/';

export interface TierProgress {
  current: string | null;
  next: string;
  remaining: number;
  /** 0 to 100: lifetime progress from the current threshold (0 without a tier) to the next one. */
  percent: number;
}

/** Progress to the next tier, or null at the top tier (or in a program without tiers). */
export function tierProgress(member: Member, program: Program): TierProgress | null {
  const next = member.next_tier;
  if (!next) return null;
  const currentThreshold = program.vip_tiers.find((tier) => tier.id === member.vip_tier?.id)?.threshold ?? 0;
  const span = next.threshold - currentThreshold;
  const done = next.threshold - next.remaining - currentThreshold;
  const percent = span <= 0 ? 100 : Math.max(0, Math.min(100, Math.round((done / span) * 100)));
  return { current: member.vip_tier?.name ?? null, next: next.name, remaining: next.remaining, percent };
}

export type OfferState =
  /** The service would accept the redemption now. */
  | { kind: 'redeemable'; points: number }
  /** Not enough points yet: how many more. */
  | { kind: 'short'; needed: number }
  /** Restricted to a tier the member is not on. */
  | { kind: 'tier'; tier: string }
  /** Anything else the service refuses (an excluded member, say). */
  | { kind: 'unavailable' };

export interface RewardOffer {
  reward: ProgramReward;
  /** What a redemption spends: the cost, or a flexible reward's minimum. */
  cost: number;
  state: OfferState;
}

/** Every reward of the program with what this shopper can do with it; a guest or non-member gets null states. */
export function rewardOffers(program: Program, member: Member | null): { reward: ProgramReward; cost: number; state: OfferState | null }[] {
  return program.rewards.map((reward) => {
    const cost = reward.flexible ? reward.flexible.min_points : reward.points_cost;
    return { reward, cost, state: member ? offerState(reward, cost, member, program) : null };
  });
}

function offerState(reward: ProgramReward, cost: number, member: Member, program: Program): OfferState {
  if (member.redeemable_reward_ids.includes(reward.id)) return { kind: 'redeemable', points: cost };
  if (member.loyalty_status !== 'member') return { kind: 'unavailable' };
  if (reward.vip_tier_id && reward.vip_tier_id !== member.vip_tier?.id) {
    return { kind: 'tier', tier: program.vip_tiers.find((tier) => tier.id === reward.vip_tier_id)?.name ?? reward.vip_tier_id };
  }
  if (member.current_points < cost) return { kind: 'short', needed: cost - member.current_points };
  return { kind: 'unavailable' };
}

/**
 * The ways to earn, as the shopper reads them: the rule's name (merchant-written, "Follow us on
 * Instagram") with the points the service computed for this shopper now (a member's tier multiplier and
 * the running campaign applied: GET /shopper/program, shared/domain/earning-offer.ts). A per-spend
 * rule's points are for each whole `per` of the shop's currency. The merchant's label is not shown: it
 * states the base figure ("5 points for every $1 spent"), which a tier or a campaign changes.
 */
export function waysToEarn(program: Program): { id: string; label: string; points: number; per: number | null; url: string | null }[] {
  return program.earning_rules.map((rule) => ({
    id: rule.id,
    label: rule.name.trim() || rule.customer_facing_label?.trim() || rule.action,
    points: rule.points,
    per: rule.spend_unit ?? null,
    url: rule.call_to_action_url,
  }));
}

/** An activity line's translation key and its signed points as the page prints them (+50, −200). */
export function activityLine(entry: ActivityEntry): { key: string; sign: '+' | '−' | ''; points: number } {
  const sign = entry.points > 0 ? '+' : entry.points < 0 ? '−' : '';
  return { key: `activity.kind.${entry.kind}`, sign, points: Math.abs(entry.points) };
}

/** The translation key of the sentence shown for an error of the service. */
export function errorMessageKey(kind: ShopperErrorKind): string {
  return `error.${kind}`;
}

/** Whether the member's status lets them redeem at all. */
export function isExcluded(member: Member): boolean {
  return member.loyalty_status === 'excluded';
}
