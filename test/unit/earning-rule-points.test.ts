import type { Campaign, EarningRule, VipSettings } from '../../shared/domain/shop';
import { activeCampaign, earningRulePoints, tierBoostApplies } from '../../shared/domain/earning-rule-points';
import { vipSettings, vipTier } from '../fixtures/shop-catalog';

const rule = (overrides: Partial<EarningRule> = {}): EarningRule => ({
  id: 'order',
  name: 'Place an order',
  description: null,
  action: 'purchase',
  category: 'purchase',
  is_active: true,
  points_to_give: 5,
  customer_facing_label: '5 points',
  call_to_action_url: null,
  created_at: '2025-01-01T00:00:00.000Z',
  ...overrides,
});
const socialRule = rule({ id: 'instagram', action: 'follow_on_instagram', category: 'social', points_to_give: 50 });
const tier = (multiplier: number) => vipTier('gold', { name: 'Gold', threshold_points: 0, points_multiplier: multiplier });
const campaign = (
  multiplier: number,
  startsAt = '2025-01-01T00:00:00.000Z',
  endsAt = '2099-01-01T00:00:00.000Z',
  name = `x${multiplier}`,
): Campaign => ({
  id: name,
  name,
  multiplier,
  starts_at: startsAt,
  ends_at: endsAt,
});
const vip = (mode: VipSettings['points_multiplier_mode']) => vipSettings({ points_multiplier_mode: mode });

describe('earning rule points', () => {
  it('gives the base points with null boosts when there is neither tier nor campaign', () => {
    const context = { tier: null, campaign: null, vipSettings: vip('all') };

    const result = earningRulePoints(rule(), context);

    expect(result).toEqual({ points: 5, base_points: 5, tier_boost: null, campaign_boost: null });
  });

  it('applies the tier multiplier alone', () => {
    const context = { tier: tier(1.5), campaign: null, vipSettings: vip('all') };

    const result = earningRulePoints(rule({ points_to_give: 10 }), context);

    expect(result).toEqual({ points: 15, base_points: 10, tier_boost: 1.5, campaign_boost: null });
  });

  it('applies the campaign multiplier alone', () => {
    const context = { tier: null, campaign: campaign(2), vipSettings: vip('all') };

    const result = earningRulePoints(rule(), context);

    expect(result).toEqual({ points: 10, base_points: 5, tier_boost: null, campaign_boost: 2 });
  });

  it('multiplies tier and campaign together', () => {
    const context = { tier: tier(1.5), campaign: campaign(2), vipSettings: vip('all') };

    const result = earningRulePoints(rule({ points_to_give: 10 }), context);

    expect(result).toEqual({ points: 30, base_points: 10, tier_boost: 1.5, campaign_boost: 2 });
  });

  it('boosts only purchase-category rules with the tier in purchase mode, while the campaign boosts every rule', () => {
    const context = { tier: tier(2), campaign: campaign(3), vipSettings: vip('purchase') };

    const purchase = earningRulePoints(rule(), context);
    const social = earningRulePoints(socialRule, context);

    expect(purchase).toEqual({ points: 30, base_points: 5, tier_boost: 2, campaign_boost: 3 });
    expect(social).toEqual({ points: 150, base_points: 50, tier_boost: null, campaign_boost: 3 });
  });

  it.each([['all' as const], [null]])('boosts every rule with the tier when the multiplier mode is %p', (mode) => {
    const context = { tier: tier(2), campaign: null, vipSettings: vip(mode) };

    const social = earningRulePoints(socialRule, context);

    expect(social).toEqual({ points: 100, base_points: 50, tier_boost: 2, campaign_boost: null });
  });

  it('never applies a tier boost without a tier, whatever the mode', () => {
    const modes: VipSettings['points_multiplier_mode'][] = ['purchase', 'all', null];

    const applies = modes.map((mode) => tierBoostApplies(rule(), null, vip(mode)));

    expect(applies).toEqual([false, false, false]);
  });

  it('decides the tier boost per rule category in purchase mode only', () => {
    const gold = tier(2);

    const decisions = {
      purchaseInPurchaseMode: tierBoostApplies(rule(), gold, vip('purchase')),
      socialInPurchaseMode: tierBoostApplies(socialRule, gold, vip('purchase')),
      socialInAllMode: tierBoostApplies(socialRule, gold, vip('all')),
      socialWithModeUnset: tierBoostApplies(socialRule, gold, vip(null)),
    };

    expect(decisions).toEqual({
      purchaseInPurchaseMode: true,
      socialInPurchaseMode: false,
      socialInAllMode: true,
      socialWithModeUnset: true,
    });
  });

  it.each([
    // base, tier, campaign, expected: the product, rounded once, half away from zero
    [5, 1.25, null, 6], // 6.25
    [7, 1.1, null, 8], // 7.7
    [5, 1.5, null, 8], // 7.5: a half goes up
    [3, 1.5, null, 5], // 4.5
    [1, 1.5, null, 2], // 1.5
    [5, 1.25, 2, 13], // 12.5 rounded once, not 6 x 2 = 12 after rounding per multiplier
    [7, 1.1, 1.5, 12], // 11.55
    [0, 2, 3, 0],
  ])('gives %i x %p x %p = %i points', (base, tierMultiplier, campaignMultiplier, expected) => {
    const context = {
      tier: tier(tierMultiplier),
      campaign: campaignMultiplier === null ? null : campaign(campaignMultiplier),
      vipSettings: vip('all'),
    };

    const result = earningRulePoints(rule({ points_to_give: base }), context);

    expect(result.points).toBe(expected);
  });

  it('rounds once after multiplying rather than after each multiplier', () => {
    // 3 x 1.5 = 4.5 -> 5 and 5 x 1.5 = 7.5 -> 8 when rounded per step; 3 x 1.5 x 1.5 = 6.75 -> 7 at the end.
    const context = { tier: tier(1.5), campaign: campaign(1.5), vipSettings: vip('all') };

    const result = earningRulePoints(rule({ points_to_give: 3 }), context);

    expect(result.points).toBe(7);
  });

  it.each([
    // Binary floats land these exact halves just below or above .5; the snap to 9 decimals restores them.
    [50, 1.15, null, 58], // 57.49999999999999 in floats
    [25, 1.15, 2, 58], // 57.49999999999999 in floats
    [50, 1.15, 3, 173], // 172.49999999999997 in floats
    [5, 1.1, 3, 17], // 16.500000000000004 in floats
    [45, 1.1, null, 50], // 49.50000000000001 in floats
  ])('is not moved by float noise: %i x %p x %p = %i', (base, tierMultiplier, campaignMultiplier, expected) => {
    const context = {
      tier: tier(tierMultiplier),
      campaign: campaignMultiplier === null ? null : campaign(campaignMultiplier),
      vipSettings: vip('all'),
    };

    const result = earningRulePoints(rule({ points_to_give: base }), context);

    expect(result.points).toBe(expected);
  });

  it('does not round genuinely non-half products up by the noise guard', () => {
    // 3 x 1.15 = 3.45 (3.4499999999999997 in floats) is below a half either way.
    const context = { tier: tier(1.15), campaign: null, vipSettings: vip('all') };

    const result = earningRulePoints(rule({ points_to_give: 3 }), context);

    expect(result.points).toBe(3);
  });
});

describe('active campaign', () => {
  const now = new Date('2026-06-01T12:00:00.000Z');

  it('is active from the moment it starts', () => {
    const campaigns = [campaign(2, '2026-06-01T12:00:00.000Z', '2026-06-02T00:00:00.000Z')];

    const active = activeCampaign(campaigns, now);

    expect(active?.multiplier).toBe(2);
  });

  it('is over at the moment it ends', () => {
    const campaigns = [campaign(2, '2026-05-01T00:00:00.000Z', '2026-06-01T12:00:00.000Z')];

    const active = activeCampaign(campaigns, now);

    expect(active).toBeNull();
  });

  it('is upcoming a millisecond before it starts and still running a millisecond before it ends', () => {
    const upcoming = [campaign(2, '2026-06-01T12:00:00.001Z', '2026-07-01T00:00:00.000Z')];
    const ending = [campaign(3, '2026-05-01T00:00:00.000Z', '2026-06-01T12:00:00.001Z')];

    const beforeStart = activeCampaign(upcoming, now);
    const beforeEnd = activeCampaign(ending, now);

    expect(beforeStart).toBeNull();
    expect(beforeEnd?.multiplier).toBe(3);
  });

  it('is none when there are no campaigns or all have expired', () => {
    const expired = [campaign(3, '2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z')];

    const results = [activeCampaign([], now), activeCampaign(expired, now)];

    expect(results).toEqual([null, null]);
  });

  it('picks the highest multiplier of several running campaigns, ignoring expired higher ones', () => {
    const campaigns = [
      campaign(2, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z', 'double'),
      campaign(3, '2026-05-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', 'triple'),
      campaign(5, '2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z', 'expired'),
    ];

    const active = activeCampaign(campaigns, now);

    expect(active?.name).toBe('triple');
  });

  it('breaks a tie of multipliers by the earliest start, whatever the configured order', () => {
    const later = campaign(2, '2026-05-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', 'later');
    const earlier = campaign(2, '2026-04-01T00:00:00.000Z', '2026-07-01T00:00:00.000Z', 'earlier');

    const results = [activeCampaign([later, earlier], now)?.name, activeCampaign([earlier, later], now)?.name];

    expect(results).toEqual(['earlier', 'earlier']);
  });

  it("leaves the caller's list in its order", () => {
    const campaigns = [campaign(2, undefined, undefined, 'double'), campaign(3, undefined, undefined, 'triple')];

    activeCampaign(campaigns, now);

    expect(campaigns.map((c) => c.name)).toEqual(['double', 'triple']);
  });
});
