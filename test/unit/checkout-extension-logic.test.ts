// The checkout blocks' pure parts: the cart as the estimate takes it (unit prices before discounts, every discount
// in the order's), what a member may spend in checkout (never store credit), and when an order's points arrive.
import {
  checkoutOffers,
  estimateCart,
  flexibleMost,
  pointsDueAt,
  type CheckoutLine,
} from '../../infra/shopify-app/extensions/loyalty-checkout/src/checkout-view';
import type { Member, Program, ProgramReward } from '../../infra/shopify-app/extensions/loyalty-checkout/src/checkout-api';

const usd = (amount: number) => ({ amount, currencyCode: 'USD' });
const line = (id: string, quantity: number, total: number, discounts: number[] = []): CheckoutLine => ({
  merchandise: { id: `gid://shopify/ProductVariant/${id}` },
  quantity,
  cost: { totalAmount: usd(total) },
  discountAllocations: discounts.map((amount) => ({ discountedAmount: usd(amount) })),
});

describe('estimateCart', () => {
  it('sends unit prices before discounts and the discounts of the lines and the cart as the order discount', () => {
    expect(estimateCart([line('41002', 2, 168, [10]), line('41001', 1, 24.5)], [{ discountedAmount: usd(5) }], 'USD')).toEqual({
      lines: [
        { variant_id: 'gid://shopify/ProductVariant/41002', quantity: 2, price: '89.00', gift_card: false },
        { variant_id: 'gid://shopify/ProductVariant/41001', quantity: 1, price: '24.50', gift_card: false },
      ],
      discount: '15.00',
      currency: 'USD',
    });
  });

  it('sends a line that does not divide into whole cents per unit as one unit of its amount, and uses the currency’s decimals', () => {
    expect(estimateCart([line('1', 3, 10)], [], 'USD')!.lines[0]).toMatchObject({ quantity: 1, price: '10.00' });
    expect(estimateCart([line('1', 2, 1500)], [], 'JPY')).toMatchObject({ lines: [{ quantity: 2, price: '750' }], discount: '0' });
  });

  it('is null for an empty cart', () => {
    expect(estimateCart([], [], 'USD')).toBeNull();
    expect(estimateCart([line('1', 0, 0)], [], 'USD')).toBeNull();
  });
});

const reward = (id: string, discount_type: ProgramReward['discount_type'], extra: Partial<ProgramReward> = {}): ProgramReward => ({
  id,
  name: id,
  description: null,
  discount_type,
  discount_amount: 5,
  minimum_spend: 0,
  redemption_mode: 'fixed',
  points_cost: 500,
  flexible: null,
  vip_tier_id: null,
  ...extra,
});

describe('checkoutOffers', () => {
  it('offers what the service would redeem now, except store credit, a flexible reward at its minimum', () => {
    const program = {
      id: 'demo',
      currency: 'USD',
      earning_rules: [],
      vip_tiers: [],
      rewards: [
        reward('five-off', 'fixed'),
        reward('credit', 'store_credit'),
        reward('flex', 'fixed', {
          redemption_mode: 'flexible',
          flexible: { min_points: 100, max_points: 1000, points_per_unit: 100 },
        }),
        reward('too-dear', 'fixed'),
      ],
    } as Program;
    const member = { redeemable_reward_ids: ['five-off', 'credit', 'flex'] } as Member;
    expect(checkoutOffers(program, member).map((offer) => [offer.reward.id, offer.cost])).toEqual([
      ['five-off', 500],
      ['flex', 100],
    ]);
  });

  it('lets a flexible reward take at most the balance, in its steps', () => {
    const flex = reward('flex', 'fixed', { flexible: { min_points: 100, max_points: 1000, points_per_unit: 100 } });
    expect(flexibleMost(flex, 750)).toBe(700);
    expect(flexibleMost(flex, 5000)).toBe(1000);
    expect(flexibleMost(flex, 50)).toBe(100);
  });
});

describe('pointsDueAt', () => {
  const estimate = { points: 100, status: 'pending' as const, points_due_at: '2026-12-15T12:00:00.000Z', eligible_amount: '50.00' };
  it('dates pending points from the order’s own time on the order status page', () => {
    const askedAt = Date.parse('2026-12-01T12:00:00.000Z');
    expect(pointsDueAt(estimate, askedAt, '2026-11-21T12:00:00.000Z')).toBe('2026-12-05T12:00:00.000Z');
  });
  it('keeps the estimate’s date on the thank-you page, and null for points approved at once', () => {
    expect(pointsDueAt(estimate, Date.parse('2026-12-01T12:00:00.000Z'), null)).toBe(estimate.points_due_at);
    expect(pointsDueAt({ ...estimate, status: 'approved', points_due_at: null }, 0, '2026-11-21T12:00:00.000Z')).toBeNull();
  });
});
