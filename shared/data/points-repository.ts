// The points write of a member (docs/architecture.md#one-hot-customer): adjustments wait in a queue on the
// profile, and one transaction applies the queue's first requests to the balance together with their audit
// entries. Conditions name exactly what the commit's arithmetic read, so writes of other fields (a PUT of
// the date of birth, a reminder's flag) do not refuse it, and the entry's own condition (it must not
// exist) makes applying a request twice impossible whatever the queue holds.
import type { QueuedAdjustment } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { EarningEntry } from '../domain/history';
import { commit, commitOne } from './commit';
import { type ProfileRefused, refusedProfile, storedCustomerOf, type StoredCustomer } from './items/customer-profile';
import { recordEarningEntry, recordEntryName } from './items/earning-entry';
import {
  APPLY_QUEUED_ADJUSTMENTS,
  applyQueuedAdjustments,
  enqueueAdjustmentWrite,
  type QueuedAdjustmentsApplied,
  withdrawAdjustmentWrite,
} from './items/member-balance';

export type EnqueueResult = { queued: true; current: StoredCustomer } | ({ queued: false } & ProfileRefused);

/**
 * Appends `request` to the member's queue, only while the customer exists, is a member and the queue has
 * room; answers the profile with the request in it (this replaces reading the customer). One UpdateItem,
 * a staff request's too: each adjustment's entry carries its own actor.
 */
export async function enqueueAdjustment(
  shopId: string,
  customerId: string,
  request: QueuedAdjustment,
  maxQueue: number,
): Promise<EnqueueResult> {
  const write = enqueueAdjustmentWrite(shopId, customerId, request, maxQueue);
  const outcome = await commitOne(write, { returnItem: true, audit: false });
  if (outcome.committed) return { queued: true, current: storedCustomerOf(outcome.item!) };
  return { queued: false, ...refusedProfile(outcome.refusal, write.name) };
}

/**
 * Takes the member's request at `index` back out of the queue, if it is still there, and answers the
 * profile without it (items/member-balance.ts, `withdrawAdjustmentWrite`).
 */
export async function withdrawAdjustment(
  shopId: string,
  customerId: string,
  index: number,
  id: string,
): Promise<{ withdrawn: true; current: StoredCustomer } | ({ withdrawn: false } & ProfileRefused)> {
  const write = withdrawAdjustmentWrite(shopId, customerId, index, id);
  const outcome = await commitOne(write, { returnItem: true, audit: false });
  if (outcome.committed) return { withdrawn: true, current: storedCustomerOf(outcome.item!) };
  return { withdrawn: false, ...refusedProfile(outcome.refusal, write.name) };
}

export interface QueueCommitWrite extends QueuedAdjustmentsApplied {
  /** The audit entries of the applied requests. */
  entries: readonly EarningEntry[];
  /** The events of the applied requests, committed with them (none without the change, none lost after it). */
  events?: readonly DomainEvent[];
}

export type CommitResult =
  | { written: true }
  /** `alreadyApplied`: requests whose entry exists, so they were applied before (never apply them again). */
  | ({ written: false; alreadyApplied: string[] } & ProfileRefused);

/**
 * One transaction: the queue's first requests applied to the profile's figures ("apply queued
 * adjustments", items/member-balance.ts) and each applied request's entry recorded, only if it does not
 * exist yet. Nothing is written otherwise.
 */
export async function commitAdjustments(write: QueueCommitWrite): Promise<CommitResult> {
  const { read, next } = write;
  if (write.removedIds.length === 0) throw new RangeError('A commit takes at least one request off the queue');
  const shopId = next.shop_id;
  const customerId = next.platform_customer_id;
  const outcome = await commit(
    [applyQueuedAdjustments(write), ...write.entries.map((entry) => recordEarningEntry(shopId, customerId, entry))],
    { events: write.events, audit: false },
  );
  if (outcome.committed) return { written: true };
  const { refusal } = outcome;
  if (refusal.kind === 'conflict') return { written: false, alreadyApplied: [], conflict: true };
  const alreadyApplied = write.entries.filter((entry) => refusal.failed.includes(recordEntryName(entry.id))).map((entry) => entry.id);
  if (refusal.failed.includes(APPLY_QUEUED_ADJUSTMENTS)) {
    const old = refusal.current(APPLY_QUEUED_ADJUSTMENTS);
    return { written: false, alreadyApplied, conflict: false, current: old ? storedCustomerOf(old) : null };
  }
  // Only entries refused: the profile as read is still current, and the next attempt drops those requests.
  return { written: false, alreadyApplied, conflict: false, current: read };
}
