// Idempotency records: the first response to a request carrying an Idempotency-Key, kept 24 hours
// (the table's TTL deletes them; an expired record not deleted yet counts as absent).
//
// A claimed key is `in_progress` until the invocation that claimed it could still be running: its
// `in_progress_expiry` is the claim's time plus the invocation's remaining time (Powertools' idempotency
// utility does the same). After it the invocation is known to be stopped, and a retry with the same key
// and request takes the claim over, with the `progress` the stopped one recorded (a purchase's reserved
// entry), so it can finish the work instead of doing it again. Each claim has its own `claim_id`: only
// the current claimant can record progress, complete or release the key.
import { randomUUID } from 'node:crypto';
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { now as clockNow } from '../runtime/clock';
import { documentClient, tableName } from './client';
import { CLAIMANT_CONDITION, claimantValues, idempotencyRecordKey, recordProgressOnClaim } from './items/idempotency-record';
import { TTL_ATTRIBUTE } from './table';
import type { Write } from './write';
import { deterministicId } from '../domain/deterministic-id';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** What a claimant records of its work so far, for a retry that takes the claim over. */
export type IdempotencyProgress = Record<string, string>;

export interface IdempotencyRecord {
  request_hash: string;
  status: 'in_progress' | 'completed';
  response_status?: number;
  response_body?: string;
  created_at: string;
  ttl: number;
  /** Epoch milliseconds after which an `in_progress` claim may be taken over (absent on older records: never). */
  in_progress_expiry?: number;
  claim_id?: string;
  progress?: IdempotencyProgress;
}

/** Whose request it is: one record per shop, route and Idempotency-Key value. */
export interface IdempotencyScope {
  shopId: string;
  route: string;
  idempotencyKey: string;
}

/** The claim a request holds on its key while it runs. */
export interface IdempotencyClaim {
  scope: IdempotencyScope;
  requestHash: string;
  claimId: string;
  /** The progress of a stopped invocation whose claim this one took over; null for a fresh claim. */
  resumed: IdempotencyProgress | null;
  /** The same for every attempt of this key and request: see `idempotentWorkId`. */
  workId: string;
}

/**
 * An id for the work of a request, the same for every attempt with that key and request (a retry that
 * takes over, or one after a release): work keyed by it (a points adjustment's entry) is done once.
 */
export function idempotentWorkId(scope: IdempotencyScope, requestHash: string): string {
  const { shopId, route, idempotencyKey } = scope;
  return deterministicId({ json: [shopId, route, idempotencyKey, requestHash] }, { as: 'uuid' });
}

const recordKey = (scope: IdempotencyScope) => idempotencyRecordKey(scope.shopId, scope.route, scope.idempotencyKey);

export type ClaimResult = { claimed: true; claim: IdempotencyClaim } | { claimed: false; existing: IdempotencyRecord };

export interface ClaimOptions {
  /** How long the claiming invocation may still run (its remaining time); the claim is held that long. */
  inProgressMs: number;
  now?: Date;
}

const epoch = (now: Date) => Math.floor(now.getTime() / 1000);

/** Whether an `in_progress` record's claimant is known to be stopped at `now`. */
export function claimExpired(record: IdempotencyRecord, now: Date): boolean {
  return record.status === 'in_progress' && record.in_progress_expiry !== undefined && record.in_progress_expiry < now.getTime();
}

/**
 * Claims the key for this request; takes over the claim of a stopped invocation of the same request;
 * or returns the record another request left there.
 */
export async function claimIdempotencyKey(scope: IdempotencyScope, requestHash: string, options: ClaimOptions): Promise<ClaimResult> {
  const now = options.now ?? clockNow();
  const claimId = randomUUID();
  const record: IdempotencyRecord = {
    request_hash: requestHash,
    status: 'in_progress',
    created_at: now.toISOString(),
    ttl: epoch(now) + IDEMPOTENCY_TTL_SECONDS,
    in_progress_expiry: now.getTime() + options.inProgressMs,
    claim_id: claimId,
  };
  let existing: IdempotencyRecord | null;
  try {
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: { ...recordKey(scope), ...record },
        ConditionExpression: 'attribute_not_exists(pk) OR #ttl < :now',
        ExpressionAttributeNames: { '#ttl': TTL_ATTRIBUTE },
        ExpressionAttributeValues: { ':now': epoch(now) },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return { claimed: true, claim: { scope, requestHash, claimId, resumed: null, workId: idempotentWorkId(scope, requestHash) } };
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    const old = (error as { Item?: Record<string, never> }).Item;
    existing = old ? (unmarshall(old) as IdempotencyRecord) : await readIdempotencyRecord(scope);
  }
  if (!existing) return claimIdempotencyKey(scope, requestHash, { ...options, now });
  // Our own put, committed under an answer that was lost and refused on the SDK's retry.
  if (existing.claim_id === claimId)
    return { claimed: true, claim: { scope, requestHash, claimId, resumed: null, workId: idempotentWorkId(scope, requestHash) } };
  if (existing.request_hash !== requestHash || !claimExpired(existing, now)) return { claimed: false, existing };
  const takenOver = await takeOverClaim(scope, existing, claimId, now.getTime() + options.inProgressMs, now);
  // Another retry took it over first (or the stopped one's record changed): decide again on what is there now.
  if (!takenOver) return claimIdempotencyKey(scope, requestHash, { ...options, now });
  return {
    claimed: true,
    claim: { scope, requestHash, claimId, resumed: takenOver.progress ?? null, workId: idempotentWorkId(scope, requestHash) },
  };
}

/** The expired claim becomes this request's, once: conditional on the claim it replaces. */
async function takeOverClaim(
  scope: IdempotencyScope,
  stopped: IdempotencyRecord,
  claimId: string,
  inProgressExpiry: number,
  now: Date,
): Promise<IdempotencyRecord | null> {
  try {
    const result = await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: recordKey(scope),
        UpdateExpression: 'SET claim_id = :claim, in_progress_expiry = :expiry',
        ConditionExpression: '#status = :inProgress AND request_hash = :hash AND claim_id = :stopped AND in_progress_expiry < :nowMs',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: {
          ':claim': claimId,
          ':expiry': inProgressExpiry,
          ':inProgress': 'in_progress',
          ':hash': stopped.request_hash,
          ':stopped': stopped.claim_id,
          ':nowMs': now.getTime(),
        },
        ReturnValues: 'ALL_NEW',
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      }),
    );
    return (result.Attributes as IdempotencyRecord | undefined) ?? null;
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    // Refused on the SDK's retry of our own update, whose answer was lost: the claim is ours.
    const old = (error as { Item?: Record<string, never> }).Item;
    const record = old ? (unmarshall(old) as IdempotencyRecord) : null;
    return record?.claim_id === claimId ? record : null;
  }
}

export async function readIdempotencyRecord(scope: IdempotencyScope): Promise<IdempotencyRecord | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: recordKey(scope), ConsistentRead: true }));
  return (result.Item as IdempotencyRecord | undefined) ?? null;
}

/**
 * Records `progress` on the claim, for a transaction that does the work it describes: the write and its
 * record commit together, and both fail if another invocation has taken the claim over.
 */
export const recordProgressItem = (claim: IdempotencyClaim, progress: IdempotencyProgress): Write => recordProgressOnClaim(claim, progress);

/**
 * Stores the first response; only the request that holds the claim can. A refusal is not an error: the
 * answer is already made, and the record is either this one completed (a retried call whose first answer
 * was lost) or no longer this request's.
 */
export async function completeIdempotencyKey(claim: IdempotencyClaim, status: number, body: string): Promise<void> {
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: recordKey(claim.scope),
        UpdateExpression: 'SET #status = :completed, response_status = :code, response_body = :body REMOVE in_progress_expiry, progress',
        ConditionExpression: CLAIMANT_CONDITION,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':completed': 'completed', ':code': status, ':body': body, ...claimantValues(claim) },
      }),
    )
    .catch((error: { name?: string }) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
}

/**
 * Gives the key back after a failure the client should be able to retry (5XX). A claim with recorded
 * progress (a purchase reserved) is not deleted but expired at once: the retry takes it over and finishes
 * or settles that work instead of starting it a second time, and the key stays bound to this request.
 */
export async function releaseIdempotencyKey(claim: IdempotencyClaim, now = clockNow()): Promise<void> {
  const ignoreRefusal = (error: { name?: string }) => {
    if (error.name !== 'ConditionalCheckFailedException') throw error;
  };
  const deleted = await documentClient()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: recordKey(claim.scope),
        ConditionExpression: `${CLAIMANT_CONDITION} AND attribute_not_exists(progress)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: claimantValues(claim),
      }),
    )
    .then(
      () => true,
      (error: { name?: string }) => (ignoreRefusal(error), false),
    );
  if (deleted) return;
  await documentClient()
    .send(
      new UpdateCommand({
        TableName: tableName(),
        Key: recordKey(claim.scope),
        UpdateExpression: 'SET in_progress_expiry = :expired',
        ConditionExpression: `${CLAIMANT_CONDITION} AND attribute_exists(progress)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':expired': now.getTime() - 1, ...claimantValues(claim) },
      }),
    )
    .catch(ignoreRefusal);
}
