// The one commit path. Every transaction of the code base is a list of named writes handed to `commit`:
// the item modules (shared/data/items/) make the writes, each named for what it does ("deduct points",
// "record the reward entry"), the repositories gather a feature's writes, and `commit` alone speaks
// TransactWriteItems: the request token, DynamoDB's 100-item limit, the cancellation reasons and what a
// refusal means. A feature never sees a condition, an update expression or a key: it sees which named
// write was refused, and the item as it stood when the refusal came back.
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import type { DomainEvent } from '../domain/events';
import { documentClient } from './client';
import { cancellationReasons, cancelledItem } from './dynamodb-errors';
import { actingStaff } from '../runtime/acting-staff';
import { nowIso } from '../runtime/clock';
import { committedEvent, recordEvent } from './items/domain-event';
import { staffAuditWrite } from './items/staff-audit';
import type { Item } from './items/item-type';
import type { Write } from './write';

export { namedWrite, type TransactItem, type Write } from './write';

/** DynamoDB's limit of writes in one transaction. */
export const TRANSACTION_LIMIT = 100;

/**
 * Why a transaction was refused:
 * - `condition`: the condition of one or more writes no longer held; `failed` names them in the order given,
 *   and `current(name)` is the item as it stood then (for writes that asked for it, else null);
 * - `conflict`: another transaction held one of the items (read again and decide anew).
 * Throttling after the SDK's own retries, and any other error, are not refusals: `commit` throws them as
 * DynamoDB raised them.
 */
export type Refusal =
  { readonly kind: 'condition'; readonly failed: readonly string[]; current(name: string): Item | null } | { readonly kind: 'conflict' };

export type CommitOutcome = { readonly committed: true } | { readonly committed: false; readonly refusal: Refusal };

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
    await documentClient().send(
      new TransactWriteCommand({
        ClientRequestToken: options.token ?? randomUUID(),
        TransactItems: writes.map((write) => write.request),
      }),
    );
    return COMMITTED;
  } catch (error) {
    const refusal = refusalOf(error, writes);
    if (refusal) return { committed: false, refusal };
    throw error;
  }
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
    if (reasons.includes('TransactionConflict')) return { kind: 'conflict' };
    return null;
  }
  if ((error as { name?: string } | null)?.name === 'TransactionConflictException') return { kind: 'conflict' };
  return null;
}

function describe(writes: readonly Write[]): string {
  const counts = new Map<string, number>();
  for (const write of writes) counts.set(write.name, (counts.get(write.name) ?? 0) + 1);
  return [...counts].map(([name, count]) => `${count} × ${name}`).join(', ');
}
