// Small read and delete helpers shared by the repositories: reading one item as stored, paging through
// queries, batch reads and deletes, stripping the table's bookkeeping (KEY_ATTRIBUTES, from the item types
// in items/).
import { BatchGetCommand, BatchWriteCommand, GetCommand, QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { BATCH_BACKOFF, retryUntil } from '../runtime/retry';
import { documentClient, tableName } from './client';
import { KEY_ATTRIBUTES } from './items/index';
import type { Item, ItemKey } from './items/item-type';

/** Tries of a batch call before unprocessed items are an error (DynamoDB returns them when throttled). */
export const BATCH_ATTEMPTS = 10;

export type { Item };
export { KEY_ATTRIBUTES };

/** An item as stored (keys and index attributes included), read consistently; null when gone. */
export async function readItem(key: ItemKey): Promise<Item | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return (result.Item as Item | undefined) ?? null;
}

/** The item without table bookkeeping (keys, index attributes, version). */
export function withoutKeys<T>(item: Item): T {
  const out: Item = {};
  for (const [name, value] of Object.entries(item)) if (!KEY_ATTRIBUTES.has(name)) out[name] = value;
  return out as T;
}

/**
 * The most items one Query call asks for. DynamoDB Local fetches `Limit` rows for every call and then
 * cuts the answer at 1 MB (about 2 000 list entries there), so asking for all that remain made each
 * call of a deep read cost the whole remainder: reading d entries cost about d²/4 000 row fetches
 * (docs/performance.md#customer-list-depth). On DynamoDB a call returns at most 1 MB anyway.
 */
export const QUERY_CALL_LIMIT = 2_000;

/** Runs a query to the end, or until `max` items were returned, following LastEvaluatedKey. */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName'>, max = Infinity): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const remaining = max - items.length;
    const page = await documentClient().send(
      new QueryCommand({
        ...input,
        TableName: tableName(),
        ExclusiveStartKey: startKey,
        ...(Number.isFinite(remaining) && input.FilterExpression === undefined ? { Limit: Math.min(remaining, QUERY_CALL_LIMIT) } : {}),
      }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey && items.length < max);
  return items.slice(0, max);
}

/**
 * Reads a partition a page at a time, consistently, and hands each page to `onPage` before reading the
 * next, so a long partition never sits in memory whole. `onPage` may delete what it was given: the next
 * page starts after a key, not a position.
 */
export async function forEachPartitionPage(
  pk: string,
  pageSize: number,
  onPage: (items: Item[]) => Promise<void>,
  projection?: string,
): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ...(projection ? { ProjectionExpression: projection } : {}),
        ConsistentRead: true,
        Limit: pageSize,
        ExclusiveStartKey: startKey,
      }),
    );
    await onPage((page.Items ?? []) as Item[]);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Counts a query's matches without returning items (Select COUNT, still reads every match). */
export async function countAll(input: Omit<QueryCommandInput, 'TableName' | 'Select'>): Promise<number> {
  let count = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new QueryCommand({ ...input, TableName: tableName(), Select: 'COUNT', ExclusiveStartKey: startKey }),
    );
    count += page.Count ?? 0;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return count;
}

/** Reads up to 100 items by key (`consistent`: strongly consistent), retrying unprocessed keys; returns them in the order asked. */
export async function batchGet(keys: Array<{ pk: string; sk: string }>, options: { consistent?: boolean } = {}): Promise<Item[]> {
  if (keys.length === 0) return [];
  const found = new Map<string, Item>();
  let pending: Array<Record<string, unknown>> = keys;
  const read = await retryUntil(BATCH_ATTEMPTS, BATCH_BACKOFF, async () => {
    const result = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ...(options.consistent ? { ConsistentRead: true } : {}) } } }),
    );
    for (const item of (result.Responses?.[tableName()] ?? []) as Item[]) found.set(`${item.pk}|${item.sk}`, item);
    pending = result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    return pending.length === 0 ? true : undefined;
  });
  if (!read) throw new Error('BatchGet left keys unprocessed after retries');
  return keys.flatMap((key) => {
    const item = found.get(`${key.pk}|${key.sk}`);
    return item ? [item] : [];
  });
}

/** Reads any number of items by key, 100 a call and `concurrency` calls at once; returns them in the order asked. */
export async function batchGetAll(keys: Array<{ pk: string; sk: string }>, concurrency = 8): Promise<Item[]> {
  const chunks: Array<Array<{ pk: string; sk: string }>> = [];
  for (let start = 0; start < keys.length; start += 100) chunks.push(keys.slice(start, start + 100));
  const results: Item[][] = new Array<Item[]>(chunks.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < chunks.length; index = next++) results[index] = await batchGet(chunks[index]!);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, chunks.length) }, worker));
  return results.flat();
}

/** Deletes items by key in batches of 25 (BatchWrite's limit), retrying unprocessed ones; absent keys are no error. */
export async function batchDelete(keys: Array<{ pk: string; sk: string }>): Promise<void> {
  for (let start = 0; start < keys.length; start += 25) {
    let pending: Array<Record<string, unknown>> = keys
      .slice(start, start + 25)
      .map((key) => ({ DeleteRequest: { Key: { pk: key.pk, sk: key.sk } } }));
    const deleted = await retryUntil(BATCH_ATTEMPTS, BATCH_BACKOFF, async () => {
      const result = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      return pending.length === 0 ? true : undefined;
    });
    if (!deleted) throw new Error('BatchWrite left deletes unprocessed after retries');
  }
}
