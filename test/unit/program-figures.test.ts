// The program's figures as pure rules (shared/domain/program-figures.ts): each event's contribution, the same
// counters from a full read, the range of an overview, the point value and the liability's rounding.
import type { CommittedEvent } from '../../shared/domain/events';
import {
  addCounts,
  contributionOf,
  countsOfFullRead,
  differencesOf,
  emptyCounts,
  liabilityAmount,
  overviewOf,
  pointValueOf,
  printPointValue,
  ratioOfDecimal,
} from '../../shared/domain/program-figures';
import { overviewRange } from '../../shared/domain/dates';

const AT = '2026-03-04T22:00:00.000Z';
const event = (type: string, fields: Record<string, unknown>): CommittedEvent =>
  ({
    id: `${type}-${JSON.stringify(fields)}`,
    type,
    shop_id: 's',
    customer_id: 'c',
    occurred_at: AT,
    notify: true,
    ...fields,
  }) as CommittedEvent;

describe('what an event adds', () => {
  it('counts issued points by source on the day they were given, and the balance they moved', () => {
    const approved = contributionOf(
      event('points.approved', { points: 30, action: 'purchase', points_given_at: '2026-03-05T01:00:00.000Z', from_pending: true }),
    );
    expect(approved.now).toEqual({ points_outstanding: 30, points_pending: -30, lifetime_issued: 30 });
    expect([...approved.days]).toEqual([['2026-03-05', { issued_purchase: 30 }]]);

    expect([...contributionOf(event('points.earned', { points: 5, action: 'follow_instagram' })).days]).toEqual([
      ['2026-03-04', { issued_action: 5 }],
    ]);
    expect(contributionOf(event('points.adjusted', { adjustment: -7 })).days.get('2026-03-04')).toEqual({ clawed_back: 7 });
    expect(contributionOf(event('reward.refunded', { points: 500 })).days.get('2026-03-04')).toEqual({ issued_refund: 500 });
  });

  it('moves pending points by the difference a refund made, and a rejection takes the points that were pending', () => {
    expect(contributionOf(event('points.pending', { points: 120 })).now).toEqual({ points_pending: 120 });
    expect(contributionOf(event('points.pending', { points: 80, points_before: 120, status: 'pending' })).now).toEqual({
      points_pending: -40,
    });
    expect(contributionOf(event('points.removed', { points: 80, points_before: 80, status: 'rejected' })).now).toEqual({
      points_pending: -80,
    });
    expect(contributionOf(event('points.removed', { points: -25, action: 'refund' })).now).toEqual({ points_outstanding: -25 });
  });

  it('counts a purchase on its redemption day, and a code used on the day it was used', () => {
    const bought = contributionOf(event('reward.purchased', { points_spent: 500, redeemed_at: '2026-03-03T10:00:00.000Z' }));
    expect(bought.days.get('2026-03-03')).toEqual({ redeemed: 500, redemptions: 1 });
    expect(contributionOf(event('reward.used', { discount_code_redeemed_at: '2026-03-09T00:00:00.000Z' })).days.get('2026-03-09')).toEqual({
      codes_used: 1,
    });
  });

  it('gives the same counters in any order: every contribution is an addition', () => {
    const events = [
      event('points.earned', { points: 10, action: 'signup' }),
      event('reward.purchased', { points_spent: 4 }),
      event('points.adjusted', { adjustment: 3 }),
      event('customer.enrolled', { enrolled_at: AT }),
    ];
    const forward = events.reduce((sum, one) => addCounts(sum, contributionOf(one)), emptyCounts());
    const backward = [...events].reverse().reduce((sum, one) => addCounts(sum, contributionOf(one)), emptyCounts());
    expect(differencesOf(forward, backward)).toEqual([]);
    expect(forward.now).toEqual({ points_outstanding: 9, lifetime_issued: 13, lifetime_redeemed: 4 });
  });
});

describe("a member's order", () => {
  const counted = (fields: Record<string, unknown>) =>
    event('order.counted', {
      order_id: 'o1',
      paid_at: '2026-03-02T23:30:00.000Z',
      currency: 'USD',
      counted: true,
      counted_before: false,
      eligible_amount: '120.50',
      eligible_amount_before: '0.00',
      reward_code_used: false,
      orders_count_before: 0,
      orders_count: 1,
      ...fields,
    });

  it('counts on its paid day once paid, a refund lowers that day, a cancellation takes it off', () => {
    const paid = contributionOf(counted({}));
    expect([...paid.days]).toEqual([['2026-03-02', { member_orders: 1, member_revenue_minor: 12_050 }]]);
    expect(paid.now).toEqual({ members_ordered: 1 });

    const refunded = contributionOf(
      counted({ counted_before: true, eligible_amount_before: '120.50', eligible_amount: '100.00', orders_count_before: 1 }),
    );
    expect([...refunded.days]).toEqual([['2026-03-02', { member_revenue_minor: -2_050 }]]);
    expect(refunded.now).toEqual({});

    const cancelled = contributionOf(
      counted({
        counted: false,
        counted_before: true,
        eligible_amount_before: '100.00',
        eligible_amount: '0.00',
        orders_count_before: 1,
        orders_count: 0,
      }),
    );
    const all = [paid, refunded, cancelled].reduce((sum, one) => addCounts(sum, one), emptyCounts());
    expect(all.days.get('2026-03-02') ?? {}).toEqual({});
    expect(all.now).toEqual({});
  });

  it("counts a loyalty order when it used a reward code, in the currency's own minor unit, and members with 1+ and 2+ orders", () => {
    const loyalty = contributionOf(counted({ reward_code_used: true, orders_count_before: 1, orders_count: 2 }));
    expect(loyalty.days.get('2026-03-02')).toEqual({
      member_orders: 1,
      member_revenue_minor: 12_050,
      loyalty_orders: 1,
      loyalty_revenue_minor: 12_050,
    });
    expect(loyalty.now).toEqual({ members_reordered: 1 });
    expect(contributionOf(counted({ currency: 'JPY', eligible_amount: '1200.00' })).days.get('2026-03-02')).toMatchObject({
      member_revenue_minor: 1_200,
    });
    expect(contributionOf(counted({ currency: 'KWD', eligible_amount: '1.250' })).days.get('2026-03-02')).toMatchObject({
      member_revenue_minor: 1_250,
    });
  });

  it('gives the overview its orders, revenue and repeat purchase rate', () => {
    const days = new Map([
      ['2026-03-02', { member_orders: 3, member_revenue_minor: 30_005, loyalty_orders: 1, loyalty_revenue_minor: 5 }],
      ['2026-03-03', { member_orders: 1, member_revenue_minor: 1_000 }],
    ]);
    const overview = overviewOf({
      now: { members_ordered: 3, members_reordered: 1 },
      members: { member: 3, excluded: 0 },
      days,
      range: ['2026-03-02', '2026-03-03'],
      currency: 'USD',
      minorDigits: 2,
      pointValue: { numerator: 1n, denominator: 100n },
    });
    expect(overview.in_range).toMatchObject({ member_orders: 4, member_revenue: '310.05', loyalty_orders: 1, loyalty_revenue: '0.05' });
    expect(overview.repeat_purchase_rate).toBe(0.3333);
    expect(overview.daily.map((day) => day.member_revenue)).toEqual(['300.05', '10.00']);
  });
});

describe('a merge', () => {
  it('makes two enrolments one on the earlier day, and two order counts one', () => {
    const merged = contributionOf(
      event('customer.merged', {
        merge: 'merged',
        deleted_enrolled_at: '2025-01-02T00:00:00.000Z',
        kept_enrolled_at_before: '2025-03-01T00:00:00.000Z',
        kept_enrolled_at: '2025-01-02T00:00:00.000Z',
        kept_orders_count_before: 1,
        orders_count: 1,
      }),
    );
    expect([...merged.days]).toEqual([['2025-03-01', { new_members: -1 }]]);
    // Two members with one order each (1+, 1+) become one with two (1+ and 2+).
    expect(merged.now).toEqual({ members_ordered: -1, members_reordered: 1 });
  });

  it("moves a member to a customer who was none: the deleted member's enrolment goes, the kept one's enrolment comes", () => {
    const moved = contributionOf(
      event('customer.merged', {
        merge: 'moved',
        deleted_enrolled_at: '2025-01-02T00:00:00.000Z',
        kept_enrolled_at_before: null,
        kept_enrolled_at: '2025-01-02T00:00:00.000Z',
        kept_orders_count_before: 0,
        orders_count: 3,
      }),
    );
    const enrolled = contributionOf(event('customer.enrolled', { source: 'merge', enrolled_at: '2025-01-02T00:00:00.000Z' }));
    const both = addCounts(moved, enrolled);
    expect([...both.days]).toEqual([]);
    expect(both.now).toEqual({});
  });
});

describe("an import's undo", () => {
  const GIVEN = '2026-03-01T09:00:00.000Z';
  const imported = (points: number, created: boolean) =>
    addCounts(
      created ? contributionOf(event('customer.enrolled', { source: 'import', enrolled_at: '2024-05-06T00:00:00.000Z' })) : emptyCounts(),
      contributionOf(event('points.earned', { action: 'import', points, points_given_at: GIVEN })),
    );

  it('takes out of the figures exactly what the import put in: a removed member, its balance and its issued points', () => {
    const undone = contributionOf(
      event('import.undone', {
        removed: true,
        action: 'import',
        points: 300,
        points_given_at: GIVEN,
        points_before: 300,
        points_after: 0,
        enrolled_at: '2024-05-06T00:00:00.000Z',
        orders_count: 0,
      }),
    );
    expect([...undone.days]).toEqual([
      ['2026-03-01', { issued_import: -300 }],
      ['2024-05-06', { new_members: -1 }],
    ]);
    const both = addCounts(imported(300, true), undone);
    expect([...both.days]).toEqual([]);
    expect(both.now).toEqual({});
  });

  it("gives back what a `set` clawed back, and leaves a kept member's spending as it is", () => {
    const lowered = addCounts(
      imported(-40, false),
      contributionOf(
        event('import.undone', {
          removed: false,
          action: 'import',
          points: -40,
          points_given_at: GIVEN,
          points_before: 10,
          points_after: 50,
        }),
      ),
    );
    expect([...lowered.days]).toEqual([]);
    expect(lowered.now).toEqual({});
    // 100 imported, 70 spent since: the undo takes the 30 left; the whole entry leaves the history.
    const spent = contributionOf(
      event('import.undone', { removed: false, action: 'import', points: 100, points_given_at: GIVEN, points_before: 30, points_after: 0 }),
    );
    expect(addCounts(imported(100, false), spent).now).toEqual({ points_outstanding: 70 });
    expect([...addCounts(imported(100, false), spent).days]).toEqual([]);
  });
});

describe('a full read', () => {
  it('counts members, balances, pending entries, issued, expired and clawed back points, and redemptions that happened', () => {
    const counts = countsOfFullRead({
      members: [
        { status: 'member', current_points: 40, created_at: AT },
        { status: 'excluded', current_points: 2, created_at: '2026-01-01T00:00:00.000Z' },
      ],
      earning: [
        { action: 'purchase', points: 50, status: 'approved', points_given_at: AT, created_at: AT },
        { action: 'purchase', points: 9, status: 'pending', points_given_at: null, created_at: AT },
        { action: 'expiry', points: -6, status: 'approved', points_given_at: AT, created_at: AT },
        { action: 'refund', points: -4, status: 'approved', points_given_at: AT, created_at: AT },
        { action: 'purchase', points: 3, status: 'rejected', points_given_at: null, created_at: AT },
      ],
      rewards: [
        { points_spent: 100, status: 'used', redeemed_at: AT, discount_code_redeemed_at: '2026-03-06T00:00:00.000Z' },
        { points_spent: 100, status: 'refunded', redeemed_at: AT, discount_code_redeemed_at: null },
      ],
    });
    expect(counts.now).toEqual({ points_outstanding: 42, points_pending: 9, lifetime_issued: 50, lifetime_redeemed: 100 });
    expect(counts.days.get('2026-03-04')).toEqual({
      new_members: 1,
      issued_purchase: 50,
      expired: 6,
      clawed_back: 4,
      redeemed: 100,
      redemptions: 1,
    });
    expect(counts.days.get('2026-03-06')).toEqual({ codes_used: 1 });
  });

  it('counts the orders that count on their paid day, less their refunds, and members by their order counts', () => {
    const facts = { processed_at: '2026-03-02T10:00:00.000Z', subtotal_minor: 10_000, aggregate_refunded_minor: 0 };
    const counts = countsOfFullRead({
      members: [
        { status: 'member', current_points: 0, created_at: AT, orders_count: 2 },
        { status: 'member', current_points: 0, created_at: AT, orders_count: 1 },
        { status: 'member', current_points: 0, created_at: AT },
      ],
      earning: [],
      rewards: [],
      orders: [
        { facts: { ...facts, refunds: { r1: { minor: 2_500 } } }, applied: { order_count: 1 }, reward_code_used: true },
        { facts: { ...facts, refunds: {}, aggregate_refunded_minor: 12_000 }, applied: { order_count: 1 } },
        { facts: { ...facts, refunds: {} }, applied: { order_count: 0 }, reward_code_used: true },
      ],
    });
    expect(counts.now).toEqual({ members_ordered: 2, members_reordered: 1 });
    expect(counts.days.get('2026-03-02')).toEqual({
      member_orders: 2,
      member_revenue_minor: 7_500,
      loyalty_orders: 1,
      loyalty_revenue_minor: 7_500,
    });
  });
});

describe('the range', () => {
  it('defaults to the 30 days ending today and takes up to 366 days, both ends included', () => {
    const range = overviewRange({}, '2026-03-04');
    expect(range).toMatchObject({ from: '2026-02-03', to: '2026-03-04' });
    expect('days' in range && range.days).toHaveLength(30);
    expect(overviewRange({ from: '2024-01-01', to: '2024-12-31' }, '')).toMatchObject({ from: '2024-01-01' });
    expect(overviewRange({ from: '2024-01-01', to: '2025-01-01' }, '')).toEqual({
      error: 'The range covers 367 days; at most 366 (both ends included)',
    });
    expect(overviewRange({ from: '2025-02-29' }, '2025-03-01')).toEqual({ error: "'from' must be a date YYYY-MM-DD" });
    expect(overviewRange({ from: '2025-03-02' }, '2025-03-01')).toEqual({ error: "'from' must not be after 'to'" });
  });
});

describe('the point value and the liability', () => {
  const fixed = { is_active: true, purchasable: true, discount_type: 'fixed', fixed_cost: true, tier_restricted: false };

  it('takes the configured value first, else a minor unit in store credit, else the best fixed reward any member can buy, else 0', () => {
    expect(printPointValue(pointValueOf({ configured: '0.0125', mode: 'points', minorDigits: 2, rewards: [] }))).toBe('0.0125');
    expect(printPointValue(pointValueOf({ configured: null, mode: 'store_credit', minorDigits: 2, rewards: [] }))).toBe('0.01');
    expect(printPointValue(pointValueOf({ configured: null, mode: 'store_credit', minorDigits: 0, rewards: [] }))).toBe('1');
    const rewards = [
      { ...fixed, discount_amount: 5, points_cost: 500 },
      { ...fixed, discount_amount: 10, points_cost: 700 },
      { ...fixed, discount_amount: 100, points_cost: 10, tier_restricted: true },
      { ...fixed, discount_amount: 100, points_cost: 10, discount_type: 'percentage' },
      { ...fixed, discount_amount: 100, points_cost: 10, is_active: false },
    ];
    // 10 / 700 = 0.0142857… printed with 6 decimals, half-up.
    expect(printPointValue(pointValueOf({ configured: null, mode: 'points', minorDigits: 2, rewards }))).toBe('0.014286');
    expect(printPointValue(pointValueOf({ configured: null, mode: 'points', minorDigits: 2, rewards: rewards.slice(2) }))).toBe('0');
  });

  it("counts only fixed-amount rewards: a free-shipping cap, a free product's price or store credit sets no point value", () => {
    const others = [
      { ...fixed, discount_amount: 100, points_cost: 10, discount_type: 'free_shipping' },
      { ...fixed, discount_amount: 35, points_cost: 10, discount_type: 'free_product' },
      { ...fixed, discount_amount: 5, points_cost: 10, discount_type: 'store_credit' },
    ];

    expect(printPointValue(pointValueOf({ configured: null, mode: 'points', minorDigits: 2, rewards: others }))).toBe('0');
    expect(
      printPointValue(
        pointValueOf({
          configured: null,
          mode: 'points',
          minorDigits: 2,
          rewards: [...others, { ...fixed, discount_amount: 5, points_cost: 500 }],
        }),
      ),
    ).toBe('0.01');
  });

  it('multiplies the outstanding points by the exact ratio and rounds half-up to the minor unit', () => {
    expect(liabilityAmount(10, ratioOfDecimal('0.0125'), 2)).toBe('0.13');
    expect(liabilityAmount(7, { numerator: 10n, denominator: 700n }, 2)).toBe('0.10');
    expect(liabilityAmount(123_456, { numerator: 1n, denominator: 100n }, 2)).toBe('1234.56');
    expect(liabilityAmount(3, { numerator: 1n, denominator: 2n }, 0)).toBe('2');
    expect(liabilityAmount(0, { numerator: 1n, denominator: 100n }, 3)).toBe('0.000');
  });
});
