// The due-work index's attributes and its reads: which item is due for which job, derived from the item's
// own fields when it is written, and the paged query a job reads its due work with.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { RewardEntry } from '../domain/history';
import type { LedgerEntry } from '../domain/points-ledger';
import { documentClient, tableName } from './client';
import type { ItemKey } from './keys';
import { keys } from './keys';
import { GLOBAL_INDEXES } from './table';

/**
 * Kinds of scheduled work. A batch or an inactive balance waits in its `-remind` partition until its
 * reminder went out, then in its `-expire` partition; both are sorted by the expiry time itself, so
 * the expiry job finds a batch whose reminder never went out too, and the reminder job reads exactly
 * the batches expiring within the reminder window.
 */
export type DueKind = 'approval' | 'batch-remind' | 'batch-expire' | 'inactivity-remind' | 'inactivity-expire' | 'code' | 'birthday';

export interface DueAttributes {
  due_pk: string;
  due_at: string;
}

export const dueAttributes = (shopId: string, kind: DueKind, at: string, id: string): DueAttributes => ({
  due_pk: keys.dueWork(shopId, kind),
  due_at: `${at}#${id}`,
});

/** The time part of a `due_at` (before the `#id`). */
export const dueTimeOf = (dueAt: string): string => dueAt.slice(0, dueAt.lastIndexOf('#'));

/** Internal fields of an earning entry that place it in the due-work index. */
export interface EntryDueState {
  /** The batch's reminder went out (or was not needed). */
  expiry_reminded?: boolean;
  /** The batch was expired (or dropped from expiry); it is no batch any more. */
  batch_closed?: boolean;
}

/** What is due on an earning entry: its approval while pending, its reminder and expiry while an open batch. */
export function entryDue(shopId: string, entry: LedgerEntry & EntryDueState): DueAttributes | null {
  if (entry.status === 'pending' && entry.points_due_at) return dueAttributes(shopId, 'approval', entry.points_due_at, entry.id);
  if (entry.status === 'approved' && entry.points > 0 && entry.points_expiry_at && !entry.batch_closed) {
    return dueAttributes(shopId, entry.expiry_reminded ? 'batch-expire' : 'batch-remind', entry.points_expiry_at, entry.id);
  }
  return null;
}

/** An active code with an end date is due to expire then. */
export function rewardDue(shopId: string, entry: Pick<RewardEntry, 'id' | 'status' | 'expires_at'>): DueAttributes | null {
  return entry.status === 'active' && entry.expires_at ? dueAttributes(shopId, 'code', entry.expires_at, entry.id) : null;
}

/** A member with points and an inactivity deadline is due to be reminded, then to expire. */
export function profileDue(record: CustomerRecord): DueAttributes | null {
  if (record.status !== 'member' || record.current_points <= 0 || !record.points_expire_at) return null;
  const reminded = record.points_expiry_reminded_for === record.points_expire_at;
  return dueAttributes(
    record.shop_id,
    reminded ? 'inactivity-expire' : 'inactivity-remind',
    record.points_expire_at,
    record.platform_customer_id,
  );
}

/** The birthday timer item of a member with a date of birth, due on `day` (`YYYY-MM-DD`). */
export function birthdayTimerItem(shopId: string, customerId: string, day: string): Record<string, unknown> {
  return { ...keys.birthdayTimer(shopId, customerId), customer_id: customerId, ...dueAttributes(shopId, 'birthday', day, customerId) };
}

export interface DuePage {
  keys: ItemKey[];
  /** Where the next page starts; null when the due work is read to the end. */
  next: Record<string, unknown> | null;
}

/**
 * One page of the items of `kind` due before `until` (inclusive: an item due at `until` exactly is
 * due). The index is eventually consistent: the caller reads each item before acting on it.
 */
export async function queryDue(
  shopId: string,
  kind: DueKind,
  until: string,
  limit: number,
  start?: Record<string, unknown> | null,
): Promise<DuePage> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GLOBAL_INDEXES.dueWork.indexName,
      KeyConditionExpression: 'due_pk = :pk AND due_at < :until',
      // '$' sorts right after the '#' that separates the time from the id.
      ExpressionAttributeValues: { ':pk': keys.dueWork(shopId, kind), ':until': `${until}$` },
      Limit: limit,
      ...(start ? { ExclusiveStartKey: start } : {}),
    }),
  );
  return {
    keys: (page.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
    next: page.LastEvaluatedKey ?? null,
  };
}
