// Manual points adjustment (docs/architecture.md#one-hot-customer). The request joins its member's queue on
// the profile (one write that also reads the profile), then the writer commits the queue as it saw it: every
// queued request applied in order (balance floored at zero, lifetime points, tier, batches) with its audit
// entry, in one conditional transaction. Racing adjustments of one customer are combined by whichever
// writer commits first instead of refusing each other; the others find their result on the profile the
// refusal returns. The events of the applied requests are committed in the same transaction. What the writer
// knows and does next is an explicit state (adjustment-state.ts): this function performs its steps against the table.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { getEarningEntry } from '../data/history-repository';
import { commitAdjustments, enqueueAdjustment, withdrawAdjustment } from '../data/points-repository';
import { customerNotFound, DOMAIN_DETAILS, DomainError, failed, notPermitted } from '../domain/errors';
import type { RequestActor } from '../domain/history';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { resolveCustomerId } from '../customers/customer-service';
import { withMemberFacts } from '../domain/events';
import type { DomainEvent } from '../domain/events';
import { countMetric, logger } from '../observability/powertools';
import { nowIso } from '../runtime/clock';
import { backoffDelay, CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import {
  type AdjustmentEvent,
  type AdjustmentState,
  advance,
  initialState,
  type Next,
  type Outcome,
  roundBackoff,
} from './adjustment-state';
import { type AppliedAdjustment, commitOfQueue, type PointsChange, receiptsOf } from './points-change';
import type { AdjustPointsInput } from './points-requests';

/** Requests one member's queue holds at most: a commit is then at most 26 items (DynamoDB allows 100). */
export const MAX_QUEUE = 25;
/**
 * Rounds of one writer: each round commits, or learns from the refusal what another commit did. A refusal
 * returns the profile, so a round costs one call; only conflicts with a transaction in progress wait.
 */
const MAX_ATTEMPTS = 100;
/**
 * A request accepted this long ago has no writer waiting for it any more (functions and the gateway time out
 * well before): a commit drops it instead of applying it.
 */
export const ABANDONED_AFTER_MS = 60_000;

export interface PointsAdjustment {
  customerId: string;
  change: Pick<PointsChange, 'applied' | 'before' | 'after'>;
}

export async function adjustPoints(
  shop: ShopCatalog,
  identifier: string,
  input: AdjustPointsInput,
  {
    maxAttempts = MAX_ATTEMPTS,
    requestId = randomUUID(),
    actor,
  }: {
    maxAttempts?: number;
    /**
     * The request's id, its audit entry's id: given by an Idempotency-Key, every attempt of one request
     * (a retry after a stopped or failed one) has the same, and an adjustment already applied under it is
     * answered, not applied again.
     */
    requestId?: string;
    /** The staff user (/admin/api) or API key (/v1) that made it: kept on its entry. */
    actor?: RequestActor;
  } = {},
): Promise<PointsAdjustment> {
  const customerId = await resolveCustomerId(shop.settings.id, identifier);
  const state = initialState({
    id: requestId,
    adjustment: input.adjustment,
    update_lifetime_points: input.update_lifetime_points,
    note: input.note,
    send_email: input.send_email,
    at: nowIso(),
    ...(actor ? { actor } : {}),
  });
  return new AdjustmentWriter(shop, identifier, customerId, state).adjust(maxAttempts);
}

/** One request's writer: the state of adjustment-state.ts, and its steps performed against the table. */
class AdjustmentWriter {
  private readonly shopId: string;

  constructor(
    private readonly shop: ShopCatalog,
    private readonly identifier: string,
    private readonly customerId: string,
    private state: AdjustmentState,
  ) {
    this.shopId = shop.settings.id;
  }

  /** Rounds until one answers; then, or after an unexpected failure, the request is taken back out of the queue. */
  async adjust(maxAttempts: number): Promise<PointsAdjustment> {
    let adjusted: PointsAdjustment | undefined;
    try {
      adjusted = await retryUntil(
        maxAttempts,
        () => {
          const retry = roundBackoff(this.state);
          return retry === null ? 0 : backoffDelay(retry, CONTENTION_BACKOFF);
        },
        () => this.round(),
      );
    } catch (error) {
      // Nothing of a refused request is left queued; after an unexpected failure, take it back if still there.
      if (error instanceof DomainError || !this.state.seen) throw error;
      const committed = await this.withdraw().catch(() => null);
      if (committed) return committed;
      throw error;
    }
    if (adjusted) return adjusted;
    const committed = await this.withdraw();
    if (committed) return committed;
    throw failed('The points adjustment could not be applied. Please try again.');
  }

  private answer(outcome: Outcome): PointsAdjustment {
    return { customerId: this.customerId, change: outcome };
  }

  /** Performs the state's steps until one ends the round or the withdrawal: the end it reached. */
  private async run(): Promise<Next> {
    for (;;) {
      const { next } = this.state;
      if (next.step === 'answer' || next.step === 'refuse' || next.step === 'stuck' || next.step === 'round' || next.step === 'withdrawn')
        return next;
      this.state = advance(this.state, await this.perform(next));
    }
  }

  /** One step of the state against the table: the event it answers. */
  private async perform(next: Next): Promise<AdjustmentEvent> {
    const { shopId, customerId } = this;
    const { request } = this.state;
    switch (next.step) {
      case 'enqueue':
        return { type: 'enqueued', result: await enqueueAdjustment(shopId, customerId, request, MAX_QUEUE) };
      case 'commit':
        return this.commit(this.state);
      case 'read entry': {
        const entry = (await getEarningEntry(shopId, customerId, request.id, true)) as
          (Record<string, unknown> & { points: number }) | null;
        const outcome = entry && { applied: entry.points, before: Number(entry.points_before), after: Number(entry.points_after) };
        return { type: 'entry read', entry: outcome, now: nowIso() };
      }
      case 'withdraw':
        return { type: 'withdrawal', result: await withdrawAdjustment(shopId, customerId, next.index, request.id) };
      case 'pause':
        await sleep(backoffDelay(next.retry, CONTENTION_BACKOFF));
        return { type: 'paused' };
      default:
        throw new Error(`Points adjustment ${request.id} has no step '${(next as Next).step}' to perform`);
    }
  }

  /** Commits the member's queue as seen; publishes what it applied once it is written. */
  private async commit({ seen, alreadyApplied }: AdjustmentState): Promise<AdjustmentEvent> {
    const { shop, customerId } = this;
    const queue = seen!.record.points_queue ?? [];
    const planned = commitOfQueue(seen!.record, queue, {
      tiers: shop.tiers,
      vipSettings: shop.settings.vip_settings,
      earningSettings: shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS,
      staleBefore: new Date(Date.parse(nowIso()) - ABANDONED_AFTER_MS).toISOString(),
      alreadyApplied,
    });
    const result = await commitAdjustments({
      read: seen!,
      next: planned.next,
      removedIds: queue.map((queued) => queued.id),
      entries: planned.applied.map((applied) => applied.entry),
      receipts: receiptsOf(planned),
      events: planned.applied.flatMap((applied) => eventsOf(shop, customerId, applied)),
    });
    if (!result.written) return { type: 'committed', result, mine: null };
    countMetric('PointsAdjusted', planned.applied.length);
    if (planned.dropped.length > 0)
      logger.warn('Points adjustments left the queue unapplied (abandoned, or applied already)', {
        customer: customerId,
        ids: planned.dropped,
      });
    const mine = planned.applied.find((applied) => applied.request.id === this.state.request.id);
    return { type: 'committed', result, mine: mine ? mine.change : null };
  }

  /** One round: its answer, or undefined when another round is needed. */
  private async round(): Promise<PointsAdjustment | undefined> {
    this.state = advance(this.state, { type: 'round started' });
    const end = await this.run();
    if (end.step === 'answer') return this.answer(end.outcome);
    if (end.step === 'refuse')
      throw end.reason === 'not found' ? customerNotFound(this.identifier) : notPermitted(DOMAIN_DETAILS.customerExcluded);
    if (end.step === 'stuck') throw stuck(this.state);
    if (end.step === 'round') return undefined;
    throw new Error(`A round of points adjustment ${this.state.request.id} ended at step '${end.step}'`);
  }

  /**
   * Takes the request back out of the queue so that nothing of it is written: null once it is out (or was
   * never in), its result if a commit applied it first.
   */
  private async withdraw(): Promise<PointsAdjustment | null> {
    this.state = advance(this.state, { type: 'give up' });
    const end = await this.run();
    if (end.step === 'answer') return this.answer(end.outcome);
    if (end.step === 'withdrawn') return null;
    if (end.step === 'stuck') throw stuck(this.state);
    throw new Error(`Withdrawing points adjustment ${this.state.request.id} ended at step '${end.step}'`);
  }
}

const stuck = (state: AdjustmentState) => new Error(`Points adjustment ${state.request.id} could be neither applied nor withdrawn`);

/** A request's events, with the member facts of the profile after it. */
function eventsOf(shop: ShopCatalog, customerId: string, { request, change, entry }: AppliedAdjustment): DomainEvent[] {
  const events: DomainEvent[] = [
    {
      type: 'points.adjusted',
      shop_id: shop.settings.id,
      customer_id: customerId,
      requested_adjustment: request.adjustment,
      adjustment: change.applied,
      points_before: change.before,
      points_after: change.after,
      lifetime_points: change.next.lifetime_points,
      earning_history_entry_id: entry.id,
      points_given_at: entry.points_given_at,
      send_email: request.send_email,
      occurred_at: request.at,
    },
    ...change.tierEvents,
  ];
  return withMemberFacts(events, change.next, shop.tiers);
}
