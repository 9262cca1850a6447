import type { Campaign, EarningRule, VipSettings, VipTier } from '../../shared/domain/shop';
import { activeCampaign, earningRulePoints, tierBoostApplies } from '../../shared/rules/earning-rule-points';

const rule = (overrides: Partial<EarningRule> = {}): EarningRule => ({
  id: 'r', name: 'Order', description: null, action: 'purchase', category: 'purchase', is_active: true, points_to_give: 5,
  customer_facing_label: '5 points', call_to_action_url: null, created_at: '2025-01-01T00:00:00.000Z', ...overrides,
});
const tier = (multiplier: number): VipTier => ({
  id: 't', name: 'Gold', description: '', threshold_points: 0, threshold_spend: null, threshold_orders: null, points_multiplier: multiplier,
  position: 1, badge_image_url: null, badge_color: '#000', reward_ids: [], created_at: '2025-01-01T00:00:00.000Z',
});
const campaign = (multiplier: number, starts: string, ends: string, name = `x${multiplier}`): Campaign => ({ id: name, name, multiplier, starts_at: starts, ends_at: ends });
const vip = (mode: VipSettings['points_multiplier_mode']): VipSettings => ({ entry_method: 'points', entry_methods_extra: [], entry_logic: 'OR', points_multiplier_mode: mode });

describe('earning rule points', () => {
  it('gives the base points with no tier and no campaign, boosts null', () => {
    expect(earningRulePoints(rule(), { tier: null, campaign: null, vipSettings: vip('all') })).toEqual({ points: 5, base_points: 5, tier_boost: null, campaign_boost: null });
  });

  it('applies the tier multiplier alone', () => {
    expect(earningRulePoints(rule({ points_to_give: 10 }), { tier: tier(1.5), campaign: null, vipSettings: vip('all') })).toMatchObject({ points: 15, tier_boost: 1.5, campaign_boost: null });
  });

  it('applies the campaign multiplier alone', () => {
    const c = campaign(2, '2025-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z');

    expect(earningRulePoints(rule(), { tier: null, campaign: c, vipSettings: vip('all') })).toMatchObject({ points: 10, tier_boost: null, campaign_boost: 2 });
  });

  it('multiplies tier and campaign, then rounds once', () => {
    const c = campaign(3, '2025-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z');

    // 5 x 1.1 x 3 = 16.5 exactly in decimal (16.500000000000004 in binary floats) -> 17
    expect(earningRulePoints(rule(), { tier: tier(1.1), campaign: c, vipSettings: vip('all') }).points).toBe(17);
  });

  it.each([
    [5, 1.25, 6], // 6.25
    [5, 1.5, 8], // 7.5 rounds half up
    [3, 1.5, 5], // 4.5
    [7, 1.1, 8], // 7.7
  ])('rounds %i x %f to %i', (base, multiplier, expected) => {
    expect(earningRulePoints(rule({ points_to_give: base }), { tier: tier(multiplier), campaign: null, vipSettings: vip('all') }).points).toBe(expected);
  });

  it('in purchase mode boosts only purchase-category rules', () => {
    const social = rule({ category: 'social', action: 'follow_on_instagram' });

    expect(tierBoostApplies(rule(), tier(2), vip('purchase'))).toBe(true);
    expect(tierBoostApplies(social, tier(2), vip('purchase'))).toBe(false);
    expect(earningRulePoints(social, { tier: tier(2), campaign: null, vipSettings: vip('purchase') })).toMatchObject({ points: 5, tier_boost: null });
  });

  it('with mode all or unset boosts every rule', () => {
    const social = rule({ category: 'social' });

    expect(tierBoostApplies(social, tier(2), vip('all'))).toBe(true);
    expect(tierBoostApplies(social, tier(2), vip(null))).toBe(true);
    expect(tierBoostApplies(social, null, vip('all'))).toBe(false);
  });
});

describe('active campaign', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');

  it('is active from starts_at inclusive to ends_at exclusive', () => {
    expect(activeCampaign([campaign(2, '2026-06-01T12:00:00.000Z', '2026-06-02T00:00:00.000Z')], now)?.multiplier).toBe(2);
    expect(activeCampaign([campaign(2, '2026-05-01T00:00:00.000Z', '2026-06-01T12:00:00.000Z')], now)).toBeNull();
    expect(activeCampaign([campaign(2, '2026-06-01T12:00:00.001Z', '2026-07-01T00:00:00.000Z')], now)).toBeNull();
  });

  it('picks the highest multiplier of several running campaigns', () => {
    const campaigns = [
      campaign(2, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 'double'),
      campaign(3, '2026-05-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', 'triple'),
      campaign(5, '2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z', 'expired'),
    ];

    expect(activeCampaign(campaigns, now)?.name).toBe('triple');
  });
});
