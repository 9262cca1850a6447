// Moving a member's points, whatever moves them (an order, a referral, an adjustment, a job of the
// calendar): the balance (never below zero), lifetime points and the other tier inputs the move carries,
// the tier those figures reach, and the one place a `tier.changed` is made. The tier before is the one the
// figures before reach under the shop's tiers as they are now, which is the tier the API showed: the
// stored `vip_tier_id` may have been written under tiers a configuration has changed since.
import type { CustomerRecord } from './customer';
import type { TierChangedEvent } from './events';
import type { ShopCatalog, VipSettings, VipTier } from './shop';
import { resolveTier } from './tiers';

/** The shop's tiers and how they are entered. */
export interface TierProgram {
  tiers: readonly VipTier[];
  vipSettings: VipSettings;
}

export function tierProgramOf(shop: ShopCatalog): TierProgram {
  return { tiers: shop.tiers, vipSettings: shop.settings.vip_settings };
}

export interface PointsMove {
  /** Added to the balance; a take-back larger than the balance leaves zero (the rest is forgiven). */
  points: number;
  /** Added to lifetime points; `'gain'`: what the balance actually gained, nothing on a deduction. */
  lifetime: number | 'gain';
  /** Added to spend (never below zero), kept to 1/scale of a unit (100: cents) so a float sum never drifts. */
  spend?: { delta: number; scale: number };
  /** Added to the order count (never below zero). */
  orders?: number;
  /** The `send_email` of the `tier.changed`. */
  send_email: boolean;
  /** The record's `updated_at` and the event's `occurred_at`. */
  now: string;
}

export interface MovedPoints {
  /** The record with its figures moved, the tier they reach as `vip_tier_id`, and `updated_at`. */
  next: CustomerRecord;
  /** What the balance actually moved: -5 when -20 was asked of a balance of 5. */
  applied: number;
  tierBefore: VipTier | null;
  tierAfter: VipTier | null;
  /** `tier.changed` when the figures reach another tier than before; none otherwise. */
  events: TierChangedEvent[];
}

export function movePoints(record: CustomerRecord, move: PointsMove, program: TierProgram): MovedPoints {
  const currentPoints = Math.max(0, record.current_points + move.points);
  const applied = currentPoints - record.current_points;
  const lifetime = move.lifetime === 'gain' ? Math.max(0, applied) : move.lifetime;
  const figures: CustomerRecord = {
    ...record,
    current_points: currentPoints,
    lifetime_points: record.lifetime_points + lifetime,
  };
  if (move.spend) {
    const { delta, scale } = move.spend;
    figures.total_spend = Math.max(0, Math.round((record.total_spend + delta) * scale) / scale);
  }
  if (move.orders !== undefined) figures.orders_count = Math.max(0, record.orders_count + move.orders);
  const tierBefore = tierOf(record, program);
  const tierAfter = tierOf(figures, program);
  return {
    next: { ...figures, vip_tier_id: tierAfter?.id ?? null, updated_at: move.now },
    applied,
    tierBefore,
    tierAfter,
    events: tierChange(record, tierBefore, tierAfter, move),
  };
}

/**
 * `tier.changed` between two states of a member that are not one points move (a customer merge adds
 * another member's balance): the tiers both reach, as for a move.
 */
export function tierEvents(
  before: CustomerRecord,
  after: CustomerRecord,
  program: TierProgram,
  stamp: Pick<PointsMove, 'send_email' | 'now'>,
): TierChangedEvent[] {
  return tierChange(after, tierOf(before, program), tierOf(after, program), stamp);
}

function tierOf(figures: CustomerRecord, { tiers, vipSettings }: TierProgram): VipTier | null {
  return resolveTier(figures, tiers, vipSettings);
}

function tierChange(
  member: Pick<CustomerRecord, 'shop_id' | 'platform_customer_id'>,
  before: VipTier | null,
  after: VipTier | null,
  { send_email, now }: Pick<PointsMove, 'send_email' | 'now'>,
): TierChangedEvent[] {
  const from = before?.id ?? null;
  const to = after?.id ?? null;
  if (from === to) return [];
  return [
    {
      type: 'tier.changed',
      shop_id: member.shop_id,
      customer_id: member.platform_customer_id,
      from_tier_id: from,
      to_tier_id: to,
      send_email,
      occurred_at: now,
    },
  ];
}
