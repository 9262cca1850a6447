// Customer profiles: lookups, the enrol and update transactions, and the sorted customer list.
import { randomUUID } from 'node:crypto';
import {
  GetCommand,
  QueryCommand,
  type QueryCommandOutput,
  TransactWriteCommand,
  type TransactWriteCommandInput,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord, MemberChanges } from '../domain/customer';
import type { EarningEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { cancellationReasons, cancelledItem, isTransactionConflict, type Refusal as RefusalOf, refusalOf } from './dynamodb-errors';
import { readRememberedSlice, rememberMatchSet, searchName } from './email-match-set';
import { findByEmailIndex, shopMemberCount } from './email-search';
import { batchGet, batchGetAll, countAll, type Item, QUERY_CALL_LIMIT } from './items';
import { LOYALTY_STATUSES, type LoyaltyStatus } from '../domain/customer';
import { listStatuses, readListPage } from './customer-list';
import {
  customerEmailPartition,
  customerItem,
  customerKey,
  customerListPartition,
  customerOfKey,
  emailAttributes,
  normalisedEmail,
  type StoredCustomer,
  storedCustomerOf,
} from './items/customer-profile';
import { earningEntryItem } from './items/earning-entry';
import { erasureTombstoneKey } from './items/erasure-tombstone';
import { referralCodeItem } from './items/referral';
import { counterAttribute, shopCountersKey } from './items/shop';
import { GLOBAL_INDEXES } from './table';
import { birthdayTimerWrites, emailPostingWrites, profilePutAtVersion } from './transactions';

export type { StoredCustomer };

export type CustomerSortField = 'created_at' | 'points' | 'lifetime_points' | 'redeemed_points';

const SORT_INDEX: Record<CustomerSortField, { indexName: string; attribute: string }> = {
  created_at: { indexName: GLOBAL_INDEXES.customersByCreatedAt.indexName, attribute: 'created_at' },
  points: { indexName: GLOBAL_INDEXES.customersByPoints.indexName, attribute: 'current_points' },
  lifetime_points: { indexName: GLOBAL_INDEXES.customersByLifetimePoints.indexName, attribute: 'lifetime_points' },
  redeemed_points: { indexName: GLOBAL_INDEXES.customersByRedeemedPoints.indexName, attribute: 'redeemed_points' },
};

export async function getCustomer(shopId: string, customerId: string, consistent = false): Promise<StoredCustomer | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: customerKey(shopId, customerId), ConsistentRead: consistent }),
  );
  return result.Item ? storedCustomerOf(result.Item) : null;
}

export async function findCustomerByEmail(shopId: string, email: string): Promise<StoredCustomer | null> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GLOBAL_INDEXES.customersByEmail.indexName,
      KeyConditionExpression: 'email_pk = :pk',
      ExpressionAttributeValues: { ':pk': customerEmailPartition(shopId, email) },
      Limit: 2,
    }),
  );
  const item = result.Items?.[0];
  return item ? storedCustomerOf(item) : null;
}

/** Why an enrol transaction was refused. */
export type CreateCustomerOutcome = 'created' | 'customer_exists' | 'referral_code_taken' | 'erased';

/** Which of these customers (at most 100) have a profile, read consistently: one BatchGetItem a try. */
export async function enrolledCustomerIds(shopId: string, customerIds: readonly string[]): Promise<Set<string>> {
  if (customerIds.length > 100) throw new RangeError('At most 100 customers a read');
  const found = await batchGet(
    customerIds.map((id) => customerKey(shopId, id)),
    { consistent: true },
  );
  return new Set(found.map((item) => String(item.platform_customer_id)));
}

/**
 * Enrols a customer atomically: profile, referral-code guard, shop counter and e-mail search postings
 * change together or not at all, and only if the customer does not exist yet. `emailPostingsWritten`:
 * the postings were put before (`putEmailPostings`, a bulk enrolment), so the transaction leaves them out.
 */
export async function createCustomer(
  record: CustomerRecord,
  options: {
    countInShop?: boolean;
    entries?: EarningEntry[];
    /** The e-mail postings were put before the transaction (an import's or a configuration's batch). */
    emailPostingsWritten?: boolean;
    /**
     * An import (`config apply`, the twin's start): refused ('erased') while the customer's erasure tombstone
     * stands. Any other enrolment is the customer enrolled anew and clears the tombstone in the same transaction.
     */
    unlessErased?: boolean;
  } = {},
): Promise<CreateCustomerOutcome> {
  const counterUpdate = {
    Update: {
      TableName: tableName(),
      Key: shopCountersKey(record.shop_id),
      UpdateExpression: 'ADD #count :one',
      ExpressionAttributeNames: { '#count': counterAttribute(record.status) },
      ExpressionAttributeValues: { ':one': 1 },
    },
  };
  const input: TransactWriteCommandInput = {
    TransactItems: [
      {
        Put: {
          TableName: tableName(),
          Item: customerItem(record, 1),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      {
        Put: {
          TableName: tableName(),
          Item: referralCodeItem(record.shop_id, record.referral_code, record.platform_customer_id),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      ...(options.countInShop === false ? [] : [counterUpdate]),
      ...birthdayTimerWrites(record, null),
      // The e-mail search postings of the address.
      ...(options.emailPostingsWritten ? [] : emailPostingWrites(record.shop_id, record.platform_customer_id, null, record.email)),
      // Entries awarded on enrolment (signup points) commit with the profile or not at all.
      ...(options.entries ?? []).map((entry) => ({
        Put: {
          TableName: tableName(),
          Item: earningEntryItem(record.shop_id, record.platform_customer_id, entry),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      })),
      // Last, so its place in the cancellation reasons is known: an erasure holds against an import.
      options.unlessErased
        ? {
            ConditionCheck: {
              TableName: tableName(),
              Key: erasureTombstoneKey(record.shop_id, record.platform_customer_id),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          }
        : { Delete: { TableName: tableName(), Key: erasureTombstoneKey(record.shop_id, record.platform_customer_id) } },
    ],
  };
  try {
    // One token per call: an SDK retry of a commit whose answer was lost succeeds instead of being refused.
    await documentClient().send(new TransactWriteCommand({ ...input, ClientRequestToken: randomUUID() }));
    return 'created';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons?.[0] === 'ConditionalCheckFailed') return 'customer_exists';
    if (reasons?.[1] === 'ConditionalCheckFailed') return 'referral_code_taken';
    if (options.unlessErased && reasons?.[input.TransactItems!.length - 1] === 'ConditionalCheckFailed') return 'erased';
    throw error;
  }
}

/** A write DynamoDB refused: `current` is the profile as it is now when DynamoDB returned it (null: no profile). */
export type Refusal = RefusalOf<StoredCustomer>;

export type CustomerWrite = { written: true; record: CustomerRecord } | ({ written: false } & Refusal);

/**
 * Applies a member's field changes. Changes that touch only the profile (the anniversary date, a date of
 * birth or status the member already has, the platform's e-mail and names) are one UpdateItem that sets
 * those fields alone, conditioned only on the status and date of birth it was decided on: it never refuses
 * nor is refused by a points write, and answers the profile as written. A new date of birth (the birthday
 * timer follows it) or status (the shop counters, the list partition and the due work follow it) is one
 * transaction conditioned on the profile's version, as every write of the whole profile. Refused when
 * another writer got there first, with the profile as it is now when DynamoDB returned it.
 */
export async function updateCustomer(current: StoredCustomer, changes: MemberChanges, now: string): Promise<CustomerWrite> {
  const { record } = current;
  const otherItems =
    (changes.status !== undefined && changes.status !== record.status) ||
    (changes.date_of_birth !== undefined && changes.date_of_birth !== record.date_of_birth);
  return otherItems ? updateWithOtherItems(current, changes, now) : updateProfileFields(current, changes, now);
}

/** The UpdateItem of a member's own fields. */
interface ProfileUpdate {
  TableName: string;
  Key: { pk: string; sk: string };
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD';
}

async function updateProfileFields(current: StoredCustomer, changes: MemberChanges, now: string): Promise<CustomerWrite> {
  const { record } = current;
  const names: Record<string, string> = { '#version': 'version', '#updated': 'updated_at' };
  const values: Record<string, unknown> = { ':one': 1, ':now': now };
  const sets = ['#updated = :now'];
  const removes: string[] = [];
  const conditions = ['attribute_exists(pk)'];
  const set = (attribute: string, value: unknown) => {
    const index = sets.length;
    names[`#f${index}`] = attribute;
    values[`:f${index}`] = value;
    sets.push(`#f${index} = :f${index}`);
  };
  // What decided that no other item changes: the status and the date of birth as read.
  if (changes.status !== undefined) {
    names['#status'] = 'status';
    values[':status'] = record.status;
    conditions.push('#status = :status');
  }
  if (changes.date_of_birth !== undefined) {
    names['#birth'] = 'date_of_birth';
    if (record.date_of_birth === null) {
      values[':null'] = 'NULL';
      conditions.push('(attribute_not_exists(#birth) OR attribute_type(#birth, :null))');
    } else {
      values[':birth'] = record.date_of_birth;
      conditions.push('#birth = :birth');
    }
  }
  for (const field of ['anniversary_date', 'first_name', 'last_name', 'platform_updated_at'] as const) {
    if (changes[field] !== undefined) set(field, changes[field]);
  }
  if (changes.email !== undefined) {
    // The e-mail index follows the address, derived as for a put of the whole profile.
    const { email_lc: lower, email_pk: emailPk } = emailAttributes(record.shop_id, changes.email);
    set('email', changes.email);
    set('email_lc', lower);
    if (emailPk) set('email_pk', emailPk);
    else removes.push('email_pk');
  }
  const update: ProfileUpdate = {
    TableName: tableName(),
    Key: customerKey(record.shop_id, record.platform_customer_id),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''} ADD #version :one`,
    ConditionExpression: conditions.join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
  const postings =
    changes.email === undefined ? [] : emailPostingWrites(record.shop_id, record.platform_customer_id, record.email, changes.email);
  if (postings.length > 0) return updateWithPostings(current, update, postings);
  try {
    const result = await documentClient().send(new UpdateCommand({ ...update, ReturnValues: 'ALL_NEW' }));
    return { written: true, record: storedCustomerOf(result.Attributes!).record };
  } catch (error) {
    return { written: false, ...refusalOf(error, storedCustomerOf) };
  }
}

/**
 * A refused transaction whose first item is the profile: the profile it lost to (a changed version or
 * address), a conflict with another transaction, or the error itself.
 */
function refusedProfileWrite(error: unknown): CustomerWrite {
  if (cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') {
    const old = cancelledItem(error, 0);
    return { written: false, conflict: false, current: old ? storedCustomerOf(old) : null };
  }
  if (isTransactionConflict(error)) return { written: false, conflict: true };
  throw error;
}

/**
 * A new address: the same update of the fields, conditioned also on the address it replaces (the postings
 * deleted are that address's), in one transaction with the postings; then the profile as written, read
 * consistently (a transaction answers no item).
 */
async function updateWithPostings(
  current: StoredCustomer,
  update: ProfileUpdate,
  postings: ReturnType<typeof emailPostingWrites>,
): Promise<CustomerWrite> {
  const { record } = current;
  const guarded = {
    ...update,
    ConditionExpression: `${update.ConditionExpression} AND #emailLc = :emailLc`,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, '#emailLc': 'email_lc' },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':emailLc': normalisedEmail(record.email) },
  };
  try {
    await documentClient().send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: [{ Update: guarded }, ...postings],
      }),
    );
  } catch (error) {
    return refusedProfileWrite(error);
  }
  const written = await getCustomer(record.shop_id, record.platform_customer_id, true);
  if (!written) return { written: false, conflict: false, current: null };
  return { written: true, record: written.record };
}

async function updateWithOtherItems(current: StoredCustomer, changes: MemberChanges, now: string): Promise<CustomerWrite> {
  const { record } = current;
  const next: CustomerRecord = { ...record, ...changes, updated_at: now };
  const transactItems: NonNullable<TransactWriteCommandInput['TransactItems']> = [profilePutAtVersion(current, next, { returnOld: true })];
  transactItems.push(...birthdayTimerWrites(next, record.date_of_birth));
  transactItems.push(...emailPostingWrites(record.shop_id, record.platform_customer_id, record.email, next.email));
  if (changes.status && changes.status !== record.status) {
    transactItems.push({
      Update: {
        TableName: tableName(),
        Key: shopCountersKey(record.shop_id),
        UpdateExpression: 'ADD #from :minus, #to :plus',
        ExpressionAttributeNames: { '#from': counterAttribute(record.status), '#to': counterAttribute(changes.status) },
        ExpressionAttributeValues: { ':minus': -1, ':plus': 1 },
      },
    });
  }
  try {
    await documentClient().send(new TransactWriteCommand({ ClientRequestToken: randomUUID(), TransactItems: transactItems }));
    return { written: true, record: next };
  } catch (error) {
    return refusedProfileWrite(error);
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

interface EmailSearchMatches {
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
async function evaluateEmailSearch(
  shopId: string,
  query: CustomerListQuery,
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
