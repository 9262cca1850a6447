// The members whose normalised e-mail contains a string, found through the trigram postings
// (items/email-gram.ts, docs/architecture.md#e-mail-search) in time proportional to what the rarest grams
// hold: the first page of a few grams' postings at once, then only as far as the smallest goes, each
// candidate checked against the address its posting carries. Null when the index cannot answer cheaply
// (a query shorter than a gram, a shop whose index marker is not written yet, grams common enough that
// the list index's scan costs less): the caller then scans, which answers the same.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { type Item, queryAll } from './items';
import { emailGramPartition, emailIndexMarkerKey, GRAM_LENGTH, gramsOf, longEmailPartition } from './items/email-gram';
import { counterAttribute, shopCountersKey } from './items/shop';

/** Grams whose postings are read: enough to meet a rare one in a typical query, few enough to stay cheap. */
export const PROBED_GRAMS = 6;
/** Postings read per gram in the first, parallel round. */
export const FIRST_PAGE = 100;
/** The most postings one gram's partition is read to before the scan is cheaper (see `candidateBudget`). */
const MAX_PAGE = 1_000;

/**
 * Characters by how often they occur in addresses, commonest first: a gram of rarer characters (digits,
 * `+`, `_`, letters such as q, x, z, any non-Latin character) is likely to hold fewer members.
 */
const COMMON = 'eaoinrmlst.c@hdgupbkyfvwj';

function rarity(gram: string): number {
  return Array.from(gram).reduce((sum, char) => {
    const index = COMMON.indexOf(char);
    return sum + (index < 0 ? COMMON.length + 10 : index);
  }, 0);
}

/** The grams a search reads, rarest-looking first (ties: first in the query). */
export function probedGrams(query: string): string[] {
  const grams = gramsOf(query);
  return grams
    .map((gram, position) => ({ gram, position, rarity: rarity(gram) }))
    .sort((a, b) => b.rarity - a.rarity || a.position - b.position)
    .slice(0, PROBED_GRAMS)
    .map(({ gram }) => gram);
}

/**
 * Candidates one gram may hold before the list index's scan costs less. A candidate that matches costs
 * its profile read (BatchGetItem, about half a read unit each), a list index entry about 1/60 of one: the
 * index answers while the smallest gram holds fewer than about 1 in 30 of the shop's members, and always
 * up to 200.
 */
export function candidateBudget(shopMembers: number): number {
  return Math.max(200, Math.ceil(shopMembers / 30));
}

/** The shop's members of both statuses, from its counters (eventually consistent: it only sizes the budget). */
export async function shopMemberCount(shopId: string): Promise<number> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: shopCountersKey(shopId) }));
  const item = result.Item ?? {};
  return Number(item[counterAttribute('member')] ?? 0) + Number(item[counterAttribute('excluded')] ?? 0);
}

const readyShops = new Set<string>();

/** Whether the shop's postings are complete (its index marker is written); a yes is kept for the process's life. */
export async function emailIndexReady(shopId: string): Promise<boolean> {
  if (readyShops.has(shopId)) return true;
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: emailIndexMarkerKey(shopId) }));
  if (!result.Item) return false;
  readyShops.add(shopId);
  return true;
}

/** Forgets the kept answers (tests that drop the marker). */
export function forgetEmailIndexReadiness(): void {
  readyShops.clear();
}

interface GramRead {
  items: Item[];
  startKey: Record<string, unknown> | undefined;
  done: boolean;
}

async function readGram(pk: string, read: GramRead, limit: number): Promise<GramRead> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'sk, email_lc',
      ExclusiveStartKey: read.startKey,
      Limit: limit,
    }),
  );
  const items = [...read.items, ...((page.Items ?? []) as Item[])];
  return { items, startKey: page.LastEvaluatedKey, done: page.LastEvaluatedKey === undefined };
}

export interface IndexedMatches {
  /** The customer ids whose address contains the query, in no particular order. */
  ids: string[];
  /** Postings read. */
  entriesRead: number;
}

/**
 * The members of `shopId` whose normalised e-mail contains `query` (already normalised), or null when
 * the scan should answer. `shopMembers` (both statuses) sizes the budget.
 */
export async function findByEmailIndex(shopId: string, query: string, shopMembers: () => Promise<number>): Promise<IndexedMatches | null> {
  if (Array.from(query).length < GRAM_LENGTH) return null;
  if (!(await emailIndexReady(shopId))) return null;
  const grams = probedGrams(query);
  const partitions = grams.map((gram) => emailGramPartition(shopId, gram));
  const start: GramRead = { items: [], startKey: undefined, done: false };
  const [long, members, ...first] = await Promise.all([
    queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': longEmailPartition(shopId) } }),
    shopMembers(),
    ...partitions.map((pk) => readGram(pk, start, FIRST_PAGE)),
  ]);
  let reads = first;
  const budget = candidateBudget(members);
  let limit = FIRST_PAGE;
  // Every gram holds more than read so far: go on with all of them, twice as far each round, until one ends.
  while (!reads.some((read) => read.done)) {
    const read = Math.min(...reads.map((one) => one.items.length));
    if (read >= budget) return null;
    limit = Math.min(limit * 2, MAX_PAGE);
    const step = Math.min(limit, budget - read);
    reads = await Promise.all(reads.map((read, index) => readGram(partitions[index]!, read, step)));
  }
  const smallest = reads.filter((read) => read.done).sort((a, b) => a.items.length - b.items.length)[0]!;
  if (smallest.items.length > budget) return null;
  const ids = [...smallest.items, ...long]
    .filter((item) => typeof item.email_lc === 'string' && item.email_lc.includes(query))
    .map((item) => String(item.sk));
  return { ids: [...new Set(ids)], entriesRead: long.length + reads.reduce((sum, read) => sum + read.items.length, 0) };
}
