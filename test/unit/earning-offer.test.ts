// The one source of every earning figure a shopper sees (shared/domain/earning-offer.ts): each rule's
// points now, the running campaign and when the figures next change, and the purchase rates the product
// block multiplies a price by. For random rules, tiers, campaigns and prices, the product block's own
// arithmetic (the script in blocks/product-points.liquid, run here as written) and `purchasePoints` give
// what the order engine (`orderTarget`) awards an order of that amount.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { earningFigures, earningFiguresIn, purchasePoints, type PurchaseRate } from '../../shared/domain/earning-offer';
import type { CustomerRecord } from '../../shared/domain/customer';
import type { Campaign, EarningRule, VipSettings } from '../../shared/domain/shop';
import { orderTarget, type OrderFacts } from '../../shared/orders/order-state';
import { THEME_EXTENSION_DIR } from '../../infra/local/simulator/storefront-theme';
import { shopCatalog, vipSettings, vipTier } from '../fixtures/shop-catalog';

const NOW = new Date('2026-06-10T12:00:00.000Z');

const rule = (id: string, overrides: Partial<EarningRule> = {}): EarningRule => ({
  id,
  name: id,
  description: null,
  action: 'purchase',
  category: 'purchase',
  is_active: true,
  points_to_give: 5,
  customer_facing_label: `${id} label`,
  call_to_action_url: null,
  created_at: '2025-01-01T00:00:00.000Z',
  ...overrides,
});
const campaign = (id: string, multiplier: number, startsAt: string, endsAt: string): Campaign => ({
  id,
  name: id,
  multiplier,
  starts_at: startsAt,
  ends_at: endsAt,
});

/** The product block's arithmetic, taken from the block's file between its markers and run as the browser runs it. */
const blockSource = readFileSync(join(THEME_EXTENSION_DIR, 'blocks', 'product-points.liquid'), 'utf8');
const blockFigure = new Function(
  `${blockSource.slice(blockSource.indexOf('// figure:start'), blockSource.indexOf('// figure:end'))}; return figure;`,
)() as (rates: PurchaseRate[], cents: number) => number;

const facts = (cents: number): OrderFacts => ({
  order_id: '1',
  name: '#1',
  processed_at: NOW.toISOString(),
  currency: 'USD',
  subtotal_minor: cents,
  snapshot_updated_at: NOW.toISOString(),
  aggregate_refunded_minor: 0,
  refunds: {},
  cancelled_at: null,
  discount_codes: [],
  referral_code: null,
});

const member = (lifetime: number, status: CustomerRecord['status'] = 'member') =>
  ({ status, lifetime_points: lifetime, total_spend: 0, orders_count: 0 }) as CustomerRecord;

describe('earning figures', () => {
  const gold = vipTier('gold', { name: 'Gold', threshold_points: 2500, points_multiplier: 2 });
  const double = campaign('Double points week', 2, '2026-06-01T00:00:00.000Z', '2026-06-15T00:00:00.000Z');
  const later = campaign('Summer', 3, '2026-07-01T00:00:00.000Z', '2026-07-08T00:00:00.000Z');
  const shop = shopCatalog('s', {
    settings: { vip_settings: vipSettings({ points_multiplier_mode: 'all' }) },
    earningRules: [rule('order', { spend_unit: 1 }), rule('join', { action: 'signup', category: 'account', points_to_give: 200 })],
    campaigns: [double, later],
    tiers: [gold],
  });

  it('prices every rule for a Gold member during a campaign, names the campaign, and holds until it ends', () => {
    const figures = earningFigures(shop, member(3000), NOW);

    expect(figures.rules.map(({ rule: r, points }) => [r.id, points.points])).toEqual([
      ['order', 20],
      ['join', 800],
    ]);
    expect(figures.campaign).toBe(double);
    expect(figures.until).toBe('2026-06-15T00:00:00.000Z');
    expect(figures.purchase).toEqual([{ rule_id: 'order', spend_unit: 1, points_to_give: 5, tier_multiplier: 2, campaign_multiplier: 2 }]);
    // The tester's $89 product: 445 base points, 1 780 for a Gold member in a double points week.
    expect(purchasePoints(figures.purchase, 89)).toBe(1780);
    expect(blockFigure(figures.purchase, 8900)).toBe(1780);
  });

  it('gives a guest no tier and the campaign still, and an excluded member no purchase rate: their orders earn nothing', () => {
    const guest = earningFigures(shop, null, NOW);
    expect(guest.purchase[0]).toMatchObject({ tier_multiplier: null, campaign_multiplier: 2 });
    expect(purchasePoints(guest.purchase, 89)).toBe(890);
    const excluded = earningFigures(shop, member(3000, 'excluded'), NOW);
    expect(excluded.purchase).toEqual([]);
    expect(purchasePoints(excluded.purchase, 89)).toBe(0);
    // The rules keep the points GET /v1/earning-rules shows for them (no tier: outside the program).
    expect(excluded.rules.map(({ points }) => points.points)).toEqual(guest.rules.map(({ points }) => points.points));
    // Between campaigns: nothing running, and the figures hold until the next one starts.
    const between = earningFigures(shop, null, new Date('2026-06-20T00:00:00.000Z'));
    expect(between.campaign).toBeNull();
    expect(between.until).toBe('2026-07-01T00:00:00.000Z');
    expect(earningFigures(shop, null, new Date('2026-08-01T00:00:00.000Z')).until).toBeNull();
  });

  it('leaves inactive rules out, and gives a per-order purchase rule once for any amount above zero', () => {
    const perOrder = shopCatalog('p', {
      earningRules: [rule('bonus', { points_to_give: 50 }), rule('off', { is_active: false, spend_unit: 1 })],
    });
    const figures = earningFigures(perOrder, null, NOW);

    expect(figures.rules.map(({ rule: r }) => r.id)).toEqual(['bonus']);
    expect(purchasePoints(figures.purchase, 0.01)).toBe(50);
    expect(purchasePoints(figures.purchase, 0)).toBe(0);
    expect(blockFigure(figures.purchase, 1)).toBe(50);
  });

  it('gives, for random rules, tiers, campaigns and prices, what an order of that amount earns, in the block as in the engine', () => {
    const multiplier = fc.constantFrom(1, 1.1, 1.15, 1.25, 1.5, 2, 2.5, 3);
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            points_to_give: fc.integer({ min: 1, max: 50 }),
            spend_unit: fc.constantFrom(null, 0.5, 1, 2.5, 5, 10),
            category: fc.constantFrom('purchase', 'order'),
          }),
          { minLength: 1, maxLength: 3 },
        ),
        fc.option(multiplier, { nil: null }),
        fc.option(multiplier, { nil: null }),
        fc.constantFrom<VipSettings['points_multiplier_mode']>('all', 'purchase', null),
        fc.integer({ min: 1, max: 500_000 }),
        (rules, tierMultiplier, campaignMultiplier, mode, cents) => {
          const tier = tierMultiplier === null ? null : vipTier('t', { points_multiplier: tierMultiplier });
          const running =
            campaignMultiplier === null ? null : campaign('c', campaignMultiplier, '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z');
          const catalog = shopCatalog('r', {
            settings: { vip_settings: vipSettings({ points_multiplier_mode: mode }) },
            earningRules: rules.map((r, i) => rule(`r${i}`, r)),
          });
          const context = { tier, campaign: running, vipSettings: catalog.settings.vip_settings };
          const figures = earningFiguresIn(catalog, context, NOW);
          const earned = orderTarget(
            facts(cents),
            { ...context, vip_settings: context.vipSettings, rules: rules.map((r, i) => ({ id: `r${i}`, ...r })) },
            'points',
            2,
          ).rules.reduce((sum, target) => sum + target.points, 0);

          expect(purchasePoints(figures.purchase, cents / 100)).toBe(earned);
          expect(blockFigure(figures.purchase, cents)).toBe(earned);
        },
      ),
      { numRuns: 300 },
    );
  });
});
