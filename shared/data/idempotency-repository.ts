// Idempotency records: the first response to a request carrying an Idempotency-Key, kept 24 hours
// (the table's TTL deletes them; an expired record not deleted yet counts as absent).
import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { documentClient, tableName } from './client';
import { keys } from './keys';
import { TTL_ATTRIBUTE } from './table';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

export interface IdempotencyRecord {
  request_hash: string;
  status: 'in_progress' | 'completed';
  response_status?: number;
  response_body?: string;
  created_at: string;
  ttl: number;
}

/** Whose request it is: one record per shop, route and Idempotency-Key value. */
export interface IdempotencyScope {
  shopId: string;
  route: string;
  idempotencyKey: string;
}

const recordKey = (scope: IdempotencyScope) => keys.idempotencyRecord(scope.shopId, scope.route, scope.idempotencyKey);

export type ClaimResult = { claimed: true } | { claimed: false; existing: IdempotencyRecord };

const epoch = (now: Date) => Math.floor(now.getTime() / 1000);

/** Claims the key for this request, or returns the record another request left there. */
export async function claimIdempotencyKey(scope: IdempotencyScope, requestHash: string, now = new Date()): Promise<ClaimResult> {
  const record: IdempotencyRecord = {
    request_hash: requestHash,
    status: 'in_progress',
    created_at: now.toISOString(),
    ttl: epoch(now) + IDEMPOTENCY_TTL_SECONDS,
  };
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
    return { claimed: true };
  } catch (error) {
    if ((error as { name?: string }).name !== 'ConditionalCheckFailedException') throw error;
    const old = (error as { Item?: Record<string, never> }).Item;
    const existing = old ? (unmarshall(old) as IdempotencyRecord) : await readIdempotencyRecord(scope);
    if (!existing) return claimIdempotencyKey(scope, requestHash, now);
    return { claimed: false, existing };
  }
}

export async function readIdempotencyRecord(scope: IdempotencyScope): Promise<IdempotencyRecord | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: recordKey(scope), ConsistentRead: true }));
  return (result.Item as IdempotencyRecord | undefined) ?? null;
}

/** Stores the first response; only the request that claimed the key (same hash, in progress) can. */
export async function completeIdempotencyKey(scope: IdempotencyScope, requestHash: string, status: number, body: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: recordKey(scope),
      UpdateExpression: 'SET #status = :completed, response_status = :code, response_body = :body',
      ConditionExpression: '#status = :inProgress AND request_hash = :hash',
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: {
        ':completed': 'completed',
        ':inProgress': 'in_progress',
        ':hash': requestHash,
        ':code': status,
        ':body': body,
      },
    }),
  );
}

/** Gives the key back after a failure the client should be able to retry (5XX). */
export async function releaseIdempotencyKey(scope: IdempotencyScope, requestHash: string): Promise<void> {
  await documentClient()
    .send(
      new DeleteCommand({
        TableName: tableName(),
        Key: recordKey(scope),
        ConditionExpression: '#status = :inProgress AND request_hash = :hash',
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ':inProgress': 'in_progress', ':hash': requestHash },
      }),
    )
    .catch((error: { name?: string }) => {
      if (error.name !== 'ConditionalCheckFailedException') throw error;
    });
}
