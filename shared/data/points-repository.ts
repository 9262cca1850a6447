// The points write of a member (docs/architecture.md#one-hot-customer): adjustments wait in a queue on the
// profile, and one transaction applies the queue's first requests to the balance together with their audit
// entries. Conditions name exactly what the commit's arithmetic read, so writes of other fields (a PUT of
// the date of birth, a reminder's flag) do not refuse it, and the entry's own condition (it must not
// exist) makes applying a request twice impossible whatever the queue holds.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { QueuedAdjustment } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { EarningEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { commit } from './commit';
import { type Refusal as RefusalOf, refusalOf } from './dynamodb-errors';
import { customerKey, storedCustomerOf, type StoredCustomer } from './items/customer-profile';
import { recordEarningEntry, recordEntryName } from './items/earning-entry';
import {
  APPLY_QUEUED_ADJUSTMENTS,
  applyQueuedAdjustments,
  POINTS_QUEUE as QUEUE,
  type QueuedAdjustmentsApplied,
} from './items/member-figures';

type Refusal = RefusalOf<StoredCustomer>;

export type EnqueueResult = { queued: true; current: StoredCustomer } | ({ queued: false } & Refusal);

/**
 * Appends `request` to the member's queue, only while the customer exists, is a member and the queue has
 * room; answers the profile with the request in it (this replaces reading the customer). Not a change of
 * the member's figures, so the version stays: writers that put the whole profile keep the queue they read.
 */
export async function enqueueAdjustment(
  shopId: string,
  customerId: string,
  request: QueuedAdjustment,
  maxQueue: number,
): Promise<EnqueueResult> {
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerKey(shopId, customerId),
        UpdateExpression: 'SET #queue = list_append(if_not_exists(#queue, :empty), :request)',
        ConditionExpression: 'attribute_exists(pk) AND #status = :member AND (attribute_not_exists(#queue) OR size(#queue) < :max)',
        ExpressionAttributeNames: { '#queue': QUEUE, '#status': 'status' },
        ExpressionAttributeValues: { ':empty': [], ':request': [request], ':member': 'member', ':max': maxQueue },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { queued: true, current: storedCustomerOf(result.Attributes!) };
  } catch (error) {
    return { queued: false, ...refusalOf(error, storedCustomerOf) };
  }
}

/**
 * Takes the member's request at `index` back out of the queue, if it is still there, and answers the
 * profile without it. A new version: a write of the whole profile that read the queue with the request in
 * it is refused instead of putting it back.
 */
export async function withdrawAdjustment(
  shopId: string,
  customerId: string,
  index: number,
  id: string,
): Promise<{ withdrawn: true; current: StoredCustomer } | ({ withdrawn: false } & Refusal)> {
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: customerKey(shopId, customerId),
        UpdateExpression: `REMOVE #queue[${index}] ADD #version :one`,
        ConditionExpression: `#queue[${index}].#id = :id`,
        ExpressionAttributeNames: { '#queue': QUEUE, '#id': 'id', '#version': 'version' },
        ExpressionAttributeValues: { ':id': id, ':one': 1 },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { withdrawn: true, current: storedCustomerOf(result.Attributes!) };
  } catch (error) {
    return { withdrawn: false, ...refusalOf(error, storedCustomerOf) };
  }
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
  | ({ written: false; alreadyApplied: string[] } & Refusal);

/**
 * One transaction: the queue's first requests applied to the profile's figures ("apply queued
 * adjustments", items/member-figures.ts) and each applied request's entry recorded, only if it does not
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
