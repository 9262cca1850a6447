// Earning and reward history items: key and sparse-index attributes are composed here only, and the
// history is read back sorted and paged by DynamoDB through the customer partition's local indexes.
import { GetCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import type { EarningEntry, EarningStatus, RewardEntry, RewardStatus } from '../domain/history';
import { documentClient, tableName } from './client';
import { countAll, type Item, queryAll, withoutKeys } from './items';
import { type ItemKey, keys } from './keys';
import { LOCAL_INDEXES } from './table';
import { dueAttributes, entryDue, rewardDue } from './due-work';

/** Sorts after every ISO timestamp, so entries not given yet come last ascending, first descending. */
export const NOT_GIVEN_YET = '~';

export function earningEntryItem(shopId: string, customerId: string, entry: EarningEntry): Item {
  return {
    ...keys.earningEntry(shopId, customerId, entry.id),
    ...entry,
    earn_created_at: entry.created_at,
    earn_points: entry.points,
    earn_given_at: entry.points_given_at ?? NOT_GIVEN_YET,
    // Its approval while pending, its reminder and expiry while a batch: what the jobs find it by.
    ...entryDue(shopId, entry),
  };
}

/** The imported balance's uncovered batch: an internal item the expiry jobs read like a batch entry. */
export function importBatchItem(
  shopId: string,
  customerId: string,
  batch: { batch_offset: number; points: number; points_given_at: string; points_expiry_at: string | null },
): Item {
  const entry = { id: IMPORT_BATCH_ID, status: 'approved' as const, ...batch };
  return {
    ...keys.importBatch(shopId, customerId),
    ...entry,
    ...(batch.points_expiry_at ? dueAttributes(shopId, 'batch-remind', batch.points_expiry_at, IMPORT_BATCH_ID) : {}),
  };
}

/** Id of the imported balance's batch (the expiry entry that removes it derives its own id from it). */
export const IMPORT_BATCH_ID = 'import';

export function rewardEntryItem(shopId: string, customerId: string, entry: RewardEntry): Item {
  return {
    ...keys.rewardEntry(shopId, customerId, entry.id),
    ...entry,
    redeem_created_at: entry.created_at,
    redeem_points_spent: entry.points_spent,
    ...rewardDue(shopId, entry),
  };
}

/**
 * The reward statuses callers may see. The purchase saga parks entries in internal statuses (such as
 * `pending`) while the discount code is created; those are never listed, counted or fetched.
 */
export const VISIBLE_REWARD_STATUSES: readonly RewardStatus[] = ['active', 'used', 'expired'];

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
  values: Record<string, string>;
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
  const input: Omit<QueryCommandInput, 'TableName'> = {
    IndexName: indexName,
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': pk, ...condition?.values },
    ...(condition ? { FilterExpression: condition.expression, ExpressionAttributeNames: { '#status': 'status' } } : {}),
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
    keys.customerPk(shopId, customerId),
    EARNING_SORT_INDEX[query.sort],
    condition,
    query.descending,
    query.offset,
    query.limit,
  );
  return { entries: items.map((item) => withoutKeys<EarningEntry>(item)), total };
}

/** The status condition of a reward read: the one asked for, or any visible one. */
function rewardStatusCondition(status: RewardStatus | undefined): StatusCondition {
  const statuses = status ? [status] : VISIBLE_REWARD_STATUSES;
  const values = Object.fromEntries(statuses.map((value, i) => [`:status${i}`, value]));
  return { expression: `#status IN (${Object.keys(values).join(', ')})`, values };
}

export async function listRewardEntries(shopId: string, customerId: string, query: RewardHistoryQuery): Promise<HistoryPage<RewardEntry>> {
  const { items, total } = await queryHistory(
    keys.customerPk(shopId, customerId),
    REWARD_SORT_INDEX[query.sort],
    rewardStatusCondition(query.status),
    query.descending,
    query.offset,
    query.limit,
  );
  return { entries: items.map((item) => withoutKeys<RewardEntry>(item)), total };
}

async function getItem(key: ItemKey, consistent = false): Promise<Item | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: consistent }));
  return result.Item ?? null;
}

/** One earning entry; the key holds shop and customer, so another customer's entry is simply absent. */
export async function getEarningEntry(shopId: string, customerId: string, id: string, consistent = false): Promise<EarningEntry | null> {
  const item = await getItem(keys.earningEntry(shopId, customerId, id), consistent);
  return item ? withoutKeys<EarningEntry>(item) : null;
}

/** One reward entry of the customer, or null when absent or still in an internal status. */
export async function getRewardEntry(shopId: string, customerId: string, id: string): Promise<RewardEntry | null> {
  const item = await getItem(keys.rewardEntry(shopId, customerId, id));
  if (!item || !(VISIBLE_REWARD_STATUSES as readonly unknown[]).includes(item.status)) return null;
  return withoutKeys<RewardEntry>(item);
}
