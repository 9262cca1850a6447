// The webhook burst's end-state check: the figures its orders imply, and the mismatches it reports.
import { endStateMismatches, expectedEndState, type MemberFigures } from '../../bench/burst-end-state';

const RULE = { points: 2, unitMinor: 500 };

describe('webhook burst end state', () => {
  it('credits floor(subtotal / unit) x points per order, an entry only for orders that earn, and the spend to the cent', () => {
    const orders = [
      { customerId: 'a', subtotalMinor: 1_000 }, // exactly 2 units: 4 points
      { customerId: 'a', subtotalMinor: 499 }, // under one unit: counted and spent, no points, no entry
      { customerId: 'a', subtotalMinor: 30_099 }, // 60 units: 120 points
      { customerId: 'b', subtotalMinor: 501 }, // 1 unit: 2 points
    ];

    const expected = expectedEndState(['a', 'b', 'c'], orders, RULE);

    expect(expected.get('a')).toEqual({
      current_points: 124,
      lifetime_points: 124,
      orders_count: 3,
      total_spend: 315.98,
      earning_entries: 2,
    });
    expect(expected.get('b')).toEqual({ current_points: 2, lifetime_points: 2, orders_count: 1, total_spend: 5.01, earning_entries: 1 });
    expect(expected.get('c')).toEqual({ current_points: 0, lifetime_points: 0, orders_count: 0, total_spend: 0, earning_entries: 0 });
  });

  it('refuses an order of a customer outside the burst', () => {
    expect(() => expectedEndState(['a'], [{ customerId: 'z', subtotalMinor: 100 }], RULE)).toThrow(/customer z/);
  });

  it('names every differing field and a missing profile, compares spend to the cent, and is empty when exact', () => {
    const want: MemberFigures = { current_points: 10, lifetime_points: 10, orders_count: 2, total_spend: 12.3, earning_entries: 2 };
    const expected = new Map([
      ['a', want],
      ['b', want],
      ['c', want],
    ]);
    const actual = new Map<string, MemberFigures | null>([
      ['a', { ...want, total_spend: 12.300000000000001 }],
      ['b', { ...want, current_points: 8, earning_entries: 3 }],
      ['c', null],
    ]);

    expect(endStateMismatches(expected, actual)).toEqual([
      'customer b: current_points 8 (expected 10), earning_entries 3 (expected 2)',
      'customer c: no profile',
    ]);
    expect(
      endStateMismatches(
        expected,
        new Map([
          ['a', want],
          ['b', want],
          ['c', want],
        ]),
      ),
    ).toEqual([]);
  });
});
