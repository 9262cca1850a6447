// The import's writes (docs/migrate.md): the members' state as an import reads it (profile and the
// import's record, a chunk at a time), one transaction per member that writes the member and the
// import's record of it together (refused as a whole when the record exists: a member is imported once
// per import), the undo of one member in one transaction, and the import's header.
import { BatchGetCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { EarningEntry } from '../domain/history';
import { BATCH_BACKOFF, retryUntil } from '../runtime/retry';
import { documentClient, tableName } from './client';
import { commit, commitOne, type Write } from './commit';
import { BATCH_ATTEMPTS, batchDelete, forEachPartitionPage, type Item } from './item-reads';
import { removeBirthdayTimer } from './items/birthday-timer';
import {
  enrolProfile,
  customerKey,
  normalisedEmail,
  deleteProfileAtVersion,
  writeProfileAtVersion,
  storedCustomerOf,
  type StoredCustomer,
} from './items/customer-profile';
import { recordEarningEntry, removeEarningEntry } from './items/earning-entry';
import { emailPostingKeys } from './items/email-gram';
import { followNames } from './items/name-token';
import { checkNotErased } from './items/erasure-tombstone';
import {
  forgetImportedMember,
  IMPORT_SHARDS,
  markImport,
  recordImport,
  importHeaderKey,
  type ImportHeader,
  type ImportMemberRecord,
  importRecordKey,
  importRecordPartition,
  recordImportedMember,
} from './items/import-record';
import { claimReferralCode, dropReferralCode } from './items/referral';
import { followBirthday } from './items/birthday-timer';

export type { ImportHeader, ImportMemberRecord };

/** A member as an import finds it: its profile (null: not enrolled) and this import's record of it (null: not imported yet). */
export interface ImportedMemberState {
  profile: StoredCustomer | null;
  record: ImportMemberRecord | null;
}

/** Reads the profiles and this import's records of up to 50 members, consistently (100 keys, one BatchGetItem a try). */
export async function readImportStates(shopId: string, importId: string, customerIds: string[]): Promise<Map<string, ImportedMemberState>> {
  if (customerIds.length > 50) throw new RangeError('At most 50 members a read');
  const keys = customerIds.flatMap((id) => [customerKey(shopId, id), importRecordKey(shopId, importId, id)]);
  const found = new Map<string, Item>();
  let pending: Array<Record<string, unknown>> = keys.map((key) => ({ pk: key.pk, sk: key.sk }));
  const read = await retryUntil(BATCH_ATTEMPTS, BATCH_BACKOFF, async () => {
    if (pending.length === 0) return true;
    const result = await documentClient().send(
      new BatchGetCommand({ RequestItems: { [tableName()]: { Keys: pending, ConsistentRead: true } } }),
    );
    for (const item of (result.Responses?.[tableName()] ?? []) as Item[]) found.set(`${item.pk as string}|${item.sk as string}`, item);
    pending = result.UnprocessedKeys?.[tableName()]?.Keys ?? [];
    return pending.length === 0 ? true : undefined;
  });
  if (!read) throw new Error('BatchGet left keys unprocessed after retries');
  const states = new Map<string, ImportedMemberState>();
  for (const id of customerIds) {
    const profile = found.get(keyString(customerKey(shopId, id)));
    const record = found.get(keyString(importRecordKey(shopId, importId, id)));
    states.set(id, { profile: profile ? storedCustomerOf(profile) : null, record: record ? recordOfItem(record) : null });
  }
  return states;
}

/** One member's state, read consistently (after a refused write). */
export async function readImportState(shopId: string, importId: string, customerId: string): Promise<ImportedMemberState> {
  const [profile, record] = await Promise.all([
    documentClient().send(new GetCommand({ TableName: tableName(), Key: customerKey(shopId, customerId), ConsistentRead: true })),
    documentClient().send(
      new GetCommand({ TableName: tableName(), Key: importRecordKey(shopId, importId, customerId), ConsistentRead: true }),
    ),
  ]);
  return {
    profile: profile.Item ? storedCustomerOf(profile.Item) : null,
    record: record.Item ? recordOfItem(record.Item) : null,
  };
}

const keyString = (key: { pk: string; sk: string }) => `${key.pk}|${key.sk}`;

function recordOfItem(item: Item): ImportMemberRecord {
  const { pk: _pk, sk: _sk, ...record } = item;
  return record as unknown as ImportMemberRecord;
}

/** One member's import: the profile as read (null: enrol it), the profile to write, its entry and the import's record. */
export interface ImportMemberWrite {
  shopId: string;
  importId: string;
  current: StoredCustomer | null;
  next: CustomerRecord;
  entry: EarningEntry | null;
  record: Omit<ImportMemberRecord, 'version'>;
  /** The member's domain events of the import: committed with it, or not at all. */
  events?: readonly DomainEvent[];
}

export type ImportMemberOutcome =
  | 'written'
  /** This import's record of the member exists: imported already (by this run or an earlier one). */
  | 'already_imported'
  /** The profile is not as read (another writer, or enrolled meanwhile): read again and decide anew. */
  | 'changed'
  /** A created member's referral code is another member's: draw again. */
  | 'referral_code_taken'
  /** The customer's erasure tombstone stands (customers/redact): an import never brings them back. */
  | 'erased';

/**
 * One transaction: the import's record of the member (only if it does not exist), the profile (a new one
 * only if there is none, an existing one only at the version read), the import's entry (only if it does not
 * exist), the birthday timer as the date of birth says, and for a new member its referral-code guard, as
 * enrolment writes them; a new member's e-mail postings are put before it (`putEmailPostings` of email-index-repository). The shop's
 * counters are recounted after the run.
 */
export async function writeImportedMember(write: ImportMemberWrite): Promise<ImportMemberOutcome> {
  const { shopId, importId, current, next, entry } = write;
  const customerId = next.platform_customer_id;
  const version = current ? current.version + 1 : 1;
  if (current && normalisedEmail(current.record.email) !== normalisedEmail(next.email)) {
    throw new Error('An import never changes an address: its e-mail search postings would not follow');
  }
  const record = recordImportedMember(shopId, importId, { ...write.record, version });
  const profile = current ? writeProfileAtVersion(current, next) : enrolProfile(next);
  const referralCode = current ? null : claimReferralCode(shopId, next.referral_code, customerId);
  const earned = entry ? recordEarningEntry(shopId, customerId, entry) : null;
  // A new member only while no erasure tombstone stands (customers/redact).
  const notErased = current ? null : checkNotErased(shopId, customerId);
  const writes = [
    record,
    profile,
    ...(referralCode ? [referralCode] : []),
    ...(earned ? [earned] : []),
    ...birthdayTimer(next, current ? current.record.date_of_birth : null),
    ...(notErased ? [notErased] : []),
    // The name search postings follow the names in the transaction (a few items, unlike the e-mail's).
    ...followNames(shopId, customerId, current ? current.record : null, next),
  ];
  const outcome = await commit(writes, { events: write.events ?? [] });
  if (outcome.committed) return 'written';
  const { refusal } = outcome;
  if (refusal.kind === 'conflict') return 'changed';
  const refused = (write: Write | null) => write !== null && refusal.failed.includes(write.name);
  if (refused(record)) return 'already_imported';
  if (refused(notErased)) return 'erased';
  if (refused(profile)) return 'changed';
  if (refused(referralCode)) return 'referral_code_taken';
  // The import's entry exists without its record: only the record's own write puts it, so it was imported.
  if (refused(earned)) return 'already_imported';
  throw new Error(`The import of member ${customerId} was refused by '${refusal.failed.join("', '")}'`);
}

/** The birthday timer's writes that follow the date of birth (`birthdayTimerWrites`), named. */
const birthdayTimer = (next: CustomerRecord, previousDate: string | null): Write[] => followBirthday(next, previousDate);

/** Writes the import's header unless it exists (a re-run keeps the first run's). */
export async function putImportHeader(header: ImportHeader): Promise<void> {
  const outcome = await commitOne(recordImport(header));
  // Run again after an undo: the import is live again.
  if (!outcome.committed && outcome.refusal.kind === 'condition') await commitOne(markImport(header.shop_id, header.import_id, null));
  else if (!outcome.committed) throw new Error(`The header of import ${header.import_id} met another transaction`);
}

export async function readImportHeader(shopId: string, importId: string): Promise<ImportHeader | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: importHeaderKey(shopId, importId), ConsistentRead: true }),
  );
  if (!result.Item) return null;
  const { pk: _pk, sk: _sk, ...header } = result.Item;
  return header as ImportHeader;
}

export async function markImportUndone(shopId: string, importId: string, at: string): Promise<void> {
  await commitOne(markImport(shopId, importId, at));
}

/** Every record of an import still there (not undone yet), shard by shard, a page at a time. */
export async function forEachImportRecord(
  shopId: string,
  importId: string,
  onPage: (records: ImportMemberRecord[]) => Promise<void>,
): Promise<void> {
  for (let shard = 0; shard < IMPORT_SHARDS; shard += 1) {
    await forEachPartitionPage(importRecordPartition(shopId, importId, shard), 200, (items) => onPage(items.map(recordOfItem)));
  }
}

/** The undo of one member: remove it (created and untouched since) or write the profile back. */
export type UndoMemberWrite = (
  | { kind: 'remove'; shopId: string; importId: string; current: StoredCustomer; record: ImportMemberRecord }
  | { kind: 'restore'; shopId: string; importId: string; current: StoredCustomer; next: CustomerRecord; record: ImportMemberRecord }
  /** The member is gone (erased or merged away): only the record goes, and the import's entry if it is still there. */
  | { kind: 'forget'; shopId: string; importId: string; record: ImportMemberRecord }
) & {
  /**
   * The member's events of the undo, committed with it, given whether the import's entry is still there to
   * be deleted (the program's figures count out what the undo takes: docs/events.md, `import.undone`).
   */
  events: (entryRemoved: boolean) => readonly DomainEvent[];
};

export type UndoMemberOutcome = 'written' | 'already_undone' | 'changed';

/**
 * One transaction: the import's record deleted (only while it exists: an undo takes a member back once)
 * with the member removed (profile at the version the import wrote, its referral-code guard, its birthday
 * timer and the import's entry; its e-mail search postings are deleted right after) or its profile written back at the
 * version read, the import's entry deleted and the birthday timer following the date of birth; and the
 * member's events of the undo. The import's entry is deleted only while it exists: when it is gone (a merge
 * or an erasure took it), the transaction is made again without it, and its events say so.
 */
export async function undoImportedMember(write: UndoMemberWrite): Promise<UndoMemberOutcome> {
  const first = await undoImportedMemberOnce(write, write.record.entry_id !== null);
  return first === 'entry_gone' ? ((await undoImportedMemberOnce(write, false)) as UndoMemberOutcome) : first;
}

async function undoImportedMemberOnce(write: UndoMemberWrite, withEntry: boolean): Promise<UndoMemberOutcome | 'entry_gone'> {
  const { shopId, importId, record } = write;
  const customerId = record.customer_id;
  const forget = forgetImportedMember(shopId, importId, customerId);
  const entry = withEntry && record.entry_id ? removeEarningEntry(shopId, customerId, record.entry_id) : null;
  const entryRemoval = entry ? [entry] : [];
  let profile: Write | null = null;
  const writes: Write[] = [forget];
  if (write.kind === 'remove') {
    const { current } = write;
    profile = deleteProfileAtVersion(shopId, customerId, current.version);
    writes.push(
      profile,
      dropReferralCode(shopId, current.record.referral_code),
      ...entryRemoval,
      ...(current.record.date_of_birth ? [removeBirthdayTimer(shopId, customerId)] : []),
      ...followNames(shopId, customerId, current.record, null),
    );
  } else if (write.kind === 'restore') {
    const { current, next } = write;
    profile = writeProfileAtVersion(current, next);
    writes.push(
      profile,
      ...entryRemoval,
      ...birthdayTimer(next, current.record.date_of_birth),
      ...followNames(shopId, customerId, current.record, next),
    );
  } else {
    writes.push(...entryRemoval);
  }
  const outcome = await commit(writes, { events: write.events(entry !== null) });
  if (!outcome.committed) {
    const { refusal } = outcome;
    if (refusal.kind === 'conflict') return 'changed';
    if (refusal.failed.includes(forget.name)) return 'already_undone';
    if (profile && refusal.failed.includes(profile.name)) return 'changed';
    if (entry && refusal.failed.includes(entry.name)) return 'entry_gone';
    throw new Error(`The undo of member ${customerId} was refused by '${refusal.failed.join("', '")}'`);
  }
  // A removed member's postings go after its profile: left behind by a stop, they match nothing.
  if (write.kind === 'remove') await batchDelete(emailPostingKeys(shopId, customerId, normalisedEmail(write.current.record.email)));
  return 'written';
}
