// The customer profile item: its key (`SHOP#<shop>#C#<customer>` / `PROFILE`, the partition every item of
// the member shares), the list and e-mail index attributes, its place in the due-work index (the
// inactivity deadline), the item written for a record and the record read back from an item.
import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord, LoyaltyStatus, MemberChanges } from '../../domain/customer';
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

/** The tier written for members of no tier in the tier-and-activity partitions. */
export const NO_TIER = '-';

/** Partition of the tier-and-activity index: one per shop, tier (as last written) and loyalty status. */
export const customerTierPartition = (shopId: string, tierId: string | null, status: LoyaltyStatus) =>
  `SHOP#${shopId}#TIER#${tierId ?? NO_TIER}#${status}`;

/** When a member was last active for the staff's member list: the last earning or spending, else the enrolment. */
export const lastActivityOf = (record: Pick<CustomerRecord, 'points_last_activity_at' | 'created_at'>): string =>
  record.points_last_activity_at || record.created_at;

/** The tier-and-activity index attributes of a profile (`gsi_customers_tier_activity`). */
export function tierActivityAttributes(
  record: Pick<CustomerRecord, 'shop_id' | 'vip_tier_id' | 'status' | 'points_last_activity_at' | 'created_at'>,
): { tier_list_pk: string; last_activity_at: string } {
  return {
    tier_list_pk: customerTierPartition(record.shop_id, record.vip_tier_id, record.status),
    last_activity_at: lastActivityOf(record),
  };
}

// NFC: an internationalised address typed with combining accents is the same address.
/** Partition of the e-mail index: the shop and the address in lower case. */
export const customerEmailPartition = (shopId: string, email: string) =>
  `SHOP#${shopId}#EMAIL#${email.trim().normalize('NFC').toLowerCase()}`;

export const customerProfileType: ItemType = {
  name: 'customer',
  key: customerKey('<shop>', '<platform id>'),
  indexed: [
    'list_pk',
    'created_at',
    'current_points',
    'lifetime_points',
    'redeemed_points',
    'email_pk',
    'email_lc',
    'tier_list_pk',
    'last_activity_at',
    ...DUE_ATTRIBUTES,
  ],
  derived: ['list_pk', 'email_pk', 'email_lc', 'tier_list_pk', 'last_activity_at', ...DUE_ATTRIBUTES, 'version'],
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

/**
 * The profile's derived attributes: its list partition (by status), the e-mail index attributes and the
 * inactivity deadline's due work. Every put of the profile takes them from here, and so does the update
 * of the member's own fields (its address).
 */
export function deriveProfile(record: CustomerRecord): Item {
  return {
    list_pk: customerListPartition(record.shop_id, record.status),
    // The staff's member list by tier and last activity.
    ...tierActivityAttributes(record),
    ...emailAttributes(record.shop_id, record.email),
    // An inactive balance waits in the due-work index for its reminder and its expiry.
    ...profileDue(record),
  };
}

/** The stored item of a customer: the record plus its key and index attributes. */
export function customerItem(record: CustomerRecord, version: number): Item {
  return {
    ...customerKey(record.shop_id, record.platform_customer_id),
    ...record,
    ...deriveProfile(record),
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

// ---- named writes ----------------------------------------------------------------------------------

/** A new member's profile, written only if the customer has none. */
export function enrolProfile(record: CustomerRecord): Write {
  return namedWrite('enrol the member', {
    Put: { TableName: tableName(), Item: customerItem(record, 1), ConditionExpression: 'attribute_not_exists(pk)' },
  });
}

/**
 * The profile's next version, written only if it is still at the version read (whatever its status);
 * `returnOld`: a refusal carries the profile as it then stood.
 */
export function writeProfileAtVersion(current: StoredCustomer, next: CustomerRecord, options: { returnOld?: boolean } = {}): Write {
  return namedWrite('write the profile at its version', {
    Put: {
      TableName: tableName(),
      Item: customerItem(next, current.version + 1),
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': current.version },
      ...(options.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  });
}

/**
 * The member's next figures, written only if the profile is still at the version read and still a member.
 * The points writes that use it never change the address: the e-mail search postings stay as they are.
 */
export function writeMemberFigures(current: StoredCustomer, next: CustomerRecord, options: { returnOld?: boolean } = {}): Write {
  if (normalisedEmail(next.email) !== normalisedEmail(current.record.email)) {
    throw new Error('A points write must not change the address: its e-mail search postings would not follow');
  }
  if (next.first_name !== current.record.first_name || next.last_name !== current.record.last_name) {
    throw new Error('A points write must not change the names: their search postings would not follow');
  }
  return namedWrite("write the member's figures", {
    Put: {
      TableName: tableName(),
      Item: customerItem(next, current.version + 1),
      ConditionExpression: '#version = :version AND #status = :member',
      ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
      ExpressionAttributeValues: { ':version': current.version, ':member': 'member' },
      ...(options.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  });
}

/** The profile deleted, only if it is still at the version read. */
export function deleteProfileAtVersion(shopId: string, customerId: string, version: number): Write {
  return namedWrite('delete the profile', {
    Delete: {
      TableName: tableName(),
      Key: customerKey(shopId, customerId),
      ConditionExpression: '#version = :version',
      ExpressionAttributeNames: { '#version': 'version' },
      ExpressionAttributeValues: { ':version': version },
    },
  });
}

/** Holds only while the member's normalised address is still `emailLc` (its postings are derived from it). */
export function checkProfileAddress(shopId: string, customerId: string, emailLc: string): Write {
  return namedWrite("check the member's address", {
    ConditionCheck: {
      TableName: tableName(),
      Key: customerKey(shopId, customerId),
      ConditionExpression: 'email_lc = :emailLc',
      ExpressionAttributeValues: { ':emailLc': emailLc },
    },
  });
}

/** The condition that the profile's names are still `names` (absent or null where `names` has none). */
function namesCondition(names: Pick<CustomerRecord, 'first_name' | 'last_name'>) {
  const attributes: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions: string[] = [];
  for (const [field, value] of [
    ['first_name', names.first_name],
    ['last_name', names.last_name],
  ] as const) {
    attributes[`#${field}`] = field;
    if (value === null || value === undefined) {
      values[':null'] = 'NULL';
      conditions.push(`(attribute_not_exists(#${field}) OR attribute_type(#${field}, :null))`);
    } else {
      values[`:${field}`] = value;
      conditions.push(`#${field} = :${field}`);
    }
  }
  return { attributes, values, conditions };
}

/** Holds only while the member's names are still `names`' (its name postings are derived from them). */
export function checkProfileNames(shopId: string, customerId: string, names: Pick<CustomerRecord, 'first_name' | 'last_name'>): Write {
  const { attributes, values, conditions } = namesCondition(names);
  return namedWrite("check the member's names", {
    ConditionCheck: {
      TableName: tableName(),
      Key: customerKey(shopId, customerId),
      ConditionExpression: ['attribute_exists(pk)', ...conditions].join(' AND '),
      ExpressionAttributeNames: attributes,
      ExpressionAttributeValues: values,
    },
  });
}

/** The UpdateItem of a member's own fields (`memberFieldsUpdate`). */
export type MemberFieldsUpdate = UpdateCommandInput & {
  Key: ItemKey;
  UpdateExpression: string;
  ConditionExpression: string;
  ExpressionAttributeNames: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
  ReturnValuesOnConditionCheckFailure: 'ALL_OLD';
};

/**
 * The update of a member's own fields (the anniversary date, names, the platform's e-mail and time),
 * conditioned only on what decided that no other item changes: the status and the date of birth as read
 * (`record`). The address's derived attributes follow it as `deriveProfile` derives them for a put.
 * `addressAsRead`: also conditioned on the address it replaces (the postings deleted beside it are that
 * address's); `namesAsRead`: on the names it replaces (the name postings deleted beside it are theirs).
 */
export function memberFieldsUpdate(
  record: CustomerRecord,
  changes: MemberChanges,
  now: string,
  options: { addressAsRead?: boolean; namesAsRead?: boolean } = {},
): MemberFieldsUpdate {
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
    const { email_lc: lower, email_pk: emailPk } = emailAttributes(record.shop_id, changes.email);
    set('email', changes.email);
    set('email_lc', lower);
    if (emailPk) set('email_pk', emailPk);
    else removes.push('email_pk');
  }
  if (options.addressAsRead) {
    names['#emailLc'] = 'email_lc';
    values[':emailLc'] = normalisedEmail(record.email);
  }
  if (options.namesAsRead) {
    const asRead = namesCondition(record);
    Object.assign(names, asRead.attributes);
    Object.assign(values, asRead.values);
    conditions.push(...asRead.conditions);
  }
  return {
    TableName: tableName(),
    Key: customerKey(record.shop_id, record.platform_customer_id),
    UpdateExpression: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''} ADD #version :one`,
    ConditionExpression: [...conditions, ...(options.addressAsRead ? ['#emailLc = :emailLc'] : [])].join(' AND '),
    ExpressionAttributeNames: names,
    ExpressionAttributeValues: values,
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

/** `memberFieldsUpdate` as a write of a transaction (a new address or names, whose postings change beside it). */
export function changeMemberFields(record: CustomerRecord, changes: MemberChanges, now: string): Write {
  return namedWrite("change the member's fields", {
    Update: memberFieldsUpdate(record, changes, now, { addressAsRead: true, namesAsRead: true }),
  });
}
