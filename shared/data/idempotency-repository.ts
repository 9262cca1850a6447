// Idempotency records: the first response to a request carrying an Idempotency-Key, kept 24 hours (the
// table's TTL deletes them; an expired record not deleted yet counts as absent). A record is a claim of
// `once` (./claims.ts) bound to the request's hash: the same key with another request is refused.
//
// A claimed key is `in_progress` until the invocation that claimed it could still be running: its
// `in_progress_expiry` is the claim's time plus the invocation's remaining time (Powertools' idempotency
// utility does the same). After it the invocation is known to be stopped, and a retry with the same key
// and request takes the claim over, with the `progress` the stopped one recorded (a purchase's reserved
// entry), so it can finish the work instead of doing it again. Records read the domain's clock, so tests
// move past their expiry.
import { now as clockNow } from '../runtime/clock';
import { type Claim, claimProgress, type ClaimKind, type ClaimProgress, type OnceKey } from './claims';
import { IDEMPOTENCY_RECORD_FORM, idempotencyRecordKey } from './items/idempotency-record';
import type { Write } from './write';
import { deterministicId } from '../domain/deterministic-id';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** What a claimant records of its work so far, for a retry that takes the claim over. */
export type IdempotencyProgress = ClaimProgress;

/** The first response to the request, replayed to its retries. */
export interface StoredResponse {
  status: number;
  body: string;
}

/** Whose request it is: one record per shop, route and Idempotency-Key value. */
export interface IdempotencyScope {
  shopId: string;
  route: string;
  idempotencyKey: string;
}

/** The claim a request holds on its key while it runs. */
export interface IdempotencyClaim extends Claim {
  scope: IdempotencyScope;
  requestHash: string;
  /** The same for every attempt of this key and request: see `idempotentWorkId`. */
  workId: string;
}

const { finished, leaseAttribute, status, body } = IDEMPOTENCY_RECORD_FORM;

const idempotencyRecords: ClaimKind<StoredResponse> = {
  name: 'Idempotency-Key',
  finished,
  leaseAttribute,
  ttlSeconds: IDEMPOTENCY_TTL_SECONDS,
  keepsProgress: true,
  clock: clockNow,
  stamp: (now) => ({ created_at: now.toISOString() }),
  answer: {
    write: (response) => ({ [status]: response.status, [body]: response.body }),
    read: (item) => ({ status: item[status] as number, body: item[body] as string }),
  },
};

/**
 * An id for the work of a request, the same for every attempt with that key and request (a retry that
 * takes over, or one after a release): work keyed by it (a points adjustment's entry) is done once.
 */
export function idempotentWorkId(scope: IdempotencyScope, requestHash: string): string {
  const { shopId, route, idempotencyKey } = scope;
  return deterministicId({ json: [shopId, route, idempotencyKey, requestHash] }, { as: 'uuid' });
}

/** The request's key for `once`: its record, bound to the request's hash. */
export const requestOnce = (scope: IdempotencyScope, requestHash: string): OnceKey<StoredResponse> => ({
  kind: idempotencyRecords,
  key: idempotencyRecordKey(scope.shopId, scope.route, scope.idempotencyKey),
  fingerprint: requestHash,
});

/** The claim `once` gave the request, with its scope and work id. */
export const requestClaim = (scope: IdempotencyScope, requestHash: string, claim: Claim): IdempotencyClaim => ({
  ...claim,
  scope,
  requestHash,
  workId: idempotentWorkId(scope, requestHash),
});

/**
 * Records `progress` on the claim, for a transaction that does the work it describes: the write and its
 * record commit together, and both fail if another invocation has taken the claim over.
 */
export const recordProgressItem = (claim: IdempotencyClaim, progress: IdempotencyProgress): Write => claimProgress(claim, progress);
