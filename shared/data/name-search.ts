// The staff's search by name (`GET /admin/api/members?filter[name]=…`, docs/admin.md#search-by-name): the
// members one of whose name words starts with each word of the query, in the order of the postings (the
// matched word, then the customer id), a page at a time. A page reads at most `size + 1` postings of the
// query's longest word (one Query's `begins_with` on their sort key) and the profiles they name: O(page),
// whatever the shop's size. Each candidate is checked against its profile's own names, so a posting is only
// where to look. Also the index's upkeep outside member writes: its marker and the backfill of a shop's
// members enrolled before it existed.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import { documentClient, tableName } from './client';
import { commitOne } from './commit';
import { backfillMemberPostings, type BackfillProgress } from './member-postings-backfill';
import { batchGet, type Item } from './item-reads';
import { checkProfileNames, customerKey, storedCustomerOf } from './items/customer-profile';
import {
  MAX_WORD_LENGTH,
  markNamesIndexed,
  nameIndexMarkerKey,
  namePartitionOf,
  nameWordsOf,
  postingOf,
  postNames,
  wordsOf,
} from './items/name-token';

/** The most words a query may have. */
export const MAX_QUERY_WORDS = 6;

export interface NameSearchPage {
  records: CustomerRecord[];
  /** The next page's cursor; null on the last page. */
  nextCursor: string | null;
  /** Postings read, for the tests and the bench. */
  entriesRead: number;
}

/** The query or cursor could not be used: the handler answers 400 with this detail. */
export class NameSearchRefusal extends Error {}

/** The shop's name index is not complete yet (a shop from before it, not backfilled): the handler answers 503. */
export class NameIndexIncomplete extends Error {}

const readyShops = new Set<string>();

/** Whether the shop's name postings are complete (its marker is written); a yes is kept for the process's life. */
export async function nameIndexReady(shopId: string): Promise<boolean> {
  if (readyShops.has(shopId)) return true;
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: nameIndexMarkerKey(shopId) }));
  if (!result.Item) return false;
  readyShops.add(shopId);
  return true;
}

/** Forgets the kept answers (tests that drop the marker). */
export function forgetNameIndexReadiness(): void {
  readyShops.clear();
}

/** The query's words, checked. */
export function queryWords(query: string): string[] {
  const words = wordsOf(query);
  if (words.length === 0) throw new NameSearchRefusal('filter[name] needs a letter or a digit: the start of a first or last name');
  if (words.length > MAX_QUERY_WORDS) throw new NameSearchRefusal(`filter[name] has more than ${MAX_QUERY_WORDS} words`);
  return words;
}

/** The word whose postings are read: the longest (the fewest postings start with it), the first of equals. */
const probeOf = (words: readonly string[]) =>
  words.reduce((best, word) => (Array.from(word).length > Array.from(best).length ? word : best), words[0]!);

function encodeCursor(list: string, key: Item): string {
  return Buffer.from(JSON.stringify({ l: list, k: { pk: key.pk, sk: key.sk } }), 'utf8').toString('base64url');
}

function decodeCursor(text: string, list: string, pk: string, probe: string): { pk: string; sk: string } {
  let parsed: { l?: unknown; k?: { pk?: unknown; sk?: unknown } };
  try {
    if (!/^[A-Za-z0-9_-]{1,2000}$/.test(text)) throw new Error('not base64url');
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as typeof parsed;
  } catch {
    throw new NameSearchRefusal('page[cursor] is not a cursor of this list: pass the next_cursor of the previous page');
  }
  if (parsed.l !== list) {
    throw new NameSearchRefusal('page[cursor] belongs to another list (search or page size changed): start again without it');
  }
  const key = parsed.k;
  if (!key || key.pk !== pk || typeof key.sk !== 'string' || !key.sk.startsWith(probe)) {
    throw new NameSearchRefusal('page[cursor] is not a cursor of this list: pass the next_cursor of the previous page');
  }
  return { pk: key.pk, sk: key.sk };
}

/**
 * Whether a member's names match the query (each query word starts one of their words) through this posting:
 * the first of the member's words the probe starts, so a member whose several words start with it is listed once.
 */
function matchesThrough(record: CustomerRecord, words: readonly string[], probe: string, postedWord: string): boolean {
  const own = nameWordsOf(record);
  if (!words.every((word) => own.some((candidate) => candidate.startsWith(word)))) return false;
  const first = own.filter((candidate) => candidate.startsWith(probe)).sort()[0];
  return first === postedWord;
}

/** One page of the shop's members whose names match `query`. */
export async function searchByName(shopId: string, query: { name: string; size: number; cursor?: string }): Promise<NameSearchPage> {
  const words = queryWords(query.name);
  if (!(await nameIndexReady(shopId))) {
    throw new NameIndexIncomplete(
      `The name index of this shop is not complete yet: an operator runs 'npx loyalty name-index backfill --shop ${shopId}'`,
    );
  }
  const probe = Array.from(probeOf(words)).slice(0, MAX_WORD_LENGTH).join('');
  const pk = namePartitionOf(shopId, probe);
  const list = [shopId, 'name', words.join(' '), query.size].join('|');
  const start = query.cursor !== undefined ? decodeCursor(query.cursor, list, pk, probe) : undefined;
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :probe)',
      ExpressionAttributeValues: { ':pk': pk, ':probe': probe },
      ...(start ? { ExclusiveStartKey: start } : {}),
      Limit: query.size + 1,
    }),
  );
  const postings = (page.Items ?? []) as Item[];
  const taken = postings.slice(0, query.size);
  const more = postings.length > query.size;
  const ids = [...new Set(taken.map((posting) => postingOf(String(posting.sk)).customerId))];
  const profiles = new Map(
    (await batchGet(ids.map((id) => customerKey(shopId, id)))).map((item) => {
      const { record } = storedCustomerOf(item);
      return [record.platform_customer_id, record] as const;
    }),
  );
  const records: CustomerRecord[] = [];
  const listed = new Set<string>();
  for (const posting of taken) {
    const { word, customerId } = postingOf(String(posting.sk));
    const record = profiles.get(customerId);
    if (!record || listed.has(customerId) || !matchesThrough(record, words, probe, word)) continue;
    listed.add(customerId);
    records.push(record);
  }
  return { records, nextCursor: more ? encodeCursor(list, taken.at(-1)!) : null, entriesRead: postings.length };
}

/** Writes the shop's name index marker: every member the shop had before the index now has its postings. */
export async function markNameIndexComplete(shopId: string, now: string): Promise<void> {
  await commitOne(markNamesIndexed(shopId, now, 'backfill'));
}

export type NameBackfillProgress = BackfillProgress;

/**
 * Writes the name postings of every member of the shop (`loyalty name-index backfill`), as the e-mail index's
 * backfill does (shared/data/member-postings-backfill.ts): each member's conditioned on the profile still having
 * the names they were derived from.
 */
export function backfillShopNamePostings(shopId: string, onPage?: (progress: NameBackfillProgress) => void): Promise<NameBackfillProgress> {
  return backfillMemberPostings(
    shopId,
    (customerId, profile) => {
      const { record } = storedCustomerOf(profile);
      return { check: checkProfileNames(shopId, customerId, record), postings: postNames(shopId, customerId, record) };
    },
    'names',
    onPage,
  );
}
