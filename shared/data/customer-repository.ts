// Customer profiles: lookups, and the enrol and update transactions, each the profile's named writes and
// those of the items that follow it (the referral-code guard, the shop counters, the birthday timer, the
// e-mail search postings, the erasure tombstone) committed together (commit.ts). The sorted list and the
// e-mail search are customer-list.ts and email-search.ts.
import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord, MemberChanges } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { EarningEntry } from '../domain/history';
import { commit, commitOne, type Refusal, type Write } from './commit';
import { documentClient, tableName } from './client';
import { batchGet } from './item-reads';
import { followBirthday } from './items/birthday-timer';
import {
  changeMemberFields,
  customerEmailPartition,
  customerKey,
  enrolProfile,
  memberFieldsUpdate,
  type ProfileRefused,
  refusedProfile,
  type StoredCustomer,
  storedCustomerOf,
  writeProfileAtVersion,
} from './items/customer-profile';
import { recordEarningEntry } from './items/earning-entry';
import { followAddress } from './items/email-gram';
import { followNames } from './items/name-token';
import { checkNotErased, clearTombstone } from './items/erasure-tombstone';
import { claimReferralCode } from './items/referral';
import { countInShop, moveInShopCounts } from './items/shop';
import { GLOBAL_INDEXES } from './table';

export type { StoredCustomer };

export async function getCustomer(shopId: string, customerId: string, consistent = false): Promise<StoredCustomer | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: customerKey(shopId, customerId), ConsistentRead: consistent }),
  );
  return result.Item ? storedCustomerOf(result.Item) : null;
}

export async function findCustomerByEmail(shopId: string, email: string): Promise<StoredCustomer | null> {
  const result = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GLOBAL_INDEXES.customersByEmail.indexName,
      KeyConditionExpression: 'email_pk = :pk',
      ExpressionAttributeValues: { ':pk': customerEmailPartition(shopId, email) },
      Limit: 2,
    }),
  );
  const item = result.Items?.[0];
  return item ? storedCustomerOf(item) : null;
}

/**
 * Why an enrol transaction was refused. `conflict`: another transaction held one of the items at that moment
 * (the shop's member counters, which every enrolment moves): nothing was written, and trying again after a
 * short wait succeeds.
 */
export type CreateCustomerOutcome = 'created' | 'customer_exists' | 'referral_code_taken' | 'erased' | 'conflict';

/** Which of these customers (at most 100) have a profile, read consistently: one BatchGetItem a try. */
export async function enrolledCustomerIds(shopId: string, customerIds: readonly string[]): Promise<Set<string>> {
  if (customerIds.length > 100) throw new RangeError('At most 100 customers a read');
  const found = await batchGet(
    customerIds.map((id) => customerKey(shopId, id)),
    { consistent: true },
  );
  return new Set(found.map((item) => String(item.platform_customer_id)));
}

/**
 * Enrols a customer atomically: profile, referral-code guard, shop counter, e-mail and name search postings
 * change together or not at all, and only if the customer does not exist yet. `emailPostingsWritten`:
 * the postings were put before (`putEmailPostings`, a bulk enrolment), so the transaction leaves them out.
 */
export async function createCustomer(
  record: CustomerRecord,
  options: {
    countInShop?: boolean;
    entries?: EarningEntry[];
    /** The e-mail postings were put before the transaction (an import's or a configuration's batch). */
    emailPostingsWritten?: boolean;
    /**
     * An import (`config apply`, the twin's start): refused ('erased') while the customer's erasure tombstone
     * stands. Any other enrolment is the customer enrolled anew and clears the tombstone in the same transaction.
     */
    unlessErased?: boolean;
    /** The enrolment's domain events, committed with it (commit.ts): they exist if and only if it did. */
    events?: readonly DomainEvent[];
  } = {},
): Promise<CreateCustomerOutcome> {
  const { shop_id: shopId, platform_customer_id: customerId } = record;
  const enrol = enrolProfile(record);
  const claim = claimReferralCode(shopId, record.referral_code, customerId);
  const tombstone = options.unlessErased ? checkNotErased(shopId, customerId) : clearTombstone(shopId, customerId);
  const outcome = await commit(
    [
      enrol,
      claim,
      ...(options.countInShop === false ? [] : [countInShop(shopId, record.status, 1)]),
      ...followBirthday(record, null),
      // The e-mail search postings of the address.
      ...(options.emailPostingsWritten ? [] : followAddress(shopId, customerId, null, record.email)),
      // The name search postings of the names.
      ...followNames(shopId, customerId, null, record),
      // Entries awarded on enrolment (signup points) commit with the profile or not at all.
      ...(options.entries ?? []).map((entry) => recordEarningEntry(shopId, customerId, entry)),
      // An erasure holds against an import.
      tombstone,
    ],
    { events: options.events },
  );
  if (outcome.committed) return 'created';
  const { refusal } = outcome;
  if (refusal.kind === 'condition') {
    if (refusal.failed.includes(enrol.name)) return 'customer_exists';
    if (refusal.failed.includes(claim.name)) return 'referral_code_taken';
    if (refusal.failed.includes(tombstone.name)) return 'erased';
  }
  if (refusal.kind === 'conflict') return 'conflict';
  throw refusedEnrolment(customerId, refusal);
}

/** An enrolment refused for no reason the caller decides on (another transaction held an item, an entry's id taken). */
function refusedEnrolment(customerId: string, refusal: Refusal): Error {
  const why = refusal.kind === 'condition' ? refusal.failed.join(', ') : 'another transaction';
  return new Error(`Enrolling customer ${customerId}: the transaction was refused by ${why}`);
}

/** A write of the profile: written, or refused (a conflict, or the profile as it is now when DynamoDB returned it; null: none). */
export type CustomerWrite = { written: true; record: CustomerRecord } | ({ written: false } & ProfileRefused);

/**
 * Applies a member's field changes. Changes that touch only the profile (the anniversary date, a date of
 * birth or status the member already has, the platform's e-mail and names) are one UpdateItem that sets
 * those fields alone, conditioned only on the status and date of birth it was decided on: it never refuses
 * nor is refused by a points write, and answers the profile as written. A new date of birth (the birthday
 * timer follows it) or status (the shop counters, the list partition and the due work follow it) is one
 * transaction conditioned on the profile's version, as every write of the whole profile. Refused when
 * another writer got there first, with the profile as it is now when DynamoDB returned it.
 */
export async function updateCustomer(current: StoredCustomer, changes: MemberChanges, now: string): Promise<CustomerWrite> {
  const { record } = current;
  const otherItems =
    (changes.status !== undefined && changes.status !== record.status) ||
    (changes.date_of_birth !== undefined && changes.date_of_birth !== record.date_of_birth);
  return otherItems ? updateWithOtherItems(current, changes, now) : updateProfileFields(current, changes, now);
}

async function updateProfileFields(current: StoredCustomer, changes: MemberChanges, now: string): Promise<CustomerWrite> {
  const { record } = current;
  const postings = [
    ...(changes.email === undefined ? [] : followAddress(record.shop_id, record.platform_customer_id, record.email, changes.email)),
    ...(changes.first_name === undefined && changes.last_name === undefined
      ? []
      : followNames(record.shop_id, record.platform_customer_id, record, {
          first_name: changes.first_name ?? record.first_name,
          last_name: changes.last_name ?? record.last_name,
        })),
  ];
  if (postings.length > 0) return updateWithPostings(current, changes, now, postings);
  // One UpdateItem whatever the request: a staff request's change of fields alone is sent as it always was.
  const write = memberFieldsUpdate(record, changes, now);
  const outcome = await commitOne(write, { returnItem: true, audit: false });
  if (outcome.committed) return { written: true, record: storedCustomerOf(outcome.item!).record };
  return { written: false, ...refusedProfile(outcome.refusal, write.name) };
}

/** A refused transaction whose profile write is `profile`: the profile it lost to (a changed version or address), or a conflict. */
function refusedProfileWrite(refusal: Refusal, profile: Write): CustomerWrite {
  return { written: false, ...refusedProfile(refusal, profile.name) };
}

/**
 * A new address or new names: the same update of the fields, conditioned also on the address and names it
 * replaces (the postings deleted are theirs), in one transaction with the postings; then the profile as written, read
 * consistently (a transaction answers no item).
 */
async function updateWithPostings(current: StoredCustomer, changes: MemberChanges, now: string, postings: Write[]): Promise<CustomerWrite> {
  const { record } = current;
  const profile = changeMemberFields(record, changes, now);
  const outcome = await commit([profile, ...postings]);
  if (!outcome.committed) return refusedProfileWrite(outcome.refusal, profile);
  const written = await getCustomer(record.shop_id, record.platform_customer_id, true);
  if (!written) return { written: false, conflict: false, current: null };
  return { written: true, record: written.record };
}

async function updateWithOtherItems(current: StoredCustomer, changes: MemberChanges, now: string): Promise<CustomerWrite> {
  const { record } = current;
  const next: CustomerRecord = { ...record, ...changes, updated_at: now };
  const profile = writeProfileAtVersion(current, next, { returnOld: true });
  const outcome = await commit([
    profile,
    ...followBirthday(next, record.date_of_birth),
    ...followAddress(record.shop_id, record.platform_customer_id, record.email, next.email),
    ...followNames(record.shop_id, record.platform_customer_id, record, next),
    ...(changes.status && changes.status !== record.status ? [moveInShopCounts(record.shop_id, record.status, changes.status)] : []),
  ]);
  if (!outcome.committed) return refusedProfileWrite(outcome.refusal, profile);
  return { written: true, record: next };
}
