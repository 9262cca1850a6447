// The members whose normalised e-mail contains a string, found through the trigram postings
// (items/email-gram.ts, docs/architecture.md#e-mail-search) in time proportional to what the rarest grams
// hold: the first page of a few grams' postings at once, then only as far as the smallest goes, each
// candidate checked against the address its posting carries. Null when the index cannot answer cheaply
// (a query shorter than a gram, a shop whose index marker is not written yet, grams common enough that
// the list index's scan costs less): the caller then scans, which answers the same.
import { GetCommand, QueryCommand, type QueryCommandOutput } from '@aws-sdk/lib-dynamodb';
import { type CustomerRecord, LOYALTY_STATUSES, type LoyaltyStatus } from '../domain/customer';
import { documentClient, tableName } from './client';
import { batchGetAll, type Item, QUERY_CALL_LIMIT, queryAll } from './item-reads';
import { customerKey, customerListPartition, customerOfKey, normalisedEmail, storedCustomerOf } from './items/customer-profile';
import { emailGramPartition, emailIndexMarkerKey, GRAM_LENGTH, gramsOf, longEmailPartition } from './items/email-gram';
import { counterAttribute, shopCountersKey } from './items/shop';

/** The fewest candidates the index answers from, whatever the shop's size. */
const MIN_BUDGET = 200;

/** Grams whose postings are read: enough to meet a rare one in a typical query, few enough to stay cheap. */
export const PROBED_GRAMS = 6;
/**
 * Postings read per gram in the first, parallel round: one more than the smallest budget, so that in a
 * shop of up to 6 000 members (budget 200) the first round alone tells a broad search from one the
 * index answers, and the scan follows it directly.
 */
export const FIRST_PAGE = MIN_BUDGET + 1;

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
  return Math.max(MIN_BUDGET, Math.ceil(shopMembers / 30));
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

/** How much further each counting round reads than the postings read so far. */
const COUNT_GROWTH = 4;

interface GramRead {
  pk: string;
  /** The postings of the first round. */
  items: Item[];
  /** Where the first round stopped (none: the gram ended there). */
  startKey: Record<string, unknown> | undefined;
  /** Postings known so far: the first round's and those counted after them. */
  seen: number;
  /** Where counting stopped. */
  countKey: Record<string, unknown> | undefined;
  done: boolean;
}

async function firstPage(pk: string): Promise<GramRead> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': pk },
      ProjectionExpression: 'sk, email_lc',
      Limit: FIRST_PAGE,
    }),
  );
  const items = (page.Items ?? []) as Item[];
  const done = page.LastEvaluatedKey === undefined;
  return { pk, items, startKey: page.LastEvaluatedKey, seen: items.length, countKey: page.LastEvaluatedKey, done };
}

/**
 * Counts a gram's postings on from where its count stopped, up to `upTo` in all (Select COUNT: nothing
 * but the number comes back). Done when the gram ends before that.
 */
async function countOn(read: GramRead, upTo: number): Promise<GramRead> {
  let { seen, countKey } = read;
  while (seen < upTo && countKey) {
    const page = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': read.pk },
        Select: 'COUNT',
        ExclusiveStartKey: countKey,
        Limit: upTo - seen,
      }),
    );
    seen += page.Count ?? 0;
    countKey = page.LastEvaluatedKey;
  }
  return { ...read, seen, countKey, done: countKey === undefined };
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
 *
 * The first round reads the first postings of each probed gram (and the long-address partition, and
 * the shop's size) at once; a gram that ends there gives the candidates. Otherwise the grams are only
 * counted, all at once and each round `COUNT_GROWTH` times further, until one ends: a search whose
 * every gram holds more than the budget is known broad after counting each to the budget, without
 * having read or verified a posting beyond the first round, and the scan answers it. The gram that
 * ended first (the smallest) is then read on from its first round.
 */
export async function findByEmailIndex(shopId: string, query: string, shopMembers: () => Promise<number>): Promise<IndexedMatches | null> {
  if (Array.from(query).length < GRAM_LENGTH) return null;
  if (!(await emailIndexReady(shopId))) return null;
  const partitions = probedGrams(query).map((gram) => emailGramPartition(shopId, gram));
  const [long, members, ...first] = await Promise.all([
    queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': longEmailPartition(shopId) } }),
    shopMembers(),
    ...partitions.map((pk) => firstPage(pk)),
  ]);
  const budget = candidateBudget(members);
  let reads = first;
  let reach = FIRST_PAGE;
  while (!reads.some((read) => read.done)) {
    if (reach > budget) return null;
    reach = Math.min(reach * COUNT_GROWTH, budget + 1);
    reads = await Promise.all(reads.map((read) => countOn(read, reach)));
  }
  const smallest = reads.filter((read) => read.done).sort((a, b) => a.seen - b.seen)[0]!;
  if (smallest.seen > budget) return null;
  const rest = smallest.startKey ? await readOn(smallest.pk, smallest.startKey) : [];
  const counted = reads.reduce((sum, read) => sum + read.seen, 0);
  const ids = [...smallest.items, ...rest, ...long]
    .filter((item) => typeof item.email_lc === 'string' && item.email_lc.includes(query))
    .map((item) => String(item.sk));
  return { ids: [...new Set(ids)], entriesRead: long.length + counted + rest.length };
}

/** A gram's postings after `startKey`, to its end. */
async function readOn(pk: string, startKey: Record<string, unknown>): Promise<Item[]> {
  const items: Item[] = [];
  let key: Record<string, unknown> | undefined = startKey;
  while (key) {
    const page: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': pk },
        ProjectionExpression: 'sk, email_lc',
        ExclusiveStartKey: key,
        Limit: QUERY_CALL_LIMIT,
      }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    key = page.LastEvaluatedKey;
  }
  return items;
}

// ---- a search evaluated whole, in the list's order ------------------------------------------------------

export interface EmailSearchMatches {
  /** The matching customer ids in the list's order. */
  ids: string[];
  /** Their profiles, when the evaluation read them. */
  profiles: Map<string, Item> | null;
  entriesRead: number;
}

/**
 * Every match of an e-mail search, in order: through the e-mail index when it can answer (its matches'
 * profiles give the order, the status filter and the total), else by reading every key of the
 * partitions (the filter runs on the index's projected e-mail).
 */
export async function evaluateEmailSearch(
  shopId: string,
  query: { emailContains?: string; descending: boolean },
  indexName: string,
  attribute: string,
  statuses: readonly LoyaltyStatus[],
): Promise<EmailSearchMatches> {
  const emailContains = query.emailContains!;
  const indexed = await findByEmailIndex(shopId, emailContains, () => shopMemberCount(shopId));
  if (indexed) {
    const profiles = await batchGetAll(indexed.ids.map((id) => customerKey(shopId, id)));
    const matched = profiles
      .map((item) => ({ item, record: storedCustomerOf(item).record }))
      // The profile's own address decides: a posting is only where to look.
      .filter(({ record }) => statuses.includes(record.status) && normalisedEmail(record.email).includes(emailContains))
      .sort((a, b) => compareRecords(attribute as keyof CustomerRecord, query.descending)(a.record, b.record));
    return {
      ids: matched.map(({ record }) => record.platform_customer_id),
      profiles: new Map(matched.map(({ item, record }) => [record.platform_customer_id, item])),
      entriesRead: indexed.entriesRead + profiles.length,
    };
  }

  const partitions = await Promise.all(statuses.map((status) => scanListPartition(shopId, status, indexName, attribute, emailContains)));
  const entries = partitions.flat().map((item) => ({
    id: customerOfKey({ pk: String(item.pk) }),
    status: statusOfListPartition(String(item.list_pk)),
    value: item[attribute] as string | number,
  }));
  // Sorted once, in the order the index's matches get (sort value, status, customer id).
  entries.sort(compareEntries(query.descending));
  return { ids: entries.map((entry) => entry.id), profiles: null, entriesRead: partitions.reduce((sum, items) => sum + items.length, 0) };
}

/**
 * The entries of one list partition whose projected address contains `emailContains`, each with its
 * key, status partition and sort value only. A bounded number of entries per call: DynamoDB Local
 * reads `Limit` rows for every call, so a filtered read without one made each call re-read the rest
 * of the partition (docs/performance.md#e-mail-search); on DynamoDB a call reads at most 1 MB anyway.
 */
async function scanListPartition(
  shopId: string,
  status: LoyaltyStatus,
  indexName: string,
  attribute: string,
  emailContains: string,
): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page: QueryCommandOutput = await documentClient().send(
      new QueryCommand({
        TableName: tableName(),
        IndexName: indexName,
        KeyConditionExpression: 'list_pk = :pk',
        FilterExpression: 'contains(email_lc, :email)',
        ProjectionExpression: 'pk, list_pk, #value',
        ExpressionAttributeNames: { '#value': attribute },
        ExpressionAttributeValues: { ':pk': customerListPartition(shopId, status), ':email': emailContains },
        ExclusiveStartKey: startKey,
        Limit: QUERY_CALL_LIMIT,
      }),
    );
    items.push(...((page.Items ?? []) as Item[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

const statusOfListPartition = (listPk: string) => listPk.slice(listPk.lastIndexOf('#') + 1) as LoyaltyStatus;

interface ListEntry {
  id: string;
  status: LoyaltyStatus;
  value: string | number;
}

/** `compareRecords` over list entries. */
function compareEntries(descending: boolean): (a: ListEntry, b: ListEntry) => number {
  const direction = descending ? -1 : 1;
  return (a, b) => {
    if (a.value !== b.value) return a.value < b.value ? -direction : direction;
    if (a.status !== b.status) return LOYALTY_STATUSES.indexOf(a.status) - LOYALTY_STATUSES.indexOf(b.status);
    return a.id === b.id ? 0 : a.id < b.id ? -direction : direction;
  };
}

/**
 * The list's order for records found through the e-mail index: the sort attribute, then the status
 * (members first, as the merged partitions), then the customer id, all in the list's direction.
 */
export function compareRecords(attribute: keyof CustomerRecord, descending: boolean): (a: CustomerRecord, b: CustomerRecord) => number {
  const direction = descending ? -1 : 1;
  const rank = (record: CustomerRecord) => LOYALTY_STATUSES.indexOf(record.status);
  return (a, b) => {
    const x = a[attribute] as string | number;
    const y = b[attribute] as string | number;
    if (x !== y) return x < y ? -direction : direction;
    if (a.status !== b.status) return rank(a) - rank(b);
    const p = a.platform_customer_id;
    const q = b.platform_customer_id;
    return p === q ? 0 : p < q ? -direction : direction;
  };
}
