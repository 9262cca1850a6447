// The claim item: "do this once" for one key, as the table holds it. A claim is `in_progress` under a
// lease (the claimant's end, epoch milliseconds) and carries its claimant's id; a finished one holds the
// work's answer for replay until the table's TTL removes it. The kinds of claim (an Idempotency-Key's
// record, a webhook event's) share this item and its writes and differ only in their stored words: the
// status a finished claim has, the name of its lease attribute, its TTL and the answer's attributes.
// The protocol that uses these writes, `once`, is ../claims.ts.
import { tableName } from '../client';
import { TTL_ATTRIBUTE } from '../table';
import { namedWrite, type Write } from '../write';
import type { Item, ItemKey } from './item-type';
import { updateRequest } from './update';

/** What a claimant records of its work so far, for a claimant that takes its expired claim over. */
export type ClaimProgress = Record<string, string>;

/** The stored form of one kind of claim. `A` is the finished work's answer, kept for replay. */
export interface ClaimKind<A> {
  /** What the writes are named after ("Idempotency-Key", "webhook event"). */
  name: string;
  /** The status of a finished claim, as the kind's existing items hold it. */
  finished: string;
  /** The attribute holding the lease's end, in epoch milliseconds. */
  leaseAttribute: string;
  /** How long a claim is kept from the moment it is made (the table's TTL removes it then). */
  ttlSeconds: number;
  /**
   * Whether a claimant may record progress (`claimProgress`): an expired claim is then taken over by an update
   * that keeps it; otherwise a fresh claim's put replaces an expired one.
   */
  keepsProgress: boolean;
  /** The time leases and TTLs are read in. */
  clock: () => Date;
  /** Attributes a fresh claim is stamped with besides its lease and TTL. */
  stamp?: (now: Date) => Item;
  /** The finished work's answer as stored attributes, and back. */
  answer: { write: (answer: A) => Item; read: (item: Item) => A };
}

/** A kind's stored form, whatever its answer. */
export type ClaimForm = Omit<ClaimKind<unknown>, 'answer'>;

/** A claim on a key as the writes' conditions read it: the claimant and, if the kind binds one, the work. */
export interface ClaimHolder {
  key: ItemKey;
  claimId: string;
  /** What the work is (a request's hash): stored as `request_hash`; a claim for other work is refused. */
  fingerprint?: string;
}

/** A claim as stored, the fields the protocol reads. */
export interface StoredClaim {
  status: string;
  claim_id?: string;
  request_hash?: string;
  progress?: ClaimProgress;
  /** The lease's end, read from the kind's lease attribute (absent on older records: never expires). */
  leaseEnd?: number;
  item: Item;
}

export const IN_PROGRESS = 'in_progress';
const epochSeconds = (now: Date) => Math.floor(now.getTime() / 1000);

export function storedClaimOf(kind: ClaimForm, item: Item): StoredClaim {
  const lease = item[kind.leaseAttribute];
  return {
    status: String(item.status),
    claim_id: item.claim_id as string | undefined,
    request_hash: item.request_hash as string | undefined,
    progress: item.progress as ClaimProgress | undefined,
    leaseEnd: typeof lease === 'number' ? lease : undefined,
    item,
  };
}

/** Only the current claimant, still in progress (and on the same work), may write to the claim. */
function claimantCondition(holder: ClaimHolder) {
  const hash = holder.fingerprint === undefined ? '' : ' AND request_hash = :hash';
  return {
    condition: `#status = :inProgress${hash} AND claim_id = :claim`,
    values: {
      ':inProgress': IN_PROGRESS,
      ...(holder.fingerprint === undefined ? {} : { ':hash': holder.fingerprint }),
      ':claim': holder.claimId,
    },
  };
}

/**
 * A fresh claim, written if the key holds none, or only a claim whose TTL has passed (not deleted yet), or,
 * for a kind that keeps no progress, one whose lease has run out.
 */
export function putClaim(kind: ClaimForm, holder: ClaimHolder, leaseMs: number, now: Date): Write {
  const expiredLease = kind.keepsProgress ? '' : ' OR (#status = :inProgress AND #lease < :nowMs)';
  return namedWrite(`claim the ${kind.name}`, {
    Put: {
      TableName: tableName(),
      Item: {
        ...holder.key,
        ...(holder.fingerprint === undefined ? {} : { request_hash: holder.fingerprint }),
        status: IN_PROGRESS,
        ...kind.stamp?.(now),
        [TTL_ATTRIBUTE]: epochSeconds(now) + kind.ttlSeconds,
        [kind.leaseAttribute]: now.getTime() + leaseMs,
        claim_id: holder.claimId,
      },
      ConditionExpression: `attribute_not_exists(pk) OR #ttl < :now${expiredLease}`,
      ExpressionAttributeNames: {
        '#ttl': TTL_ATTRIBUTE,
        ...(kind.keepsProgress ? {} : { '#status': 'status', '#lease': kind.leaseAttribute }),
      },
      ExpressionAttributeValues: {
        ':now': epochSeconds(now),
        ...(kind.keepsProgress ? {} : { ':inProgress': IN_PROGRESS, ':nowMs': now.getTime() }),
      },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
}

/** The expired claim of a stopped claimant becomes `holder`'s, progress kept: conditional on the claim it replaces. */
export function takeOverClaim(kind: ClaimForm, holder: ClaimHolder, stopped: StoredClaim, leaseMs: number, now: Date): Write {
  const { condition, values } = claimantCondition({ ...holder, claimId: stopped.claim_id ?? '' });
  return namedWrite(
    `take over the ${kind.name}'s expired claim`,
    updateRequest(holder.key, {
      set: { claim_id: holder.claimId, [kind.leaseAttribute]: now.getTime() + leaseMs },
      condition: `${condition} AND #lease < :nowMs`,
      names: { '#lease': kind.leaseAttribute },
      values: { ...values, ':nowMs': now.getTime() },
      returnOld: true,
    }),
  );
}

/** The claim finished: its answer stored for replay, its lease and progress removed. */
export function finishClaim<A>(kind: ClaimKind<A>, holder: ClaimHolder, answer: A): Write {
  const { condition, values } = claimantCondition(holder);
  return namedWrite(
    `finish the ${kind.name}'s claim`,
    updateRequest(holder.key, {
      set: { status: kind.finished, ...kind.answer.write(answer) },
      remove: [kind.leaseAttribute, 'progress'],
      condition,
      values,
    }),
  );
}

/** The claim given back: deleted, unless its claimant recorded progress (see `expireClaim`). */
export function deleteClaim(kind: ClaimForm, holder: ClaimHolder): Write {
  const { condition, values } = claimantCondition(holder);
  return namedWrite(`release the ${kind.name}'s claim`, {
    Delete: {
      TableName: tableName(),
      Key: holder.key,
      ConditionExpression: `${condition} AND attribute_not_exists(progress)`,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: values,
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  });
}

/** A claim with recorded progress given back: its lease ends now, so the next claimant takes it over with it. */
export function expireClaim(kind: ClaimForm, holder: ClaimHolder, now: Date): Write {
  const { condition, values } = claimantCondition(holder);
  return namedWrite(
    `expire the ${kind.name}'s claim`,
    updateRequest(holder.key, {
      set: { [kind.leaseAttribute]: now.getTime() - 1 },
      condition: `${condition} AND attribute_exists(progress)`,
      values,
    }),
  );
}

/**
 * Records `progress` on the claim, in the transaction that does the work it describes: the work and its
 * record commit together, and both are refused if another claimant has taken the claim over.
 */
export function claimProgress(holder: ClaimHolder, progress: ClaimProgress): Write {
  const { condition, values } = claimantCondition(holder);
  return namedWrite('record progress on a claim', updateRequest(holder.key, { set: { progress }, condition, values }));
}
