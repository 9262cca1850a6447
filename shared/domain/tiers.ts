// The VIP tier engine: which tier a customer's figures qualify for under the shop's entry settings.
import type { EntryMethod, VipSettings, VipTier } from './shop';

export interface TierFigures {
  lifetime_points: number;
  total_spend: number;
  orders_count: number;
}

const FIGURE_OF: Record<EntryMethod, keyof TierFigures> = {
  points: 'lifetime_points',
  spend: 'total_spend',
  orders: 'orders_count',
};

export function tierThreshold(tier: VipTier, method: EntryMethod): number | null {
  if (method === 'points') return tier.threshold_points;
  if (method === 'spend') return tier.threshold_spend;
  return tier.threshold_orders;
}

/** The tier's `threshold` as the API reports it: measured in the shop's primary entry method. */
export function primaryThreshold(tier: VipTier, settings: VipSettings): number {
  return tierThreshold(tier, settings.entry_method) ?? 0;
}

/** Tiers from lowest to highest: by primary threshold, then position. */
export function rankTiers(tiers: readonly VipTier[], settings: VipSettings): VipTier[] {
  return [...tiers].sort((a, b) => primaryThreshold(a, settings) - primaryThreshold(b, settings) || a.position - b.position);
}

/**
 * A tier qualifies when its criteria are met: every method in use (primary plus extras) for which the
 * tier sets a threshold is a criterion; AND needs all of them, OR needs any. A tier without any
 * threshold for the methods in use never qualifies.
 */
export function qualifiesForTier(figures: TierFigures, tier: VipTier, settings: VipSettings): boolean {
  const methods: EntryMethod[] = [settings.entry_method, ...settings.entry_methods_extra];
  const results = methods.flatMap((method) => {
    const threshold = tierThreshold(tier, method);
    return threshold === null ? [] : [figures[FIGURE_OF[method]] >= threshold];
  });
  if (results.length === 0) return false;
  return settings.entry_logic === 'AND' ? results.every(Boolean) : results.some(Boolean);
}

/** The highest qualifying tier, or null. */
export function resolveTier(figures: TierFigures, tiers: readonly VipTier[], settings: VipSettings): VipTier | null {
  const ranked = rankTiers(tiers, settings);
  for (let i = ranked.length - 1; i >= 0; i -= 1) {
    const tier = ranked[i]!;
    if (qualifiesForTier(figures, tier, settings)) return tier;
  }
  return null;
}
