import { primaryThreshold, qualifiesForTier, rankTiers, resolveTier } from '../../shared/domain/tiers';
import { vipSettings, vipTier } from '../fixtures/shop-catalog';

const bronze = vipTier('bronze', { threshold_points: 500, threshold_spend: 100, threshold_orders: 2, position: 1 });
const silver = vipTier('silver', { threshold_points: 1000, threshold_spend: 500, threshold_orders: 5, position: 2 });
const gold = vipTier('gold', { threshold_points: 2500, threshold_spend: 1500, threshold_orders: 10, position: 3 });
const tiers = [gold, bronze, silver];

describe('tier engine', () => {
  it('gives the highest tier whose primary threshold is met', () => {
    const figures = { lifetime_points: 1200, total_spend: 0, orders_count: 0 };

    const result = resolveTier(figures, tiers, vipSettings());

    expect(result?.id).toBe('silver');
  });

  it('gives no tier below the lowest threshold', () => {
    expect(resolveTier({ lifetime_points: 499, total_spend: 0, orders_count: 0 }, tiers, vipSettings())).toBeNull();
  });

  it('counts a figure exactly at the threshold as qualifying', () => {
    expect(resolveTier({ lifetime_points: 2500, total_spend: 0, orders_count: 0 }, tiers, vipSettings())?.id).toBe('gold');
  });

  it('with OR, any method in use qualifies', () => {
    const vip = vipSettings({ entry_method: 'points', entry_methods_extra: ['orders'], entry_logic: 'OR' });

    const result = resolveTier({ lifetime_points: 0, total_spend: 0, orders_count: 6 }, tiers, vip);

    expect(result?.id).toBe('silver');
  });

  it('with AND, every method in use must be met', () => {
    const vip = vipSettings({ entry_method: 'points', entry_methods_extra: ['spend'], entry_logic: 'AND' });
    const figures = { lifetime_points: 3000, total_spend: 600, orders_count: 0 };

    const result = resolveTier(figures, tiers, vip);

    expect(result?.id).toBe('silver');
  });

  it('ignores methods that are not in use', () => {
    const figures = { lifetime_points: 0, total_spend: 99999, orders_count: 999 };

    expect(resolveTier(figures, tiers, vipSettings({ entry_method: 'points' }))).toBeNull();
  });

  it('measures by spend when spend is the primary method', () => {
    const vip = vipSettings({ entry_method: 'spend' });

    expect(resolveTier({ lifetime_points: 0, total_spend: 1500, orders_count: 0 }, tiers, vip)?.id).toBe('gold');
    expect(primaryThreshold(gold, vip)).toBe(1500);
  });

  it('skips a criterion the tier leaves unset, and never qualifies a tier with none set', () => {
    const pointsOnly = vipTier('p', { threshold_points: 100 });
    const nothing = vipTier('n', { threshold_points: null, position: 9 });
    const vip = vipSettings({ entry_method: 'points', entry_methods_extra: ['orders'], entry_logic: 'AND' });

    expect(qualifiesForTier({ lifetime_points: 100, total_spend: 0, orders_count: 0 }, pointsOnly, vip)).toBe(true);
    expect(qualifiesForTier({ lifetime_points: 100, total_spend: 0, orders_count: 0 }, nothing, vip)).toBe(false);
  });

  it('ranks tiers by primary threshold, then position', () => {
    const tie = vipTier('tie', { threshold_points: 1000, position: 1 });

    expect(rankTiers([gold, silver, tie, bronze], vipSettings()).map((t) => t.id)).toEqual(['bronze', 'tie', 'silver', 'gold']);
  });
});
