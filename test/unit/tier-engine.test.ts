import type { VipSettings, VipTier } from '../../shared/domain/shop';
import { primaryThreshold, qualifiesForTier, rankTiers, resolveTier } from '../../shared/domain/tiers';

const tier = (id: string, overrides: Partial<VipTier>): VipTier => ({
  id,
  name: id,
  description: '',
  threshold_points: null,
  threshold_spend: null,
  threshold_orders: null,
  points_multiplier: 1,
  position: 1,
  badge_image_url: null,
  badge_color: '#000000',
  reward_ids: [],
  created_at: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const settings = (overrides: Partial<VipSettings> = {}): VipSettings => ({
  entry_method: 'points',
  entry_methods_extra: [],
  entry_logic: 'OR',
  points_multiplier_mode: null,
  ...overrides,
});

const bronze = tier('bronze', { threshold_points: 500, threshold_spend: 100, threshold_orders: 2, position: 1 });
const silver = tier('silver', { threshold_points: 1000, threshold_spend: 500, threshold_orders: 5, position: 2 });
const gold = tier('gold', { threshold_points: 2500, threshold_spend: 1500, threshold_orders: 10, position: 3 });
const tiers = [gold, bronze, silver];

describe('tier engine', () => {
  it('gives the highest tier whose primary threshold is met', () => {
    const figures = { lifetime_points: 1200, total_spend: 0, orders_count: 0 };

    const result = resolveTier(figures, tiers, settings());

    expect(result?.id).toBe('silver');
  });

  it('gives no tier below the lowest threshold', () => {
    expect(resolveTier({ lifetime_points: 499, total_spend: 0, orders_count: 0 }, tiers, settings())).toBeNull();
  });

  it('counts a figure exactly at the threshold as qualifying', () => {
    expect(resolveTier({ lifetime_points: 2500, total_spend: 0, orders_count: 0 }, tiers, settings())?.id).toBe('gold');
  });

  it('with OR, any method in use qualifies', () => {
    const vip = settings({ entry_method: 'points', entry_methods_extra: ['orders'], entry_logic: 'OR' });

    const result = resolveTier({ lifetime_points: 0, total_spend: 0, orders_count: 6 }, tiers, vip);

    expect(result?.id).toBe('silver');
  });

  it('with AND, every method in use must be met', () => {
    const vip = settings({ entry_method: 'points', entry_methods_extra: ['spend'], entry_logic: 'AND' });
    const figures = { lifetime_points: 3000, total_spend: 600, orders_count: 0 };

    const result = resolveTier(figures, tiers, vip);

    expect(result?.id).toBe('silver');
  });

  it('ignores methods that are not in use', () => {
    const figures = { lifetime_points: 0, total_spend: 99999, orders_count: 999 };

    expect(resolveTier(figures, tiers, settings({ entry_method: 'points' }))).toBeNull();
  });

  it('measures by spend when spend is the primary method', () => {
    const vip = settings({ entry_method: 'spend' });

    expect(resolveTier({ lifetime_points: 0, total_spend: 1500, orders_count: 0 }, tiers, vip)?.id).toBe('gold');
    expect(primaryThreshold(gold, vip)).toBe(1500);
  });

  it('skips a criterion the tier leaves unset, and never qualifies a tier with none set', () => {
    const pointsOnly = tier('p', { threshold_points: 100 });
    const nothing = tier('n', { threshold_points: null, position: 9 });
    const vip = settings({ entry_method: 'points', entry_methods_extra: ['orders'], entry_logic: 'AND' });

    expect(qualifiesForTier({ lifetime_points: 100, total_spend: 0, orders_count: 0 }, pointsOnly, vip)).toBe(true);
    expect(qualifiesForTier({ lifetime_points: 100, total_spend: 0, orders_count: 0 }, nothing, vip)).toBe(false);
  });

  it('ranks tiers by primary threshold, then position', () => {
    const tie = tier('tie', { threshold_points: 1000, position: 1 });

    expect(rankTiers([gold, silver, tie, bronze], settings()).map((t) => t.id)).toEqual(['bronze', 'tie', 'silver', 'gold']);
  });
});
