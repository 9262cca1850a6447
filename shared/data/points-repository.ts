// The points write of a member (docs/architecture.md#one-hot-customer): adjustments wait in a queue on the
// profile, and one transaction applies the queue's first requests to the balance together with their audit
// entries. Conditions name exactly what the commit's arithmetic read, so writes of other fields (a PUT of
// the date of birth, a reminder's flag) do not refuse it, and the entry's own condition (it must not
// exist) makes applying a request twice impossible whatever the queue holds.
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { AdjustmentReceipt, CustomerRecord, QueuedAdjustment } from '../domain/customer';
import type { EarningEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { cancellationReasons, cancelledItem, isTransactionConflict, type Refusal as RefusalOf, refusalOf } from './dynamodb-errors';
import { customerKey, profileDue, storedCustomerOf, type StoredCustomer } from './items/customer-profile';
import { earningEntryItem } from './items/earning-entry';

type Refusal = RefusalOf<StoredCustomer>;

/** The profile attribute holding the queue, and the one holding the last commit's receipts. */
const QUEUE = 'points_queue';
const RECEIPTS = 'points_receipts';

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

export interface QueueCommitWrite {
  /** The profile as read: the commit's arithmetic started from these figures. */
  read: StoredCustomer;
  /** The figures after every applied request. */
  next: CustomerRecord;
  /** Ids of the queue's first requests, in order, that leave it now (applied or dropped). */
  removedIds: readonly string[];
  /** The audit entries of the applied requests. */
  entries: readonly EarningEntry[];
  receipts: readonly AdjustmentReceipt[];
}

export type CommitResult =
  | { written: true }
  /** `alreadyApplied`: requests whose entry exists, so they were applied before (never apply them again). */
  | ({ written: false; alreadyApplied: string[] } & Refusal);

/**
 * One transaction: the profile's new figures, only while every figure the arithmetic read is unchanged, the
 * customer is still a member and the queue still starts with `removedIds`; those requests leave the queue;
 * each applied request's entry is put, only if it does not exist yet. Nothing is written otherwise.
 */
export async function commitAdjustments(write: QueueCommitWrite): Promise<CommitResult> {
  const { read, next } = write;
  if (write.removedIds.length === 0) throw new RangeError('A commit takes at least one request off the queue');
  const names: Record<string, string> = { '#status': 'status', '#version': 'version', '#queue': QUEUE, '#id': 'id' };
  const values: Record<string, unknown> = { ':member': 'member', ':one': 1 };
  const conditions = ['attribute_exists(pk)', '#status = :member'];
  const sets: string[] = [];
  const removes: string[] = [];
  const name = (attribute: string) => {
    const key = `#a${Object.keys(names).length}`;
    names[key] = attribute;
    return key;
  };
  const value = (v: unknown) => {
    const key = `:v${Object.keys(values).length}`;
    values[key] = v;
    return key;
  };
  // What the arithmetic read: the balance (floor at zero), the tier's inputs, the batch line, the inactivity
  // deadline and its reminder (the due-work attributes follow from them).
  const pinned = read.record as unknown as Record<string, unknown>;
  for (const attribute of [
    'current_points',
    'lifetime_points',
    'total_spend',
    'orders_count',
    'points_batch_total',
    'points_expire_at',
    'points_expiry_reminded_for',
  ]) {
    const held = pinned[attribute];
    const path = name(attribute);
    if (held === undefined || held === null) {
      conditions.push(`(attribute_not_exists(${path}) OR attribute_type(${path}, ${value('NULL')}))`);
    } else {
      conditions.push(`${path} = ${value(held)}`);
    }
  }
  write.removedIds.forEach((id, index) => {
    conditions.push(`#queue[${index}].#id = ${value(id)}`);
    removes.push(`#queue[${index}]`);
  });
  const figures = next as unknown as Record<string, unknown>;
  for (const attribute of [
    'current_points',
    'lifetime_points',
    'vip_tier_id',
    'updated_at',
    'points_batch_total',
    'points_last_activity_at',
    'points_expire_at',
  ]) {
    if (figures[attribute] !== undefined) sets.push(`${name(attribute)} = ${value(figures[attribute])}`);
  }
  sets.push(`${name(RECEIPTS)} = ${value(write.receipts)}`);
  const due = profileDue(next);
  if (due) sets.push(`${name('due_pk')} = ${value(due.due_pk)}`, `${name('due_at')} = ${value(due.due_at)}`);
  else removes.push(name('due_pk'), name('due_at'));

  try {
    await documentClient().send(
      new TransactWriteCommand({
        // One token per attempt: the SDK's retry of a call whose answer was lost is then a no-op, not a refusal.
        ClientRequestToken: randomUUID(),
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: customerKey(next.shop_id, next.platform_customer_id),
              UpdateExpression: `SET ${sets.join(', ')} REMOVE ${removes.join(', ')} ADD #version :one`,
              ConditionExpression: conditions.join(' AND '),
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: values,
              // The profile as it is now comes back with a refusal: the next attempt needs no read.
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
          ...write.entries.map((entry) => ({
            Put: {
              TableName: tableName(),
              Item: earningEntryItem(next.shop_id, next.platform_customer_id, entry),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          })),
        ],
      }),
    );
    return { written: true };
  } catch (error) {
    const reasons = cancellationReasons(error);
    const alreadyApplied = (reasons ?? []).flatMap((code, index) =>
      index > 0 && code === 'ConditionalCheckFailed' ? [write.entries[index - 1]!.id] : [],
    );
    if (reasons && reasons[0] === 'ConditionalCheckFailed') {
      const old = cancelledItem(error, 0);
      return { written: false, alreadyApplied, conflict: false, current: old ? storedCustomerOf(old) : null };
    }
    if (isTransactionConflict(error)) return { written: false, alreadyApplied, conflict: true };
    // Only entries refused: the profile as read is still current, and the next attempt drops those requests.
    if (alreadyApplied.length > 0) return { written: false, alreadyApplied, conflict: false, current: read };
    throw error;
  }
}
