// A member's order items: the order (its merged state and the effects applied, versioned) in the
// customer's partition, and the lookup of which member an order belongs to (refunds name only the order);
// the writes of an order's effects: the order at its next version, and its lookup the first time.
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import { customerPk } from './customer-profile';
import { type Item, type ItemKey, type ItemType, recordOf } from './item-type';
import { putNewRequest } from './update';

export const ORDER_PREFIX = 'ORDER#';

export const orderKey = (shopId: string, customerId: string, orderId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${ORDER_PREFIX}${orderId}`,
});

export const orderCustomerKey = (shopId: string, orderId: string): ItemKey => ({ pk: `SHOP#${shopId}#ORDER#${orderId}`, sk: 'ORDER' });

/** The order id of an order item's sort key (`ORDER#<id>`). */
export const orderIdOf = (sk: string): string => sk.slice(ORDER_PREFIX.length);

export const orderType: ItemType = {
  name: 'order (merged state and applied effects)',
  key: orderKey('<shop>', '<platform id>', '<order id>'),
  derived: ['version'],
};

export const orderCustomerType: ItemType = { name: 'order -> customer lookup', key: orderCustomerKey('<shop>', '<order id>') };

export function orderItem(shopId: string, customerId: string, orderId: string, record: Record<string, unknown>, version: number): Item {
  return { ...record, ...orderKey(shopId, customerId, orderId), version };
}

export const orderOf = <T>(item: Item): { record: T; version: number } => ({
  record: recordOf<T>(item, orderType),
  version: Number(item.version ?? 0),
});

export const orderCustomerItem = (shopId: string, orderId: string, customerId: string): Item => ({
  ...orderCustomerKey(shopId, orderId),
  customer_id: customerId,
});

/** The order's next content at the next version: only if it is still at the version read (null: not written yet). */
export function writeOrder(
  shopId: string,
  customerId: string,
  orderId: string,
  next: Record<string, unknown>,
  readVersion: number | null,
): Write {
  const item = orderItem(shopId, customerId, orderId, next, (readVersion ?? 0) + 1);
  if (readVersion === null) return namedWrite('write a new order', putNewRequest(item));
  return namedWrite('write the order', {
    Put: {
      TableName: tableName(),
      Item: item,
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': readVersion },
    },
  });
}

/** The lookup of the order's member, written with the order's first version. */
export const recordOrderCustomer = (shopId: string, orderId: string, customerId: string): Write =>
  namedWrite("record the order's member", { Put: { TableName: tableName(), Item: orderCustomerItem(shopId, orderId, customerId) } });
