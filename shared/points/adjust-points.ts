// Manual points adjustment (docs/architecture.md#one-hot-customer). The request joins its member's queue on
// the profile (one write that also reads the profile), then the writer commits the queue as it saw it: every
// queued request applied in order (balance floored at zero, lifetime points, tier, batches) with its audit
// entry, in one conditional transaction. Racing adjustments of one customer are combined by whichever
// writer commits first instead of refusing each other; the others find their result on the profile the
// refusal returns. Events after the commit, published by the writer that committed.
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredCustomer } from '../data/customer-repository';
import { getEarningEntry } from '../data/history-repository';
import { commitAdjustments, enqueueAdjustment, withdrawAdjustment } from '../data/points-repository';
import type { AdjustmentReceipt, QueuedAdjustment } from '../domain/customer';
import { customerNotFound, DOMAIN_DETAILS, DomainError, failed, notPermitted } from '../domain/errors';
import type { StaffActor } from '../domain/history';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { resolveCustomerId } from '../customers/customer-service';
import { type DomainEvent, publishAfterCommit } from '../events/domain-events';
import { countMetric, logger } from '../observability/powertools';
import { nowIso } from '../runtime/clock';
import { backoffDelay, CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { type AppliedAdjustment, commitOfQueue, type PointsChange, receiptsOf } from './points-change';
import type { AdjustPointsInput } from './points-requests';

/** Requests one member's queue holds at most: a commit is then at most 26 items (DynamoDB allows 100). */
export const MAX_QUEUE = 25;
/**
 * Rounds of one writer: each round commits, or learns from the refusal what another commit did. A refusal
 * returns the profile, so a round costs one call; only conflicts with a transaction in progress wait.
 */
const MAX_ATTEMPTS = 100;
/** Tries to take a request back out of the queue before giving up on it. */
const WITHDRAW_ATTEMPTS = 20;
/**
 * A request accepted this long ago has no writer waiting for it any more (functions and the gateway time out
 * well before): a commit drops it instead of applying it.
 */
export const ABANDONED_AFTER_MS = 60_000;

export interface PointsAdjustment {
  customerId: string;
  change: Pick<PointsChange, 'applied' | 'before' | 'after'>;
}

/** Where a writer's request is on the profile as last read. */
type Whereabouts = { kind: 'done'; receipt: AdjustmentReceipt } | { kind: 'queued'; index: number } | { kind: 'missing' };

function whereabouts(profile: StoredCustomer, id: string): Whereabouts {
  const receipt = profile.record.points_receipts?.find((r) => r.id === id);
  if (receipt) return { kind: 'done', receipt };
  const index = profile.record.points_queue?.findIndex((r) => r.id === id) ?? -1;
  return index >= 0 ? { kind: 'queued', index } : { kind: 'missing' };
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
    /** The staff user who made it through /admin/api: kept on its entry. */
    actor?: StaffActor;
  } = {},
): Promise<PointsAdjustment> {
  const shopId = shop.settings.id;
  const customerId = await resolveCustomerId(shopId, identifier);
  const request: QueuedAdjustment = {
    id: requestId,
    adjustment: input.adjustment,
    update_lifetime_points: input.update_lifetime_points,
    note: input.note,
    send_email: input.send_email,
    at: nowIso(),
    ...(actor ? { actor } : {}),
  };
  const answer = (receipt: Omit<AdjustmentReceipt, 'id'>): PointsAdjustment => ({
    customerId,
    change: { applied: receipt.applied, before: receipt.before, after: receipt.after },
  });

  /** The profile as last read, with this request queued on it; null while the request is not queued. */
  let seen: StoredCustomer | null = null;
  const alreadyApplied = new Set<string>();
  let conflicts = 0;
  let wait = false;

  /** The request's result from its entry, when the profile no longer says (null: it was never applied). */
  const fromEntry = async (): Promise<PointsAdjustment | null> => {
    const entry = (await getEarningEntry(shopId, customerId, request.id, true)) as (Record<string, unknown> & { points: number }) | null;
    if (!entry) return null;
    return answer({ applied: entry.points, before: Number(entry.points_before), after: Number(entry.points_after) });
  };

  const round = async (): Promise<PointsAdjustment | undefined> => {
    wait = false;
    if (!seen) {
      const queued = await enqueueAdjustment(shopId, customerId, request, MAX_QUEUE);
      if (!queued.queued) {
        if (!queued.conflict) {
          if (!queued.current) throw customerNotFound(identifier);
          if (queued.current.record.status !== 'member') throw notPermitted(DOMAIN_DETAILS.customerExcluded);
        }
        // A transaction in progress on the profile, or a full queue (it empties with the next commit).
        wait = true;
        return undefined;
      }
      seen = queued.current;
    }
    const where = whereabouts(seen, request.id);
    if (where.kind === 'done') return answer(where.receipt);
    if (where.kind === 'missing') {
      // Applied by a commit whose receipts a later commit replaced, or gone from the queue unapplied
      // (a write of the whole profile that read it before this request joined): then it joins again.
      const settled = await fromEntry();
      if (settled) return settled;
      request.at = nowIso();
      seen = null;
      return undefined;
    }
    if (seen.record.status !== 'member') {
      const committed = await withdraw();
      if (committed) return committed;
      throw notPermitted(DOMAIN_DETAILS.customerExcluded);
    }

    const queue = seen.record.points_queue ?? [];
    const commit = commitOfQueue(seen.record, queue, {
      tiers: shop.tiers,
      vipSettings: shop.settings.vip_settings,
      earningSettings: shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS,
      staleBefore: new Date(Date.parse(nowIso()) - ABANDONED_AFTER_MS).toISOString(),
      alreadyApplied,
    });
    const result = await commitAdjustments({
      read: seen,
      next: commit.next,
      removedIds: queue.map((queued) => queued.id),
      entries: commit.applied.map((applied) => applied.entry),
      receipts: receiptsOf(commit),
    });
    if (result.written) {
      await publishAfterCommit(commit.applied.flatMap((applied) => eventsOf(shopId, customerId, applied)));
      countMetric('PointsAdjusted', commit.applied.length);
      if (commit.dropped.length > 0)
        logger.warn('Points adjustments left the queue unapplied (abandoned, or applied already)', {
          customer: customerId,
          ids: commit.dropped,
        });
      const mine = commit.applied.find((applied) => applied.request.id === request.id);
      if (mine) return answer(mine.change);
      // Applied before (its entry exists), or dropped as abandoned under a clock moved on: then it joins again.
      const settled = await fromEntry();
      if (settled) return settled;
      request.at = nowIso();
      seen = null;
      return undefined;
    }
    for (const id of result.alreadyApplied) alreadyApplied.add(id);
    if (result.conflict) {
      wait = true;
      return undefined;
    }
    if (!result.current) throw customerNotFound(identifier);
    // Refused with the profile as it is now: the next round starts from it at once.
    seen = result.current;
    return undefined;
  };

  /**
   * Takes the request back out of the queue so that nothing of it is written: null once it is out (or was
   * never in), its result if a commit applied it first.
   */
  const withdraw = async (): Promise<PointsAdjustment | null> => {
    for (let tries = 0; tries < WITHDRAW_ATTEMPTS; tries += 1) {
      if (!seen) return null;
      const where = whereabouts(seen, request.id);
      if (where.kind === 'done') return answer(where.receipt);
      if (where.kind === 'missing') return fromEntry();
      const result = await withdrawAdjustment(shopId, customerId, where.index, request.id);
      if (result.withdrawn) {
        // Out once every copy is out (an enqueue sent twice leaves two).
        seen = result.current;
        continue;
      }
      if (result.conflict) {
        await sleep(backoffDelay(tries + 1, CONTENTION_BACKOFF));
        continue;
      }
      if (!result.current) return null;
      seen = result.current;
    }
    throw new Error(`Points adjustment ${request.id} could be neither applied nor withdrawn`);
  };

  let adjusted: PointsAdjustment | undefined;
  try {
    adjusted = await retryUntil(maxAttempts, () => (wait ? backoffDelay((conflicts += 1), CONTENTION_BACKOFF) : 0), round);
  } catch (error) {
    // Nothing of a refused request is left queued; after an unexpected failure, take it back if still there.
    if (error instanceof DomainError || !seen) throw error;
    const committed = await withdraw().catch(() => null);
    if (committed) return committed;
    throw error;
  }
  if (adjusted) return adjusted;
  const committed = await withdraw();
  if (committed) return committed;
  throw failed('The points adjustment could not be applied. Please try again.');
}

function eventsOf(shopId: string, customerId: string, { request, change, entry }: AppliedAdjustment): DomainEvent[] {
  return [
    {
      type: 'points.adjusted',
      shop_id: shopId,
      customer_id: customerId,
      requested_adjustment: request.adjustment,
      adjustment: change.applied,
      points_before: change.before,
      points_after: change.after,
      lifetime_points: change.next.lifetime_points,
      earning_history_entry_id: entry.id,
      send_email: request.send_email,
      occurred_at: request.at,
    },
    ...change.tierEvents,
  ];
}
