// What a shopper is shown of the program and of themselves (SURFACES-CONTRACT.md): the same domain rules
// the /v1 routes answer with (a rule's points as GET /v1/earning-rules prices them, a purchase's
// validations as POST /v1/rewards/{id}/purchase runs them), read for the verified shopper only.
import { getCustomer } from '../data/customer-repository';
import { type LedgerHead, readLedgerHead } from '../data/history-repository';
import type { CustomerRecord } from '../domain/customer';
import { batchPositionOf, consumedPoints, expiringPoints, inactivityDeadline } from '../domain/points-ledger';
import type { Reward, ShopCatalog, VipTier } from '../domain/shop';
import { primaryThreshold, rankTiers, resolveTier, type TierFigures } from '../domain/tiers';
import { planPurchase } from '../purchases/purchase-rules';
import { now as clockNow } from '../runtime/clock';
import { earningFigures, type EarningFigures } from '../domain/earning-offer';

/** The member the signed-in shopper is, or null (a guest, or a customer who has not joined). */
export async function shopperMember(shopId: string, customerId: string | null): Promise<CustomerRecord | null> {
  if (customerId === null) return null;
  return (await getCustomer(shopId, customerId))?.record ?? null;
}

export interface ShopperProgram {
  shop: ShopCatalog;
  /** The earning figures for this shopper now: every surface shows these (domain/earning-offer.ts). */
  earning: EarningFigures;
  rewards: Reward[];
  tiers: VipTier[];
}

/** A reward a shopper can see on the storefront: active, not deleted, purchasable (no entry rewards, nothing store credit refuses). */
export function isShopperReward(reward: Reward, shop: ShopCatalog): boolean {
  if (!reward.is_active || reward.deleted || reward.reward_type === 'entry') return false;
  return shop.settings.loyalty_mode !== 'store_credit' || reward.redemption_mode === 'flexible';
}

/**
 * The program for this shopper: active rules priced for them (a member's tier and the running campaign
 * applied), the campaign and the purchase rates, the rewards, the tiers in rank order.
 */
export function shopperProgram(shop: ShopCatalog, member: CustomerRecord | null, now = clockNow()): ShopperProgram {
  return {
    shop,
    earning: earningFigures(shop, member, now),
    rewards: shop.rewards.filter((reward) => isShopperReward(reward, shop)),
    tiers: rankTiers(shop.tiers, shop.settings.vip_settings),
  };
}

export interface MemberView {
  record: CustomerRecord;
  tier: VipTier | null;
  nextTier: { tier: VipTier; threshold: number; remaining: number } | null;
  pendingPoints: number;
  pointsExpiring: { points: number; at: string } | null;
  redeemableRewardIds: string[];
}

const FIGURE: Record<ShopCatalog['settings']['vip_settings']['entry_method'], keyof TierFigures> = {
  points: 'lifetime_points',
  spend: 'total_spend',
  orders: 'orders_count',
};

/** The next tier above the member's, measured in the shop's primary entry method; none for an excluded member. */
function nextTierOf(shop: ShopCatalog, record: CustomerRecord, tier: VipTier | null): MemberView['nextTier'] {
  if (record.status === 'excluded') return null;
  const settings = shop.settings.vip_settings;
  const ranked = rankTiers(shop.tiers, settings);
  const above = tier ? ranked.slice(ranked.findIndex((candidate) => candidate.id === tier.id) + 1) : ranked;
  const figure = record[FIGURE[settings.entry_method]];
  const next = above.find((candidate) => primaryThreshold(candidate, settings) > figure);
  if (!next) return null;
  const threshold = primaryThreshold(next, settings);
  // Spend is in major units with cents; points and orders are whole.
  const remaining = Math.round((threshold - figure) * 100) / 100;
  return { tier: next, threshold, remaining };
}

/**
 * The rewards POST /v1/rewards/{id}/purchase would accept for this member now (a flexible one at its
 * `min_points`): the purchase's own validations, in the same order. A per-customer redemption limit is
 * checked by the purchase itself (its counter is written with the redemption).
 */
export function redeemableRewards(shop: ShopCatalog, record: CustomerRecord): string[] {
  return shop.rewards
    .filter((reward) => isShopperReward(reward, shop))
    .filter((reward) => {
      try {
        planPurchase(shop, record, reward.id, reward.redemption_mode === 'flexible' ? (reward.flexible_config?.min_points ?? null) : null);
        return true;
      } catch {
        return false;
      }
    })
    .map((reward) => reward.id);
}

/**
 * The member's own figures: the pending points and the points that expire first (batch mode: the open
 * batch with the earliest date, with whatever older is still unspent; inactivity mode: the whole balance
 * at its deadline), from one read of the ledger's newest end.
 */
export async function memberView(shop: ShopCatalog, record: CustomerRecord, options: { consistent?: boolean } = {}): Promise<MemberView> {
  const batchMode = shop.settings.earning_settings?.points_expiry?.mode === 'batch';
  const batchesFrom = batchMode ? consumedPoints(record) : null;
  return viewOf(shop, record, await readLedgerHead(record.shop_id, record.platform_customer_id, batchesFrom, options.consistent ?? false));
}

/**
 * The signed-in shopper's member page, or null for a guest or a customer who has not joined: the member
 * and the ledger's newest end are read at once (the ledger read waits for the profile only where it must
 * know how many points are spent), so the page costs one round trip more than its profile at most.
 */
export async function shopperMemberView(shop: ShopCatalog, customerId: string | null): Promise<MemberView | null> {
  if (customerId === null) return null;
  const shopId = shop.settings.id;
  const batchMode = shop.settings.earning_settings?.points_expiry?.mode === 'batch';
  const member = shopperMember(shopId, customerId);
  // No member: no ledger either; stop at the first batch met.
  const consumed = member.then((record) => (record ? consumedPoints(record) : Number.MAX_SAFE_INTEGER));
  // The profile's failure is answered through `member` below; the ledger read may never need `consumed`.
  consumed.catch(() => undefined);
  const [record, head] = await Promise.all([member, readLedgerHead(shopId, customerId, batchMode ? consumed : null)]);
  return record ? viewOf(shop, record, head) : null;
}

function viewOf(shop: ShopCatalog, record: CustomerRecord, head: LedgerHead): MemberView {
  const expiry = shop.settings.earning_settings?.points_expiry ?? null;
  const batchMode = expiry?.mode === 'batch' && record.current_points > 0;
  let pointsExpiring: MemberView['pointsExpiring'] = null;
  if (batchMode) {
    for (const batch of head.batches) {
      const points = expiringPoints(record, batchPositionOf(batch));
      if (points <= 0) continue;
      const at = batch.points_expiry_at!;
      if (!pointsExpiring || at < pointsExpiring.at || (at === pointsExpiring.at && points > pointsExpiring.points)) {
        pointsExpiring = { points, at };
      }
    }
  } else if (expiry?.mode === 'inactivity') {
    const at = record.points_expire_at ?? inactivityDeadline(record, shop.settings.earning_settings!);
    if (at && record.current_points > 0) pointsExpiring = { points: record.current_points, at };
  }
  const tier = resolveTier(record, shop.tiers, shop.settings.vip_settings);
  return {
    record,
    tier,
    nextTier: nextTierOf(shop, record, tier),
    pendingPoints: head.pending.reduce((sum, entry) => sum + Math.max(0, entry.points), 0),
    pointsExpiring,
    // An excluded member is outside the program: nothing is redeemable (the purchase refuses them first).
    redeemableRewardIds: record.status === 'excluded' ? [] : redeemableRewards(shop, record),
  };
}
