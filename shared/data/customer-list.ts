// The shop's sorted customer list (`listCustomers`): one page at any depth, read from whichever end of the
// index partitions is nearer, or from a page boundary a previous request remembered
// (docs/performance.md#customer-list-depth); with an e-mail filter, the search (email-search.ts) and its
// remembered matches (email-match-set.ts). And the walks and counts over a shop's whole list.
import { BatchWriteCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { type CustomerRecord, LOYALTY_STATUSES, type LoyaltyStatus } from '../domain/customer';
import { logger } from '../observability/powertools';
import { documentClient, tableName } from './client';
import { readRememberedSlice, rememberMatchSet, searchName } from './email-match-set';
import { evaluateEmailSearch } from './email-search';
import { batchGet, countAll, QUERY_CALL_LIMIT, type Item } from './item-reads';
import { customerListBoundaryKey } from './items/customer-list-boundary';
import { customerKey, customerListPartition, customerOfKey, normalisedEmail, storedCustomerOf } from './items/customer-profile';
import { GLOBAL_INDEXES, TTL_ATTRIBUTE } from './table';

export type CustomerSortField = 'created_at' | 'points' | 'lifetime_points' | 'redeemed_points';

const SORT_INDEX: Record<CustomerSortField, { indexName: string; attribute: string }> = {
  created_at: { indexName: GLOBAL_INDEXES.customersByCreatedAt.indexName, attribute: 'created_at' },
  points: { indexName: GLOBAL_INDEXES.customersByPoints.indexName, attribute: 'current_points' },
  lifetime_points: { indexName: GLOBAL_INDEXES.customersByLifetimePoints.indexName, attribute: 'lifetime_points' },
  redeemed_points: { indexName: GLOBAL_INDEXES.customersByRedeemedPoints.indexName, attribute: 'redeemed_points' },
};

/**
 * How long a remembered boundary is used. A walk asks for its next page within seconds; a short life
 * keeps a boundary from outliving the changes it would drift over (expired ones not deleted yet by the
 * table's TTL are ignored).
 */
export const BOUNDARY_TTL_SECONDS = 5 * 60;

/** The index key of one list entry: what a Query needs as ExclusiveStartKey. */
type EntryKey = Record<string, string | number>;

/**
 * Where the list stands after its first `count` entries, per status partition: `last` is the
 * partition's last entry before the boundary (null: none, read from the partition's start), `next`
 * its first entry at or after it (null: none, the partition is used up).
 */
export interface ListBoundary {
  last: Array<EntryKey | null>;
  next: Array<EntryKey | null>;
}

export interface ListWindow {
  shopId: string;
  indexName: string;
  /** The sort attribute of the index. */
  attribute: string;
  descending: boolean;
  statuses: readonly LoyaltyStatus[];
  /** Name of the list for the boundary memory: status filter, sort and direction. */
  listName: string;
  offset: number;
  limit: number;
  /** Entries in the partitions together (from the shop counters). */
  total: number;
}

/** How a page was read, for tests and the bench. */
export type ListReadMode = 'forward-from-start' | 'forward-from-boundary' | 'reverse-from-end' | 'reverse-from-boundary';

export interface ListPageKeys {
  /** Profile keys of the page, in list order. */
  keys: Array<{ pk: string; sk: string }>;
  mode: ListReadMode;
  /** Index entries read by the Queries. */
  entriesRead: number;
  /** The write of this page's boundaries (a cache: never fails), to await alongside the profile reads. */
  remembered: Promise<void>;
}

interface Tagged {
  item: Item;
  partition: number;
}

/**
 * Whether a boundary `count` entries in is remembered and looked up: from the start of page 3 on
 * (pages 1 and 2 are cut from the start for at most two pages of keys, and the first page, the list's
 * commonest request, writes nothing), short of the end.
 */
function worthRemembering(count: number, window: ListWindow): boolean {
  return count >= 2 * window.limit && count < window.total;
}

const boundaryKey = (window: ListWindow, count: number) => customerListBoundaryKey(window.shopId, window.listName, window.limit, count);

async function readBoundaries(window: ListWindow, counts: number[], memory: boolean): Promise<Map<number, ListBoundary>> {
  const found = new Map<number, ListBoundary>();
  const wanted = memory ? counts.filter((count) => worthRemembering(count, window)) : [];
  if (wanted.length === 0) return found;
  const nowSeconds = Math.floor(Date.now() / 1000);
  const items = await batchGet(wanted.map((count) => boundaryKey(window, count)));
  for (const item of items) {
    // An expired boundary the table's TTL has not deleted yet is absent.
    if (Number(item[TTL_ATTRIBUTE] ?? 0) <= nowSeconds) continue;
    const boundary = { last: item.last, next: item.next } as ListBoundary;
    if (!Array.isArray(boundary.last) || boundary.last.length !== window.statuses.length) continue;
    found.set(Number(item.boundary_count), boundary);
  }
  return found;
}

/** A cache write: a failure costs the next page its shortcut, never this page. */
async function rememberBoundaries(window: ListWindow, boundaries: Array<[number, ListBoundary]>): Promise<void> {
  if (boundaries.length === 0) return;
  const ttl = Math.floor(Date.now() / 1000) + BOUNDARY_TTL_SECONDS;
  try {
    await documentClient().send(
      new BatchWriteCommand({
        RequestItems: {
          [tableName()]: boundaries.map(([count, boundary]) => ({
            PutRequest: {
              Item: {
                ...boundaryKey(window, count),
                boundary_count: count,
                last: boundary.last,
                next: boundary.next,
                [TTL_ATTRIBUTE]: ttl,
              },
            },
          })),
        },
      }),
    );
  } catch (error) {
    logger.warn('Could not remember customer list boundaries', { error: error as Error });
  }
}

function entryKey(item: Item, attribute: string): EntryKey {
  return { pk: String(item.pk), sk: String(item.sk), list_pk: String(item.list_pk), [attribute]: item[attribute] as string | number };
}

/** Up to `limit` entries of one partition, in index order or reversed, after `start` (exclusive). */
async function readPartition(window: ListWindow, status: LoyaltyStatus, forward: boolean, start: EntryKey | null, limit: number) {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined = start ?? undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: window.indexName,
        KeyConditionExpression: 'list_pk = :pk',
        ExpressionAttributeValues: { ':pk': customerListPartition(window.shopId, status) },
        ScanIndexForward: forward ? !window.descending : window.descending,
        ExclusiveStartKey: startKey,
        Limit: Math.min(limit - items.length, QUERY_CALL_LIMIT),
      }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < limit);
  return { items, exhausted: items.length < limit };
}

/**
 * Merges partitions read in the list's order (`forward`) or against it. Forward, equal sort values keep
 * status order and index order (what the list has always done); reversed, exactly the mirror, so a
 * page read from the end is the same page.
 */
function merge(runs: Item[][], attribute: string, descending: boolean, forward: boolean): Tagged[] {
  const order = (forward ? 1 : -1) * (descending ? -1 : 1);
  const tagged = runs.map((items, partition) => items.map((item) => ({ item, partition })));
  const concatenated = (forward ? tagged : [...tagged].reverse()).flat();
  // Array.prototype.sort is stable: ties keep the concatenation order.
  return concatenated.sort((a, b) => {
    const x = a.item[attribute] as string | number;
    const y = b.item[attribute] as string | number;
    return x < y ? -order : x > y ? order : 0;
  });
}

/**
 * The boundary after `consumed` merged entries of a read that started at `from`. Each partition's
 * run holds more entries than can be consumed, so the entry on the far side is known or the
 * partition is used up.
 */
function boundaryAfter(
  merged: Tagged[],
  consumed: number,
  runs: Array<{ items: Item[] }>,
  from: ListBoundary,
  forward: boolean,
  attribute: string,
): ListBoundary {
  const counts = runs.map(() => 0);
  for (const entry of merged.slice(0, consumed)) counts[entry.partition]! += 1;
  const behind = forward ? from.last : from.next;
  const near = runs.map(({ items }, p) => (counts[p]! > 0 ? entryKey(items[counts[p]! - 1]!, attribute) : behind[p]!));
  const far = runs.map(({ items }, p) => (counts[p]! < items.length ? entryKey(items[counts[p]!]!, attribute) : null));
  return forward ? { last: near, next: far } : { last: far, next: near };
}

/**
 * The profile keys of one page. With `memory`, boundaries remembered by earlier pages (same shop,
 * list, page size) are looked up and this page's are remembered for its neighbours.
 */
export async function readListPage(window: ListWindow, memory = true): Promise<ListPageKeys> {
  const { offset, limit, total } = window;
  const end = Math.min(offset + limit, total);
  const known = await readBoundaries(window, [offset, offset + limit], memory);
  const fromStart = { last: window.statuses.map(() => null), next: [] };
  const fromEnd = { last: [], next: window.statuses.map(() => null) };

  // The cheapest start: a remembered boundary at either side of the page, else the nearer end.
  const before = known.get(offset);
  const after = known.get(offset + limit);
  let plan: { mode: ListReadMode; forward: boolean; from: ListBoundary; at: number };
  if (before) plan = { mode: 'forward-from-boundary', forward: true, from: before, at: offset };
  else if (after) plan = { mode: 'reverse-from-boundary', forward: false, from: after, at: offset + limit };
  else if (offset + limit <= total - offset) plan = { mode: 'forward-from-start', forward: true, from: fromStart, at: 0 };
  else plan = { mode: 'reverse-from-end', forward: false, from: fromEnd, at: total };

  // Entries between the starting point and the page's far edge, plus one to see past it.
  const span = plan.forward ? offset + limit - plan.at : plan.at - offset;
  const starts = plan.forward ? plan.from.last : plan.from.next;
  const runs = await Promise.all(
    window.statuses.map((status, p) => readPartition(window, status, plan.forward, starts[p] ?? null, span + 1)),
  );
  const merged = merge(
    runs.map((run) => run.items),
    window.attribute,
    window.descending,
    plan.forward,
  );
  const page = plan.forward
    ? merged.slice(offset - plan.at, offset - plan.at + limit)
    : merged.slice(Math.max(0, plan.at - end), plan.at - offset).reverse();

  // The boundaries on both sides of this page, for the pages next to it.
  const remember: Array<[number, ListBoundary]> = [];
  for (const count of [offset, offset + limit]) {
    if (!memory || known.has(count) || !worthRemembering(count, window)) continue;
    const consumed = plan.forward ? count - plan.at : plan.at - count;
    remember.push([count, boundaryAfter(merged, consumed, runs, plan.from, plan.forward, window.attribute)]);
  }
  return {
    keys: page.map(({ item }) => ({ pk: String(item.pk), sk: String(item.sk) })),
    mode: plan.mode,
    entriesRead: runs.reduce((sum, run) => sum + run.items.length, 0),
    remembered: rememberBoundaries(window, remember),
  };
}

/** The list's partitions: one per loyalty status, or the one the filter names. */
export function listStatuses(status: LoyaltyStatus | undefined): readonly LoyaltyStatus[] {
  return status ? [status] : LOYALTY_STATUSES;
}

/**
 * Every member id of a shop, both statuses, one page of the list index at a time (in creation order): the
 * walks over a whole shop (the shop's erasure, the e-mail index backfill) read the shop this way.
 */
export async function* shopMemberIdPages(shopId: string, pageSize: number): AsyncGenerator<string[]> {
  for (const status of LOYALTY_STATUSES) {
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          IndexName: GLOBAL_INDEXES.customersByCreatedAt.indexName,
          KeyConditionExpression: 'list_pk = :pk',
          ExpressionAttributeValues: { ':pk': customerListPartition(shopId, status) },
          Limit: pageSize,
          ExclusiveStartKey: startKey,
        }),
      );
      yield (page.Items ?? []).map((item) => customerOfKey({ pk: String(item.pk) }));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
}

export interface CustomerListQuery {
  sort: CustomerSortField;
  descending: boolean;
  /** Only these statuses (both when omitted). */
  status?: LoyaltyStatus;
  /** Lower-case substring the e-mail must contain. */
  emailContains?: string;
  offset: number;
  limit: number;
}

export interface CustomerListPage {
  records: CustomerRecord[];
  /** Total matches, or null when the caller must take it from the shop counters. */
  total: number | null;
  /** Index entries the Queries read (what depth costs; the bench reports it). */
  entriesRead: number;
}

export interface CustomerListOptions {
  /** Entries in the listed partitions (the shop counters); unknown on a first page, which needs none. */
  total?: number;
  /** Use and keep remembered page boundaries (off only to compare pages in tests and the bench). */
  boundaryMemory?: boolean;
  /** Use and keep remembered e-mail search matches (off only to compare pages in tests and the bench). */
  matchMemory?: boolean;
}

/**
 * One page of a shop's customers in the requested order. Each loyalty status is its own index
 * partition, already sorted by DynamoDB. Without an e-mail filter the page's keys come from the
 * nearer end of the partitions or a remembered boundary (`customer-list.ts`), then its profiles from
 * one BatchGet. With an e-mail filter the search is evaluated whole (`evaluateEmailSearch`), which gives
 * the exact total, and its ordered matches are remembered for its other pages (`email-match-set.ts`),
 * which read their slice of them and its profiles only.
 */
export async function listCustomers(
  shopId: string,
  query: CustomerListQuery,
  options: CustomerListOptions = {},
): Promise<CustomerListPage> {
  const { indexName, attribute } = SORT_INDEX[query.sort];
  const statuses = listStatuses(query.status);
  if (query.emailContains === undefined) {
    const page = await readListPage(
      {
        shopId,
        indexName,
        attribute,
        descending: query.descending,
        statuses,
        listName: `${query.status ?? 'all'}#${query.sort}#${query.descending ? 'desc' : 'asc'}`,
        offset: query.offset,
        limit: query.limit,
        total: options.total ?? Infinity,
      },
      options.boundaryMemory ?? true,
    );
    const [items] = await Promise.all([batchGet(page.keys), page.remembered]);
    return { records: items.map((item) => storedCustomerOf(item).record), total: null, entriesRead: page.entriesRead };
  }

  const memory = options.matchMemory ?? true;
  const search = searchName({ emailContains: query.emailContains, status: query.status, sort: query.sort, descending: query.descending });
  // Past the first page, the set an earlier page of the same search remembered: its slice's profiles only.
  const remembered = memory && query.offset > 0 ? await readRememberedSlice(shopId, search, query.offset, query.limit) : null;
  if (remembered) {
    const items = await batchGet(remembered.ids.map((id) => customerKey(shopId, id)));
    const records = items
      .map((item) => storedCustomerOf(item).record)
      // A member who no longer matches (a new address or status) is left out, as is one erased or merged away.
      .filter((record) => statuses.includes(record.status) && normalisedEmail(record.email).includes(query.emailContains!));
    return { records, total: remembered.total, entriesRead: 0 };
  }

  const matches = await evaluateEmailSearch(shopId, query, indexName, attribute, statuses);
  const pageIds = matches.ids.slice(query.offset, query.offset + query.limit);
  // The ordered set, for the search's other pages (a search of one page has none).
  const rememberSet = memory && matches.ids.length > query.limit ? rememberMatchSet(shopId, search, matches.ids) : Promise.resolve();
  const [items] = await Promise.all([
    matches.profiles
      ? Promise.resolve(pageIds.map((id) => matches.profiles!.get(id)!))
      : batchGet(pageIds.map((id) => customerKey(shopId, id))),
    rememberSet,
  ]);
  return { records: items.map((item) => storedCustomerOf(item).record), total: matches.ids.length, entriesRead: matches.entriesRead };
}

/** Counts a shop's customers per status from the list index (used after bulk imports). */
export async function countCustomers(shopId: string): Promise<Record<LoyaltyStatus, number>> {
  const [member, excluded] = await Promise.all(
    LOYALTY_STATUSES.map((status) =>
      countAll({
        IndexName: GLOBAL_INDEXES.customersByCreatedAt.indexName,
        KeyConditionExpression: 'list_pk = :pk',
        ExpressionAttributeValues: { ':pk': customerListPartition(shopId, status) },
      }),
    ),
  );
  return { member: member!, excluded: excluded! };
}
