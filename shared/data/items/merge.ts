// The customer merge items (docs/earning-engine.md#customer-merges): the merge record in the deleted
// customer's partition (which customer it went into, and the merge's progress) and the marker in the kept
// member's partition while the merge still moves items into it; the merge's named writes, those of the
// items it moves (copy, fold a count, delete the original as read, follow the lookups) included.
import type { LedgerEntry, LineSide } from '../../domain/points-ledger';
import { tableName } from '../client';
import { TTL_ATTRIBUTE } from '../table';
import { namedWrite, type Write } from '../write';
import { customerPk } from './customer-profile';
import { defineItem } from './define-item';
import { dueAttributes } from './due';
import { EARNING_ENTRY_PREFIX, earningEntry, entryDue, type EntryDueState } from './earning-entry';
import {
  FRIEND_COUNT,
  FRIEND_COUNT_PREFIX,
  FRIEND_REFERRAL_PREFIX,
  friendCodeGuard,
  friendCodeItem,
  friendCount,
  friendCountTtl,
  friendEmailItem,
  friendMailboxGuard,
  friendReferralOf,
} from './friend-referral';
import { BATCH_PREFIX, IMPORT_BATCH_ID, importBatchKey, mergedImportBatchKey } from './import-batch';
import { type Item, type ItemKey, type ItemType } from './item-type';
import { ORDER_PREFIX, orderCustomer, orderCustomerKey, orderIdOf } from './order';
import { redemptionCount, REDEMPTIONS } from './redemption-count';

export const mergedIntoKey = (shopId: string, customerId: string): ItemKey => ({ pk: customerPk(shopId, customerId), sk: 'MERGED' });

export const INCOMING_MERGE_PREFIX = 'MERGE#';

export const incomingMergeKey = (shopId: string, customerId: string, fromId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${INCOMING_MERGE_PREFIX}${fromId}`,
});

/** The deleted customer's id of a marker's sort key (`MERGE#<deleted id>`). */
export const incomingMergeOf = (sk: string): string => sk.slice(INCOMING_MERGE_PREFIX.length);

export const mergeRecord = defineItem({
  name: 'customer merge record ([earning-engine.md](earning-engine.md#customer-merges))',
  key: mergedIntoKey,
  placeholder: ['<shop>', '<deleted id>'],
});
export const incomingMerge = defineItem({
  name: 'customer merge marker (while the merge moves items)',
  key: incomingMergeKey,
  placeholder: ['<shop>', '<kept id>', '<deleted id>'],
});

export const mergeTypes: readonly ItemType[] = [mergeRecord.type, incomingMerge.type];

// ---- the merge's records and named writes ---------------------------------------------------------------

/** `merged`: two members became one; `moved`: the kept customer became the deleted one's member; `nothing`: no member to fold. */
export type MergeKind = 'merged' | 'moved' | 'nothing';

/** An open batch's place on the kept member's line after the merge, and what puts it back in the due work. */
export interface RelaidBatch {
  /** The batch's key in the partition it came from. */
  sk: string;
  id: string;
  from: LineSide;
  batch_offset: number;
  batch_points: number;
  points_expiry_at: string;
  expiry_reminded: boolean;
}

/**
 * The merge record, in the deleted customer's partition: which customer it went into (later merges into the
 * deleted id follow it there), whether its items are still moving and the batches it re-laid. Its existence
 * is what makes a merge happen once.
 */
export interface MergeRecord {
  shop_id: string;
  kept_id: string;
  deleted_id: string;
  kind: MergeKind;
  state: 'moving' | 'done';
  batches: RelaidBatch[];
  /**
   * Only in records written before a merge's events were committed with its transaction: the events the call
   * that finishes the merge commits (so a merge in flight across that change still has its events, once).
   */
  events?: Array<Record<string, unknown>>;
  created_at: string;
}

/** The merge record written, only if the deleted customer has none: a merge happens once. */
export function recordMerge(record: MergeRecord): Write {
  return mergeRecord.put('record the merge', mergedIntoKey(record.shop_id, record.deleted_id), record, { ifNew: true });
}

/** The kept partition's marker while the merge moves items into it. */
export function markIncomingMerge(record: MergeRecord): Write {
  return incomingMerge.put(
    'mark the incoming merge',
    incomingMergeKey(record.shop_id, record.kept_id, record.deleted_id),
    { deleted_id: record.deleted_id, created_at: record.created_at },
    { ifNew: true },
  );
}

/** The merge marked done, only if it is still moving: one call finishes it. */
export function finishMerge(record: MergeRecord): Write {
  return mergeRecord.update('finish the merge', mergedIntoKey(record.shop_id, record.deleted_id), {
    set: { state: 'done' },
    condition: '#state = :moving',
    values: { ':moving': 'moving' },
  });
}

/** The kept partition's marker taken away. */
export function clearIncomingMerge(record: MergeRecord): Write {
  return incomingMerge.delete('clear the incoming merge', incomingMergeKey(record.shop_id, record.kept_id, record.deleted_id));
}

/**
 * The UpdateItem that puts one of the kept member's open batches at its place on the merged line, unless
 * this merge already did. Whatever a job did to it between the merge's transaction and this write (seeing it
 * at its old place, the job took it for spent) is undone: it is open again, reminded as it was when the
 * merge read it, and due again as an open batch is (its reminder, or its expiry once reminded).
 */
export function relayBatchUpdate(record: MergeRecord, batch: RelaidBatch, unchanged?: Unchanged): Write {
  const due = dueAttributes(record.shop_id, batch.expiry_reminded ? 'batch-expire' : 'batch-remind', batch.points_expiry_at, batch.id);
  const condition = 'attribute_exists(pk) AND (attribute_not_exists(merge_layout) OR merge_layout <> :merge)';
  return earningEntry.update(
    're-lay a kept batch',
    { pk: customerPk(record.shop_id, record.kept_id), sk: batch.sk },
    {
      set: {
        batch_offset: batch.batch_offset,
        batch_points: batch.batch_points,
        merge_layout: record.deleted_id,
        expiry_reminded: batch.expiry_reminded,
        due_pk: due.due_pk,
        due_at: due.due_at,
      },
      remove: ['batch_closed', 'expired_points'],
      condition: unchanged ? `${condition} AND ${unchanged.expression}` : condition,
      names: unchanged?.names,
      values: { ':merge': record.deleted_id, ...unchanged?.values },
    },
  );
}

/** A condition that holds while an item still has the state it was read with. */
interface Unchanged {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** True while the item still has the state it was read with (its due work, last update, version, status, count). */
function unchangedCondition(item: Item): Unchanged {
  const parts = ['attribute_exists(pk)'];
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  ['due_at', 'updated_at', 'version', 'status', 'redemptions', FRIEND_COUNT].forEach((attribute, index) => {
    names[`#u${index}`] = attribute;
    if (item[attribute] === undefined) parts.push(`attribute_not_exists(#u${index})`);
    else {
      values[`:u${index}`] = item[attribute];
      parts.push(`#u${index} = :u${index}`);
    }
  });
  return { expression: parts.join(' AND '), names, values };
}

/** One of the kept member's open batches re-laid inside the merge transaction, if still as read. */
export function relayKeptBatch(record: MergeRecord, batch: RelaidBatch, source: Item): Write {
  return relayBatchUpdate(record, batch, unchangedCondition(source));
}

/** The original of a moved item deleted: only while unchanged since read, or (`asRead` false) whatever it is now. */
export function deleteMovedOriginal(source: Item, asRead = true): Write {
  const key = { pk: String(source.pk), sk: String(source.sk) };
  if (!asRead) return namedWrite('delete the moved original', { Delete: { TableName: tableName(), Key: key } });
  const unchanged = unchangedCondition(source);
  return namedWrite('delete the moved original', {
    Delete: {
      TableName: tableName(),
      Key: key,
      ConditionExpression: unchanged.expression,
      ExpressionAttributeNames: unchanged.names,
      ...(Object.keys(unchanged.values).length ? { ExpressionAttributeValues: unchanged.values } : {}),
    },
  });
}

/** The copy of a moved item in the kept partition, only if it is not there yet. */
export function copyMovedItem(copy: Item): Write {
  return namedWrite('copy the moved item', {
    Put: { TableName: tableName(), Item: copy, ConditionExpression: 'attribute_not_exists(pk)' },
  });
}

/** A deleted member's count item (its redemptions of a reward, its friends of a day) added to the kept member's. */
export function foldCount(record: MergeRecord, source: Item): Write {
  const sk = String(source.sk);
  const Key = { pk: customerPk(record.shop_id, record.kept_id), sk };
  if (sk.startsWith(FRIEND_COUNT_PREFIX)) {
    // A referrer's friends of one UTC day: one person, one cap, so the kept member's count of that day grows.
    return friendCount.update("add the deleted member's friends of the day", Key, {
      add: { [FRIEND_COUNT]: Number(source[FRIEND_COUNT] ?? 0) },
      set: { [TTL_ATTRIBUTE]: friendCountTtl(sk.slice(FRIEND_COUNT_PREFIX.length)) },
    });
  }
  return redemptionCount.update("add the deleted member's redemptions", Key, { add: { [REDEMPTIONS]: Number(source[REDEMPTIONS] ?? 0) } });
}

/**
 * The lookups that follow a moved item: an order's order -> customer lookup, so a later refund finds the
 * kept member; a referred friend's guards (by mailbox hash, by code), so the friend's order completes the
 * referral where it now is and the mailbox stays referred once.
 */
export function followMovedItem(record: MergeRecord, copy: Item): Write[] {
  const sk = String(copy.sk);
  if (sk.startsWith(FRIEND_REFERRAL_PREFIX)) {
    const referral = friendReferralOf(copy);
    return [
      ...(typeof referral.email_key === 'string'
        ? [movedGuard(friendMailboxGuard, "move the friend's mailbox guard", friendEmailItem(referral))]
        : []),
      movedGuard(friendCodeGuard, "move the friend's code guard", friendCodeItem(referral)),
    ];
  }
  if (!sk.startsWith(ORDER_PREFIX)) return [];
  return [
    orderCustomer.put('point the order at the kept member', orderCustomerKey(record.shop_id, orderIdOf(sk)), {
      customer_id: record.kept_id,
    }),
  ];
}

/**
 * The item as it belongs in the kept member's partition: its key and customer id, the moved-from mark, an
 * imported batch under a key of its own, a re-laid batch at its new place (open again: only a job that saw
 * it after its member was gone closed it), and an entry's due work derived again from its fields by the
 * entry's own derivation (a job that found its member gone took it out).
 */
export function movedItem(record: MergeRecord, source: Item, batch: RelaidBatch | undefined): Item {
  const { shop_id: shopId, kept_id: keptId, deleted_id: deletedId } = record;
  const imported = source.sk === importBatchKey(shopId, deletedId).sk;
  const key: ItemKey = imported
    ? mergedImportBatchKey(shopId, keptId, deletedId)
    : { pk: customerPk(shopId, keptId), sk: String(source.sk) };
  let item: Item = { ...source, ...key, moved_from: deletedId };
  if (imported) item.id = `${IMPORT_BATCH_ID}-${deletedId}`;
  if (typeof source.customer_id === 'string') item.customer_id = keptId;
  // A referral the deleted member made is the kept member's now (its code as the friend was given it stays).
  if (key.sk.startsWith(FRIEND_REFERRAL_PREFIX)) item.referrer_platform_customer_id = keptId;
  if (!key.sk.startsWith(EARNING_ENTRY_PREFIX) && !key.sk.startsWith(BATCH_PREFIX)) return item;
  if (batch) {
    const { batch_closed: _closed, expired_points: _expired, ...open } = item;
    item = { ...open, batch_offset: batch.batch_offset, batch_points: batch.batch_points, merge_layout: deletedId };
  }
  const { due_pk: _duePk, due_at: _dueAt, ...rest } = item;
  // Its fields only are read: the keys and the other index attributes beside them change nothing.
  return { ...rest, ...entryDue(shopId, rest as unknown as LedgerEntry & EntryDueState) };
}

/** A lookup that follows a moved item, put over the one there (its item as the lookup's module makes it). */
function movedGuard(type: { put: (name: string, key: ItemKey, fields: object) => Write }, name: string, item: Item): Write {
  const { pk, sk, ...fields } = item;
  return type.put(name, { pk: String(pk), sk: String(sk) }, fields);
}
