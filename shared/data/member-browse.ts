// The staff's member list (`GET /admin/api/members`, docs/admin.md#the-member-list): one page of a shop's
// members sorted by points, enrolment or last activity, filtered by status and tier, continued by a cursor.
// Each sort reads a sorted index partition by partition (one per status, or per tier and status) and merges
// the partitions' heads: a page reads at most `size + 1` index entries of each partition it spans and then
// the page's profiles, whatever the shop's size and however deep the walk.
//
// The cursor is where each partition stands: the last entry taken from it (the Query's exclusive start),
// `null` (not read yet) or `0` (used up). It names the list it belongs to, so a cursor of another sort,
// filter or shop is refused.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { LOYALTY_STATUSES, type CustomerRecord, type LoyaltyStatus } from '../domain/customer';
import { documentClient, tableName } from './client';
import { commitOne } from './commit';
import { batchGet, type Item } from './item-reads';
import {
  customerKey,
  customerListPartition,
  customerTierPartition,
  placeOnMemberList,
  storedCustomerOf,
  tierActivityAttributes,
} from './items/customer-profile';
import { GLOBAL_INDEXES } from './table';
import { shopMemberIdPages } from './customer-list';

export type MemberSort = 'points' | 'joined' | 'last_activity';
export const MEMBER_SORTS: readonly MemberSort[] = ['points', 'joined', 'last_activity'];

export interface MemberBrowseQuery {
  sort: MemberSort;
  descending: boolean;
  status?: LoyaltyStatus;
  /** A tier id, or `none` for members of no tier. */
  tier?: string;
  size: number;
  /** The previous page's `next_cursor`. */
  cursor?: string;
}

export interface MemberBrowsePage {
  records: CustomerRecord[];
  /** The next page's cursor; null on the last page. */
  nextCursor: string | null;
  /** Index entries the Queries read and Query calls made, for the tests and the bench. */
  entriesRead: number;
  queries: number;
}

/** The cursor or sort could not be used for this list: the handler answers 400 with this detail. */
export class MemberBrowseRefusal extends Error {}

type EntryKey = Record<string, string | number>;
/** A partition's place: the last entry taken (exclusive start), not read yet, or used up. */
type Position = EntryKey | null | 0;

interface Partition {
  value: string;
  indexName: string;
  partitionAttribute: string;
  sortAttribute: string;
}

const SORT_INDEX: Record<Exclude<MemberSort, 'last_activity'>, { indexName: string; attribute: string }> = {
  points: { indexName: GLOBAL_INDEXES.customersByPoints.indexName, attribute: 'current_points' },
  joined: { indexName: GLOBAL_INDEXES.customersByCreatedAt.indexName, attribute: 'created_at' },
};

/**
 * The partitions the list spans. By points or enrolment: one per status of the status index. By last activity,
 * or with a tier: one per tier (the tier named, else every tier of `tierIds` and no tier) and status.
 */
function partitionsOf(shopId: string, query: MemberBrowseQuery, tierIds: readonly string[]): Partition[] {
  const statuses = query.status ? [query.status] : LOYALTY_STATUSES;
  if (query.tier !== undefined || query.sort === 'last_activity') {
    if (query.sort !== 'last_activity') {
      throw new MemberBrowseRefusal('filter[tier] lists a tier by last activity: use sort=last_activity or sort=-last_activity');
    }
    const tiers: Array<string | null> = query.tier !== undefined ? [query.tier === 'none' ? null : query.tier] : [...tierIds, null];
    const index = GLOBAL_INDEXES.customersByTierActivity;
    return tiers.flatMap((tier) =>
      statuses.map((status) => ({
        value: customerTierPartition(shopId, tier, status),
        indexName: index.indexName,
        partitionAttribute: index.partitionKey.name,
        sortAttribute: index.sortKey.name,
      })),
    );
  }
  const { indexName, attribute } = SORT_INDEX[query.sort];
  return statuses.map((status) => ({
    value: customerListPartition(shopId, status),
    indexName,
    partitionAttribute: 'list_pk',
    sortAttribute: attribute,
  }));
}

/** The list a cursor belongs to: shop, sort, direction, filters and page size. */
function listName(shopId: string, query: MemberBrowseQuery): string {
  return [shopId, query.sort, query.descending ? 'desc' : 'asc', query.status ?? '*', query.tier ?? '*', query.size].join('|');
}

function encodeCursor(list: string, positions: Position[]): string {
  return Buffer.from(JSON.stringify({ l: list, p: positions }), 'utf8').toString('base64url');
}

function decodeCursor(text: string, list: string, count: number): Position[] {
  let parsed: unknown;
  try {
    if (!/^[A-Za-z0-9_-]{1,4000}$/.test(text)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw new MemberBrowseRefusal('page[cursor] is not a cursor of this list: pass the next_cursor of the previous page');
  }
  const cursor = parsed as { l?: unknown; p?: unknown };
  if (cursor.l !== list || !Array.isArray(cursor.p) || cursor.p.length !== count) {
    throw new MemberBrowseRefusal('page[cursor] belongs to another list (sort, filters or page size changed): start again without it');
  }
  for (const position of cursor.p as unknown[]) {
    const valid =
      position === null ||
      position === 0 ||
      (typeof position === 'object' &&
        !Array.isArray(position) &&
        Object.values(position as object).every((value) => typeof value === 'string' || typeof value === 'number'));
    if (!valid) throw new MemberBrowseRefusal('page[cursor] is not a cursor of this list: pass the next_cursor of the previous page');
  }
  return cursor.p as Position[];
}

function entryKey(item: Item, partition: Partition): EntryKey {
  return {
    pk: String(item.pk),
    sk: String(item.sk),
    [partition.partitionAttribute]: String(item[partition.partitionAttribute]),
    [partition.sortAttribute]: item[partition.sortAttribute] as string | number,
  };
}

/** Orders two entries as the list does: by the sort value, then by customer key for a stable order. */
function compare(a: Item, b: Item, attribute: string, descending: boolean): number {
  const x = a[attribute] as string | number;
  const y = b[attribute] as string | number;
  let order = x < y ? -1 : x > y ? 1 : 0;
  if (order === 0) order = String(a.pk) < String(b.pk) ? -1 : String(a.pk) > String(b.pk) ? 1 : 0;
  return descending ? -order : order;
}

/** One page of the shop's members. `tierIds`: the shop's tiers, for the lists that span them. */
export async function browseMembers(shopId: string, query: MemberBrowseQuery, tierIds: readonly string[]): Promise<MemberBrowsePage> {
  const partitions = partitionsOf(shopId, query, tierIds);
  const list = listName(shopId, query);
  const positions: Position[] =
    query.cursor !== undefined ? decodeCursor(query.cursor, list, partitions.length) : partitions.map(() => null);
  // A position is a key of its own partition, of this shop's profiles: anything else was not written by this list.
  positions.forEach((position, index) => {
    if (position === null || position === 0) return;
    const partition = partitions[index]!;
    const names = Object.keys(position).sort();
    const sortValue = position[partition.sortAttribute];
    const valid =
      names.join(',') === ['pk', 'sk', partition.partitionAttribute, partition.sortAttribute].sort().join(',') &&
      position[partition.partitionAttribute] === partition.value &&
      position.sk === 'PROFILE' &&
      typeof position.pk === 'string' &&
      position.pk.startsWith(`SHOP#${shopId}#C#`) &&
      (partition.sortAttribute === 'current_points' ? typeof sortValue === 'number' : typeof sortValue === 'string');
    if (!valid) throw new MemberBrowseRefusal('page[cursor] is not a cursor of this list: pass the next_cursor of the previous page');
  });
  // Each partition not used up: its next `size + 1` entries (one more tells whether it goes on).
  const reads = await Promise.all(
    partitions.map(async (partition, index) => {
      const position = positions[index];
      if (position === 0) return { items: [] as Item[], more: false };
      const page = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: partition.indexName,
          KeyConditionExpression: '#pk = :pk',
          ExpressionAttributeNames: { '#pk': partition.partitionAttribute },
          ExpressionAttributeValues: { ':pk': partition.value },
          ScanIndexForward: !query.descending,
          ...(position ? { ExclusiveStartKey: position } : {}),
          Limit: query.size + 1,
        }),
      );
      const items = (page.Items ?? []) as Item[];
      return { items, more: items.length > query.size || page.LastEvaluatedKey !== undefined };
    }),
  );
  const entriesRead = reads.reduce((sum, read) => sum + read.items.length, 0);
  const queries = reads.filter((_, index) => positions[index] !== 0).length;
  // Merge the partitions' heads.
  const heads = reads.map(() => 0);
  const taken: Array<{ item: Item; partition: number }> = [];
  while (taken.length < query.size) {
    let best = -1;
    for (let index = 0; index < partitions.length; index += 1) {
      const candidate = reads[index]!.items[heads[index]!];
      if (!candidate) continue;
      if (best < 0 || compare(candidate, reads[best]!.items[heads[best]!]!, partitions[index]!.sortAttribute, query.descending) < 0)
        best = index;
    }
    if (best < 0) break;
    taken.push({ item: reads[best]!.items[heads[best]!]!, partition: best });
    heads[best]! += 1;
  }
  const next: Position[] = partitions.map((partition, index) => {
    const read = reads[index]!;
    const consumed = heads[index]!;
    if (positions[index] === 0) return 0;
    if (consumed === read.items.length && !read.more) return 0;
    return consumed === 0 ? positions[index]! : entryKey(read.items[consumed - 1]!, partition);
  });
  const goesOn = next.some((position) => position !== 0);
  const items = await batchGet(taken.map(({ item }) => ({ pk: String(item.pk), sk: String(item.sk) })));
  return {
    records: items.map((item) => storedCustomerOf(item).record),
    nextCursor: goesOn ? encodeCursor(list, next) : null,
    entriesRead,
    queries,
  };
}

/**
 * Puts the tier-and-activity index attributes on the profiles of a shop that lack them or carry stale ones
 * (profiles written before the index existed, `loyalty member-list backfill`): a walk of the shop's status
 * partitions, then one UpdateItem per profile to change, conditional on the profile's version so a write
 * in between (which derives the attributes itself) is never overwritten. Safe to stop and run again.
 */
export async function backfillMemberList(shopId: string, onProgress?: (done: number) => void): Promise<{ read: number; updated: number }> {
  let read = 0;
  let updated = 0;
  for await (const ids of shopMemberIdPages(shopId, 100)) {
    const items = await batchGet(ids.map((id) => customerKey(shopId, id)));
    for (const item of items) {
      read += 1;
      const { record, version } = storedCustomerOf(item);
      const wanted = tierActivityAttributes(record);
      if (item.tier_list_pk === wanted.tier_list_pk && item.last_activity_at === wanted.last_activity_at) continue;
      const outcome = await commitOne(placeOnMemberList(shopId, record.platform_customer_id, version, wanted));
      if (outcome.committed) updated += 1;
      else if (outcome.refusal.kind === 'conflict')
        throw new Error(`The profile of ${record.platform_customer_id} met another transaction`);
    }
    onProgress?.(read);
  }
  return { read, updated };
}
