// The customer profile item: its key (`SHOP#<shop>#C#<customer>` / `PROFILE`, the partition every item of
// the member shares), the list and e-mail index attributes, its place in the due-work index (the
// inactivity deadline), the item written for a record and the record read back from an item.
import type { CustomerRecord, LoyaltyStatus } from '../../domain/customer';
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import { type DueAttributes, dueAttributes, dueUpdate, type DueUpdate, DUE_ATTRIBUTES } from './due';
import { type Item, type ItemKey, type ItemType, recordOf } from './item-type';

/** The partition of one customer: its profile and every item of its own (history, orders, timers). */
export const customerPk = (shopId: string, customerId: string) => `SHOP#${shopId}#C#${customerId}`;

export const customerKey = (shopId: string, customerId: string): ItemKey => ({ pk: customerPk(shopId, customerId), sk: 'PROFILE' });

/** The customer an item of a customer partition belongs to, from its key (`SHOP#<shop>#C#<customer>`). */
export function customerOfKey(key: Pick<ItemKey, 'pk'>): string {
  return key.pk.slice(key.pk.indexOf('#C#') + 3);
}

/** Partition of the customer list indexes: one per shop and loyalty status. */
export const customerListPartition = (shopId: string, status: LoyaltyStatus) => `SHOP#${shopId}#LIST#${status}`;

// NFC: an internationalised address typed with combining accents is the same address.
/** Partition of the e-mail index: the shop and the address in lower case. */
export const customerEmailPartition = (shopId: string, email: string) =>
  `SHOP#${shopId}#EMAIL#${email.trim().normalize('NFC').toLowerCase()}`;

export const customerProfileType: ItemType = {
  name: 'customer',
  key: customerKey('<shop>', '<platform id>'),
  indexed: ['list_pk', 'created_at', 'current_points', 'lifetime_points', 'redeemed_points', 'email_pk', 'email_lc', ...DUE_ATTRIBUTES],
  derived: ['list_pk', 'email_pk', 'email_lc', ...DUE_ATTRIBUTES, 'version'],
};

/** An address as the e-mail filter compares it (`email_lc`): trimmed, lower case. */
export const normalisedEmail = (email: string) => email.trim().toLowerCase();

/**
 * The e-mail index attributes of an address: the lower-case address the list's e-mail filter reads, and
 * the lookup partition. An empty address would make an invalid index key: such customers are simply not
 * findable by e-mail (`email_pk` absent).
 */
export function emailAttributes(shopId: string, email: string): { email_lc: string; email_pk?: string } {
  const lower = normalisedEmail(email);
  return { email_lc: lower, ...(lower ? { email_pk: customerEmailPartition(shopId, lower) } : {}) };
}

/**
 * The inactivity deadline in the due-work index: a member with points and a deadline waits for its
 * reminder, then (once reminded for that deadline) for its expiry. Nothing is due on a zero balance.
 */
export function profileDue(
  record: Pick<
    CustomerRecord,
    'shop_id' | 'platform_customer_id' | 'status' | 'current_points' | 'points_expire_at' | 'points_expiry_reminded_for'
  >,
): DueAttributes | null {
  if (record.status !== 'member' || record.current_points <= 0 || !record.points_expire_at) return null;
  const reminded = record.points_expiry_reminded_for === record.points_expire_at;
  return dueAttributes(
    record.shop_id,
    reminded ? 'inactivity-expire' : 'inactivity-remind',
    record.points_expire_at,
    record.platform_customer_id,
  );
}

/** The due-work part of an update of the profile that leaves it as `next`: what `profileDue` derives for a put. */
export const profileDueUpdate = (next: Parameters<typeof profileDue>[0]): DueUpdate => dueUpdate(profileDue(next));

/** The stored item of a customer: the record plus its key and index attributes. */
export function customerItem(record: CustomerRecord, version: number): Item {
  return {
    ...customerKey(record.shop_id, record.platform_customer_id),
    ...record,
    list_pk: customerListPartition(record.shop_id, record.status),
    ...emailAttributes(record.shop_id, record.email),
    // An inactive balance waits in the due-work index for its reminder and its expiry.
    ...profileDue(record),
    version,
  };
}

export interface StoredCustomer {
  record: CustomerRecord;
  version: number;
}

export function storedCustomerOf(item: Item): StoredCustomer {
  return { record: recordOf<CustomerRecord>(item, customerProfileType), version: Number(item.version ?? 0) };
}

/** A new member's profile at `version`, only if there is none. */
export const createProfile = (record: CustomerRecord, version: number): Write =>
  namedWrite('create the profile', {
    Put: { TableName: tableName(), Item: customerItem(record, version), ConditionExpression: 'attribute_not_exists(pk)' },
  });

/** The profile removed, only while it is still at the version read. */
export const removeProfileAtVersion = (current: StoredCustomer): Write =>
  namedWrite('remove the profile', {
    Delete: {
      TableName: tableName(),
      Key: customerKey(current.record.shop_id, current.record.platform_customer_id),
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': current.version },
    },
  });
