// The points calendar's arithmetic: FIFO batches derived from two running totals agree with an explicit
// queue of batches under any sequence of gifts, spends and expiries; inactivity deadlines; birthdays.
import fc from 'fast-check';
import type { CustomerRecord } from '../../shared/domain/customer';
import type { EarningEntry } from '../../shared/domain/history';
import {
  batchPositionOf,
  batchRemaining,
  birthdayDecision,
  birthdayIn,
  expiringPoints,
  giveBatches,
  inactivityDeadline,
  mergeLedgers,
  nextBirthdayCheck,
  withActivity,
} from '../../shared/domain/points-ledger';
import type { EarningSettings } from '../../shared/domain/shop';
import { customerRecord } from '../fixtures/customer-record';

const BATCH: EarningSettings = { pending_days: 0, points_expiry: { mode: 'batch', days: 30 }, expiry_reminder_days: 7 };
const IDLE: EarningSettings = { pending_days: 0, points_expiry: { mode: 'inactivity', days: 60 }, expiry_reminder_days: 10 };
const NOW = '2027-01-10T12:00:00.000Z';

const entry = (id: string, points: number, status: EarningEntry['status'] = 'approved'): EarningEntry => ({
  id,
  earning_rule_id: null,
  action: 'manual_adjustment',
  points,
  base_points: points,
  points_multiplier: 1,
  status,
  order_id: null,
  order_number: null,
  points_due_at: null,
  points_given_at: NOW,
  points_expiry_at: null,
  created_at: NOW,
  updated_at: NOW,
});

describe('batches from running totals', () => {
  it('gives positive approved entries consecutive places on the line, with their expiry date in batch mode', () => {
    const before = customerRecord({ platform_customer_id: '1', current_points: 0 });
    const after = { ...before, current_points: 150 };
    const { record, entries } = giveBatches(before, after, [entry('a', 100), entry('p', 20, 'pending'), entry('b', 50)], BATCH, NOW);
    expect(entries.map((e) => [e.id, e.batch_offset, e.points_expiry_at])).toEqual([
      ['a', 0, '2027-02-09T12:00:00.000Z'],
      ['p', undefined, null],
      ['b', 100, '2027-02-09T12:00:00.000Z'],
    ]);
    expect(record.points_batch_total).toBe(150);
    expect(record.points_last_activity_at).toBe(NOW);
  });

  it('counts a profile written before batches existed as a balance given before any batch', () => {
    const before = customerRecord({ platform_customer_id: '1', current_points: 40 });
    const { record, entries } = giveBatches(before, { ...before, current_points: 50 }, [entry('a', 10)], BATCH, NOW);
    expect(entries[0]!.batch_offset).toBe(40);
    expect(record.points_batch_total).toBe(50);
  });

  it('agrees with an explicit FIFO queue under any sequence of gifts, spends and expiries', () => {
    const op = fc.oneof(
      fc.record({ kind: fc.constant('give' as const), points: fc.integer({ min: 1, max: 500 }) }),
      fc.record({ kind: fc.constant('spend' as const), points: fc.integer({ min: 1, max: 700 }) }),
      fc.record({ kind: fc.constant('expire' as const), index: fc.nat(30) }),
    );
    fc.assert(
      fc.property(fc.array(op, { maxLength: 60 }), (ops) => {
        let record: CustomerRecord = customerRecord({ platform_customer_id: '1', current_points: 0 });
        const batches: Array<{ id: string; batch_offset: number; points: number; expired: boolean }> = [];
        // The reference: what is left of each batch, taken from the oldest first.
        const queue: number[] = [];
        for (const [step, o] of ops.entries()) {
          if (o.kind === 'give') {
            const given = giveBatches(
              record,
              { ...record, current_points: record.current_points + o.points },
              [entry(`b${step}`, o.points)],
              BATCH,
              NOW,
            );
            record = given.record;
            batches.push({ id: `b${step}`, batch_offset: given.entries[0]!.batch_offset!, points: o.points, expired: false });
            queue.push(o.points);
          } else if (o.kind === 'spend') {
            const removed = Math.min(o.points, record.current_points);
            record = { ...record, current_points: record.current_points - removed };
            let left = removed;
            for (let i = 0; i < queue.length && left > 0; i += 1) {
              const take = Math.min(queue[i]!, left);
              queue[i]! -= take;
              left -= take;
            }
          } else {
            // Batches expire in the order they were given: expire the oldest one not expired yet.
            const index = batches.findIndex((batch) => !batch.expired);
            if (index < 0) continue;
            const batch = batches[index]!;
            expect(batchRemaining(record, batch)).toBe(queue[index]);
            const removed = expiringPoints(record, batch);
            expect(removed).toBe(queue[index]);
            record = { ...record, current_points: record.current_points - removed };
            queue[index] = 0;
            batch.expired = true;
          }
          for (const [index, batch] of batches.entries()) {
            if (!batch.expired) expect(batchRemaining(record, batch)).toBe(queue[index]);
          }
          expect(queue.reduce((sum, left) => sum + left, 0)).toBe(record.current_points);
        }
      }),
    );
  });

  it('expiring a newer batch first (a shortened `days`) also takes older points still unspent, never more than the balance', () => {
    const record = customerRecord({ platform_customer_id: '1', current_points: 120, points_batch_total: 150 });
    // Consumed 30: the first batch [0, 100) has 70 left, the second [100, 150) all 50.
    expect(expiringPoints(record, { batch_offset: 100, points: 50 })).toBe(120);
    expect(batchRemaining(record, { batch_offset: 100, points: 50 })).toBe(50);
    expect(
      expiringPoints(customerRecord({ platform_customer_id: '1', current_points: 10, points_batch_total: 150 }), {
        batch_offset: 100,
        points: 50,
      }),
    ).toBe(10);
  });
});

describe('two lines merged into one (customer merges)', () => {
  type Batch = EarningEntry & { batch_offset?: number; batch_points?: number };
  const at = (step: number) => new Date(Date.UTC(2027, 0, 1, 0, step)).toISOString();

  /** One member's line built by gifts and spends, with the reference queue of what is left of each batch. */
  class Member {
    record: CustomerRecord;
    batches: Batch[] = [];
    left: number[] = [];
    constructor(id: string, before: number) {
      // A balance from before batches existed: given before any batch, spent first.
      this.record = customerRecord({ platform_customer_id: id, current_points: before });
    }
    give(step: number, points: number) {
      const given = giveBatches(
        this.record,
        { ...this.record, current_points: this.record.current_points + points },
        [entry(`${this.record.platform_customer_id}-${step}`, points)],
        BATCH,
        at(step),
      );
      this.record = given.record;
      this.batches.push({ ...given.entries[0]!, points_given_at: at(step) });
      this.left.push(points);
    }
    spend(points: number) {
      let take = Math.min(points, this.record.current_points);
      this.record = { ...this.record, current_points: this.record.current_points - take };
      // Older than any batch: the balance from before batches goes first.
      take -= Math.min(take, this.record.current_points + take - this.left.reduce((sum, left) => sum + left, 0));
      for (let i = 0; i < this.left.length && take > 0; i += 1) {
        const used = Math.min(this.left[i]!, take);
        this.left[i]! -= used;
        take -= used;
      }
    }
  }

  it('keeps what is left of every batch, oldest first whoever gave it, under later spends and expiries', () => {
    const op = fc.record({
      member: fc.constantFrom(0, 1),
      kind: fc.constantFrom('give' as const, 'spend' as const),
      points: fc.integer({ min: 1, max: 400 }),
    });
    fc.assert(
      fc.property(
        fc.nat(300),
        fc.nat(300),
        fc.array(op, { maxLength: 30 }),
        fc.array(fc.nat(500), { maxLength: 10 }),
        (a, b, ops, spends) => {
          const members = [new Member('1', a), new Member('2', b)];
          for (const [step, o] of ops.entries()) {
            if (o.kind === 'give') members[o.member]!.give(step, o.points);
            else members[o.member]!.spend(o.points);
          }
          const [kept, deleted] = members as [Member, Member];
          const merged = mergeLedgers(kept, deleted);
          let record: CustomerRecord = {
            ...kept.record,
            current_points: kept.record.current_points + deleted.record.current_points,
            points_batch_total: merged.points_batch_total,
          };
          // The reference: what is not in a batch first, then every batch with points left in the order given.
          const leftOf = (laid: (typeof merged.batches)[number]) => {
            const member = laid.from === 'kept' ? kept : deleted;
            return member.left[member.batches.indexOf(laid.batch)]!;
          };
          const queue = merged.batches.map(leftOf);
          let loose = record.current_points - queue.reduce((sum, left) => sum + left, 0);
          expect(merged.batches.map((laid) => laid.batch.points_given_at)).toEqual(
            merged.batches.map((laid) => laid.batch.points_given_at).sort(),
          );
          // Each batch as stored once re-laid.
          const placed = merged.batches.map((laid) =>
            batchPositionOf({ ...laid.batch, batch_offset: laid.batch_offset, batch_points: laid.batch_points }),
          );
          const check = () => {
            for (const [i, position] of placed.entries()) expect(batchRemaining(record, position)).toBe(queue[i]);
          };
          check();
          for (const points of spends) {
            let take = Math.min(points, record.current_points);
            record = { ...record, current_points: record.current_points - take };
            const fromLoose = Math.min(loose, take);
            loose -= fromLoose;
            take -= fromLoose;
            for (let i = 0; i < queue.length && take > 0; i += 1) {
              const used = Math.min(queue[i]!, take);
              queue[i]! -= used;
              take -= used;
            }
            check();
          }
          // Expiring the oldest batch takes it and whatever older is still unspent.
          const oldest = merged.batches.findIndex((_, i) => queue[i]! > 0);
          if (oldest >= 0)
            expect(expiringPoints(record, placed[oldest]!)).toBe(loose + queue.slice(0, oldest + 1).reduce((x, y) => x + y, 0));
        },
      ),
    );
  });
});

describe('inactivity', () => {
  it('starts a new period with each activity and has no deadline without a balance or in another mode', () => {
    const active = withActivity(customerRecord({ platform_customer_id: '1', current_points: 80 }), IDLE, NOW);
    expect(active.points_expire_at).toBe('2027-03-11T12:00:00.000Z');
    expect(inactivityDeadline(active, IDLE)).toBe('2027-03-11T12:00:00.000Z');
    expect(inactivityDeadline({ ...active, current_points: 0 }, IDLE)).toBeNull();
    expect(inactivityDeadline(active, BATCH)).toBeNull();
    expect(withActivity(customerRecord({ platform_customer_id: '1' }), BATCH, NOW).points_expire_at).toBeNull();
  });
});

describe('birthdays', () => {
  it('puts 29 February on 28 February in other years', () => {
    expect(birthdayIn('2000-02-29', 2027)).toBe('2027-02-28');
    expect(birthdayIn('2000-02-29', 2028)).toBe('2028-02-29');
    expect(birthdayIn('2000-02-29', 2100)).toBe('2100-02-28');
    expect(birthdayIn('1990-12-31', 2027)).toBe('2027-12-31');
  });

  it("awards the current year's birthday from the day to 7 days after, once", () => {
    expect(birthdayDecision('1990-03-10', null, '2027-03-09')).toEqual({ award: false, next: '2027-03-10' });
    expect(birthdayDecision('1990-03-10', null, '2027-03-10')).toEqual({ award: true, year: 2027, next: '2028-03-10' });
    expect(birthdayDecision('1990-03-10', 2026, '2027-03-17')).toEqual({ award: true, year: 2027, next: '2028-03-10' });
    expect(birthdayDecision('1990-03-10', null, '2027-03-18')).toEqual({ award: false, next: '2028-03-10' });
    expect(birthdayDecision('1990-03-10', 2027, '2027-03-12')).toEqual({ award: false, next: '2028-03-10' });
    // A year's birthday still ahead but already awarded (the clock went back) waits for next year's.
    expect(birthdayDecision('1990-03-10', 2027, '2027-03-01')).toEqual({ award: false, next: '2028-03-10' });
    // The previous calendar year's birthday is never awarded in January.
    expect(birthdayDecision('1990-12-30', 2025, '2027-01-03')).toEqual({ award: false, next: '2027-12-30' });
  });

  it('sets a new timer to today when the birthday is due now, else to the next day to look', () => {
    expect(nextBirthdayCheck('1990-03-10', null, '2027-03-12')).toBe('2027-03-12');
    expect(nextBirthdayCheck('1990-03-10', null, '2027-06-01')).toBe('2028-03-10');
  });
});
