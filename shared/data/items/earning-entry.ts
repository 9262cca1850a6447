// The earning history entry item (`EARN#<id>` in the customer's partition): its sparse local-index
// attributes (created, points, given), its due work (its approval while pending, its reminder and expiry
// while an open batch), the item written for an entry and the entry read back, and the writes the
// features make on it, by name: record an entry, revise or approve a pending one, leave the approval
// work, postpone what is due, close a batch, mark a batch reminded.
import type { EarningEntry } from '../../domain/history';
import type { LedgerEntry } from '../../domain/points-ledger';
import type { Write } from '../write';
import { defineItem } from './define-item';
import { customerPk } from './customer-profile';
import { type DueAttributes, dueAttributes, DUE_ATTRIBUTES, dueChange, type DueKind, STILL_DUE, stillDueValues } from './due';
import { type Item, type ItemKey, recordOf } from './item-type';

export const EARNING_ENTRY_PREFIX = 'EARN#';

export const earningEntryKey = (shopId: string, customerId: string, id: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${EARNING_ENTRY_PREFIX}${id}`,
});

export const earningEntry = defineItem({
  name: 'earning history entry',
  key: earningEntryKey,
  placeholder: ['<shop>', '<platform id>', '<id>'],
  indexed: ['earn_created_at', 'earn_points', 'earn_given_at', ...DUE_ATTRIBUTES],
  derived: ['earn_created_at', 'earn_points', 'earn_given_at', ...DUE_ATTRIBUTES],
});

export const earningEntryType = earningEntry.type;

/** Sorts after every ISO timestamp, so entries not given yet come last ascending, first descending. */
export const NOT_GIVEN_YET = '~';

/** Internal fields of an earning entry that place it in the due-work index. */
export interface EntryDueState {
  /** The batch's reminder went out (or was not needed). */
  expiry_reminded?: boolean;
  /** The batch was expired (or dropped from expiry); it is no batch any more. */
  batch_closed?: boolean;
}

/**
 * What is due on an earning entry (the one derive of its due work, for puts and updates alike): its
 * approval while pending, its reminder and expiry while an open batch. `postponedTo` is a later time the
 * job looks at it again (an excluded member's points wait); by default the entry's own date.
 */
export function entryDue(shopId: string, entry: LedgerEntry & EntryDueState, postponedTo?: string): DueAttributes | null {
  if (entry.status === 'pending' && entry.points_due_at) {
    return dueAttributes(shopId, 'approval', postponedTo ?? entry.points_due_at, entry.id);
  }
  if (entry.status === 'approved' && entry.points > 0 && entry.points_expiry_at && !entry.batch_closed) {
    return dueAttributes(shopId, entry.expiry_reminded ? 'batch-expire' : 'batch-remind', postponedTo ?? entry.points_expiry_at, entry.id);
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

export const earningEntryOf = (item: Item): EarningEntry => recordOf<EarningEntry>(item, earningEntryType);

// ---- named writes ------------------------------------------------------------------------------------

/** The name of the write that records the entry `id`: a refusal of it means the entry exists already. */
export const recordEntryName = (id: string) => `record earning entry ${id}`;

/** Records a new entry; refused if it exists (an entry id is never written twice). */
export function recordEarningEntry(shopId: string, customerId: string, entry: EarningEntry): Write {
  const { pk, sk, ...fields } = earningEntryItem(shopId, customerId, entry);
  return earningEntry.put(recordEntryName(entry.id), { pk: String(pk), sk: String(sk) }, fields, { ifNew: true });
}

/** A pending entry's next figures by an order's change (still pending, or rejected: then it leaves the approval work). */
export interface PendingEntryRevision {
  entry_id: string;
  status: 'pending' | 'rejected';
  points: number;
  base_points: number;
}

/** Revises a pending entry, only while it is still pending. */
export function revisePendingEntry(shopId: string, customerId: string, revision: PendingEntryRevision, now: string): Write {
  // Still pending: its approval date stays, and so does its due work. Rejected: nothing is due any more.
  const due = revision.status === 'rejected' ? dueChange(null) : { set: {}, remove: [] };
  return earningEntry.update('revise a pending earning entry', earningEntryKey(shopId, customerId, revision.entry_id), {
    set: {
      status: revision.status,
      points: revision.points,
      base_points: revision.base_points,
      earn_points: revision.points,
      updated_at: now,
      ...due.set,
    },
    remove: due.remove,
    condition: '#status = :pending',
    values: { ':pending': 'pending' },
  });
}

/**
 * Writes the approved entry over the pending one, only while it is still pending with the points read
 * (an order refund that shrank or rejected it meanwhile wins).
 */
export function approvePendingEntry(shopId: string, customerId: string, approved: EarningEntry, readPoints: number): Write {
  const { pk, sk, ...fields } = earningEntryItem(shopId, customerId, approved);
  const due = dueChange(entryDue(shopId, approved));
  return earningEntry.update(
    'approve a pending earning entry',
    { pk: String(pk), sk: String(sk) },
    {
      set: { ...fields, ...due.set },
      remove: due.remove,
      condition: '#status = :pending AND #points = :points',
      values: { ':pending': 'pending', ':points': readPoints },
    },
  );
}

/** Takes an entry out of the approval work (no longer pending, or its member is gone), if it is still there. */
export function leaveApprovalWork(shopId: string, key: ItemKey): Write {
  const due = dueChange(null);
  return earningEntry.update('leave the approval work', key, {
    set: due.set,
    remove: due.remove,
    condition: STILL_DUE,
    values: stillDueValues(shopId, 'approval'),
  });
}

/** The job looks at the entry (read in the partition of `kind`) again at `at`, if it is still where it was read. */
export function postponeEntryDue(shopId: string, key: ItemKey, entry: LedgerEntry & EntryDueState, kind: DueKind, at: string): Write {
  const due = dueChange(entryDue(shopId, entry, at));
  return earningEntry.update('postpone the due work of an earning entry', key, {
    set: due.set,
    remove: due.remove,
    condition: STILL_DUE,
    values: stillDueValues(shopId, kind),
  });
}

/**
 * Closes a batch (expired, or not to expire after all): it leaves the due work for good, if it is still
 * in the partition of `kind`; `fields` records what expired.
 */
export function closeBatch(
  shopId: string,
  key: ItemKey,
  kind: DueKind,
  fields: { expired_points?: number; updated_at?: string } = {},
): Write {
  // A closed batch has nothing due (entryDue): its due work goes.
  const due = dueChange(null);
  return earningEntry.update('close a points batch', key, {
    set: { batch_closed: true, ...fields, ...due.set },
    remove: due.remove,
    condition: STILL_DUE,
    values: stillDueValues(shopId, kind),
  });
}

/** The batch's reminder went out: it moves from its reminder to its expiry, if it still waits for its reminder. */
export function markBatchReminded(shopId: string, key: ItemKey, batch: LedgerEntry & EntryDueState): Write {
  const due = dueChange(entryDue(shopId, { ...batch, expiry_reminded: true }));
  return earningEntry.update('mark a batch reminded', key, {
    set: { expiry_reminded: true, ...due.set },
    remove: due.remove,
    condition: STILL_DUE,
    values: stillDueValues(shopId, 'batch-remind'),
  });
}
/**
 * The entry deleted (an import's entry, taken back with the import), only while it exists: the events of the
 * change say what left the history, so a refusal tells the caller there was none to take.
 */
export const removeEarningEntry = (shopId: string, customerId: string, id: string): Write =>
  earningEntry.delete('remove an earning entry', earningEntryKey(shopId, customerId, id), { condition: 'attribute_exists(pk)' });
