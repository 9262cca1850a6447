// The one commit path. Every transaction of the code base is a list of named writes handed to `commit`:
// the item modules (shared/data/items/) make the writes, each named for what it does ("deduct points",
// "record the reward entry"), the repositories gather a feature's writes, and `commit` alone speaks
// TransactWriteItems: the request token, DynamoDB's 100-item limit, the cancellation reasons and what a
// refusal means. A feature never sees a condition, an update expression or a key: it sees which named
// write was refused, and the item as it stood when the refusal came back.
import { randomUUID } from 'node:crypto';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { documentClient } from './client';
import { cancellationReasons, cancelledItem } from './dynamodb-errors';
import type { Item } from './items/item-type';

/** One request of a TransactWriteItems call, as the SDK takes it. Only item modules and `commit` build or read one. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

/** One named write of a transaction: opaque to the features, which pass it on to `commit` untouched. */
export interface Write {
  /** What the write does, in the domain's words ("deduct points"); a refusal names it. */
  readonly name: string;
  readonly request: TransactItem;
}

/** A named write; item modules make them, nothing else does. */
export const namedWrite = (name: string, request: TransactItem): Write => ({ name, request });

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
  | { readonly kind: 'condition'; readonly failed: readonly string[]; current(name: string): Item | null }
  | { readonly kind: 'conflict' };

export type CommitOutcome = { readonly committed: true } | { readonly committed: false; readonly refusal: Refusal };

export interface CommitOptions {
  /**
   * The request token: by default one per call, so an SDK retry of a commit whose answer was lost is a
   * no-op instead of a refusal. A caller that retries one attempt across calls passes its own.
   */
  readonly token?: string;
}

const COMMITTED: CommitOutcome = { committed: true };

/** Commits `writes` as one transaction, all or none; a refusal says which named write was refused and why. */
export async function commit(writes: readonly Write[], options: CommitOptions = {}): Promise<CommitOutcome> {
  if (writes.length === 0) return COMMITTED;
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
