// Customer merges (customers/merge): the merge record that makes a merge happen once and lets a retry finish
// it, the one transaction that moves the figures, and the paging that then moves the deleted member's items
// into the kept member's partition. Each item is copied and its original deleted in one transaction, so
// whenever a merge stops, every item is in exactly one of the two partitions and a retry moves the rest.
import type { CustomerRecord } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { LedgerEntry, LineSide } from '../domain/points-ledger';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { commitOne, committedUnlessRefused, TRANSACTION_LIMIT, type Write } from './commit';
import { forEachPartitionPage, type Item, queryAll, readItem, withoutKeys } from './item-reads';
import { followBirthday, TIMER_PREFIX } from './items/birthday-timer';
import {
  customerKey,
  customerPk,
  deleteProfileAtVersion,
  enrolProfile,
  type StoredCustomer,
  writeProfileAtVersion,
} from './items/customer-profile';
import { EARNING_ENTRY_PREFIX, type EntryDueState } from './items/earning-entry';
import { followAddress } from './items/email-gram';
import { followNames } from './items/name-token';
import { FRIEND_COUNT_PREFIX } from './items/friend-referral';
import { BATCH_PREFIX } from './items/import-batch';
import {
  clearIncomingMerge,
  copyMovedItem,
  deleteMovedOriginal,
  finishMerge,
  foldCount,
  followMovedItem,
  INCOMING_MERGE_PREFIX,
  incomingMergeOf,
  markIncomingMerge,
  type MergeRecord,
  mergedIntoKey,
  movedItem,
  recordMerge,
  type RelaidBatch,
  relayBatchUpdate,
  relayKeptBatch,
} from './items/merge';
import { REDEMPTION_COUNT_PREFIX } from './items/redemption-count';
import { releaseReferralCode } from './items/referral';
import { countInShop } from './items/shop';

export type { MergeKind, MergeRecord, RelaidBatch } from './items/merge';

/** An open batch as stored: the entry (or imported batch) and the item itself. */
export interface OpenBatch {
  sk: string;
  entry: LedgerEntry & EntryDueState;
  item: Item;
}

export { TRANSACTION_LIMIT };
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
  return committedUnlessRefused([recordMerge(record)]);
}

export interface MergeCommit {
  /** The merge record to write, `moving`. */
  record: MergeRecord;
  /** The kept customer as read (null: not a member yet) and its record after the merge. */
  kept: { current: StoredCustomer | null; next: CustomerRecord };
  deleted: StoredCustomer;
  /** The merge's events, committed in its transaction with the kept member's facts after it. */
  events: readonly DomainEvent[];
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
 * both members' e-mail and name search postings, the merge record and the kept partition's marker, and the merge's
 * events. The re-laid
 * batches that fit go in too (soonest expiry first), each conditional on being as read, so in the usual
 * case no job ever sees a batch half merged; the others are re-laid right after. False when anything changed since it was read.
 */
export async function commitMerge(commit: MergeCommit): Promise<boolean> {
  const { record, kept, deleted } = commit;
  const shopId = record.shop_id;
  const moved = kept.current === null;
  const writes: Write[] = [
    kept.current ? writeProfileAtVersion(kept.current, kept.next) : enrolProfile(kept.next),
    deleteProfileAtVersion(shopId, record.deleted_id, deleted.version),
    // Merged, the deleted member's code is freed; moved, its guard names the kept customer, who now holds it.
    releaseReferralCode(shopId, deleted.record.referral_code, deleted.record.platform_customer_id, moved ? record.kept_id : null),
    recordMerge(record),
    markIncomingMerge(record),
    ...followBirthday(kept.next, moved ? null : kept.current!.record.date_of_birth),
    // The e-mail search postings follow both profiles: the deleted one's go, the kept one's follow its address.
    ...followAddress(shopId, record.deleted_id, deleted.record.email, null),
    ...followAddress(shopId, record.kept_id, kept.current?.record.email ?? null, kept.next.email),
    // So do the name search postings.
    ...followNames(shopId, record.deleted_id, deleted.record, null),
    ...followNames(shopId, record.kept_id, kept.current?.record ?? null, kept.next),
  ];
  // Moved, the member keeps its status and its count; merged, the shop has one member fewer.
  if (!moved) writes.push(countInShop(shopId, deleted.record.status, -1));
  let room = (commit.limit ?? TRANSACTION_LIMIT) - writes.length - commit.events.length;
  const soonestFirst = [...record.batches].sort((a, b) => a.points_expiry_at.localeCompare(b.points_expiry_at));
  for (const batch of soonestFirst) {
    const source = commit.sources.get(sourceKey(batch.from, batch.sk));
    const relaid = source ? relaidBatchWrites(record, batch, source) : [];
    if (relaid.length === 0 || relaid.length > room) continue;
    writes.push(...relaid);
    room -= relaid.length;
  }
  return committedUnlessRefused(writes, { events: commit.events });
}

/** A re-laid batch inside the merge transaction: updated in place (kept) or moved (deleted), if still as read. */
function relaidBatchWrites(record: MergeRecord, batch: RelaidBatch, source: OpenBatch): Write[] {
  if (batch.from === 'kept') return [relayKeptBatch(record, batch, source.item)];
  return [copyMovedItem(movedItem(record, source.item, batch)), deleteMovedOriginal(source.item)];
}

/** Re-lays the kept member's open batches the merge transaction had no room for (each once per merge). */
export async function relayKeptBatches(record: MergeRecord): Promise<void> {
  const kept = record.batches.filter((batch) => batch.from === 'kept');
  for (let start = 0; start < kept.length; start += MOVE_CONCURRENCY) {
    await Promise.all(
      kept.slice(start, start + MOVE_CONCURRENCY).map(async (batch) => {
        const relaid = await retryUntil(MOVE_ATTEMPTS, CONTENTION_BACKOFF, async () => {
          const outcome = await commitOne(relayBatchUpdate(record, batch), { audit: false });
          // Refused: this merge already re-laid it (in its transaction or an earlier call), or it is gone.
          if (outcome.committed || outcome.refusal.kind === 'condition') return true;
          return undefined;
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
    if (await committedUnlessRefused(moveWrites(record, source, relaid.get(sk)))) return true;
    // Refused: the original changed or went (read it again), or, for a copied item, the copy may be there already.
    if (!copies(sk)) return undefined;
    const copy = movedItem(record, source, relaid.get(sk));
    const target = await readItem({ pk: String(copy.pk), sk: String(copy.sk) });
    if (!target) return undefined;
    if (target.moved_from !== record.deleted_id) {
      throw new Error(`Merging customer ${record.deleted_id} into ${record.kept_id}: ${String(copy.sk)} exists in both`);
    }
    return (await committedUnlessRefused([deleteMovedOriginal(source, false), ...followMovedItem(record, copy)])) || undefined;
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
function moveWrites(record: MergeRecord, source: Item, batch: RelaidBatch | undefined): Write[] {
  const sk = String(source.sk);
  // Its own marker of merges into it, finished before this merge began, and its birthday timer (the kept member's is written by the merge).
  if (sk.startsWith(TIMER_PREFIX) || sk.startsWith(INCOMING_MERGE_PREFIX)) return [deleteMovedOriginal(source)];
  // A count (redemptions of a reward, friends of a day) is added to the kept member's.
  if (sk.startsWith(REDEMPTION_COUNT_PREFIX) || sk.startsWith(FRIEND_COUNT_PREFIX))
    return [foldCount(record, source), deleteMovedOriginal(source)];
  const copy = movedItem(record, source, batch);
  return [copyMovedItem(copy), deleteMovedOriginal(source), ...followMovedItem(record, copy)];
}

/**
 * Marks the merge done and takes the kept partition's marker away, once: true only for the call that did. A
 * record written before the merge's events were committed with its transaction carries them; they commit here.
 */
export async function completeMerge(record: MergeRecord): Promise<boolean> {
  return committedUnlessRefused([finishMerge(record), clearIncomingMerge(record)], {
    events: (record.events ?? []) as unknown as DomainEvent[],
  });
}
