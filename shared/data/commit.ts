// The one commit path. Every write of the code base is a named write (or a list of them) handed to `commit`,
// or, for one item that needs no transaction, to `commitOne`: the item definitions (shared/data/items/) make
// the writes, each named for what it does ("deduct points", "record the reward entry"), the repositories
// gather a feature's writes, and these two alone decide what DynamoDB's answer means (table.ts sends them):
// the request token, DynamoDB's 100-item limit, the cancellation reasons and what a refusal means. A feature
// never sees a condition, an update expression or a key: it sees which named write was refused, and the
// item as it stood when the refusal came back.
import { randomUUID } from 'node:crypto';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { DomainEvent } from '../domain/events';
import { cancellationReasons, cancelledItem, isConditionalCheckFailed } from './dynamodb-errors';
import { sendItemWrite, sendTransaction } from './table';
import { actingStaff } from '../runtime/acting-staff';
import { nowIso } from '../runtime/clock';
import { committedEvent, recordEvent } from './items/domain-event';
import { staffAuditWrite } from './items/staff-audit';
import type { Item } from './items/item-type';
import type { Write } from './write';

export { namedWrite, type Write } from './write';

/** DynamoDB's limit of writes in one transaction. */
export const TRANSACTION_LIMIT = 100;

/**
 * Why a write, or a transaction, was refused, the one refusal of the data layer:
 * - `condition`: the condition of one or more writes no longer held; `failed` names them in the order given,
 *   and `current(name)` is the item as it stood then (for writes that asked for it, else null);
 * - `conflict`: another transaction held an item (read again and decide anew); `failed` names the writes
 *   whose item it held, when DynamoDB said which (every write given, when it refused the whole request).
 * Throttling after the SDK's own retries, and any other error, are not refusals: `commit` throws them as
 * DynamoDB raised them.
 */
export type Refusal =
  | { readonly kind: 'condition'; readonly failed: readonly string[]; current(name: string): Item | null }
  | { readonly kind: 'conflict'; readonly failed: readonly string[] };

/** What a commit answers: committed (with the item as written, when `commitOne` was asked for it), or refused. */
export type CommitOutcome = { readonly committed: true; readonly item?: Item } | { readonly committed: false; readonly refusal: Refusal };

export interface CommitOptions {
  /**
   * The domain events of the change: each is recorded in the same transaction (items/domain-event.ts), so
   * it exists if and only if the change committed; the table's stream delivers it. They count toward
   * the 100-write limit.
   */
  readonly events?: readonly DomainEvent[];
  /**
   * The request token: by default one per call, so an SDK retry of a commit whose answer was lost is a
   * no-op instead of a refusal. A caller that retries one attempt across calls passes its own.
   */
  readonly token?: string;
  /**
   * False when the writes name who made each themselves, so a staff request's transaction records no one (a
   * member's queue of adjustments, applied together by whichever request commits them: each adjustment's entry
   * carries its own actor, and each request recorded its joining of the queue).
   */
  readonly audit?: false;
}

const COMMITTED: CommitOutcome = { committed: true };

/**
 * Commits `writes` as one transaction, all or none; a refusal says which named write was refused and why. Made
 * for a staff request (/admin/api), the transaction also records who made it (runtime/acting-staff.ts).
 */
export async function commit(changes: readonly Write[], options: CommitOptions = {}): Promise<CommitOutcome> {
  const given = [...changes, ...(options.events ?? []).map((event) => recordEvent(committedEvent(event)))];
  if (given.length === 0) return COMMITTED;
  // A staff request's change records who made it, in its own transaction (items/staff-audit.ts).
  const staff = options.audit === false ? null : actingStaff();
  const audit = staff && given.length < TRANSACTION_LIMIT ? staffAuditWrite(given, staff, nowIso()) : null;
  const writes = audit ? [...given, audit] : given;
  if (writes.length > TRANSACTION_LIMIT) {
    throw new Error(`A transaction takes at most ${TRANSACTION_LIMIT} writes; ${writes.length} were given (${describe(writes)})`);
  }
  try {
    await sendTransaction(
      writes.map((write) => write.request),
      options.token ?? randomUUID(),
    );
    return COMMITTED;
  } catch (error) {
    const refusal = refusalOf(error, writes);
    if (refusal) return { committed: false, refusal };
    throw error;
  }
}

export interface CommitOneOptions {
  /** False when the write is no staff change of its own, so a staff request sends it alone too (see `CommitOptions.audit`). */
  readonly audit?: false;
  /** The item as written comes back (`item` of the outcome). */
  readonly returnItem?: boolean;
}

/** Tries of a staff write whose transaction met another transaction on its item. */
const STAFF_WRITE_ATTEMPTS = 5;

/**
 * Commits one write of one item that needs no transaction: the single-item request it is (PutItem, UpdateItem
 * or DeleteItem), with the same item, condition and cost as a transaction's write of it, without the
 * transaction's double write units. A refusal of its condition is an answer, not an error. Made for a staff
 * request, the write records who made it, which takes a transaction with the audit item (tried again while
 * it meets other transactions on its item).
 */
export async function commitOne(write: Write, options: CommitOneOptions = {}): Promise<CommitOutcome> {
  if (!write.request.Put && !write.request.Update && !write.request.Delete) {
    throw new Error(`'${write.name}' is a condition check: it belongs in a transaction`);
  }
  if (options.audit !== false && actingStaff()) return staffWrite(write);
  try {
    const item = await sendItemWrite(write.request, options.returnItem);
    return item && options.returnItem ? { committed: true, item } : COMMITTED;
  } catch (error) {
    const refusal = singleRefusalOf(error, write);
    if (refusal) return { committed: false, refusal };
    throw error;
  }
}

async function staffWrite(write: Write): Promise<CommitOutcome> {
  for (let attempt = 1; attempt <= STAFF_WRITE_ATTEMPTS; attempt += 1) {
    const outcome = await commit([write]);
    if (outcome.committed || outcome.refusal.kind === 'condition') return outcome;
  }
  throw new Error(`'${write.name}' kept meeting other transactions on its item`);
}

/** True when committed; false on any refusal (the caller reads again and decides anew). */
export async function committedUnlessRefused(writes: readonly Write[], options: CommitOptions = {}): Promise<boolean> {
  return (await commit(writes, options)).committed;
}

function refusalOf(error: unknown, writes: readonly Write[]): Refusal | null {
  const reasons = cancellationReasons(error);
  if (reasons) {
    const failedAt = reasons.flatMap((code, index) => (code === 'ConditionalCheckFailed' ? [index] : []));
    if (failedAt.length > 0) {
      const failed = failedAt.map((index) => writes[index]!.name);
      return {
        kind: 'condition',
        failed,
        current: (name) => {
          const index = failedAt.find((at) => writes[at]!.name === name);
          return index === undefined ? null : cancelledItem(error, index);
        },
      };
    }
    const conflicts = reasons.flatMap((code, index) => (code === 'TransactionConflict' ? [writes[index]!.name] : []));
    if (conflicts.length > 0) return { kind: 'conflict', failed: conflicts };
    return null;
  }
  if ((error as { name?: string } | null)?.name === 'TransactionConflictException')
    return { kind: 'conflict', failed: writes.map((write) => write.name) };
  return null;
}

/** A single-item write's refusal: its condition (with the item as it stood, when it asked for it), or a conflict. */
function singleRefusalOf(error: unknown, write: Write): Refusal | null {
  if (isConditionalCheckFailed(error)) {
    const { Item: old } = error as { Item?: Record<string, never> };
    const current = old ? unmarshall(old) : null;
    return { kind: 'condition', failed: [write.name], current: (name) => (name === write.name ? current : null) };
  }
  if ((error as { name?: string } | null)?.name === 'TransactionConflictException') return { kind: 'conflict', failed: [write.name] };
  return null;
}

function describe(writes: readonly Write[]): string {
  const counts = new Map<string, number>();
  for (const write of writes) counts.set(write.name, (counts.get(write.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${count} × ${name}`).join(', ');
}
