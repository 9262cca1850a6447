// A member's order items: the order (its merged state and the effects applied, versioned) in the
// customer's partition, and the lookup of which member an order belongs to (refunds name only the order).
import { customerPk } from './customer-profile';
import { type Item, type ItemKey, type ItemType, recordOf } from './item-type';

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
