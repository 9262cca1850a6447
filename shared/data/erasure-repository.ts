// Erasure for the platform's privacy webhooks: one member (profile, whole partition, the guards and lookups
// that name it, the shop counters moved in the profile's own transaction) or a whole shop; and the read of
// everything held about a member for a data request. Every step is idempotent, so a redelivery finishes a
// half-done erasure and otherwise changes nothing.
import { randomUUID } from 'node:crypto';
import { GetCommand, PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { publishApiKeyChanges } from './api-key-changes';
import { documentClient, tableName } from './client';
import { shopMemberIdPages } from './customer-list';
import { cancellationReasons, isTransactionConflict, writtenUnlessRefused } from './dynamodb-errors';
import { emailPostingChange } from './items/email-gram';
import { batchDelete, batchGet, forEachPartitionPage, type Item, queryAll, readItem, withoutKeys } from './items';
import { erasureTombstoneItem, erasureTombstoneKey, erasureTombstonesPartition } from './items/erasure-tombstone';
import { API_KEY_LISTING_PREFIX, apiKeyKey } from './items/api-key';
import { customerKey, customerPk, storedCustomerOf } from './items/customer-profile';
import { EARNING_ENTRY_PREFIX } from './items/earning-entry';
import { FRIEND_REFERRAL_PREFIX, friendCodeKey, friendEmailKey, referralCreatedEventKey } from './items/friend-referral';
import { ORDER_PREFIX, orderCustomerKey, orderIdOf } from './items/order';
import { referralAwardKey, referralCodeKey } from './items/referral';
import { REWARD_ENTRY_PREFIX } from './items/reward-entry';
import { counterAttribute, shopCountersKey, shopDomainKey, shopPk, shopRegistryKey } from './items/shop';
import { webhookEventsPartition } from './items/webhook-event';

/** Items read or deleted per page, so a member with a long history or a large shop never sits in memory whole. */
const PAGE_SIZE = 100;
/** Members erased at once during a shop erasure. */
const SHOP_ERASURE_CONCURRENCY = 8;
const PROFILE_ATTEMPTS = 60;

export interface CustomerErasure {
  /** The profile existed and was deleted by this call (the counters moved). */
  profileDeleted: boolean;
  /** Items deleted besides the profile's transaction: history, orders, their lookups, redemption counts. */
  itemsDeleted: number;
}

/**
 * Erases a member. First, one transaction deletes the profile (conditional on its version), its
 * referral-code guard, the referral-award guard it earned its referrer and its e-mail search postings,
 * and moves the shop counter
 * down: from then on the member is not found and the totals are exact. Then the rest of its partition
 * is deleted page by page, each order's order -> customer lookup before the order item that names it and
 * each referred friend's two guards before the referral: the referrals the member made go with the member.
 */
export async function eraseCustomer(shopId: string, customerId: string): Promise<CustomerErasure> {
  const profileDeleted = await deleteProfile(shopId, customerId);
  // Each order's order -> customer lookup goes before the order item that names it, and each referred
  // friend's guards (by mailbox hash, by code) before the referral they point at.
  const itemsDeleted = await deletePartition(customerPk(shopId, customerId), 'pk, sk, email_key, discount_code', (items) =>
    items.flatMap((item) => {
      if (item.sk.startsWith(ORDER_PREFIX)) return [orderCustomerKey(shopId, orderIdOf(item.sk))];
      if (!item.sk.startsWith(FRIEND_REFERRAL_PREFIX)) return [];
      return [
        // The referral's event, which holds the friend's address until its TTL.
        referralCreatedEventKey(shopId, item),
        ...(typeof item.email_key === 'string' ? [friendEmailKey(shopId, item.email_key)] : []),
        ...(typeof item.discount_code === 'string' ? [friendCodeKey(shopId, item.discount_code)] : []),
      ];
    }),
  );
  return { profileDeleted, itemsDeleted };
}

async function deleteProfile(shopId: string, customerId: string): Promise<boolean> {
  const outcome = await retryUntil(PROFILE_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<boolean | undefined> => {
    const item = await readItem(customerKey(shopId, customerId));
    if (!item) return false;
    const stored = storedCustomerOf(item);
    const { record, version } = stored;
    const table = tableName();
    try {
      await documentClient().send(
        new TransactWriteCommand({
          ClientRequestToken: randomUUID(),
          TransactItems: [
            {
              Delete: {
                TableName: table,
                Key: customerKey(shopId, customerId),
                ConditionExpression: '#version = :version',
                ExpressionAttributeNames: { '#version': 'version' },
                ExpressionAttributeValues: { ':version': version },
              },
            },
            {
              Update: {
                TableName: table,
                Key: shopCountersKey(shopId),
                UpdateExpression: 'ADD #count :minus',
                ExpressionAttributeNames: { '#count': counterAttribute(record.status) },
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
            {
              // Only the member's own guard: a code imported twice must not free another member's code.
              Delete: {
                TableName: table,
                Key: referralCodeKey(shopId, record.referral_code),
                ConditionExpression: 'attribute_not_exists(pk) OR customer_id = :me',
                ExpressionAttributeValues: { ':me': customerId },
              },
            },
            { Delete: { TableName: table, Key: referralAwardKey(shopId, customerId) } },
            // The e-mail search postings go with the profile: a search never finds an erased member.
            ...emailPostingChange(shopId, customerId, record.email, null).delete.map((key) => ({ Delete: { TableName: table, Key: key } })),
          ],
        }),
      );
      return true;
    } catch (error) {
      const reasons = cancellationReasons(error);
      if (reasons?.[2] === 'ConditionalCheckFailed' && reasons[0] !== 'ConditionalCheckFailed') {
        throw new Error(`The referral code guard of customer ${customerId} belongs to another customer`);
      }
      if (reasons && reasons.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) return undefined;
      if (isTransactionConflict(error)) return undefined;
      throw error;
    }
  });
  if (outcome === undefined) throw new Error(`The profile of customer ${customerId} kept changing; erasure not finished`);
  return outcome;
}

/**
 * Records that the platform erased this customer (customers/redact), before the erasure itself: from then on
 * no import enrols them again (`config apply`, the twin's start, `loyalty import`) until an enrolment of the
 * customer anew clears it (docs/earning-engine.md, "Privacy webhooks"). The item holds the platform's customer
 * id in its key and the time; no name, e-mail or figure. Idempotent: a redelivery keeps the first one as it is.
 */
export async function putErasureTombstone(shopId: string, customerId: string, erasedAt: string): Promise<void> {
  await writtenUnlessRefused(
    documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: erasureTombstoneItem(shopId, customerId, erasedAt),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    ),
  );
}

/**
 * Which of these customers (at most 100) have an erasure tombstone standing. An eventually consistent read is
 * enough: the write that would enrol one checks the tombstone in its own transaction.
 */
export async function erasedCustomerIds(shopId: string, customerIds: readonly string[]): Promise<Set<string>> {
  const tombstones = new Set((await batchGet(customerIds.map((id) => erasureTombstoneKey(shopId, id)))).map((item) => item.sk));
  return new Set(customerIds.filter((id) => tombstones.has(erasureTombstoneKey(shopId, id).sk)));
}

export interface ShopErasure {
  customersErased: number;
  itemsDeleted: number;
}

/**
 * Erases a shop: every customer found through the list indexes (both statuses), then every item of the
 * shop's partition (settings, configuration, counters, key listings, the reconciliation watermark), the
 * API keys named by those listings, the handled webhook events, the registry item and the domain lookups.
 */
export async function eraseShop(shopId: string, shopDomains: readonly string[]): Promise<ShopErasure> {
  let customersErased = 0;
  let itemsDeleted = 0;
  for await (const ids of shopMemberIdPages(shopId, PAGE_SIZE)) {
    for (let start = 0; start < ids.length; start += SHOP_ERASURE_CONCURRENCY) {
      const erased = await Promise.all(ids.slice(start, start + SHOP_ERASURE_CONCURRENCY).map((id) => eraseCustomer(shopId, id)));
      customersErased += erased.length;
      itemsDeleted += erased.reduce((sum, one) => sum + one.itemsDeleted + (one.profileDeleted ? 1 : 0), 0);
    }
  }

  const registry = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: shopRegistryKey(shopId), ConsistentRead: true }),
  );
  const domains = new Set(shopDomains.map((domain) => domain.toLowerCase()));
  if (typeof registry.Item?.shop_domain === 'string') domains.add(registry.Item.shop_domain);

  // A key item before its listing: a crash in between leaves the listing, which the next delivery finds again.
  // The shop's keys go: cached authorizer answers for them must go too, even when a later page fails.
  const deletedKeyHashes: string[] = [];
  try {
    itemsDeleted += await deletePartition(shopPk(shopId), 'pk, sk, key_hash', (items) => {
      const hashes = items
        .filter((item) => item.sk.startsWith(API_KEY_LISTING_PREFIX) && typeof item.key_hash === 'string')
        .map((item) => String(item.key_hash));
      deletedKeyHashes.push(...hashes);
      return hashes.map((hash) => apiKeyKey(hash));
    });
  } finally {
    publishApiKeyChanges(deletedKeyHashes);
  }

  // The record of which webhook events were handled holds no personal data, but it is the shop's too; so
  // are the erasure tombstones of its customers.
  itemsDeleted += await deletePartition(webhookEventsPartition(shopId), 'pk, sk', () => []);
  itemsDeleted += await deletePartition(erasureTombstonesPartition(shopId), 'pk, sk', () => []);

  // Last, so that a delivery retried after a crash still finds the shop by its domain and finishes the work;
  // only a domain that maps to this shop, whatever the payload named.
  const owned = await Promise.all(
    [...domains].map(async (domain) => {
      const lookup = await documentClient().send(
        new GetCommand({ TableName: tableName(), Key: shopDomainKey(domain), ConsistentRead: true }),
      );
      return lookup.Item?.shop_id === shopId ? [shopDomainKey(domain)] : [];
    }),
  );
  const identity = [...owned.flat(), shopRegistryKey(shopId)];
  await batchDelete(identity);
  itemsDeleted += identity.length;
  return { customersErased, itemsDeleted };
}

/**
 * Everything held about a member, without table bookkeeping: null profile when it is not a customer. A
 * referral's mailbox hash is bookkeeping (it names the guard), not data about the member.
 */
export interface CustomerData {
  profile: Item | null;
  earningHistory: Item[];
  rewardHistory: Item[];
  orders: Item[];
  /** The friends the member referred (POST /v1/referrals), newest first. */
  referrals: Item[];
}

export async function readCustomerData(shopId: string, customerId: string): Promise<CustomerData> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': customerPk(shopId, customerId) },
    ConsistentRead: true,
  });
  const of = (prefix: string) => items.filter((item) => String(item.sk).startsWith(prefix)).map((item) => withoutKeys<Item>(item));
  const profile = items.find((item) => item.sk === customerKey(shopId, customerId).sk);
  return {
    profile: profile ? withoutKeys<Item>(profile) : null,
    earningHistory: of(EARNING_ENTRY_PREFIX),
    rewardHistory: of(REWARD_ENTRY_PREFIX),
    orders: of(ORDER_PREFIX),
    referrals: of(FRIEND_REFERRAL_PREFIX)
      .map(({ email_key: _hash, ...referral }) => referral)
      .reverse(),
  };
}

/**
 * Deletes a whole partition page by page, and before each page the items `first` names for it (lookups
 * that point at the page's items); returns how many items went. Deleting the page just read does not
 * disturb LastEvaluatedKey, which names a key, not a position.
 */
async function deletePartition(
  pk: string,
  projection: string,
  first: (items: Array<{ pk: string; sk: string } & Record<string, unknown>>) => Array<{ pk: string; sk: string }>,
): Promise<number> {
  let deleted = 0;
  await forEachPartitionPage(
    pk,
    PAGE_SIZE,
    async (page) => {
      const items = page as Array<{ pk: string; sk: string } & Record<string, unknown>>;
      const lookups = first(items);
      await batchDelete(lookups);
      await batchDelete(items.map(({ pk: itemPk, sk }) => ({ pk: itemPk, sk })));
      deleted += lookups.length + items.length;
    },
    projection,
  );
  return deleted;
}
