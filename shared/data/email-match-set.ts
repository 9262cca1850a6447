// Remembered e-mail searches (docs/performance.md#e-mail-search): the first page of a `filter[email]`
// search that has more than one page writes its ordered match set (customer ids and the exact total) for
// a short time, and a later page of the same search (same shop, normalised query, status filter and sort)
// reads the set's head and the chunk or two of ids its slice is in instead of evaluating the search
// again. A cache: a set that is missing, expired, or whose chunks are not the head's evaluation is not
// used, and a failed write is logged and costs the next page its shortcut, never this page.
import { randomUUID } from 'node:crypto';
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { logger } from '../observability/powertools';
import { BATCH_BACKOFF, retryUntil } from '../runtime/retry';
import { documentClient, tableName } from './client';
import { BATCH_ATTEMPTS, batchGet, type Item } from './item-reads';
import { emailMatchChunkKey, emailMatchHeadKey, IDS_PER_CHUNK } from './items/email-match-set';
import { TTL_ATTRIBUTE } from './table';
import { deterministicId } from '../domain/deterministic-id';

/**
 * How long a remembered set is used. A walk asks for its next page within seconds; a set holds who
 * matched, so a member who starts matching meanwhile is missing from the walk until it expires (or
 * page 1 is asked again, which always evaluates): shorter than the list's boundaries (5 minutes).
 */
export const MATCH_SET_TTL_SECONDS = 2 * 60;

/** BatchWriteItem's limit. */
const WRITES_PER_CALL = 25;

export interface SearchOf {
  /** The normalised query. */
  emailContains: string;
  status?: string;
  sort: string;
  descending: boolean;
}

/** Names a search within its shop: a digest, so that any query makes a key of fixed length. */
export function searchName(search: SearchOf): string {
  const parts = [search.emailContains, search.status ?? 'all', search.sort, search.descending ? 'desc' : 'asc'];
  return deterministicId({ json: parts }, { as: 'base64url', length: 32 });
}

export interface RememberedSlice {
  /** The slice's customer ids, in the search's order (fewer than asked at the end of the set). */
  ids: string[];
  /** The matches of the evaluation the set holds. */
  total: number;
}

/**
 * The ids `offset` to `offset + limit` of a remembered search, with its total; null when no usable set
 * is remembered (the caller evaluates the search). One BatchGetItem: the head and the chunk or two the
 * slice is in.
 */
export async function readRememberedSlice(
  shopId: string,
  search: string,
  offset: number,
  limit: number,
  idsPerChunk = IDS_PER_CHUNK,
): Promise<RememberedSlice | null> {
  const first = Math.floor(offset / idsPerChunk);
  const last = Math.floor((offset + limit - 1) / idsPerChunk);
  const chunkKeys = Array.from({ length: last - first + 1 }, (_, index) => emailMatchChunkKey(shopId, search, first + index));
  const [head, ...chunks] = await readInOrder([emailMatchHeadKey(shopId, search), ...chunkKeys]);
  const nowSeconds = Math.floor(Date.now() / 1000);
  // An expired set the table's TTL has not deleted yet is absent.
  if (!head || Number(head[TTL_ATTRIBUTE] ?? 0) <= nowSeconds || Number(head.ids_per_chunk) !== idsPerChunk) return null;
  const total = Number(head.total);
  if (offset >= total) return { ids: [], total };
  // The set's chunks the slice is in (it may reach past the last one).
  const needed = chunks.slice(0, Math.min(last, Math.floor((total - 1) / idsPerChunk)) - first + 1);
  // Chunks of the head's evaluation only: another evaluation may be rewriting them, or may have left more.
  if (!needed.every((chunk) => chunk !== undefined && chunk.evaluation === head.evaluation && Array.isArray(chunk.ids))) return null;
  const ids = needed.flatMap((chunk) => chunk!.ids as string[]);
  const start = offset - first * idsPerChunk;
  return { ids: ids.slice(start, start + limit), total };
}

/** Items by key, `undefined` where one is absent. */
async function readInOrder(keys: Array<{ pk: string; sk: string }>): Promise<Array<Item | undefined>> {
  const found = new Map((await batchGet(keys)).map((item) => [`${String(item.pk)}|${String(item.sk)}`, item]));
  return keys.map((key) => found.get(`${key.pk}|${key.sk}`));
}

/**
 * Remembers a search's ordered match set: its chunks and head, 25 a BatchWriteItem, the calls at once.
 * Never throws: a failure is logged and the next page evaluates the search again.
 */
export async function rememberMatchSet(shopId: string, search: string, ids: readonly string[], idsPerChunk = IDS_PER_CHUNK): Promise<void> {
  const ttl = Math.floor(Date.now() / 1000) + MATCH_SET_TTL_SECONDS;
  const evaluation = randomUUID();
  const items: Item[] = [
    { ...emailMatchHeadKey(shopId, search), evaluation, total: ids.length, ids_per_chunk: idsPerChunk, [TTL_ATTRIBUTE]: ttl },
  ];
  for (let chunk = 0; chunk * idsPerChunk < ids.length; chunk += 1) {
    const slice = ids.slice(chunk * idsPerChunk, (chunk + 1) * idsPerChunk);
    items.push({ ...emailMatchChunkKey(shopId, search, chunk), evaluation, ids: slice, [TTL_ATTRIBUTE]: ttl });
  }
  const calls: Item[][] = [];
  for (let start = 0; start < items.length; start += WRITES_PER_CALL) calls.push(items.slice(start, start + WRITES_PER_CALL));
  try {
    await Promise.all(
      calls.map(async (call) => {
        let pending: Array<Record<string, unknown>> = call.map((item) => ({ PutRequest: { Item: item } }));
        const written = await retryUntil(BATCH_ATTEMPTS, BATCH_BACKOFF, async () => {
          const result = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
          pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
          return pending.length === 0 ? true : undefined;
        });
        if (!written) throw new Error('BatchWrite left remembered matches unprocessed after retries');
      }),
    );
  } catch (error) {
    logger.warn('Could not remember the e-mail search matches', { error: error as Error });
  }
}
