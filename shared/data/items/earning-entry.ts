// The earning history entry item (`EARN#<id>` in the customer's partition): its sparse local-index
// attributes (created, points, given), its due work (its approval while pending, its reminder and expiry
// while an open batch), the item written for an entry and the entry read back.
import type { EarningEntry } from '../../domain/history';
import type { LedgerEntry } from '../../domain/points-ledger';
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import { customerPk } from './customer-profile';
import { type DueAttributes, dueAttributes, DUE_ATTRIBUTES } from './due';
import { type Item, type ItemKey, type ItemType, recordOf } from './item-type';

export const EARNING_ENTRY_PREFIX = 'EARN#';

export const earningEntryKey = (shopId: string, customerId: string, id: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${EARNING_ENTRY_PREFIX}${id}`,
});

export const earningEntryType: ItemType = {
  name: 'earning history entry',
  key: earningEntryKey('<shop>', '<platform id>', '<id>'),
  indexed: ['earn_created_at', 'earn_points', 'earn_given_at', ...DUE_ATTRIBUTES],
  derived: ['earn_created_at', 'earn_points', 'earn_given_at', ...DUE_ATTRIBUTES],
};

/** Sorts after every ISO timestamp, so entries not given yet come last ascending, first descending. */
export const NOT_GIVEN_YET = '~';

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

export function earningEntryItem(shopId: string, customerId: string, entry: EarningEntry): Item {
  return {
    ...earningEntryKey(shopId, customerId, entry.id),
    ...entry,
    earn_created_at: entry.created_at,
    earn_points: entry.points,
    earn_given_at: entry.points_given_at ?? NOT_GIVEN_YET,
    // Its approval while pending, its reminder and expiry while a batch: what the jobs find it by.
    ...entryDue(shopId, entry),
  };
}

/** A new earning entry recorded: only if no entry has its id. */
export function recordEarningEntry(shopId: string, customerId: string, entry: EarningEntry): Write {
  return namedWrite('record an earning entry', {
    Put: { TableName: tableName(), Item: earningEntryItem(shopId, customerId, entry), ConditionExpression: 'attribute_not_exists(pk)' },
  });
}

export const earningEntryOf = (item: Item): EarningEntry => recordOf<EarningEntry>(item, earningEntryType);
