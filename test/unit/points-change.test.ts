import { commitOfQueue, computePointsChange, receiptsOf } from '../../shared/points/points-change';
import { parseAdjustPointsBody } from '../../shared/points/points-requests';
import { ApiError } from '../../shared/http/errors';
import { customerRecord } from '../fixtures/customer-record';
import { vipSettings, vipTier } from '../fixtures/shop-catalog';

const vip = vipSettings();
const tier = (id: string, threshold: number) => vipTier(id, { threshold_points: threshold, points_multiplier: 1.5, position: threshold });
const tiers = [tier('silver', 1000), tier('gold', 2000)];
const NOW = '2026-01-01T00:00:00.000Z';

describe('points change', () => {
  it('adds a positive adjustment to the balance and to lifetime points', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 100, lifetime_points: 500 });

    const change = computePointsChange(record, { adjustment: 50, update_lifetime_points: true, send_email: true }, tiers, vip, NOW);

    expect(change).toMatchObject({ applied: 50, before: 100, after: 150 });
    expect(change.next).toMatchObject({ current_points: 150, lifetime_points: 550, updated_at: NOW });
  });

  it('floors the balance at zero and reports what was actually applied', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 5, lifetime_points: 5 });

    const change = computePointsChange(record, { adjustment: -20, update_lifetime_points: true, send_email: true }, tiers, vip, NOW);

    expect(change).toMatchObject({ applied: -5, before: 5, after: 0 });
    expect(change.next.lifetime_points).toBe(5);
  });

  it('leaves lifetime points alone when update_lifetime_points is false', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 0, lifetime_points: 10 });

    const change = computePointsChange(record, { adjustment: 40, update_lifetime_points: false, send_email: true }, tiers, vip, NOW);

    expect(change.next).toMatchObject({ current_points: 40, lifetime_points: 10 });
  });

  it('recalculates the tier from the new lifetime points', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 900, lifetime_points: 1900, vip_tier_id: 'silver' });

    const change = computePointsChange(record, { adjustment: 100, update_lifetime_points: true, send_email: true }, tiers, vip, NOW);

    expect(change.tierBefore?.id).toBe('silver');
    expect(change.tierAfter?.id).toBe('gold');
    expect(change.next.vip_tier_id).toBe('gold');
  });

  it('never lowers the tier on a deduction, since lifetime points stay', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 2000, lifetime_points: 2000 });

    const change = computePointsChange(record, { adjustment: -2000, update_lifetime_points: true, send_email: true }, tiers, vip, NOW);

    expect(change.tierAfter?.id).toBe('gold');
  });
});

describe('a queue of adjustments applied as one commit', () => {
  const earning = { pending_days: 0, points_expiry: { mode: 'batch' as const, days: 365 }, expiry_reminder_days: 30 };
  const settings = { tiers, vipSettings: vip, earningSettings: earning, staleBefore: '2025-12-31T23:59:00.000Z' };
  const request = (id: string, adjustment: number, at = NOW) => ({
    id,
    adjustment,
    update_lifetime_points: true,
    note: null,
    send_email: true,
    at,
  });

  it('applies each request to what the one before left, as one-at-a-time writes would', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 10, lifetime_points: 995, points_batch_total: 10 });

    const commit = commitOfQueue(record, [request('a', 5), request('b', -30), request('c', 20)], settings);

    expect(receiptsOf(commit)).toEqual([
      { id: 'a', applied: 5, before: 10, after: 15 },
      { id: 'b', applied: -15, before: 15, after: 0 },
      { id: 'c', applied: 20, before: 0, after: 20 },
    ]);
    expect(commit.applied.map(({ change }) => [change.tierBefore?.id ?? null, change.tierAfter?.id ?? null])).toEqual([
      [null, 'silver'],
      ['silver', 'silver'],
      ['silver', 'silver'],
    ]);
    expect(commit.next).toMatchObject({ current_points: 20, lifetime_points: 1020, vip_tier_id: 'silver', points_batch_total: 35 });
    // Batches at the end of the line one after the other; the deduction is spending, no batch.
    expect(commit.applied.map(({ entry }) => entry.batch_offset)).toEqual([10, undefined, 15]);
    expect(commit.applied[0]!.entry).toMatchObject({
      id: 'a',
      points: 5,
      points_before: 10,
      points_after: 15,
      points_expiry_at: '2027-01-01T00:00:00.000Z',
    });
    expect(commit).toMatchObject({ removed: 3, dropped: [] });
  });

  it('drops what is abandoned, applied already or a second copy, and still takes it off the queue', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 0 });

    const commit = commitOfQueue(
      record,
      [request('old', 100, '2025-12-31T23:58:00.000Z'), request('done', 7), request('a', 1), request('a', 1)],
      { ...settings, alreadyApplied: new Set(['done']) },
    );

    expect(commit.applied.map(({ request: applied }) => applied.id)).toEqual(['a']);
    expect(commit).toMatchObject({ removed: 4, dropped: ['old', 'done', 'a'] });
    expect(commit.next.current_points).toBe(1);
  });
});

describe('adjust points body', () => {
  const detailOf = (body: unknown) => {
    try {
      parseAdjustPointsBody(body);
    } catch (error) {
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).statusCode).toBe(400);
      return (error as ApiError).detail;
    }
    throw new Error('expected a 400');
  };

  it('applies the defaults', () => {
    expect(parseAdjustPointsBody({ adjustment: -3 })).toEqual({
      adjustment: -3,
      note: null,
      update_lifetime_points: true,
      send_email: true,
    });
  });

  it.each([
    [{}, 'adjustment is required'],
    [{ adjustment: null }, 'adjustment is required'],
    [{ adjustment: '10' }, 'adjustment must be a non-zero integer'],
    [{ adjustment: 1.5 }, 'adjustment must be a non-zero integer'],
    [{ adjustment: 0 }, 'adjustment cannot be zero'],
    [{ adjustment: 1e12 }, 'adjustment must be between -1000000000 and 1000000000'],
    [{ adjustment: 5, note: 7 }, 'note must be a string'],
    [{ adjustment: 5, send_email: 'no' }, 'send_email must be a boolean'],
    [{ adjustment: 5, update_lifetime_points: 1 }, 'update_lifetime_points must be a boolean'],
  ])('refuses %j with %p', (body, detail) => {
    expect(detailOf(body)).toBe(detail);
  });
});
