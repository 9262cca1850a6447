// The calendar of a member's points, as pure arithmetic: which approved entries are expiry batches and
// how much of each is left (FIFO derived from two running totals, no per-batch writes on a spend), when
// the whole balance expires for inactivity, and which birthday is due.
import type { CustomerRecord } from './customer';
import { addDays, DAY_MS } from './dates';
import type { EarningEntry } from './history';
import type { EarningSettings } from './shop';

/**
 * Batches as intervals on one line. Every approved entry with positive points is a batch: it covers
 * [batch_offset, batch_offset + points) of the member's `points_batch_total`, the sum of all batches
 * ever given, in the order they were given. Whatever takes points away (purchases, negative
 * adjustments, claw-backs, expiries) takes them from the front of the line, so the points consumed so
 * far are always [0, points_batch_total - current_points): spending never has to touch a batch.
 */
export function batchTotalOf(record: Pick<CustomerRecord, 'current_points' | 'points_batch_total'>): number {
  // A profile written before batches existed counts its whole balance as given before any batch.
  return record.points_batch_total ?? record.current_points;
}

/** Points taken from the front of the line so far (never negative). */
export function consumedPoints(record: Pick<CustomerRecord, 'current_points' | 'points_batch_total'>): number {
  return Math.max(0, batchTotalOf(record) - record.current_points);
}

/**
 * What expiring a batch removes: what is left of it, plus anything older still unspent (points expire
 * in the order they were given, even when a shortened `days` makes a newer batch's date come first).
 * Never more than the balance.
 */
export function expiringPoints(record: Pick<CustomerRecord, 'current_points' | 'points_batch_total'>, batch: BatchPosition): number {
  const left = batch.batch_offset + batch.points - consumedPoints(record);
  return Math.max(0, Math.min(left, record.current_points));
}

/** What is left of one batch alone (for reminders): between 0 and its points. */
export function batchRemaining(record: Pick<CustomerRecord, 'current_points' | 'points_batch_total'>, batch: BatchPosition): number {
  const left = batch.batch_offset + batch.points - Math.max(consumedPoints(record), batch.batch_offset);
  return Math.max(0, Math.min(left, batch.points, record.current_points));
}

export interface BatchPosition {
  batch_offset: number;
  /** The batch's length on the line: its points, unless a customer merge re-laid what was left of it. */
  points: number;
}

/**
 * An earning entry as stored, with the batch bookkeeping an approved positive entry carries. A merge
 * (`mergeLedgers`) re-lays an open batch as what was left of it: `batch_points` is then its length on the
 * line, while `points` stays what the entry gave.
 */
export type LedgerEntry = EarningEntry & { batch_offset?: number; batch_points?: number };

/** Where a stored batch sits on its member's line. */
export function batchPositionOf(batch: Pick<LedgerEntry, 'batch_offset' | 'batch_points' | 'points'>): BatchPosition {
  return { batch_offset: batch.batch_offset ?? 0, points: batch.batch_points ?? batch.points };
}

/**
 * Gives `entries` (approved, created in this write) to the member: each positive one becomes a batch at
 * the end of the line (with its expiry date in `batch` mode) and the earning counts as activity.
 * `before` is the profile as read, `after` the profile with the new figures; both totals are kept on
 * `after`. Entries that are not positive approved points pass through unchanged.
 */
export function giveBatches<E extends EarningEntry>(
  before: CustomerRecord,
  after: CustomerRecord,
  entries: readonly E[],
  settings: EarningSettings,
  now: string,
): { record: CustomerRecord; entries: Array<E & { batch_offset?: number }> } {
  let total = batchTotalOf(before);
  let given = false;
  const out = entries.map((entry) => {
    if (entry.status !== 'approved' || entry.points <= 0) return entry;
    given = true;
    const offset = total;
    total += entry.points;
    const givenAt = entry.points_given_at ?? now;
    const expiry = settings.points_expiry?.mode === 'batch' ? addDays(givenAt, settings.points_expiry.days) : null;
    return { ...entry, batch_offset: offset, points_expiry_at: expiry };
  });
  const record = { ...after, points_batch_total: total };
  return { record: given ? withActivity(record, settings, now) : record, entries: out };
}

/** A batch of one of two members' lines that a merge may re-lay: where it sits, and when it was given. */
export type MergeableBatch = Pick<LedgerEntry, 'batch_offset' | 'batch_points' | 'points' | 'points_given_at' | 'created_at'>;

/** Which member's line a batch came from. */
export type LineSide = 'kept' | 'deleted';

/** A batch of the merged line: the batch as read, the side it came from, and its new place. */
export interface LaidBatch<B> {
  batch: B;
  from: LineSide;
  batch_offset: number;
  batch_points: number;
}

type Line<B> = { record: Pick<CustomerRecord, 'current_points' | 'points_batch_total'>; batches: readonly B[] };

/**
 * Two members' lines as one (a customer merge), so FIFO expiry and reminders go on as if every batch had
 * been given to one member. The merged line starts with a consumed stretch as long as the longer of the two
 * lines, so every position either line used before is spent on the new one (a batch left where it was
 * expires nothing). After it come the points no open batch covers (balances from before batches, points
 * given back), oldest of all and spent first; then what is left of every open batch, as a batch of that
 * length, in the order the batches were given (the kept member's first on a tie). The balance is the sum
 * of both, so the consumed stretch is exactly the first one. `batches` are each line's open batches; those
 * with nothing left are not re-laid.
 */
export function mergeLedgers<B extends MergeableBatch>(
  kept: Line<B>,
  deleted: Line<B>,
): { points_batch_total: number; batches: Array<LaidBatch<B>> } {
  const open = (line: Line<B>, from: LineSide) =>
    line.batches
      .map((batch) => ({ batch, from, left: batchRemaining(line.record, batchPositionOf(batch)) }))
      .filter((piece) => piece.left > 0);
  const keptOpen = open(kept, 'kept');
  const deletedOpen = open(deleted, 'deleted');
  const uncovered = (line: Line<B>, pieces: Array<{ left: number }>) =>
    Math.max(0, line.record.current_points - pieces.reduce((sum, piece) => sum + piece.left, 0));
  const givenAt = (batch: B) => batch.points_given_at ?? batch.created_at;
  const ordered = [...keptOpen, ...deletedOpen].sort(
    (a, b) =>
      givenAt(a.batch).localeCompare(givenAt(b.batch)) ||
      (a.from === b.from ? 0 : a.from === 'kept' ? -1 : 1) ||
      (a.batch.batch_offset ?? 0) - (b.batch.batch_offset ?? 0),
  );
  let cursor =
    Math.max(batchTotalOf(kept.record), batchTotalOf(deleted.record)) + uncovered(kept, keptOpen) + uncovered(deleted, deletedOpen);
  const batches = ordered.map(({ batch, from, left }) => {
    const laid = { batch, from, batch_offset: cursor, batch_points: left };
    cursor += left;
    return laid;
  });
  return { points_batch_total: cursor, batches };
}

/**
 * Marks an earning or a spending at `now`: in `inactivity` mode the whole balance now expires `days`
 * after it (a new period, so its reminder is due again). Claw-backs and expiries are not activity.
 */
export function withActivity(record: CustomerRecord, settings: EarningSettings, now: string): CustomerRecord {
  const expiry = settings.points_expiry;
  return {
    ...record,
    points_last_activity_at: now,
    points_expire_at: expiry?.mode === 'inactivity' ? addDays(now, expiry.days) : null,
  };
}

/** The inactivity deadline under the current settings, or null when the balance does not expire for inactivity. */
export function inactivityDeadline(record: CustomerRecord, settings: EarningSettings): string | null {
  const expiry = settings.points_expiry;
  if (expiry?.mode !== 'inactivity' || record.current_points <= 0 || !record.points_last_activity_at) return null;
  return addDays(record.points_last_activity_at, expiry.days);
}

/** The member's birthday in `year`: 29 February falls on 28 February in other years. `YYYY-MM-DD`. */
export function birthdayIn(dateOfBirth: string, year: number): string {
  const [, month, day] = dateOfBirth.split('-');
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const shown = month === '02' && day === '29' && !leap ? '28' : day;
  return `${String(year).padStart(4, '0')}-${month}-${shown}`;
}

/** How late a birthday may still be awarded (EARNING-CONTRACT.md: at most 7 days after it passed). */
export const BIRTHDAY_GRACE_DAYS = 7;

export type BirthdayDecision =
  /** Award the birthday of `year` now. */
  | { award: true; year: number; next: string }
  /** Nothing to award now; look again on `next` (a `YYYY-MM-DD`). */
  | { award: false; next: string };

/**
 * The contract's rule: a run awards the birthday of the clock's current calendar year if it is today
 * or passed at most 7 days ago and was not awarded yet. `today` is the clock's UTC calendar date.
 */
export function birthdayDecision(dateOfBirth: string, awardedYear: number | null, today: string): BirthdayDecision {
  const year = Number(today.slice(0, 4));
  const birthday = birthdayIn(dateOfBirth, year);
  const nextYear = birthdayIn(dateOfBirth, year + 1);
  if (birthday > today) return { award: false, next: (awardedYear ?? 0) >= year ? nextYear : birthday };
  const late = (Date.parse(today) - Date.parse(birthday)) / DAY_MS;
  if (late <= BIRTHDAY_GRACE_DAYS && (awardedYear ?? 0) < year) return { award: true, year, next: nextYear };
  return { award: false, next: nextYear };
}

/** The first day a birthday job should look at this member, seen from `today` (used when the date is written). */
export function nextBirthdayCheck(dateOfBirth: string, awardedYear: number | null, today: string): string {
  const decision = birthdayDecision(dateOfBirth, awardedYear, today);
  return decision.award ? today : decision.next;
}
