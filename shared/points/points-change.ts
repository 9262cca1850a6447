// Pure arithmetic of a manual points adjustment: the floor at zero, lifetime points and the tier.
import type { CustomerRecord } from '../domain/customer';
import type { VipSettings, VipTier } from '../domain/shop';
import { resolveTier } from '../domain/tiers';

export interface PointsChangeRequest {
  adjustment: number;
  update_lifetime_points: boolean;
}

export interface PointsChange {
  /** What was actually applied: -5 when -20 was asked of a balance of 5. */
  applied: number;
  before: number;
  after: number;
  next: CustomerRecord;
  tierBefore: VipTier | null;
  tierAfter: VipTier | null;
}

export function computePointsChange(
  record: CustomerRecord,
  request: PointsChangeRequest,
  tiers: readonly VipTier[],
  vipSettings: VipSettings,
  now: string,
): PointsChange {
  const before = record.current_points;
  const after = Math.max(0, before + request.adjustment);
  const applied = after - before;
  // Only additions count towards lifetime points; a deduction never lowers them.
  const lifetime = record.lifetime_points + (applied > 0 && request.update_lifetime_points ? applied : 0);
  const tierBefore = resolveTier(record, tiers, vipSettings);
  const figures = { ...record, lifetime_points: lifetime };
  const tierAfter = resolveTier(figures, tiers, vipSettings);
  return {
    applied,
    before,
    after,
    tierBefore,
    tierAfter,
    next: { ...record, current_points: after, lifetime_points: lifetime, vip_tier_id: tierAfter?.id ?? null, updated_at: now },
  };
}
