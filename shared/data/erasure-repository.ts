// Erasure for the platform's privacy webhooks: one member (profile, whole partition, the guards and lookups
// that name it, the shop counters moved in the profile's own transaction) or a whole shop; and the read of
// everything held about a member for a data request. Every step is idempotent, so a redelivery finishes a
// half-done erasure and otherwise changes nothing.
import { figuresPk } from './items/program-figures';
import { GetCommand, ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent } from '../domain/events';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { publishApiKeyChanges } from './api-key-changes';
import { commit, commitOne } from './commit';
import type { Write } from './write';
import { documentClient, tableName } from './client';
import { shopMemberIdPages } from './customer-list';
import { followAddress } from './items/email-gram';
import { followNames } from './items/name-token';
import { batchDelete, batchGet, forEachPartitionPage, type Item, queryAll, readItem, withoutKeys } from './item-reads';
import { DOMAIN_EVENT_PREFIX } from './items/domain-event';
import { erasureTombstoneKey, erasureTombstonesPartition, leaveTombstone } from './items/erasure-tombstone';
import { API_KEY_LISTING_PREFIX, apiKeyKey } from './items/api-key';
import { customerKey, customerPk, deleteProfileAtVersion, storedCustomerOf } from './items/customer-profile';
import { EARNING_ENTRY_PREFIX } from './items/earning-entry';
import { FRIEND_REFERRAL_PREFIX, friendCodeKey, friendEmailKey, referralCreatedEventKey } from './items/friend-referral';
import { ORDER_PREFIX, orderCustomerKey, orderIdOf } from './items/order';
import { forgetReferralAward, releaseReferralCode } from './items/referral';
import { REWARD_ENTRY_PREFIX } from './items/reward-entry';
import { STAFF_AUDIT_PREFIX } from './items/staff-audit';
import { countInShop, shopDomainKey, shopPk, shopRegistryKey } from './items/shop';
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
export async function eraseCustomer(
  shopId: string,
  customerId: string,
  /**
   * `events`: committed with the profile's deletion. `figures`: the writes that take the member's part of the
   * program's figures with it, read again for each try (shared/figures/program-figures.ts; a shop erasure
   * deletes the figures whole, and gives none). `withEventItems: false`: a shop erasure deletes them all at once.
   */
  options: { events?: readonly DomainEvent[]; figures?: () => Promise<readonly Write[]>; withEventItems?: boolean } = {},
): Promise<CustomerErasure> {
  const profileDeleted = await deleteProfile(shopId, customerId, options.events ?? [], options.figures);
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
  // The events of the member's changes still waiting out their week (their e-mail, their name), all but the
  // `customer.erased` just committed, which holds neither and is still to be delivered.
  const eventsDeleted = options.withEventItems === false ? 0 : await deleteEventItems(shopId, customerId);
  return { profileDeleted, itemsDeleted: itemsDeleted + eventsDeleted };
}

/**
 * Deletes the domain event items of a shop (of one customer of it, when named; never a `customer.erased`) that
 * are still in the table: delivered or not, an event of an erased member must not keep their data for the
 * rest of its week. The items have no index by shop or customer, so this is a Scan of the table filtered to
 * them: its cost grows with the table (docs/earning-engine.md, "Privacy webhooks").
 */
/** The shop's figures partition and its counted-event markers: every item whose key starts `SHOP#<shop>#FIGURES`. */
async function deleteFiguresItems(shopId: string): Promise<number> {
  let deleted = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(pk, :prefix)',
        ProjectionExpression: 'pk, sk',
        ExpressionAttributeValues: { ':prefix': figuresPk(shopId) },
        ExclusiveStartKey: startKey,
      }),
    );
    const keys = (page.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
    await batchDelete(keys);
    deleted += keys.length;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return deleted;
}

async function deleteEventItems(shopId: string, customerId?: string): Promise<number> {
  let deleted = 0;
  let startKey: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression:
          'begins_with(pk, :prefix)' + (customerId === undefined ? '' : ' AND #event.customer_id = :customer AND #event.#type <> :erased'),
        ProjectionExpression: 'pk, sk',
        ExpressionAttributeNames: customerId === undefined ? undefined : { '#event': 'event', '#type': 'type' },
        ExpressionAttributeValues: {
          ':prefix': `${DOMAIN_EVENT_PREFIX}${shopId}#`,
          ...(customerId === undefined ? {} : { ':customer': customerId, ':erased': 'customer.erased' }),
        },
        ExclusiveStartKey: startKey,
      }),
    );
    const keys = (page.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) }));
    await batchDelete(keys);
    deleted += keys.length;
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return deleted;
}

/** The profile's transaction; `events` commit with it (a redelivery that finds no profile commits none). */
async function deleteProfile(
  shopId: string,
  customerId: string,
  events: readonly DomainEvent[],
  figuresOf: (() => Promise<readonly Write[]>) | undefined,
): Promise<boolean> {
  const outcome = await retryUntil(PROFILE_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<boolean | undefined> => {
    const item = await readItem(customerKey(shopId, customerId));
    if (!item) return false;
    // The member's part of the program's figures, read with the profile's version the deletion is conditional
    // on: its figures "now" come off with it, its history stays (docs/admin.md#figures).
    const figures = figuresOf ? await figuresOf() : [];
    const stored = storedCustomerOf(item);
    const { record, version } = stored;
    const profile = deleteProfileAtVersion(shopId, customerId, version);
    const guard = releaseReferralCode(shopId, record.referral_code, customerId);
    const outcome = await commit(
      [
        profile,
        countInShop(shopId, record.status, -1),
        // Only the member's own guard: a code imported twice must not free another member's code.
        guard,
        forgetReferralAward(shopId, customerId),
        // The e-mail and name search postings go with the profile: a search never finds an erased member.
        ...followAddress(shopId, customerId, record.email, null),
        ...followNames(shopId, customerId, record, null),
        ...figures,
      ],
      { events },
    );
    if (outcome.committed) return true;
    const { refusal } = outcome;
    if (refusal.kind === 'condition' && refusal.failed.includes(guard.name) && !refusal.failed.includes(profile.name)) {
      throw new Error(`The referral code guard of customer ${customerId} belongs to another customer`);
    }
    // The profile changed (or another transaction held an item): read it again.
    return undefined;
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
  await commitOne(leaveTombstone(shopId, customerId, erasedAt));
}

/**
 * Which of these customers (at most 100) have an erasure tombstone standing. An eventually consistent read is
 * enough: the write that would enrol one checks the tombstone in its own transaction.
 */
/**
 * Events that describe no change of the table (a data request's answer): committed alone, so they are
 * delivered as every other event is, by the stream.
 */
export async function commitEvents(events: readonly DomainEvent[]): Promise<void> {
  await commit([], { events });
}

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
      const erased = await Promise.all(
        ids.slice(start, start + SHOP_ERASURE_CONCURRENCY).map((id) => eraseCustomer(shopId, id, { withEventItems: false })),
      );
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
  itemsDeleted += await deleteEventItems(shopId);
  // The program's figures and the markers of the events they counted (aggregates, but the shop's).
  itemsDeleted += await deleteFiguresItems(shopId);

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
  /** What staff changed of the member through /admin/api (items/staff-audit.ts), oldest first. */
  staffChanges: Item[];
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
    staffChanges: of(STAFF_AUDIT_PREFIX),
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
