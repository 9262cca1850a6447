// The points adjustment writer's state, transition by transition (shared/points/adjustment-state.ts): what each
// answer of the table leads to, without a database or a clock.
import type { StoredCustomer } from '../../shared/data/customer-repository';
import type { CustomerRecord, QueuedAdjustment } from '../../shared/domain/customer';
import {
  type AdjustmentEvent,
  type AdjustmentState,
  advance,
  initialState,
  roundBackoff,
  WITHDRAW_ATTEMPTS,
} from '../../shared/points/adjustment-state';
import { customerRecord } from '../fixtures/customer-record';

const request: QueuedAdjustment = {
  id: 'req-1',
  adjustment: 10,
  update_lifetime_points: true,
  note: null,
  send_email: false,
  at: '2026-01-01T00:00:00.000Z',
};
const other: QueuedAdjustment = { ...request, id: 'req-0' };

const profile = (overrides: Partial<CustomerRecord> = {}, version = 1): StoredCustomer => ({
  record: customerRecord({ platform_customer_id: '1', ...overrides }),
  version,
});
const queued = (overrides: Partial<CustomerRecord> = {}) => profile({ points_queue: [other, request], ...overrides });

/** Runs the events from the first state, each from the state the one before left. */
const after = (...events: AdjustmentEvent[]): AdjustmentState => events.reduce(advance, initialState(request));

const started: AdjustmentEvent = { type: 'round started' };
const enqueued = (current: StoredCustomer): AdjustmentEvent => ({ type: 'enqueued', result: { queued: true, current } });

describe('a round', () => {
  it('starts by joining the queue, at once', () => {
    expect(roundBackoff(initialState(request))).toBeNull();
    expect(after(started).next).toEqual({ step: 'enqueue' });
  });

  it('commits once the request is queued on the profile it read', () => {
    const state = after(started, enqueued(queued()));
    expect(state.next).toEqual({ step: 'commit' });
    expect(state.seen).toEqual(queued());
  });

  it('answers from the receipts when another writer committed the request before this one could', () => {
    const done = profile({ points_receipts: [{ id: 'req-1', applied: 5, before: 5, after: 0 }] });
    expect(after(started, enqueued(done)).next).toEqual({ step: 'answer', outcome: { applied: 5, before: 5, after: 0 } });
  });

  it('refuses a customer that does not exist, and one that is no member', () => {
    expect(after(started, { type: 'enqueued', result: { queued: false, conflict: false, current: null } }).next).toEqual({
      step: 'refuse',
      reason: 'not found',
    });
    const excluded = profile({ status: 'excluded' });
    expect(after(started, { type: 'enqueued', result: { queued: false, conflict: false, current: excluded } }).next).toEqual({
      step: 'refuse',
      reason: 'excluded',
    });
  });

  it('waits a round when the queue is full or another transaction holds the profile, backing off more each time', () => {
    const full = after(started, { type: 'enqueued', result: { queued: false, conflict: false, current: queued() } });
    expect(full.next).toEqual({ step: 'round', wait: true });
    expect(roundBackoff(full)).toBe(1);
    const conflict = advance(advance(full, started), { type: 'enqueued', result: { queued: false, conflict: true } });
    expect(conflict.conflicts).toBe(1);
    expect(roundBackoff(conflict)).toBe(2);
    expect(advance(conflict, started)).toMatchObject({ conflicts: 2, next: { step: 'enqueue' } });
  });
});

describe('the commit', () => {
  const committing = after(started, enqueued(queued()));

  it("answers with what the commit did to this writer's request", () => {
    const mine = { applied: 10, before: 0, after: 10 };
    expect(advance(committing, { type: 'committed', result: { written: true }, mine }).next).toEqual({ step: 'answer', outcome: mine });
  });

  it('reads the entry when the commit did not apply this request, and joins again at the new time when there is none', () => {
    const read = advance(committing, { type: 'committed', result: { written: true }, mine: null });
    expect(read.next).toEqual({ step: 'read entry', then: 'rejoin' });
    const rejoined = advance(read, { type: 'entry read', entry: null, now: '2026-01-01T00:05:00.000Z' });
    expect(rejoined).toMatchObject({
      seen: null,
      next: { step: 'round', wait: false },
      request: { id: 'req-1', at: '2026-01-01T00:05:00.000Z' },
    });
    expect(advance(rejoined, started).next).toEqual({ step: 'enqueue' });
    const settled = advance(read, { type: 'entry read', entry: { applied: 10, before: 1, after: 11 }, now: 'unused' });
    expect(settled.next).toEqual({ step: 'answer', outcome: { applied: 10, before: 1, after: 11 } });
  });

  it('starts the next round at once from the profile a refusal returned, remembering the requests applied already', () => {
    const now = queued({ current_points: 40 });
    const refused = advance(committing, {
      type: 'committed',
      result: { written: false, alreadyApplied: ['req-0'], conflict: false, current: now },
      mine: null,
    });
    expect(refused).toMatchObject({ seen: now, next: { step: 'round', wait: false } });
    expect([...refused.alreadyApplied]).toEqual(['req-0']);
    expect(roundBackoff(refused)).toBeNull();
    expect(advance(refused, started).next).toEqual({ step: 'commit' });
  });

  it('waits after a conflict, keeping what it learnt, and refuses a customer deleted meanwhile', () => {
    const conflict = advance(committing, {
      type: 'committed',
      result: { written: false, alreadyApplied: ['req-0'], conflict: true },
      mine: null,
    });
    expect(conflict.next).toEqual({ step: 'round', wait: true });
    expect(conflict.alreadyApplied.has('req-0')).toBe(true);
    const again = advance(advance(conflict, started), {
      type: 'committed',
      result: { written: false, alreadyApplied: ['req-9'], conflict: false, current: null },
      mine: null,
    });
    expect(again.next).toEqual({ step: 'refuse', reason: 'not found' });
    expect([...again.alreadyApplied].sort()).toEqual(['req-0', 'req-9']);
  });

  it('takes the request back out of the queue when the customer left the program meanwhile', () => {
    const excluded = queued({ status: 'excluded' });
    const refused = advance(committing, {
      type: 'committed',
      result: { written: false, alreadyApplied: [], conflict: false, current: excluded },
      mine: null,
    });
    expect(advance(refused, started).next).toEqual({ step: 'withdraw', index: 1, tries: 0, reason: 'excluded' });
  });

  it('refuses an event that is not the answer of the step it is at', () => {
    expect(() => advance(committing, { type: 'paused' })).toThrow("at step 'commit' cannot take 'paused'");
    expect(() => advance(initialState(request), enqueued(queued()))).toThrow("at step 'round' cannot take 'enqueued'");
  });
});

describe('the withdrawal', () => {
  const excludedInQueue = () => after(started, enqueued(queued({ status: 'excluded' })));

  it('answers 403 once the request of an excluded customer is out, after looking for its entry', () => {
    const withdrawing = excludedInQueue();
    expect(withdrawing.next).toEqual({ step: 'withdraw', index: 1, tries: 0, reason: 'excluded' });
    const out = advance(withdrawing, { type: 'withdrawal', result: { withdrawn: true, current: profile({ status: 'excluded' }, 2) } });
    expect(out.next).toEqual({ step: 'read entry', then: 'withdrawn', reason: 'excluded' });
    expect(advance(out, { type: 'entry read', entry: null, now: 'unused' }).next).toEqual({ step: 'refuse', reason: 'excluded' });
  });

  it('takes out every copy of a request sent twice', () => {
    const twice = queued({ status: 'excluded', points_queue: [request, other, request] });
    const state = after(started, enqueued(twice));
    expect(state.next).toMatchObject({ step: 'withdraw', index: 0 });
    const once = advance(state, {
      type: 'withdrawal',
      result: { withdrawn: true, current: queued({ status: 'excluded', points_queue: [other, request] }) },
    });
    expect(once.next).toEqual({ step: 'withdraw', index: 1, tries: 1, reason: 'excluded' });
  });

  it('backs off after a conflict, and gives up after its tries', () => {
    let state = excludedInQueue();
    for (let tries = 1; tries <= WITHDRAW_ATTEMPTS; tries += 1) {
      state = advance(state, { type: 'withdrawal', result: { withdrawn: false, conflict: true } });
      expect(state.next).toEqual({ step: 'pause', retry: tries, tries, reason: 'excluded' });
      state = advance(state, { type: 'paused' });
    }
    expect(state.next).toEqual({ step: 'stuck' });
  });

  it('follows the profile a refused withdrawal returns, and answers when a commit applied the request first', () => {
    const moved = queued({ status: 'excluded', points_queue: [request] });
    const state = advance(excludedInQueue(), { type: 'withdrawal', result: { withdrawn: false, conflict: false, current: moved } });
    expect(state).toMatchObject({ seen: moved, next: { step: 'withdraw', index: 0, tries: 1 } });
    const applied = profile({ points_receipts: [{ id: 'req-1', applied: 10, before: 0, after: 10 }] });
    expect(advance(state, { type: 'withdrawal', result: { withdrawn: false, conflict: false, current: applied } }).next).toEqual({
      step: 'answer',
      outcome: { applied: 10, before: 0, after: 10 },
    });
  });

  it('when the writer gives up: out at once if never queued, else withdrawn and reported as such', () => {
    expect(advance(after(started), { type: 'give up' }).next).toEqual({ step: 'withdrawn' });
    const waiting = after(started, enqueued(queued()), {
      type: 'committed',
      result: { written: false, alreadyApplied: [], conflict: true },
      mine: null,
    });
    const giving = advance(waiting, { type: 'give up' });
    expect(giving.next).toEqual({ step: 'withdraw', index: 1, tries: 0, reason: 'given up' });
    const gone = advance(giving, { type: 'withdrawal', result: { withdrawn: false, conflict: false, current: null } });
    expect(gone.next).toEqual({ step: 'withdrawn' });
  });
});
