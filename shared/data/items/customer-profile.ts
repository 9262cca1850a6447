// The customer profile item: its key (`SHOP#<shop>#C#<customer>` / `PROFILE`, the partition every item of
// the member shares), the list and e-mail index attributes, its place in the due-work index (the
// inactivity deadline), the item written for a record and the record read back from an item.
import type { CustomerRecord, LoyaltyStatus, MemberChanges } from '../../domain/customer';
import type { Refusal } from '../commit';
import type { Write } from '../write';
import { defineItem } from './define-item';
import { type DueAttributes, dueAttributes, dueUpdate, type DueUpdate, DUE_ATTRIBUTES } from './due';
import type { Condition } from './define-item';
import { type Item, type ItemKey, recordOf } from './item-type';

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

const PROFILE_INDEXED = [
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
];

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
  return customerProfile.item(customerKey(record.shop_id, record.platform_customer_id), { ...record, version });
}

export interface StoredCustomer {
  record: CustomerRecord;
  version: number;
}

export function storedCustomerOf(item: Item): StoredCustomer {
  return { record: recordOf<CustomerRecord>(item, customerProfile.type), version: Number(item.version ?? 0) };
}

/**
 * The customer profile, declared once: its key, the attributes the indexes read, and `deriveProfile` applied
 * on every write of the whole profile (the version is the stored item's own).
 */
export const customerProfile = defineItem({
  name: 'customer',
  key: customerKey,
  placeholder: ['<shop>', '<platform id>'],
  indexed: PROFILE_INDEXED,
  derived: ['list_pk', 'email_pk', 'email_lc', 'tier_list_pk', 'last_activity_at', ...DUE_ATTRIBUTES, 'version'],
  derive: (fields: CustomerRecord & { version: number }) => deriveProfile(fields),
});

/** The profile's put of `next` at `version`, under `condition`. */
const putProfile = (name: string, next: CustomerRecord, version: number, condition: Partial<Condition>): Write =>
  customerProfile.put(name, customerKey(next.shop_id, next.platform_customer_id), { ...next, version }, condition);

/**
 * A refused write of the profile, for the caller that decides on it: a conflict, or the profile as it stood
 * when the write `name` was refused (null: none, or it did not ask for it).
 */
export type ProfileRefused = { conflict: true } | { conflict: false; current: StoredCustomer | null };

export function refusedProfile(refusal: Refusal, name: string): ProfileRefused {
  if (refusal.kind === 'conflict') return { conflict: true };
  if (!refusal.failed.includes(name)) throw new Error(`A profile write was refused by ${refusal.failed.join(', ')}`);
  const old = refusal.current(name);
  return { conflict: false, current: old ? storedCustomerOf(old) : null };
}

// ---- named writes ----------------------------------------------------------------------------------

/** A new member's profile, written only if the customer has none. */
export function enrolProfile(record: CustomerRecord): Write {
  return putProfile('enrol the member', record, 1, { condition: 'attribute_not_exists(pk)' });
}

/**
 * The profile's next version, written only if it is still at the version read (whatever its status);
 * `returnOld`: a refusal carries the profile as it then stood.
 */
export function writeProfileAtVersion(current: StoredCustomer, next: CustomerRecord, options: { returnOld?: boolean } = {}): Write {
  return putProfile('write the profile at its version', next, current.version + 1, {
    condition: '#version = :version',
    values: { ':version': current.version },
    ...options,
  });
}

/**
 * The member's next figures, written only if the profile is still at the version read and still a member.
 * The points writes that use it never change the address: the e-mail search postings stay as they are.
 */
export function writeMemberBalance(current: StoredCustomer, next: CustomerRecord, options: { returnOld?: boolean } = {}): Write {
  if (normalisedEmail(next.email) !== normalisedEmail(current.record.email)) {
    throw new Error('A points write must not change the address: its e-mail search postings would not follow');
  }
  if (next.first_name !== current.record.first_name || next.last_name !== current.record.last_name) {
    throw new Error('A points write must not change the names: their search postings would not follow');
  }
  return putProfile("write the member's balance", next, current.version + 1, {
    condition: '#version = :version AND #status = :member',
    values: { ':version': current.version, ':member': 'member' },
    ...options,
  });
}

/** The profile deleted, only if it is still at the version read. */
export function deleteProfileAtVersion(shopId: string, customerId: string, version: number): Write {
  return customerProfile.delete('delete the profile', customerKey(shopId, customerId), {
    condition: '#version = :version',
    values: { ':version': version },
  });
}

/** Holds only while the member's normalised address is still `emailLc` (its postings are derived from it). */
export function checkProfileAddress(shopId: string, customerId: string, emailLc: string): Write {
  return customerProfile.check("check the member's address", customerKey(shopId, customerId), {
    condition: 'email_lc = :emailLc',
    values: { ':emailLc': emailLc },
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
  return customerProfile.check("check the member's names", customerKey(shopId, customerId), {
    condition: ['attribute_exists(pk)', ...conditions].join(' AND '),
    names: attributes,
    values,
  });
}

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
): Write {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const conditions = ['attribute_exists(pk)'];
  const set: Record<string, unknown> = { updated_at: now };
  const remove: string[] = [];
  if (changes.status !== undefined) {
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
    if (changes[field] !== undefined) set[field] = changes[field];
  }
  if (changes.email !== undefined) {
    const { email_lc: lower, email_pk: emailPk } = emailAttributes(record.shop_id, changes.email);
    Object.assign(set, { email: changes.email, email_lc: lower });
    if (emailPk) set.email_pk = emailPk;
    else remove.push('email_pk');
  }
  if (options.namesAsRead) {
    const asRead = namesCondition(record);
    Object.assign(names, asRead.attributes);
    Object.assign(values, asRead.values);
    conditions.push(...asRead.conditions);
  }
  if (options.addressAsRead) {
    names['#emailLc'] = 'email_lc';
    values[':emailLc'] = normalisedEmail(record.email);
    conditions.push('#emailLc = :emailLc');
  }
  return customerProfile.update(CHANGE_MEMBER_FIELDS, customerKey(record.shop_id, record.platform_customer_id), {
    set,
    remove,
    add: { version: 1 },
    condition: conditions.join(' AND '),
    names,
    values,
    returnOld: true,
  });
}

export const CHANGE_MEMBER_FIELDS = "change the member's fields";

/** `memberFieldsUpdate` as a write of a transaction (a new address or names, whose postings change beside it). */
export function changeMemberFields(record: CustomerRecord, changes: MemberChanges, now: string): Write {
  return memberFieldsUpdate(record, changes, now, { addressAsRead: true, namesAsRead: true });
}

/**
 * The tier-and-activity index attributes put on a profile that lacks them or carries stale ones (the member
 * list's backfill), only while the profile is at the version read: a write in between derives them itself.
 */
export function placeOnMemberList(
  shopId: string,
  customerId: string,
  version: number,
  wanted: Pick<Item, 'tier_list_pk' | 'last_activity_at'>,
): Write {
  return customerProfile.update('place the member on the member list', customerKey(shopId, customerId), {
    set: { tier_list_pk: wanted.tier_list_pk, last_activity_at: wanted.last_activity_at },
    condition: '#version = :version',
    values: { ':version': version },
  });
}
