// Customer merges (customers/merge): the merge record that makes a merge happen once and lets a retry finish
// it, the one transaction that moves the figures, and the paging that then moves the deleted member's items
// into the kept member's partition. Each item is copied and its original deleted in one transaction, so
// whenever a merge stops, every item is in exactly one of the two partitions and a retry moves the rest.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { LedgerEntry, LineSide } from '../domain/points-ledger';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { documentClient, tableName } from './client';
import { isConditionalCheckFailed, isTransactionConflict } from './dynamodb-errors';
import { forEachPartitionPage, type Item, queryAll, readItem, withoutKeys } from './items';
import { customerItem, customerKey, customerPk, type StoredCustomer } from './items/customer-profile';
import { dueAttributes } from './items/due';
import { EARNING_ENTRY_PREFIX, entryDue, type EntryDueState } from './items/earning-entry';
import { BATCH_PREFIX, IMPORT_BATCH_ID, importBatchKey, mergedImportBatchKey } from './items/import-batch';
import { TIMER_PREFIX } from './items/birthday-timer';
import type { ItemKey } from './items/item-type';
import {
  FRIEND_COUNT,
  FRIEND_COUNT_PREFIX,
  FRIEND_REFERRAL_PREFIX,
  friendCodeItem,
  friendCountTtl,
  friendEmailItem,
  friendReferralOf,
} from './items/friend-referral';
import { INCOMING_MERGE_PREFIX, incomingMergeKey, incomingMergeOf, mergedIntoKey } from './items/merge';
import { ORDER_PREFIX, orderCustomerItem, orderIdOf } from './items/order';
import { REDEMPTION_COUNT_PREFIX, REDEMPTIONS } from './items/redemption-count';
import { referralCodeItem, referralCodeKey } from './items/referral';
import { counterAttribute, shopCountersKey } from './items/shop';
import { TTL_ATTRIBUTE } from './table';
import { birthdayTimerWrites, emailPostingWrites, type TransactItem, transactUnlessChanged } from './transactions';

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
 * deleted id follow it there), whether its items are still moving, the batches it re-laid and the events
 * it publishes once it is done. Its existence is what makes a merge happen once.
 */
export interface MergeRecord {
  shop_id: string;
  kept_id: string;
  deleted_id: string;
  kind: MergeKind;
  state: 'moving' | 'done';
  batches: RelaidBatch[];
  /** Domain events, published by whichever call finishes the merge. */
  events: Array<Record<string, unknown>>;
  created_at: string;
}

/** An open batch as stored: the entry (or imported batch) and the item itself. */
export interface OpenBatch {
  sk: string;
  entry: LedgerEntry & EntryDueState;
  item: Item;
}

/** DynamoDB's limit of writes per TransactWriteItems call. */
export const TRANSACTION_LIMIT = 100;
/** History items moved at once within a page. */
const MOVE_CONCURRENCY = 8;
const PAGE_SIZE = 100;
const MOVE_ATTEMPTS = 20;

/** Where `customerId` was merged into (and how far that merge got), or null when it never was. */
export async function readMergeRecord(shopId: string, customerId: string): Promise<MergeRecord | null> {
  const item = await readItem(mergedIntoKey(shopId, customerId));
  return item ? withoutKeys<MergeRecord>(item) : null;
}

/** Ids of the customers whose merges into `customerId` are still moving items. */
export async function readIncomingMerges(shopId: string, customerId: string): Promise<string[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': customerPk(shopId, customerId), ':prefix': INCOMING_MERGE_PREFIX },
    ConsistentRead: true,
  });
  return items.map((item) => incomingMergeOf(String(item.sk)));
}

/** A member's batches that may still expire: approved positive entries (and imported batches) with an expiry date, not closed. */
export async function readOpenBatches(shopId: string, customerId: string): Promise<OpenBatch[]> {
  const read = (prefix: string) =>
    queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      FilterExpression:
        '#status = :approved AND points > :zero AND attribute_type(points_expiry_at, :string) AND ' +
        '(attribute_not_exists(batch_closed) OR batch_closed = :false)',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':pk': customerPk(shopId, customerId),
        ':prefix': prefix,
        ':approved': 'approved',
        ':zero': 0,
        ':string': 'S',
        ':false': false,
      },
      ConsistentRead: true,
    });
  const items = (await Promise.all([read(EARNING_ENTRY_PREFIX), read(BATCH_PREFIX)])).flat();
  return items.map((item) => ({ sk: String(item.sk), entry: withoutKeys<LedgerEntry & EntryDueState>(item), item }));
}

/** Records a merge that folds nothing (no member to fold): later merges into the deleted id still follow it. */
export async function writeMergeRecord(record: MergeRecord): Promise<boolean> {
  return transactUnlessChanged([mergeRecordPut(record)]);
}

function mergeRecordPut(record: MergeRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...mergedIntoKey(record.shop_id, record.deleted_id), ...record },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export interface MergeCommit {
  /** The merge record to write, `moving`. */
  record: MergeRecord;
  /** The kept customer as read (null: not a member yet) and its record after the merge. */
  kept: { current: StoredCustomer | null; next: CustomerRecord };
  deleted: StoredCustomer;
  /** The open batches read, by `from` and key, for the re-laid ones the transaction has room for. */
  sources: ReadonlyMap<string, OpenBatch>;
  /** Writes the transaction may hold (tests lower it to leave re-laid batches to the paging). */
  limit?: number;
}

/** The key `sources` is looked up by. */
export const sourceKey = (from: LineSide, sk: string) => `${from}|${sk}`;

/**
 * The merge itself, in one transaction conditional on both profiles' versions and on no merge record for
 * the deleted customer: the kept profile with the summed figures (or created, when it was no member), the
 * deleted profile, its referral-code guard (deleted, or handed to the kept customer when it is moved) and
 * its count in the shop counters, the kept member's birthday timer when it takes the deleted one's date,
 * both members' e-mail search postings, the merge record and the kept partition's marker. The re-laid
 * batches that fit go in too (soonest expiry first), each conditional on being as read, so in the usual
 * case no job ever sees a batch half merged; the others are re-laid right after. False when anything changed since it was read.
 */
export async function commitMerge(commit: MergeCommit): Promise<boolean> {
  const { record, kept, deleted } = commit;
  const table = tableName();
  const shopId = record.shop_id;
  const moved = kept.current === null;
  const items: TransactItem[] = [
    {
      Put: {
        TableName: table,
        Item: customerItem(kept.next, (kept.current?.version ?? 0) + 1),
        ...(kept.current
          ? {
              ConditionExpression: '#version = :version',
              ExpressionAttributeNames: { '#version': 'version' },
              ExpressionAttributeValues: { ':version': kept.current.version },
            }
          : { ConditionExpression: 'attribute_not_exists(pk)' }),
      },
    },
    {
      Delete: {
        TableName: table,
        Key: customerKey(shopId, record.deleted_id),
        ConditionExpression: '#version = :version',
        ExpressionAttributeNames: { '#version': 'version' },
        ExpressionAttributeValues: { ':version': deleted.version },
      },
    },
    referralGuardWrite(shopId, deleted.record, moved ? record.kept_id : null),
    mergeRecordPut(record),
    {
      Put: {
        TableName: table,
        Item: {
          ...incomingMergeKey(shopId, record.kept_id, record.deleted_id),
          deleted_id: record.deleted_id,
          created_at: record.created_at,
        },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    },
    ...birthdayTimerWrites(kept.next, moved ? null : kept.current!.record.date_of_birth),
    // The e-mail search postings follow both profiles: the deleted one's go, the kept one's follow its address.
    ...emailPostingWrites(shopId, record.deleted_id, deleted.record.email, null),
    ...emailPostingWrites(shopId, record.kept_id, kept.current?.record.email ?? null, kept.next.email),
  ];
  // Moved, the member keeps its status and its count; merged, the shop has one member fewer.
  if (!moved) {
    items.push({
      Update: {
        TableName: table,
        Key: shopCountersKey(shopId),
        UpdateExpression: 'ADD #count :minus',
        ExpressionAttributeNames: { '#count': counterAttribute(deleted.record.status) },
        ExpressionAttributeValues: { ':minus': -1 },
      },
    });
  }
  let room = (commit.limit ?? TRANSACTION_LIMIT) - items.length;
  const soonestFirst = [...record.batches].sort((a, b) => a.points_expiry_at.localeCompare(b.points_expiry_at));
  for (const batch of soonestFirst) {
    const source = commit.sources.get(sourceKey(batch.from, batch.sk));
    const writes = source ? relaidBatchWrites(record, batch, source) : [];
    if (writes.length === 0 || writes.length > room) continue;
    items.push(...writes);
    room -= writes.length;
  }
  return transactUnlessChanged(items);
}

/** Merged: the deleted member's code is freed. Moved: its guard names the kept customer, who now holds the code. */
function referralGuardWrite(shopId: string, deleted: CustomerRecord, newOwner: string | null): TransactItem {
  const key = referralCodeKey(shopId, deleted.referral_code);
  // Only the member's own guard: a code imported twice must not free or take another member's code.
  const condition = {
    ConditionExpression: 'attribute_not_exists(pk) OR customer_id = :me',
    ExpressionAttributeValues: { ':me': deleted.platform_customer_id },
  };
  if (newOwner === null) return { Delete: { TableName: tableName(), Key: key, ...condition } };
  return { Put: { TableName: tableName(), Item: referralCodeItem(shopId, deleted.referral_code, newOwner), ...condition } };
}

/** A re-laid batch inside the merge transaction: updated in place (kept) or moved (deleted), if still as read. */
function relaidBatchWrites(record: MergeRecord, batch: RelaidBatch, source: OpenBatch): TransactItem[] {
  const unchanged = unchangedCondition(source.item);
  if (batch.from === 'kept') {
    const update = relayUpdate(record, batch);
    return [
      {
        Update: {
          ...update,
          ConditionExpression: `${update.ConditionExpression} AND ${unchanged.expression}`,
          ExpressionAttributeNames: unchanged.names,
          ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ...unchanged.values },
        },
      },
    ];
  }
  const copy = movedItem(record, source.item, batch);
  return [
    { Put: { TableName: tableName(), Item: copy, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Delete: sourceDelete(source.item, unchanged) },
  ];
}

/**
 * Puts one of the kept member's open batches at its place on the merged line, unless this merge already
 * did. Whatever a job did to it between the merge's transaction and this write (seeing it at its old place,
 * the job took it for spent) is undone: it is open again, reminded as it was when the merge read it.
 */
function relayUpdate(record: MergeRecord, batch: RelaidBatch) {
  const due = dueAttributes(record.shop_id, batch.expiry_reminded ? 'batch-expire' : 'batch-remind', batch.points_expiry_at, batch.id);
  return {
    TableName: tableName(),
    Key: { pk: customerPk(record.shop_id, record.kept_id), sk: batch.sk },
    UpdateExpression:
      'SET batch_offset = :offset, batch_points = :points, merge_layout = :merge, expiry_reminded = :reminded, ' +
      'due_pk = :duePk, due_at = :dueAt REMOVE batch_closed, expired_points',
    ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(merge_layout) OR merge_layout <> :merge)',
    ExpressionAttributeValues: {
      ':offset': batch.batch_offset,
      ':points': batch.batch_points,
      ':merge': record.deleted_id,
      ':reminded': batch.expiry_reminded,
      ':duePk': due.due_pk,
      ':dueAt': due.due_at,
    } as Record<string, unknown>,
  };
}

/** Re-lays the kept member's open batches the merge transaction had no room for (each once per merge). */
export async function relayKeptBatches(record: MergeRecord): Promise<void> {
  const kept = record.batches.filter((batch) => batch.from === 'kept');
  for (let start = 0; start < kept.length; start += MOVE_CONCURRENCY) {
    await Promise.all(
      kept.slice(start, start + MOVE_CONCURRENCY).map(async (batch) => {
        const relaid = await retryUntil(MOVE_ATTEMPTS, CONTENTION_BACKOFF, async () => {
          try {
            await documentClient().send(new UpdateCommand(relayUpdate(record, batch)));
            return true;
          } catch (error) {
            // Refused: this merge already re-laid it (in its transaction or an earlier call), or it is gone.
            if (isConditionalCheckFailed(error)) return true;
            if (isTransactionConflict(error)) return undefined;
            throw error;
          }
        });
        if (!relaid) throw new Error(`Merging customer ${record.deleted_id}: batch ${batch.sk} kept changing; not re-laid`);
      }),
    );
  }
}

/**
 * Moves the deleted customer's partition into the kept member's, page by page, each item by one transaction
 * (copy, delete the original if unchanged since read, and for an order its order -> customer lookup); calls
 * `afterPage` after each page. Returns how many items moved. Only the merge record stays behind.
 */
export async function moveMergedItems(record: MergeRecord, afterPage?: () => Promise<void>): Promise<number> {
  const relaid = new Map(record.batches.filter((batch) => batch.from === 'deleted').map((batch) => [batch.sk, batch]));
  let moved = 0;
  await forEachPartitionPage(customerPk(record.shop_id, record.deleted_id), PAGE_SIZE, async (items) => {
    for (let start = 0; start < items.length; start += MOVE_CONCURRENCY) {
      const done = await Promise.all(items.slice(start, start + MOVE_CONCURRENCY).map((item) => moveItem(record, item, relaid)));
      moved += done.filter(Boolean).length;
    }
    await afterPage?.();
  });
  return moved;
}

async function moveItem(record: MergeRecord, first: Item, relaid: ReadonlyMap<string, RelaidBatch>): Promise<boolean> {
  const sk = String(first.sk);
  if (sk === customerKey('', '').sk || sk === mergedIntoKey('', '').sk) return false;
  const key = { pk: String(first.pk), sk };
  const outcome = await retryUntil(MOVE_ATTEMPTS, CONTENTION_BACKOFF, async (index): Promise<boolean | undefined> => {
    const source = index === 0 ? first : await readItem(key);
    if (!source) return false;
    if (await transactUnlessChanged(moveWrites(record, source, relaid.get(sk)))) return true;
    // Refused: the original changed or went (read it again), or, for a copied item, the copy may be there already.
    if (!copies(sk)) return undefined;
    const copy = movedItem(record, source, relaid.get(sk));
    const target = await readItem({ pk: String(copy.pk), sk: String(copy.sk) });
    if (!target) return undefined;
    if (target.moved_from !== record.deleted_id) {
      throw new Error(`Merging customer ${record.deleted_id} into ${record.kept_id}: ${String(copy.sk)} exists in both`);
    }
    return (await transactUnlessChanged([{ Delete: sourceDelete(source, null) }, ...lookupWrites(record, copy)])) || undefined;
  });
  if (outcome === undefined) throw new Error(`Merging customer ${record.deleted_id}: ${sk} kept changing; not moved`);
  return outcome;
}

/** Items moved as a copy of themselves; the rest are dropped (timers, markers) or added to the kept member's (counts). */
const copies = (sk: string) =>
  !sk.startsWith(TIMER_PREFIX) &&
  !sk.startsWith(INCOMING_MERGE_PREFIX) &&
  !sk.startsWith(REDEMPTION_COUNT_PREFIX) &&
  !sk.startsWith(FRIEND_COUNT_PREFIX);

/** The writes that move one item: by kind, as its copy's place and its lookups require. */
function moveWrites(record: MergeRecord, source: Item, batch: RelaidBatch | undefined): TransactItem[] {
  const sk = String(source.sk);
  const unchanged = unchangedCondition(source);
  // Its own marker of merges into it, finished before this merge began, and its birthday timer (the kept member's is written by the merge).
  if (sk.startsWith(TIMER_PREFIX) || sk.startsWith(INCOMING_MERGE_PREFIX)) return [{ Delete: sourceDelete(source, unchanged) }];
  if (sk.startsWith(REDEMPTION_COUNT_PREFIX)) {
    const count = Number(source[REDEMPTIONS] ?? 0);
    return [
      {
        Update: {
          TableName: tableName(),
          Key: { pk: customerPk(record.shop_id, record.kept_id), sk },
          UpdateExpression: 'ADD redemptions :count',
          ExpressionAttributeValues: { ':count': count },
        },
      },
      { Delete: sourceDelete(source, unchanged) },
    ];
  }
  // A referrer's friends of one UTC day: one person, one cap, so the kept member's count of that day grows.
  if (sk.startsWith(FRIEND_COUNT_PREFIX)) {
    return [
      {
        Update: {
          TableName: tableName(),
          Key: { pk: customerPk(record.shop_id, record.kept_id), sk },
          UpdateExpression: 'ADD #count :count SET #ttl = :ttl',
          ExpressionAttributeNames: { '#count': FRIEND_COUNT, '#ttl': TTL_ATTRIBUTE },
          ExpressionAttributeValues: {
            ':count': Number(source[FRIEND_COUNT] ?? 0),
            ':ttl': friendCountTtl(sk.slice(FRIEND_COUNT_PREFIX.length)),
          },
        },
      },
      { Delete: sourceDelete(source, unchanged) },
    ];
  }
  const copy = movedItem(record, source, batch);
  return [
    { Put: { TableName: tableName(), Item: copy, ConditionExpression: 'attribute_not_exists(pk)' } },
    { Delete: sourceDelete(source, unchanged) },
    ...lookupWrites(record, copy),
  ];
}

/**
 * The lookups that follow a moved item: an order's order -> customer lookup, so a later refund finds the
 * kept member; a referred friend's guards (by mailbox hash, by code), so the friend's order completes the
 * referral where it now is and the mailbox stays referred once.
 */
function lookupWrites(record: MergeRecord, copy: Item): TransactItem[] {
  const sk = String(copy.sk);
  if (sk.startsWith(FRIEND_REFERRAL_PREFIX)) {
    const referral = friendReferralOf(copy);
    return [
      ...(typeof referral.email_key === 'string' ? [{ Put: { TableName: tableName(), Item: friendEmailItem(referral) } }] : []),
      { Put: { TableName: tableName(), Item: friendCodeItem(referral) } },
    ];
  }
  if (!sk.startsWith(ORDER_PREFIX)) return [];
  return [{ Put: { TableName: tableName(), Item: orderCustomerItem(record.shop_id, orderIdOf(sk), record.kept_id) } }];
}

/**
 * The item as it belongs in the kept member's partition: its key and customer id, the moved-from mark, an
 * imported batch under a key of its own, a re-laid batch at its new place (open again: only a job that saw
 * it after its member was gone closed it), and an entry's due work derived again from its fields (a job
 * that found its member gone took it out).
 */
function movedItem(record: MergeRecord, source: Item, batch: RelaidBatch | undefined): Item {
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
  return { ...rest, ...entryDue(shopId, withoutKeys<LedgerEntry & EntryDueState>(rest)) };
}

interface Condition {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/** True while the item still has the state it was read with (its due work, last update, version, status, count). */
function unchangedCondition(item: Item): Condition {
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

function sourceDelete(source: Item, unchanged: Condition | null) {
  const key = { pk: String(source.pk), sk: String(source.sk) };
  if (!unchanged) return { TableName: tableName(), Key: key };
  return {
    TableName: tableName(),
    Key: key,
    ConditionExpression: unchanged.expression,
    ExpressionAttributeNames: unchanged.names,
    ...(Object.keys(unchanged.values).length ? { ExpressionAttributeValues: unchanged.values } : {}),
  };
}

/**
 * Marks the merge done and takes the kept partition's marker away, once: true only for the call that did
 * (it publishes the merge's events).
 */
export async function completeMerge(record: MergeRecord): Promise<boolean> {
  return transactUnlessChanged([
    {
      Update: {
        TableName: tableName(),
        Key: mergedIntoKey(record.shop_id, record.deleted_id),
        UpdateExpression: 'SET #state = :done',
        ConditionExpression: '#state = :moving',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: { ':done': 'done', ':moving': 'moving' },
      },
    },
    { Delete: { TableName: tableName(), Key: incomingMergeKey(record.shop_id, record.kept_id, record.deleted_id) } },
  ]);
}
