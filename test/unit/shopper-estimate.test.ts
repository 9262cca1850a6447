// POST /shopper/estimate without a database: the cart parser's every refusal (SURFACES-CONTRACT.md: no lines, a
// quantity that is not a positive integer, a price or discount that is not a non-negative decimal string,
// another currency), the discount's allocation, and the estimate itself for each kind of shopper and shop. The
// estimate's figures come from the engine's own functions; test/e2e/shopper-estimate.test.ts holds them to what
// the paid order then earns through the webhook.
import fc from 'fast-check';
import { ApiError } from '../../shared/http/errors';
import type { CustomerRecord } from '../../shared/domain/customer';
import type { EarningRule, EarningSettings } from '../../shared/domain/shop';
import { DEFAULT_EARNING_SETTINGS } from '../../shared/domain/shop';
import { eligibleAmounts } from '../../shared/platform/eligible-amount';
import { purchasePointsTiming } from '../../shared/orders/order-state';
import { allocateDiscount, cartOrderFigures, type EstimateCart, estimateOrder } from '../../shared/shopper/shopper-estimate';
import { ESTIMATE_MAX_LINES, parseEstimateBody } from '../../shared/shopper/shopper-requests';
import { shopCatalog, vipSettings, vipTier } from '../fixtures/shop-catalog';

const NOW = new Date('2026-06-10T12:00:00.000Z');

const line = (overrides: Record<string, unknown> = {}) => ({
  variant_id: '41002',
  product_id: '9001',
  quantity: 2,
  price: '89.00',
  gift_card: false,
  ...overrides,
});
const body = (overrides: Record<string, unknown> = {}) => ({ lines: [line()], discount: '0.00', currency: 'USD', ...overrides });

function refusal(run: () => unknown): { status: number; detail: string } {
  try {
    run();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.statusCode, detail: error.message };
    throw error;
  }
  throw new Error('the body was accepted');
}

describe('the estimate’s cart (parseEstimateBody)', () => {
  it('reads the cart of the contract in minor units of the shop’s currency', () => {
    const cart = parseEstimateBody(body({ lines: [line(), line({ quantity: 1, price: '25', gift_card: true, tax: '1.67' })] }), 'USD');

    expect(cart).toEqual({
      lines: [
        { quantity: 2, unitPriceMinor: 8900, giftCard: false, taxMinor: 0 },
        { quantity: 1, unitPriceMinor: 2500, giftCard: true, taxMinor: 167 },
      ],
      discountMinor: 0,
    });
  });

  it('takes ids as the checkout sends them, a missing discount and gift card as none, the currency in any case, and trailing zeros', () => {
    const cart = parseEstimateBody(
      {
        lines: [{ variant_id: 'gid://shopify/ProductVariant/41002', product_id: 9001, quantity: 1, price: '10.500000' }],
        currency: 'usd',
        customer_id: '1002',
      },
      'USD',
    );

    expect(cart).toEqual({ lines: [{ quantity: 1, unitPriceMinor: 1050, giftCard: false, taxMinor: 0 }], discountMinor: 0 });
    expect(parseEstimateBody(body({ lines: [line({ price: '1500' })], currency: 'JPY', discount: '100.00' }), 'JPY')).toEqual({
      lines: [{ quantity: 2, unitPriceMinor: 1500, giftCard: false, taxMinor: 0 }],
      discountMinor: 100,
    });
  });

  it.each<[string, unknown, string]>([
    ['a body that is no object', ['lines'], 'Request body must be a JSON object'],
    ['no lines at all', { discount: '0.00', currency: 'USD' }, 'lines: must be a list of cart lines'],
    ['an empty list of lines', body({ lines: [] }), 'lines: must hold at least one line'],
    ['lines that are no list', body({ lines: { 0: line() } }), 'lines: must be a list of cart lines'],
    ['too many lines', body({ lines: Array.from({ length: ESTIMATE_MAX_LINES + 1 }, () => line()) }), 'at most 500 lines'],
    ['a quantity of zero', body({ lines: [line({ quantity: 0 })] }), 'lines.0.quantity: must be a positive integer'],
    ['a negative quantity', body({ lines: [line({ quantity: -1 })] }), 'lines.0.quantity: must be a positive integer'],
    ['a fractional quantity', body({ lines: [line({ quantity: 1.5 })] }), 'lines.0.quantity: must be a positive integer'],
    ['a quantity as a string', body({ lines: [line({ quantity: '2' })] }), 'lines.0.quantity: must be a positive integer'],
    ['a missing quantity', body({ lines: [line({ quantity: undefined })] }), 'lines.0.quantity: must be a positive integer'],
    ['a negative price', body({ lines: [line({ price: '-1.00' })] }), 'lines.0.price: must be a non-negative decimal string'],
    ['a price as a number', body({ lines: [line({ price: 89 })] }), 'lines.0.price: must be a non-negative decimal string'],
    ['a price in exponent form', body({ lines: [line({ price: '1e3' })] }), 'lines.0.price: must be a non-negative decimal string'],
    ['a price that is no number', body({ lines: [line({ price: 'free' })] }), 'lines.0.price: must be a non-negative decimal string'],
    ['a missing price', body({ lines: [line({ price: undefined })] }), 'lines.0.price: must be a non-negative decimal string'],
    [
      'a price finer than the currency',
      body({ lines: [line({ price: '1.005' })] }),
      'lines.0.price: 1.005 has more decimals than USD has (2)',
    ],
    ['a negative tax', body({ lines: [line({ tax: '-0.50' })] }), 'lines.0.tax: must be a non-negative decimal string'],
    ['a gift card flag that is no boolean', body({ lines: [line({ gift_card: 'yes' })] }), 'lines.0.gift_card: must be true or false'],
    ['a negative discount', body({ discount: '-5.00' }), 'discount: must be a non-negative decimal string'],
    ['a discount as a number', body({ discount: 5 }), 'discount: must be a non-negative decimal string'],
    ['a discount with a comma', body({ discount: '5,00' }), 'discount: must be a non-negative decimal string'],
    ['a discount finer than the currency', body({ discount: '0.001' }), 'discount: 0.001 has more decimals than USD has (2)'],
    ['another currency', body({ currency: 'EUR' }), "currency: EUR is not the shop's currency (USD)"],
    ['no currency', body({ currency: undefined }), "currency: must be the cart's ISO 4217 currency code"],
  ])('refuses %s with a 400 naming the field', (_case, request, detail) => {
    const answer = refusal(() => parseEstimateBody(request, 'USD'));

    expect(answer.status).toBe(400);
    expect(answer.detail).toContain(detail);
  });

  it('refuses a cart whose price × quantity no longer fits, rather than miscounting it', () => {
    const answer = refusal(() => parseEstimateBody(body({ lines: [line({ price: '999999999999.99', quantity: 100_000 })] }), 'USD'));

    expect(answer).toEqual({ status: 400, detail: "lines.0: the cart's price × quantity is too large" });
  });

  it('refuses a fraction in a currency without minor units', () => {
    expect(refusal(() => parseEstimateBody(body({ currency: 'JPY', lines: [line({ price: '150.5' })] }), 'JPY'))).toEqual({
      status: 400,
      detail: 'lines.0.price: 150.5 has more decimals than JPY has (0)',
    });
  });
});

describe('the order-level discount’s allocation', () => {
  it('spreads it in proportion, the left-over minor units to the largest remainders, earliest first on a tie', () => {
    expect(allocateDiscount([1000, 2000, 3000], 600)).toEqual([100, 200, 300]);
    expect(allocateDiscount([100, 100, 100], 100)).toEqual([34, 33, 33]);
    expect(allocateDiscount([0, 500], 100)).toEqual([0, 100]);
    expect(allocateDiscount([0, 0], 100)).toEqual([0, 0]);
    expect(allocateDiscount([300, 200], 900)).toEqual([300, 200]);
  });

  it('always allocates exactly the discount (never more than the lines hold), never more than a line, never below zero', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10_000_000 }), { minLength: 1, maxLength: 20 }),
        fc.integer({ min: 0, max: 50_000_000 }),
        (amounts, discount) => {
          const shares = allocateDiscount(amounts, discount);
          const total = amounts.reduce((sum, amount) => sum + amount, 0);
          expect(shares.reduce((sum, share) => sum + share, 0)).toBe(Math.min(discount, total));
          shares.forEach((share, index) => {
            expect(share).toBeGreaterThanOrEqual(0);
            expect(share).toBeLessThanOrEqual(amounts[index]!);
          });
        },
      ),
    );
  });

  it('never falls on a gift card: a gift-card line comes out at its full price, and the discount is capped at the other lines', () => {
    const cart: EstimateCart = {
      lines: [
        { quantity: 2, unitPriceMinor: 1000, giftCard: false, taxMinor: 0 },
        { quantity: 1, unitPriceMinor: 5000, giftCard: true, taxMinor: 0 },
      ],
      discountMinor: 500,
    };
    const figures = cartOrderFigures(cart, 'USD', false);

    expect(figures.subtotal).toBe('65.00');
    expect(figures.lines.map((entry) => entry.discounts)).toEqual([['5.00'], []]);
    expect(eligibleAmounts(figures).eligible).toBe('15.00');
    expect(eligibleAmounts(cartOrderFigures({ ...cart, discountMinor: 9000 }, 'USD', false)).eligible).toBe('0.00');
  });
});

describe('what an order of the cart would earn (estimateOrder)', () => {
  const rule = (id: string, overrides: Partial<EarningRule> = {}): EarningRule => ({
    id,
    name: id,
    description: null,
    action: 'purchase',
    category: 'purchase',
    is_active: true,
    points_to_give: 1,
    spend_unit: 1,
    customer_facing_label: id,
    call_to_action_url: null,
    created_at: '2025-01-01T00:00:00.000Z',
    ...overrides,
  });
  const gold = vipTier('gold', { threshold_points: 1000, points_multiplier: 1.5 });
  const shopWith = (earning: Partial<EarningSettings> = {}, campaigns = false) =>
    shopCatalog('s', {
      settings: { vip_settings: vipSettings(), earning_settings: { ...DEFAULT_EARNING_SETTINGS, ...earning } },
      earningRules: [
        rule('per-dollar'),
        rule('per-order', { spend_unit: null, points_to_give: 10 }),
        rule('signup', { action: 'signup', category: 'account', spend_unit: null, points_to_give: 100 }),
      ],
      tiers: [gold],
      campaigns: campaigns
        ? [{ id: 'c', name: 'Double', multiplier: 2, starts_at: '2026-06-01T00:00:00.000Z', ends_at: '2026-07-01T00:00:00.000Z' }]
        : [],
    });
  const member = (lifetime: number, status: CustomerRecord['status'] = 'member') =>
    ({ status, lifetime_points: lifetime, total_spend: 0, orders_count: 0 }) as CustomerRecord;
  // $178 of products and a $25 gift card, $10 off the order.
  const cart = parseEstimateBody(
    body({ lines: [line({ tax: '14.00' }), line({ quantity: 1, price: '25.00', gift_card: true })], discount: '10.00' }),
    'USD',
  );

  it('gives a guest and a non-member what a new member without a tier earns, signup points left out', () => {
    expect(estimateOrder(shopWith(), null, cart, NOW)).toEqual({
      points: 168 + 10,
      status: 'approved',
      points_due_at: null,
      eligible_amount: '168.00',
    });
  });

  it('prices a member’s order at their tier, and a running campaign on top', () => {
    expect(estimateOrder(shopWith(), member(1500), cart, NOW).points).toBe(252 + 15);
    expect(estimateOrder(shopWith({}, true), member(1500), cart, NOW).points).toBe(504 + 30);
    expect(estimateOrder(shopWith({}, true), null, cart, NOW).points).toBe(336 + 20);
  });

  it('gives an excluded member nothing, approved with no date: nothing would wait', () => {
    expect(estimateOrder(shopWith({ pending_days: 14 }), member(1500, 'excluded'), cart, NOW)).toEqual({
      points: 0,
      status: 'approved',
      points_due_at: null,
      eligible_amount: '168.00',
    });
  });

  it('says when points held for a return window arrive, as the engine dates the paid order’s entries', () => {
    const estimate = estimateOrder(shopWith({ pending_days: 14 }), member(0), cart, NOW);

    expect(estimate).toMatchObject({ status: 'pending', points_due_at: '2026-06-24T12:00:00.000Z' });
    expect(purchasePointsTiming(NOW.toISOString(), 14)).toEqual({ status: 'pending', points_due_at: estimate.points_due_at });
    expect(purchasePointsTiming(NOW.toISOString(), 0)).toEqual({ status: 'approved', points_due_at: null });
  });

  it('takes the lines’ tax out only where the shop’s prices include tax', () => {
    expect(estimateOrder(shopWith({ taxes_included: true }), null, cart, NOW)).toMatchObject({
      eligible_amount: '154.00',
      points: 154 + 10,
    });
  });

  it('gives nothing for a cart of gift cards only, even to a per-order rule', () => {
    const cards = parseEstimateBody(body({ lines: [line({ gift_card: true })], discount: '5.00' }), 'USD');

    expect(estimateOrder(shopWith({ pending_days: 3 }), null, cards, NOW)).toEqual({
      points: 0,
      status: 'approved',
      points_due_at: null,
      eligible_amount: '0.00',
    });
  });
});
