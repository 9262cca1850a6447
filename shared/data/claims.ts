// "Do this once": `once(key, lease, work)` runs `work` at most once per key, whatever the number of
// attempts (a client's retries with the same Idempotency-Key, a webhook event delivered again). The first
// attempt claims the key under a lease; a finished claim replays its answer; a claim held by a claimant that
// may still be running refuses the attempt; a claim whose lease has run out (its claimant is known to be
// stopped) is taken over, with the progress the stopped claimant recorded. Each claim has its own id: only
// its claimant finishes, releases or records progress on it, and a claim found with the attempt's own id
// (a write whose answer was lost, or an earlier receive of the same queue message) is the attempt's own.
// The claim item and its writes are ./items/claim.ts; the kinds of claim are declared beside their keys.
import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { commitOne } from './commit';
import { documentClient, tableName } from './client';
import {
  type ClaimForm,
  type ClaimHolder,
  type ClaimKind,
  type ClaimProgress,
  deleteClaim,
  expireClaim,
  finishClaim,
  IN_PROGRESS,
  putClaim,
  storedClaimOf,
  type StoredClaim,
  takeOverClaim,
} from './items/claim';
import type { Item, ItemKey } from './items/item-type';
import type { Write } from './write';

export { claimProgress, type ClaimKind, type ClaimProgress } from './items/claim';

/** What is to be done once: the kind of claim, its key, and who asks. */
export interface OnceKey<A> {
  kind: ClaimKind<A>;
  key: ItemKey;
  /** What the work is (a request's hash): the same key claimed for other work is refused with `other_work`. */
  fingerprint?: string;
  /** The attempt's claimant id (a queue message's id, the same on each receive); a fresh one by default. */
  claimant?: string;
}

/** The claim `work` runs under. */
export interface Claim extends ClaimHolder {
  /** The progress of a stopped claimant whose claim this one took over; null for a fresh claim. */
  resumed: ClaimProgress | null;
}

/** How `work` ends: its answer stored for replay (`finish`), or the claim given back for another attempt (`release`). */
export type Settled<A, R> = { finish: A; result: R } | { release: true; result: R };

/** The answer of `once`: the work ran now, or the key was refused. */
export type OnceOutcome<A, R> =
  | { ran: true; result: R }
  /** Finished by an earlier attempt: its stored answer. */
  | { ran: false; refused: 'finished'; answer: A }
  /** Another claimant holds the key and may still be running. */
  | { ran: false; refused: 'in_progress' }
  /** The key was claimed for other work (another fingerprint). */
  | { ran: false; refused: 'other_work' };

/**
 * Runs `work` once for `key`, holding the claim `leaseMs` (longer than the attempt may run). `work` settles
 * by finishing (the answer is stored) or releasing; if it throws, the claim is released and the error goes
 * on. A failure to store the answer is thrown and leaves the claim to its lease (a retry with the same
 * claimant takes it over at once).
 */
export async function once<A, R>(
  key: OnceKey<A>,
  leaseMs: number,
  work: (claim: Claim) => Promise<Settled<NoInfer<A>, R>>,
): Promise<OnceOutcome<A, R>> {
  const claimed = await claim(key, leaseMs);
  if (!('claim' in claimed)) return claimed;
  const held = claimed.claim;
  let settled: Settled<A, R>;
  try {
    settled = await work(held);
  } catch (error) {
    await release(key.kind, held).catch(() => undefined);
    throw error;
  }
  if ('finish' in settled) await sendAlone(finishClaim(key.kind, held, settled.finish));
  else await release(key.kind, held);
  return { ran: true, result: settled.result };
}

type Claimed<A> = { claim: Claim } | Exclude<OnceOutcome<A, never>, { ran: true }>;

async function claim<A>(key: OnceKey<A>, leaseMs: number): Promise<Claimed<A>> {
  const { kind } = key;
  const now = kind.clock();
  const holder: ClaimHolder = { key: key.key, claimId: key.claimant ?? randomUUID(), fingerprint: key.fingerprint };
  const sent = await sendAlone(putClaim(kind, holder, leaseMs, now));
  if (sent.written) return { claim: { ...holder, resumed: null } };
  const current = sent.current ? storedClaimOf(kind, sent.current) : await readClaim(kind, key.key);
  // Deleted since the refusal: try again on what is there now.
  if (!current) return claim(key, leaseMs);
  if (current.status === IN_PROGRESS && current.claim_id === holder.claimId) return { claim: { ...holder, resumed: null } };
  if (key.fingerprint !== undefined && current.request_hash !== key.fingerprint) return { ran: false, refused: 'other_work' };
  if (current.status === kind.finished) return { ran: false, refused: 'finished', answer: kind.answer.read(current.item) };
  if (!leaseExpired(current, now)) return { ran: false, refused: 'in_progress' };
  const takenOver = await sendAlone(takeOverClaim(kind, holder, current, leaseMs, now), 'ALL_NEW');
  if (takenOver.written) return { claim: { ...holder, resumed: (takenOver.current?.progress as ClaimProgress | undefined) ?? null } };
  // Refused on the SDK's retry of our own update, whose answer was lost: the claim is ours.
  const after = takenOver.current ? storedClaimOf(kind, takenOver.current) : null;
  if (after?.claim_id === holder.claimId) return { claim: { ...holder, resumed: after.progress ?? null } };
  // Another attempt took it over first (or the stopped one's claim changed): decide again on what is there now.
  return claim(key, leaseMs);
}

/** Whether an `in_progress` claim's claimant is known to be stopped at `now`. */
const leaseExpired = (claimed: StoredClaim, now: Date) =>
  claimed.status === IN_PROGRESS && claimed.leaseEnd !== undefined && claimed.leaseEnd < now.getTime();

/**
 * Gives the key back after a failure another attempt should be free to retry. A claim with recorded progress
 * is not deleted but expired at once: the next attempt takes it over and finishes or settles that work
 * instead of starting it a second time. A claim no longer this claimant's is left as it is.
 */
async function release(kind: ClaimForm, holder: ClaimHolder): Promise<void> {
  const deleted = await sendAlone(deleteClaim(kind, holder));
  if (deleted.written || !deleted.current) return;
  const current = storedClaimOf(kind, deleted.current);
  if (current.status === IN_PROGRESS && current.claim_id === holder.claimId && current.progress !== undefined) {
    await sendAlone(expireClaim(kind, holder, kind.clock()));
  }
}

async function readClaim(kind: ClaimForm, key: ItemKey): Promise<StoredClaim | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }));
  return result.Item ? storedClaimOf(kind, result.Item) : null;
}

type Sent = { written: true; current?: Item } | { written: false; current: Item | null };

/**
 * One claim write sent on its own (claims need no transaction), with the item DynamoDB returns: the new one
 * when asked, or the one that refused the write's condition. A conflict with a transaction holding the item
 * is thrown: nothing can be said of the claim, and the attempt is tried again.
 */
async function sendAlone(write: Write, returnValues?: 'ALL_NEW'): Promise<Sent> {
  const outcome = await commitOne(write, { audit: false, ...(returnValues ? { returnItem: true } : {}) });
  if (outcome.committed) return { written: true, ...(outcome.item ? { current: outcome.item as Item } : {}) };
  if (outcome.refusal.kind === 'conflict') throw new Error(`'${write.name}' met a transaction on its claim; try again`);
  return { written: false, current: (outcome.refusal.current(write.name) as Item | null) ?? null };
}
