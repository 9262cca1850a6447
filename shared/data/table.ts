// The single-table definition: key attributes, indexes and TTL. The CDK stack, the local twin and the
// tests all create the table from this one module, so the shapes can never drift apart. And the table's
// raw writes: one item's, and the one transaction, sent from here alone (commit.ts is their one caller).
import type { CreateTableCommandInput } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import type { TransactItem } from './write';

export type KeyType = 'S' | 'N';

export interface IndexKey {
  name: string;
  type: KeyType;
}

export interface GlobalIndexDefinition {
  indexName: string;
  partitionKey: IndexKey;
  sortKey?: IndexKey;
  /** 'ALL' or the non-key attributes to project (KEYS_ONLY plus these). */
  projection: 'ALL' | 'KEYS_ONLY' | readonly string[];
}

export interface LocalIndexDefinition {
  indexName: string;
  sortKey: IndexKey;
  projection: 'ALL';
}

export const PARTITION_KEY = 'pk';
export const SORT_KEY = 'sk';
export const TTL_ATTRIBUTE = 'ttl';

/** Customer list indexes: partition `SHOP#<shop>#LIST#<status>`, sorted by the list's sort field. */
const listIndex = (indexName: string, sortKey: IndexKey): GlobalIndexDefinition => ({
  indexName,
  partitionKey: { name: 'list_pk', type: 'S' },
  sortKey,
  // email_lc lets a filter[email] scan run on the index alone, without reading whole profiles.
  projection: ['email_lc'],
});

export const GLOBAL_INDEXES = {
  customersByCreatedAt: listIndex('gsi_customers_created_at', { name: 'created_at', type: 'S' }),
  customersByPoints: listIndex('gsi_customers_points', { name: 'current_points', type: 'N' }),
  customersByLifetimePoints: listIndex('gsi_customers_lifetime_points', { name: 'lifetime_points', type: 'N' }),
  customersByRedeemedPoints: listIndex('gsi_customers_redeemed_points', { name: 'redeemed_points', type: 'N' }),
  /**
   * The staff's member list by last activity, one partition per shop, tier and status
   * (`SHOP#<shop>#TIER#<tier or ->#<status>`), sorted by `last_activity_at` (the last earning or spending,
   * else the enrolment): what `GET /admin/api/members` reads to sort by activity or to filter by tier
   * (docs/admin.md#the-member-list). Every profile carries both attributes (`deriveProfile`).
   */
  customersByTierActivity: {
    indexName: 'gsi_customers_tier_activity',
    partitionKey: { name: 'tier_list_pk', type: 'S' },
    sortKey: { name: 'last_activity_at', type: 'S' },
    projection: 'KEYS_ONLY',
  },
  /** Exact e-mail lookup (`SHOP#<shop>#EMAIL#<lower-case email>`), whole profile projected: one call. */
  customersByEmail: {
    indexName: 'gsi_customers_email',
    partitionKey: { name: 'email_pk', type: 'S' },
    projection: 'ALL',
  },
  /**
   * Purchases not settled yet (pending, or refunded with a code that may still exist on the
   * platform), oldest first: what the reconciler reads. Sparse and small: an entry leaves the index
   * as soon as it is settled.
   */
  unsettledPurchases: {
    indexName: 'gsi_unsettled_purchases',
    partitionKey: { name: 'unsettled_pk', type: 'S' },
    sortKey: { name: 'unsettled_since', type: 'S' },
    projection: 'ALL',
  },
  /**
   * Work the scheduled jobs must do, by due time: `SHOP#<shop>#DUE#<kind>`, sorted by `<due time>#<id>`.
   * Sparse: an item carries the two attributes only while something is due on it (a pending entry's
   * approval, a batch's reminder or expiry, an inactive balance, an active code, a birthday), so a job
   * reads only what is due. Keys only: the job reads the item itself consistently before acting.
   */
  dueWork: {
    indexName: 'gsi_due',
    partitionKey: { name: 'due_pk', type: 'S' },
    sortKey: { name: 'due_at', type: 'S' },
    projection: 'KEYS_ONLY',
  },
} as const satisfies Record<string, GlobalIndexDefinition>;

/**
 * Sparse local indexes over one customer's history items: each sort attribute exists only on the
 * item kind it sorts, so querying an index returns only that kind. LSIs cannot be added after the
 * table exists, which is why all five are declared from the start.
 */
export const LOCAL_INDEXES = {
  earningByCreatedAt: { indexName: 'lsi_earning_created_at', sortKey: { name: 'earn_created_at', type: 'S' }, projection: 'ALL' },
  earningByPoints: { indexName: 'lsi_earning_points', sortKey: { name: 'earn_points', type: 'N' }, projection: 'ALL' },
  earningByPointsGivenAt: { indexName: 'lsi_earning_points_given_at', sortKey: { name: 'earn_given_at', type: 'S' }, projection: 'ALL' },
  rewardsByCreatedAt: { indexName: 'lsi_rewards_created_at', sortKey: { name: 'redeem_created_at', type: 'S' }, projection: 'ALL' },
  rewardsByPointsSpent: { indexName: 'lsi_rewards_points_spent', sortKey: { name: 'redeem_points_spent', type: 'N' }, projection: 'ALL' },
} as const satisfies Record<string, LocalIndexDefinition>;

function projectionOf(projection: GlobalIndexDefinition['projection']) {
  if (projection === 'ALL' || projection === 'KEYS_ONLY') return { ProjectionType: projection };
  return { ProjectionType: 'INCLUDE' as const, NonKeyAttributes: [...projection] };
}

/**
 * The table's stream: each item's new image, so the domain events recorded with their change
 * (items/domain-event.ts) are delivered from the stream; the authorizer cache's flusher reads only the keys.
 */
export const STREAM_VIEW_TYPE = 'NEW_IMAGE' as const;

/** CreateTable input for DynamoDB Local and tests (the CDK stack maps the same definitions). */
export function createTableInput(tableName: string): CreateTableCommandInput {
  const attributes = new Map<string, KeyType>([
    [PARTITION_KEY, 'S'],
    [SORT_KEY, 'S'],
  ]);
  const globals = Object.values(GLOBAL_INDEXES) as GlobalIndexDefinition[];
  const locals = Object.values(LOCAL_INDEXES) as LocalIndexDefinition[];
  for (const index of globals) {
    attributes.set(index.partitionKey.name, index.partitionKey.type);
    if (index.sortKey) attributes.set(index.sortKey.name, index.sortKey.type);
  }
  for (const index of locals) attributes.set(index.sortKey.name, index.sortKey.type);

  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST',
    StreamSpecification: { StreamEnabled: true, StreamViewType: STREAM_VIEW_TYPE },
    AttributeDefinitions: [...attributes].map(([AttributeName, AttributeType]) => ({ AttributeName, AttributeType })),
    KeySchema: [
      { AttributeName: PARTITION_KEY, KeyType: 'HASH' },
      { AttributeName: SORT_KEY, KeyType: 'RANGE' },
    ],
    GlobalSecondaryIndexes: globals.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: index.partitionKey.name, KeyType: 'HASH' as const },
        ...(index.sortKey ? [{ AttributeName: index.sortKey.name, KeyType: 'RANGE' as const }] : []),
      ],
      Projection: projectionOf(index.projection),
    })),
    LocalSecondaryIndexes: locals.map((index) => ({
      IndexName: index.indexName,
      KeySchema: [
        { AttributeName: PARTITION_KEY, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey.name, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
  };
}

/**
 * The table's writes as DynamoDB takes them, sent from here alone: one item's put, update or delete (its
 * `ReturnValues` asked for when `returnItem`), and the one transaction (commit.ts decides what either means).
 */
export async function sendItemWrite(request: TransactItem, returnItem = false): Promise<Record<string, unknown> | undefined> {
  const { Put, Update, Delete } = request;
  const returned = returnItem ? { ReturnValues: 'ALL_NEW' as const } : {};
  if (Put) return (await documentClient().send(new PutCommand(Put))).Attributes;
  if (Update) return (await documentClient().send(new UpdateCommand({ ...Update, ...returned }))).Attributes;
  if (Delete) return (await documentClient().send(new DeleteCommand(Delete))).Attributes;
  throw new Error('A condition check writes nothing alone: it belongs in a transaction');
}

export async function sendTransaction(items: readonly TransactItem[], token: string): Promise<void> {
  await documentClient().send(new TransactWriteCommand({ ClientRequestToken: token, TransactItems: [...items] }));
}
