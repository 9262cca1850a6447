// What the writer of one points adjustment knows and does next (docs/architecture.md#one-hot-customer), as an
// explicit state: `adjustPoints` (adjust-points.ts) performs the state's `next` step against the table and
// hands what came back to `advance`, which answers the next state. Pure: no I/O, no clock (the caller passes
// "now" with the events that need it), so every transition is tested without a database.
import type { CommitResult, EnqueueResult, withdrawAdjustment } from '../data/points-repository';
import type { StoredCustomer } from '../data/customer-repository';
import type { AdjustmentReceipt, QueuedAdjustment } from '../domain/customer';

/** Tries to take a request back out of the queue before giving up on it. */
export const WITHDRAW_ATTEMPTS = 20;

/** What an adjustment did, as its receipt, its commit or its audit entry tells. */
export type Outcome = Omit<AdjustmentReceipt, 'id'>;

/** Why the request is being taken back out of its queue. */
export type WithdrawalReason =
  /** The customer left the program while the request waited: the answer is a 403. */
  | 'excluded'
  /** The writer gave up (rounds used up, or an unexpected failure): nothing of it may be applied later. */
  | 'given up';

/** The writer's next step. Steps that call the table carry what the call needs. */
export type Next =
  /** Start a round (the writer backs off first after `wait`). Where a round ends. */
  | { step: 'round'; wait: boolean }
  /** Join the member's queue on the profile. */
  | { step: 'enqueue' }
  /** Commit the queue of the profile as seen. */
  | { step: 'commit' }
  /** Read the request's audit entry: the request left the queue, and the entry says whether it was applied. */
  | { step: 'read entry'; then: 'rejoin' }
  | { step: 'read entry'; then: 'withdrawn'; reason: WithdrawalReason }
  /** Take the request out of the queue at `index`; `tries` so far. */
  | { step: 'withdraw'; index: number; tries: number; reason: WithdrawalReason }
  /** Back off (a conflict with another write of the profile), then withdraw again. */
  | { step: 'pause'; retry: number; tries: number; reason: WithdrawalReason }
  // Ends:
  /** Applied: the writer answers with it. */
  | { step: 'answer'; outcome: Outcome }
  /** Refused: the customer does not exist (404) or is no member (403); nothing of the request is queued. */
  | { step: 'refuse'; reason: 'not found' | 'excluded' }
  /** Out of the queue, never applied: the writer reports why it gave up. */
  | { step: 'withdrawn' }
  /** Neither applied nor taken back after every try. */
  | { step: 'stuck' };

export interface AdjustmentState {
  /** The request; `at` is when it last joined the queue. */
  readonly request: QueuedAdjustment;
  /** The profile as last read, with the request queued on it; null while the request is not queued. */
  readonly seen: StoredCustomer | null;
  /** Requests whose audit entry exists (so they were applied): a commit drops them, never applies them twice. */
  readonly alreadyApplied: ReadonlySet<string>;
  /** Rounds that ended waiting: the backoff before the next round grows with them. */
  readonly conflicts: number;
  readonly next: Next;
}

type WithdrawResult = Awaited<ReturnType<typeof withdrawAdjustment>>;

/** What a step came back with. */
export type AdjustmentEvent =
  | { type: 'round started' }
  | { type: 'enqueued'; result: EnqueueResult }
  /** `mine`: what the commit did to this writer's request, when it applied it. */
  | { type: 'committed'; result: CommitResult; mine: Outcome | null }
  /** `now`: when the request joins again if the entry is not there. */
  | { type: 'entry read'; entry: Outcome | null; now: string }
  | { type: 'withdrawal'; result: WithdrawResult }
  | { type: 'paused' }
  /** The writer gives up on the request: take it back out of the queue if it is there. */
  | { type: 'give up' };

export function initialState(request: QueuedAdjustment): AdjustmentState {
  return { request, seen: null, alreadyApplied: new Set(), conflicts: 0, next: { step: 'round', wait: false } };
}

/** The retry number of the backoff before the next round, or null when it starts at once. */
export function roundBackoff(state: AdjustmentState): number | null {
  return state.next.step === 'round' && state.next.wait ? state.conflicts + 1 : null;
}

/** Where a request is on a profile as read. */
export type Whereabouts = { kind: 'done'; receipt: AdjustmentReceipt } | { kind: 'queued'; index: number } | { kind: 'missing' };

export function whereabouts(profile: StoredCustomer, id: string): Whereabouts {
  const receipt = profile.record.points_receipts?.find((r) => r.id === id);
  if (receipt) return { kind: 'done', receipt };
  const index = profile.record.points_queue?.findIndex((r) => r.id === id) ?? -1;
  return index >= 0 ? { kind: 'queued', index } : { kind: 'missing' };
}

const outcomeOf = ({ applied, before, after }: Outcome): Outcome => ({ applied, before, after });

/** The step after reading `seen` in a round: answered by a commit, gone, to be withdrawn, or to be committed. */
function decide(seen: StoredCustomer, request: QueuedAdjustment): Next {
  const where = whereabouts(seen, request.id);
  if (where.kind === 'done') return { step: 'answer', outcome: outcomeOf(where.receipt) };
  // Applied by a commit whose receipts a later commit replaced, or gone from the queue unapplied (a write of
  // the whole profile that read it before this request joined): the entry tells which.
  if (where.kind === 'missing') return { step: 'read entry', then: 'rejoin' };
  if (seen.record.status !== 'member') return withdrawing(seen, request, 0, 'excluded');
  return { step: 'commit' };
}

/** The withdrawal's step at try `tries`, from the profile as last read. */
function withdrawing(seen: StoredCustomer | null, request: QueuedAdjustment, tries: number, reason: WithdrawalReason): Next {
  if (tries >= WITHDRAW_ATTEMPTS) return { step: 'stuck' };
  if (!seen) return withdrawn(reason);
  const where = whereabouts(seen, request.id);
  if (where.kind === 'done') return { step: 'answer', outcome: outcomeOf(where.receipt) };
  if (where.kind === 'missing') return { step: 'read entry', then: 'withdrawn', reason };
  return { step: 'withdraw', index: where.index, tries, reason };
}

/** Out of the queue unapplied: an excluded customer's 403, or the writer's own report. */
const withdrawn = (reason: WithdrawalReason): Next =>
  reason === 'excluded' ? { step: 'refuse', reason: 'excluded' } : { step: 'withdrawn' };

/** Joins the queue again, as a new request would (its `at` now), in the next round. */
function rejoin(state: AdjustmentState, now: string): AdjustmentState {
  return { ...state, request: { ...state.request, at: now }, seen: null, next: { step: 'round', wait: false } };
}

function unexpected(state: AdjustmentState, event: AdjustmentEvent): never {
  throw new Error(`A points adjustment at step '${state.next.step}' cannot take '${event.type}'`);
}

/** The state after `event`, the result of the state's `next` step. */
export function advance(state: AdjustmentState, event: AdjustmentEvent): AdjustmentState {
  const { next, request } = state;
  switch (event.type) {
    case 'round started': {
      if (next.step !== 'round') return unexpected(state, event);
      const conflicts = next.wait ? state.conflicts + 1 : state.conflicts;
      return { ...state, conflicts, next: state.seen ? decide(state.seen, request) : { step: 'enqueue' } };
    }
    case 'enqueued': {
      if (next.step !== 'enqueue') return unexpected(state, event);
      const { result } = event;
      if (result.queued) return { ...state, seen: result.current, next: decide(result.current, request) };
      if (!result.conflict) {
        if (!result.current) return { ...state, next: { step: 'refuse', reason: 'not found' } };
        if (result.current.record.status !== 'member') return { ...state, next: { step: 'refuse', reason: 'excluded' } };
      }
      // A transaction in progress on the profile, or a full queue (it empties with the next commit).
      return { ...state, next: { step: 'round', wait: true } };
    }
    case 'committed': {
      if (next.step !== 'commit') return unexpected(state, event);
      const { result, mine } = event;
      if (result.written) {
        if (mine) return { ...state, next: { step: 'answer', outcome: outcomeOf(mine) } };
        // Applied before (its entry exists), or dropped as abandoned under a clock moved on: the entry tells.
        return { ...state, next: { step: 'read entry', then: 'rejoin' } };
      }
      const alreadyApplied = new Set([...state.alreadyApplied, ...result.alreadyApplied]);
      if (result.conflict) return { ...state, alreadyApplied, next: { step: 'round', wait: true } };
      if (!result.current) return { ...state, alreadyApplied, next: { step: 'refuse', reason: 'not found' } };
      // Refused with the profile as it is now: the next round starts from it at once.
      return { ...state, alreadyApplied, seen: result.current, next: { step: 'round', wait: false } };
    }
    case 'entry read': {
      if (next.step !== 'read entry') return unexpected(state, event);
      if (event.entry) return { ...state, next: { step: 'answer', outcome: outcomeOf(event.entry) } };
      return next.then === 'rejoin' ? rejoin(state, event.now) : { ...state, next: withdrawn(next.reason) };
    }
    case 'withdrawal': {
      if (next.step !== 'withdraw') return unexpected(state, event);
      const { result } = event;
      const tries = next.tries + 1;
      // Out once every copy is out (an enqueue sent twice leaves two): the next try looks again.
      if (result.withdrawn) return { ...state, seen: result.current, next: withdrawing(result.current, request, tries, next.reason) };
      if (result.conflict) return { ...state, next: { step: 'pause', retry: tries, tries, reason: next.reason } };
      if (!result.current) return { ...state, next: withdrawn(next.reason) };
      return { ...state, seen: result.current, next: withdrawing(result.current, request, tries, next.reason) };
    }
    case 'paused': {
      if (next.step !== 'pause') return unexpected(state, event);
      return { ...state, next: withdrawing(state.seen, request, next.tries, next.reason) };
    }
    case 'give up':
      return { ...state, next: withdrawing(state.seen, request, 0, 'given up') };
  }
}
