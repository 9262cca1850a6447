// Member orders: the order item (merged state and applied effects) in the customer's partition, the
// order -> customer lookup, and the one transaction that applies an order's effects together with the
// customer's figures, its entries and the rewards its codes used, conditional on both versions.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { EarningEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { commit, committedUnlessRefused } from './commit';
import { batchGet, batchGetAll, type Item, queryAll } from './item-reads';
import { customerKey, customerPk, storedCustomerOf, type StoredCustomer } from './items/customer-profile';
import { earningEntryKey, type PendingEntryRevision, recordEarningEntry, revisePendingEntry } from './items/earning-entry';
import { writeMemberBalance } from './items/member-balance';
import { orderCustomerKey, orderKey, orderOf, recordOrderCustomer, writeOrder } from './items/order';
import { RECORD_REFERRAL_AWARD, recordReferralAward, referralCodeKey } from './items/referral';
import { REWARD_ENTRY_PREFIX, useRewardCode } from './items/reward-entry';

export interface StoredOrder<T> {
  record: T;
  version: number;
}

/** The customer and its order item, read consistently: the transaction is conditional on both. */
export async function readOrderContext<T>(
  shopId: string,
  customerId: string,
  orderId: string,
): Promise<{ customer: StoredCustomer | null; order: StoredOrder<T> | null }> {
  const [customer, order] = await Promise.all([
    documentClient().send(new GetCommand({ TableName: tableName(), Key: customerKey(shopId, customerId), ConsistentRead: true })),
    documentClient().send(new GetCommand({ TableName: tableName(), Key: orderKey(shopId, customerId, orderId), ConsistentRead: true })),
  ]);
  return {
    customer: customer.Item ? storedCustomerOf(customer.Item) : null,
    order: order.Item ? orderOf<T>(order.Item) : null,
  };
}

/**
 * The stored order items of some members' orders, by order id (orders with no item left out): one BatchGetItem
 * per 100 orders, read eventually consistent (a stale item only looks older than it is).
 */
export async function readStoredOrders<T>(
  shopId: string,
  orders: ReadonlyArray<{ customerId: string; orderId: string }>,
): Promise<Map<string, T>> {
  const items = await batchGetAll(orders.map(({ customerId, orderId }) => orderKey(shopId, customerId, orderId)));
  return new Map(items.map((item) => [String(item.sk).slice('ORDER#'.length), orderOf<T>(item).record]));
}

/** The member an order belongs to, or null when no member's order has that id. */
export async function findOrderCustomer(shopId: string, orderId: string): Promise<string | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: orderCustomerKey(shopId, orderId) }));
  return typeof result.Item?.customer_id === 'string' ? result.Item.customer_id : null;
}

/** Statuses of some of a customer's earning entries, by id (absent ids are left out). */
export async function earningEntryStatuses(shopId: string, customerId: string, ids: string[]): Promise<Map<string, string>> {
  const items = await batchGet(ids.map((id) => earningEntryKey(shopId, customerId, id)));
  return new Map(items.map((item) => [String(item.id), String(item.status)]));
}

/** The customer's reward-history entries still `active` and not refunded whose discount code is one of `codes`. */
export async function activeRewardEntriesWithCodes(
  shopId: string,
  customerId: string,
  codes: string[],
): Promise<Array<{ id: string; code: string }>> {
  if (codes.length === 0) return [];
  // Shopify's codes are case-insensitive: a code typed in lower case uses the reward issued in upper case.
  const wanted = new Set(codes.map((code) => code.trim().toUpperCase()));
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    // A refunded redemption keeps its status: its code was deleted, and the order does not use it.
    FilterExpression: '#status = :active AND (attribute_not_exists(is_refunded) OR is_refunded = :false)',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: {
      ':pk': customerPk(shopId, customerId),
      ':prefix': REWARD_ENTRY_PREFIX,
      ':active': 'active',
      ':false': false,
    },
  });
  return items
    .filter((item: Item) => wanted.has(String(item.discount_code).toUpperCase()))
    .map((item: Item) => ({ id: String(item.id), code: String(item.discount_code) }));
}

export interface OrderEffectsWrite {
  shopId: string;
  customerId: string;
  orderId: string;
  /** The profile as read, and its next figures; null when the figures do not change. */
  customer: { current: StoredCustomer; next: CustomerRecord } | null;
  /** The order item as read (null: first time seen) and its next content. */
  order: { version: number | null; next: Record<string, unknown> };
  newEntries: EarningEntry[];
  pendingChanges: PendingEntryRevision[];
  usedRewards: Array<{ id: string; redeemedAt: string }>;
  now: string;
  /** The order's events, committed with its effects. */
  events?: readonly DomainEvent[];
}

/** Applies the order's effects in one transaction; false when another writer changed the profile or the order first. */
export async function writeOrderEffects(write: OrderEffectsWrite): Promise<boolean> {
  const { shopId, customerId, orderId, now } = write;
  const firstSeen = write.order.version === null;
  return committedUnlessRefused(
    [
      ...(write.customer ? [writeMemberBalance(write.customer.current, write.customer.next)] : []),
      writeOrder(shopId, customerId, orderId, write.order.next, write.order.version),
      ...(firstSeen ? [recordOrderCustomer(shopId, orderId, customerId)] : []),
      ...write.newEntries.map((entry) => recordEarningEntry(shopId, customerId, entry)),
      // A rejected entry leaves the approval job's due work.
      ...write.pendingChanges.map((change) => revisePendingEntry(shopId, customerId, change, now)),
      // A used code leaves the code-expiry job's due work; of an order using the code and its refund, only one commits.
      ...write.usedRewards.map((reward) => useRewardCode(shopId, customerId, reward.id, reward.redeemedAt, now)),
    ],
    { events: write.events },
  );
}

/** The member a referral code belongs to, or null for a code no member has. */
export async function findReferralCodeOwner(shopId: string, code: string): Promise<string | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: referralCodeKey(shopId, code) }));
  return typeof result.Item?.customer_id === 'string' ? result.Item.customer_id : null;
}

export type ReferralWriteOutcome = 'written' | 'already_awarded' | 'conflict';

/**
 * Credits the referrer and writes its entries together with the guard that makes the award once per
 * referred customer; refused as a whole when the guard exists or the referrer changed since it was read.
 */
export async function writeReferralAward(
  referrer: StoredCustomer,
  next: CustomerRecord,
  referredId: string,
  orderId: string,
  entries: EarningEntry[],
  events: readonly DomainEvent[] = [],
): Promise<ReferralWriteOutcome> {
  const shopId = next.shop_id;
  const outcome = await commit(
    [
      recordReferralAward(shopId, referredId, next.platform_customer_id, orderId),
      writeMemberBalance(referrer, next),
      ...entries.map((entry) => recordEarningEntry(shopId, next.platform_customer_id, entry)),
    ],
    { events },
  );
  if (outcome.committed) return 'written';
  const { refusal } = outcome;
  return refusal.kind === 'condition' && refusal.failed.includes(RECORD_REFERRAL_AWARD) ? 'already_awarded' : 'conflict';
}
