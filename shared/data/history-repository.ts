// Earning and reward history, read back sorted and paged by DynamoDB through the customer partition's local
// indexes (the items themselves, their keys and index attributes: items/earning-entry.ts, items/reward-entry.ts).
import { GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EarningEntry, EarningStatus, RewardEntry, RewardStatus } from '../domain/history';
import { documentClient, tableName } from './client';
import { countAll, type Item, queryAll, withoutKeys } from './item-reads';
import { customerPk } from './items/customer-profile';
import { IMPORTED_BATCH_GIVEN_AT } from './items/import-batch';
import { earningEntryKey, earningEntryOf, NOT_GIVEN_YET } from './items/earning-entry';
import type { LedgerEntry } from '../domain/points-ledger';
import type { ItemKey } from './items/item-type';
import { rewardEntryKey, rewardEntryOf, VISIBLE_REWARD_STATUSES, visibleRewardEntryOf } from './items/reward-entry';
import { LOCAL_INDEXES } from './table';

export type EarningSortField = 'created_at' | 'points' | 'points_given_at';
export type RewardSortField = 'created_at' | 'points_spent';

const EARNING_SORT_INDEX: Record<EarningSortField, string> = {
  created_at: LOCAL_INDEXES.earningByCreatedAt.indexName,
  points: LOCAL_INDEXES.earningByPoints.indexName,
  points_given_at: LOCAL_INDEXES.earningByPointsGivenAt.indexName,
};

const REWARD_SORT_INDEX: Record<RewardSortField, string> = {
  created_at: LOCAL_INDEXES.rewardsByCreatedAt.indexName,
  points_spent: LOCAL_INDEXES.rewardsByPointsSpent.indexName,
};

export interface HistoryQuery<F extends string, S extends string> {
  sort: F;
  descending: boolean;
  /** Only entries in this status (all visible ones when omitted). */
  status?: S;
  offset: number;
  limit: number;
}

export type EarningHistoryQuery = HistoryQuery<EarningSortField, EarningStatus>;
export type RewardHistoryQuery = HistoryQuery<RewardSortField, RewardStatus>;

export interface HistoryPage<T> {
  entries: T[];
  /** Matches of the same filter across all pages. */
  total: number;
}

interface StatusCondition {
  expression: string;
  values: Record<string, string | boolean>;
  /** Attribute names beyond `#status` the expression uses. */
  names?: Record<string, string>;
}

/**
 * Runs one page of a history query on a sparse local index: DynamoDB returns the customer's entries
 * of that kind already in order, the first `offset + limit` matches are read and the page cut from
 * them, while a COUNT query of the same condition gives the total. The first page reads both at
 * once; a deeper page is read only once the count says it has entries, so a page past the last
 * (any page number up to 2^53) costs the COUNT alone.
 */
async function queryHistory(
  pk: string,
  indexName: string,
  condition: StatusCondition | null,
  descending: boolean,
  offset: number,
  limit: number,
): Promise<{ items: Item[]; total: number }> {
  // On the given-at index, the entries only: an imported balance's batch sits above them (IMPORTED_BATCH_GIVEN_AT).
  const entriesOnly = indexName === LOCAL_INDEXES.earningByPointsGivenAt.indexName;
  const input: Omit<QueryCommandInput, 'TableName'> = {
    IndexName: indexName,
    KeyConditionExpression: entriesOnly ? 'pk = :pk AND earn_given_at <= :notGiven' : 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk, ...(entriesOnly ? { ':notGiven': NOT_GIVEN_YET } : {}), ...condition?.values },
    ...(condition ? { FilterExpression: condition.expression, ExpressionAttributeNames: { '#status': 'status', ...condition.names } } : {}),
  };
  const page = () => queryAll({ ...input, ScanIndexForward: !descending }, offset + limit);
  if (offset === 0) {
    const [items, total] = await Promise.all([page(), countAll(input)]);
    return { items, total };
  }
  const total = await countAll(input);
  if (offset >= total) return { items: [], total };
  return { items: (await page()).slice(offset), total };
}

export async function listEarningEntries(
  shopId: string,
  customerId: string,
  query: EarningHistoryQuery,
): Promise<HistoryPage<EarningEntry>> {
  const condition = query.status ? { expression: '#status = :status', values: { ':status': query.status } } : null;
  const { items, total } = await queryHistory(
    customerPk(shopId, customerId),
    EARNING_SORT_INDEX[query.sort],
    condition,
    query.descending,
    query.offset,
    query.limit,
  );
  return { entries: items.map(earningEntryOf), total };
}

/** The status condition of a reward read: the one asked for, or any visible one. */
function rewardStatusCondition(status: RewardStatus | undefined): StatusCondition {
  const statuses = status ? [status] : VISIBLE_REWARD_STATUSES;
  const values = Object.fromEntries(statuses.map((value, i) => [`:status${i}`, value]));
  return { expression: `#status IN (${Object.keys(values).join(', ')})`, values };
}

export async function listRewardEntries(shopId: string, customerId: string, query: RewardHistoryQuery): Promise<HistoryPage<RewardEntry>> {
  const { items, total } = await queryHistory(
    customerPk(shopId, customerId),
    REWARD_SORT_INDEX[query.sort],
    rewardStatusCondition(query.status),
    query.descending,
    query.offset,
    query.limit,
  );
  return { entries: items.map(rewardEntryOf), total };
}

/** A reward-history entry whose code can still be used, with the discount its code gives. */
export interface UnusedRewardCode extends RewardEntry {
  discount: { type: string; value: number; minimum_spend: number } | null;
}

/**
 * The customer's codes still to use, newest first: active, not refunded, not past their end date at `now`
 * (whether or not the code-expiry job got to them yet). One query on the customer's reward index, read up to
 * the page's end, and its count.
 */
export async function listUnusedRewardCodes(
  shopId: string,
  customerId: string,
  now: string,
  page: { offset: number; limit: number },
): Promise<HistoryPage<UnusedRewardCode>> {
  const condition: StatusCondition = {
    expression:
      '#status = :active AND (attribute_not_exists(#refunded) OR #refunded = :false) AND (attribute_not_exists(#ends) OR attribute_type(#ends, :null) OR #ends > :now)',
    values: { ':active': 'active', ':false': false, ':now': now, ':null': 'NULL' },
    names: { '#refunded': 'is_refunded', '#ends': 'expires_at' },
  };
  const { items, total } = await queryHistory(
    customerPk(shopId, customerId),
    REWARD_SORT_INDEX.created_at,
    condition,
    true,
    page.offset,
    page.limit,
  );
  return {
    entries: items.map((item) => {
      const discount = item.discount as UnusedRewardCode['discount'] | undefined;
      return { ...rewardEntryOf(item), discount: discount ?? null };
    }),
    total,
  };
}

async function getItem(key: ItemKey, consistent = false): Promise<Item | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return result.Item ?? null;
}

/** One earning entry; the key holds shop and customer, so another customer's entry is simply absent. */
export async function getEarningEntry(shopId: string, customerId: string, id: string, consistent = false): Promise<EarningEntry | null> {
  const item = await getItem(earningEntryKey(shopId, customerId, id), consistent);
  return item ? earningEntryOf(item) : null;
}

/** One reward entry of the customer, or null when absent or still in an internal status. */
export async function getRewardEntry(shopId: string, customerId: string, id: string): Promise<RewardEntry | null> {
  const item = await getItem(rewardEntryKey(shopId, customerId, id));
  return item ? visibleRewardEntryOf(item) : null;
}

/** What a member's own page shows of their ledger: the points not given yet, and the open expiry batches. */
export interface LedgerHead {
  /** Pending earning entries (their points are not in the balance yet). */
  pending: EarningEntry[];
  /** Open expiry batches (approved, positive, with an expiry date, not closed), newest given first. */
  batches: LedgerEntry[];
}

const LEDGER_PAGE = 50;

/**
 * Reads the member's ledger from its newest end on the given-time index: an imported balance's batch sorts
 * first, then the entries not given yet (pending and rejected), then the given ones newest first. With `batchesFrom`, it reads on through
 * the open batches down to the one holding that position of the member's line (points before it are all
 * consumed, so no older batch has points left); without, it stops at the first given entry. Usually one call.
 * `batchesFrom` may still be on its way (the member's profile, read at the same time): it is awaited only
 * once the first given entry is reached. `consistent` reads every write committed before it.
 */
export async function readLedgerHead(
  shopId: string,
  customerId: string,
  batchesFrom: number | Promise<number> | null,
  consistent = false,
): Promise<LedgerHead> {
  const head: LedgerHead = { pending: [], batches: [] };
  let startKey: Record<string, unknown> | undefined;
  const notGivenOnly = batchesFrom === null;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: LOCAL_INDEXES.earningByPointsGivenAt.indexName,
        KeyConditionExpression: notGivenOnly ? 'pk = :pk AND earn_given_at = :notGiven' : 'pk = :pk',
        ExpressionAttributeValues: { ':pk': customerPk(shopId, customerId), ...(notGivenOnly ? { ':notGiven': NOT_GIVEN_YET } : {}) },
        ScanIndexForward: false,
        Limit: LEDGER_PAGE,
        ExclusiveStartKey: startKey,
        ConsistentRead: consistent,
      }),
    );
    startKey = page.LastEvaluatedKey;
    for (const item of (page.Items ?? []) as Item[]) {
      if (item.earn_given_at === IMPORTED_BATCH_GIVEN_AT) {
        // An imported balance's batch (read first, above the entries): a batch like any other, wherever it sits on the line.
        const batch = { ...withoutKeys<LedgerEntry>(item), ...batchFields(item) } as LedgerEntry & { batch_closed?: boolean };
        if (isOpenBatch(batch)) head.batches.push(batch);
        continue;
      }
      if (item.earn_given_at === NOT_GIVEN_YET) {
        if (item.status === 'pending') head.pending.push(earningEntryOf(item));
        continue;
      }
      if (notGivenOnly) return head;
      const entry = { ...earningEntryOf(item), ...batchFields(item) } as LedgerEntry & { batch_closed?: boolean };
      if (!isOpenBatch(entry)) continue;
      head.batches.push(entry);
      if ((entry.batch_offset ?? 0) <= (await batchesFrom)) return head;
    }
  } while (startKey);
  return head;
}

/** Approved positive points with an expiry date, not expired (or dropped) yet. */
function isOpenBatch(entry: LedgerEntry & { batch_closed?: boolean }): boolean {
  return entry.status === 'approved' && entry.points > 0 && Boolean(entry.points_expiry_at) && !entry.batch_closed;
}

function batchFields(item: Item): Partial<LedgerEntry> & { batch_closed?: boolean } {
  return {
    ...(typeof item.batch_offset === 'number' ? { batch_offset: item.batch_offset } : {}),
    ...(typeof item.batch_points === 'number' ? { batch_points: item.batch_points } : {}),
    ...(item.batch_closed === true ? { batch_closed: true } : {}),
  };
}
