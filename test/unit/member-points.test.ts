// The one rule for moving a member's points: the figures, the floor at zero, lifetime points as each path
// asks, the tier those figures reach, and `tier.changed` made from the tier the figures before reach.
import fc from 'fast-check';
import { movePoints, type PointsMove, tierEvents, type TierProgram } from '../../shared/domain/member-points';
import { resolveTier } from '../../shared/domain/tiers';
import { customerRecord } from '../fixtures/customer-record';
import { vipSettings, vipTier } from '../fixtures/shop-catalog';

const NOW = '2026-03-01T12:00:00.000Z';
const silver = vipTier('silver', { threshold_points: 1000, threshold_spend: 500, threshold_orders: 5, position: 1 });
const gold = vipTier('gold', { threshold_points: 2000, threshold_spend: 1500, threshold_orders: 10, position: 2 });
const byPoints: TierProgram = { tiers: [gold, silver], vipSettings: vipSettings() };
const bySpend: TierProgram = { tiers: [gold, silver], vipSettings: vipSettings({ entry_method: 'spend' }) };

const move = (points: number, lifetime: PointsMove['lifetime'], extra: Partial<PointsMove> = {}): PointsMove => ({
  points,
  lifetime,
  send_email: true,
  now: NOW,
  ...extra,
});

describe('moving a member points', () => {
  it('adds to the balance and lifetime points, writes the tier reached and the time', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 100, lifetime_points: 500 });

    const moved = movePoints(record, move(50, 50), byPoints);

    expect(moved.applied).toBe(50);
    expect(moved.next).toEqual({ ...record, current_points: 150, lifetime_points: 550, vip_tier_id: null, updated_at: NOW });
    expect(moved.events).toEqual([]);
  });

  it('floors the balance at zero and reports what the balance actually moved', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 5, lifetime_points: 5 });

    const moved = movePoints(record, move(-20, 0), byPoints);

    expect(moved.applied).toBe(-5);
    expect(moved.next).toMatchObject({ current_points: 0, lifetime_points: 5 });
  });

  it("counts towards lifetime points only what the balance gained when the path says 'gain'", () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 10, lifetime_points: 100 });

    expect(movePoints(record, move(30, 'gain'), byPoints).next.lifetime_points).toBe(130);
    expect(movePoints(record, move(-30, 'gain'), byPoints).next.lifetime_points).toBe(100);
    expect(movePoints(record, move(30, 0), byPoints).next.lifetime_points).toBe(100);
  });

  it('moves spend to the step asked and the order count, never below zero, and leaves them when not given', () => {
    const record = customerRecord({ platform_customer_id: '1', total_spend: 10.1, orders_count: 1 });

    expect(movePoints(record, move(0, 0, { spend: { delta: 0.2, scale: 100 }, orders: 1 }), byPoints).next).toMatchObject({
      total_spend: 10.3,
      orders_count: 2,
    });
    expect(movePoints(record, move(0, 0, { spend: { delta: -50, scale: 100 }, orders: -3 }), byPoints).next).toMatchObject({
      total_spend: 0,
      orders_count: 0,
    });
    expect(movePoints(record, move(10, 10), byPoints).next).toMatchObject({ total_spend: 10.1, orders_count: 1 });
  });

  it('publishes tier.changed when the member rises, stamped with the move', () => {
    const record = customerRecord({ platform_customer_id: '7', shop_id: 'shop-b', current_points: 900, lifetime_points: 1900 });

    const moved = movePoints(record, move(100, 100, { send_email: false }), byPoints);

    expect(moved.next.vip_tier_id).toBe('gold');
    expect([moved.tierBefore?.id, moved.tierAfter?.id]).toEqual(['silver', 'gold']);
    expect(moved.events).toEqual([
      {
        type: 'tier.changed',
        shop_id: 'shop-b',
        customer_id: '7',
        from_tier_id: 'silver',
        to_tier_id: 'gold',
        send_email: false,
        occurred_at: NOW,
      },
    ]);
  });

  it('publishes tier.changed when the member falls (a refund takes spend back below the threshold)', () => {
    const record = customerRecord({ platform_customer_id: '1', total_spend: 600, orders_count: 1, vip_tier_id: 'silver' });

    const moved = movePoints(record, move(-60, 0, { spend: { delta: -200, scale: 100 }, orders: -1 }), bySpend);

    expect(moved.next.vip_tier_id).toBeNull();
    expect(moved.events).toEqual([expect.objectContaining({ type: 'tier.changed', from_tier_id: 'silver', to_tier_id: null })]);
  });

  it('publishes nothing when the tier stays', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 0, lifetime_points: 1200, vip_tier_id: 'silver' });

    const moved = movePoints(record, move(300, 300), byPoints);

    expect(moved.next.vip_tier_id).toBe('silver');
    expect(moved.events).toEqual([]);
  });

  describe('the tier before is the one the figures before reach under the tiers as they are now', () => {
    it('publishes the rise a stored tier written under older tiers would hide', () => {
      // Written as silver when silver began at 800 points; the shop's silver now begins at 1000.
      const record = customerRecord({ platform_customer_id: '1', current_points: 0, lifetime_points: 900, vip_tier_id: 'silver' });

      const moved = movePoints(record, move(200, 200), byPoints);

      expect(moved.events).toEqual([expect.objectContaining({ from_tier_id: null, to_tier_id: 'silver' })]);
    });

    it('publishes no change a stored tier written under older tiers would invent', () => {
      // Written as no tier when silver began at 1500 points; the member has been silver since it begins at 1000.
      const record = customerRecord({ platform_customer_id: '1', current_points: 0, lifetime_points: 1200, vip_tier_id: null });

      const moved = movePoints(record, move(100, 100), byPoints);

      expect(moved.next.vip_tier_id).toBe('silver');
      expect(moved.events).toEqual([]);
    });

    it('names a tier the shop no longer has as neither end', () => {
      const record = customerRecord({ platform_customer_id: '1', lifetime_points: 2500, vip_tier_id: 'platinum' });

      expect(movePoints(record, move(10, 10), byPoints).events).toEqual([]);
    });
  });

  it('makes the same tier.changed between two states that are not one move (a merge)', () => {
    const before = customerRecord({ platform_customer_id: '1', lifetime_points: 900 });
    const after = { ...before, lifetime_points: 2100 };

    expect(tierEvents(before, after, byPoints, { send_email: true, now: NOW })).toEqual([
      expect.objectContaining({ customer_id: '1', from_tier_id: null, to_tier_id: 'gold', send_email: true, occurred_at: NOW }),
    ]);
    expect(tierEvents(before, before, byPoints, { send_email: true, now: NOW })).toEqual([]);
  });

  it('under any move: the balance is floored, lifetime follows the path, the tier is the figures', () => {
    const program = fc.constantFrom(byPoints, bySpend, { ...byPoints, vipSettings: vipSettings({ entry_method: 'orders' }) });
    const figures = fc.record({
      current_points: fc.nat(3000),
      lifetime_points: fc.nat(3000),
      total_spend: fc.nat(2000),
      orders_count: fc.nat(12),
      vip_tier_id: fc.constantFrom(null, 'silver', 'gold', 'gone'),
    });
    const moves = fc.record({
      points: fc.integer({ min: -4000, max: 4000 }),
      lifetime: fc.oneof(fc.constant('gain' as const), fc.nat(2000)),
      spend: fc.option(fc.record({ delta: fc.integer({ min: -2000, max: 2000 }), scale: fc.constantFrom(1, 100) }), { nil: undefined }),
      orders: fc.option(fc.integer({ min: -3, max: 3 }), { nil: undefined }),
      send_email: fc.boolean(),
    });
    fc.assert(
      fc.property(program, figures, moves, (tiers, stored, asked) => {
        const record = customerRecord({ platform_customer_id: '1', ...stored });
        const moved = movePoints(record, { ...asked, now: NOW }, tiers);

        expect(moved.next.current_points).toBe(Math.max(0, stored.current_points + asked.points));
        expect(moved.applied).toBe(moved.next.current_points - stored.current_points);
        const gained = asked.lifetime === 'gain' ? Math.max(0, moved.applied) : asked.lifetime;
        expect(moved.next.lifetime_points).toBe(stored.lifetime_points + gained);
        expect(moved.next.total_spend).toBe(asked.spend ? Math.max(0, stored.total_spend + asked.spend.delta) : stored.total_spend);
        expect(moved.next.orders_count).toBe(
          asked.orders === undefined ? stored.orders_count : Math.max(0, stored.orders_count + asked.orders),
        );

        const before = resolveTier(record, tiers.tiers, tiers.vipSettings)?.id ?? null;
        const after = resolveTier(moved.next, tiers.tiers, tiers.vipSettings)?.id ?? null;
        expect(moved.next.vip_tier_id).toBe(after);
        expect(moved.events).toEqual(
          before === after
            ? []
            : [
                {
                  type: 'tier.changed',
                  shop_id: record.shop_id,
                  customer_id: '1',
                  from_tier_id: before,
                  to_tier_id: after,
                  send_email: asked.send_email,
                  occurred_at: NOW,
                },
              ],
        );
      }),
    );
  });
});
