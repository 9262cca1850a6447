// A member's order items: the order (its merged state and the effects applied, versioned) in the
// customer's partition, and the lookup of which member an order belongs to (refunds name only the order);
// the writes of an order's effects: the order at its next version, and its lookup the first time.
import type { Write } from '../write';
import { customerPk } from './customer-profile';
import { defineItem } from './define-item';
import { type Item, type ItemKey, recordOf } from './item-type';

export const ORDER_PREFIX = 'ORDER#';

export const orderKey = (shopId: string, customerId: string, orderId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${ORDER_PREFIX}${orderId}`,
});

export const orderCustomerKey = (shopId: string, orderId: string): ItemKey => ({ pk: `SHOP#${shopId}#ORDER#${orderId}`, sk: 'ORDER' });

/** The order id of an order item's sort key (`ORDER#<id>`). */
export const orderIdOf = (sk: string): string => sk.slice(ORDER_PREFIX.length);

export const order = defineItem({
  name: 'order (merged state and applied effects)',
  key: orderKey,
  placeholder: ['<shop>', '<platform id>', '<order id>'],
  derived: ['version'],
});

export const orderCustomer = defineItem({ name: 'order -> customer lookup', key: orderCustomerKey, placeholder: ['<shop>', '<order id>'] });

export const orderType = order.type;
export const orderCustomerType = orderCustomer.type;

export function orderItem(shopId: string, customerId: string, orderId: string, record: Record<string, unknown>, version: number): Item {
  return order.item(orderKey(shopId, customerId, orderId), { ...record, version });
}

export const orderOf = <T>(item: Item): { record: T; version: number } => ({
  record: recordOf<T>(item, orderType),
  version: Number(item.version ?? 0),
});

/** The order's next content at the next version: only if it is still at the version read (null: not written yet). */
export function writeOrder(
  shopId: string,
  customerId: string,
  orderId: string,
  next: Record<string, unknown>,
  readVersion: number | null,
): Write {
  const key = orderKey(shopId, customerId, orderId);
  const fields = { ...next, version: (readVersion ?? 0) + 1 };
  if (readVersion === null) return order.put('write a new order', key, fields, { ifNew: true });
  return order.put('write the order', key, fields, { condition: '#version = :version', values: { ':version': readVersion } });
}

/** The lookup of the order's member, written with the order's first version. */
export const recordOrderCustomer = (shopId: string, orderId: string, customerId: string): Write =>
  orderCustomer.put("record the order's member", orderCustomerKey(shopId, orderId), { customer_id: customerId });
