// Member orders: the order item (merged state and applied effects) in the customer's partition, the
// order -> customer lookup, and the one transaction that applies an order's effects together with the
// customer's figures, its entries and the rewards its codes used, conditional on both versions.
import { randomUUID } from 'node:crypto';
import { GetCommand, TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { EarningEntry } from '../domain/history';
import { documentClient, tableName } from './client';
import { cancellationReasons, memberProfilePut, storedCustomerOf, type StoredCustomer, transactUnlessChanged } from './customer-repository';
import { earningEntryItem } from './history-repository';
import { batchGet, type Item, queryAll, withoutKeys } from './items';
import { keys } from './keys';

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
    documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.customer(shopId, customerId), ConsistentRead: true })),
    documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.order(shopId, customerId, orderId), ConsistentRead: true })),
  ]);
  return {
    customer: customer.Item ? storedCustomerOf(customer.Item) : null,
    order: order.Item ? { record: withoutKeys<T>(order.Item), version: Number(order.Item.version ?? 0) } : null,
  };
}

/** The member an order belongs to, or null when no member's order has that id. */
export async function findOrderCustomer(shopId: string, orderId: string): Promise<string | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.orderCustomer(shopId, orderId) }));
  return typeof result.Item?.customer_id === 'string' ? result.Item.customer_id : null;
}

/** Statuses of some of a customer's earning entries, by id (absent ids are left out). */
export async function earningEntryStatuses(shopId: string, customerId: string, ids: string[]): Promise<Map<string, string>> {
  const items = await batchGet(ids.map((id) => keys.earningEntry(shopId, customerId, id)));
  return new Map(items.map((item) => [String(item.id), String(item.status)]));
}

/** The customer's reward-history entries still `active` whose discount code is one of `codes`. */
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
    FilterExpression: '#status = :active',
    ExpressionAttributeNames: { '#status': 'status' },
    ExpressionAttributeValues: { ':pk': keys.customerPk(shopId, customerId), ':prefix': 'REDEEM#', ':active': 'active' },
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
  pendingChanges: Array<{ entry_id: string; status: 'pending' | 'rejected'; points: number; base_points: number }>;
  usedRewards: Array<{ id: string; redeemedAt: string }>;
  now: string;
}

/** Applies the order's effects in one transaction; false when another writer changed the profile or the order first. */
export async function writeOrderEffects(write: OrderEffectsWrite): Promise<boolean> {
  const { shopId, customerId, orderId, now } = write;
  const table = tableName();
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
  if (write.customer) items.push(memberProfilePut(write.customer.current, write.customer.next));
  const orderVersion = write.order.version;
  items.push({
    Put: {
      TableName: table,
      Item: { ...write.order.next, ...keys.order(shopId, customerId, orderId), version: (orderVersion ?? 0) + 1 },
      ...(orderVersion === null
        ? { ConditionExpression: 'attribute_not_exists(pk)' }
        : {
            ConditionExpression: '#version = :version',
            ExpressionAttributeNames: { '#version': 'version' },
            ExpressionAttributeValues: { ':version': orderVersion },
          }),
    },
  });
  if (orderVersion === null) {
    items.push({ Put: { TableName: table, Item: { ...keys.orderCustomer(shopId, orderId), customer_id: customerId } } });
  }
  for (const entry of write.newEntries) {
    items.push({
      Put: { TableName: table, Item: earningEntryItem(shopId, customerId, entry), ConditionExpression: 'attribute_not_exists(pk)' },
    });
  }
  for (const change of write.pendingChanges) {
    items.push({
      Update: {
        TableName: table,
        Key: keys.earningEntry(shopId, customerId, change.entry_id),
        // A rejected entry leaves the approval job's due work.
        UpdateExpression: `SET #status = :status, points = :points, base_points = :base, earn_points = :points, updated_at = :now${
          change.status === 'rejected' ? ' REMOVE due_pk, due_at' : ''
        }`,
        ConditionExpression: '#status = :pending',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':status': change.status,
          ':points': change.points,
          ':base': change.base_points,
          ':now': now,
          ':pending': 'pending',
        },
      },
    });
  }
  for (const reward of write.usedRewards) {
    items.push({
      Update: {
        TableName: table,
        Key: keys.rewardEntry(shopId, customerId, reward.id),
        // A used code leaves the code-expiry job's due work.
        UpdateExpression: 'SET #status = :used, discount_code_redeemed_at = :at, updated_at = :now REMOVE due_pk, due_at',
        ConditionExpression: '#status = :active',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':used': 'used', ':active': 'active', ':at': reward.redeemedAt, ':now': now },
      },
    });
  }
  return transactUnlessChanged(items);
}

/** The member a referral code belongs to, or null for a code no member has. */
export async function findReferralCodeOwner(shopId: string, code: string): Promise<string | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.referralCode(shopId, code) }));
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
): Promise<ReferralWriteOutcome> {
  const table = tableName();
  const shopId = next.shop_id;
  try {
    await documentClient().send(
      new TransactWriteCommand({
        ClientRequestToken: randomUUID(),
        TransactItems: [
          {
            Put: {
              TableName: table,
              Item: { ...keys.referralAward(shopId, referredId), referrer_id: next.platform_customer_id, order_id: orderId },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          memberProfilePut(referrer, next),
          ...entries.map((entry) => ({
            Put: {
              TableName: table,
              Item: earningEntryItem(shopId, next.platform_customer_id, entry),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          })),
        ],
      }),
    );
    return 'written';
  } catch (error) {
    const reasons = cancellationReasons(error);
    if (reasons?.[0] === 'ConditionalCheckFailed') return 'already_awarded';
    if (reasons && reasons.some((code) => code === 'ConditionalCheckFailed' || code === 'TransactionConflict')) return 'conflict';
    if ((error as { name?: string }).name === 'TransactionConflictException') return 'conflict';
    throw error;
  }
}
