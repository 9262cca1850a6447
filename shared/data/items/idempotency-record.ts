// The idempotency record: a stored first response for an Idempotency-Key, per shop and route, removed by the
// table's TTL; and the named write a claimant's transaction records its progress with.
import { tableName } from '../client';
import { TTL_ATTRIBUTE } from '../table';
import { namedWrite, type Write } from '../write';
import { type ItemKey, type ItemType } from './item-type';

export const idempotencyRecordKey = (shopId: string, route: string, idempotencyKey: string): ItemKey => ({
  pk: `SHOP#${shopId}#IDEMPOTENCY#${route}#${idempotencyKey}`,
  sk: 'IDEMPOTENCY',
});

export const idempotencyRecordType: ItemType = {
  name: 'idempotency record (TTL)',
  key: idempotencyRecordKey('<shop>', '<route>', '<key>'),
  indexed: [TTL_ATTRIBUTE],
  derived: [TTL_ATTRIBUTE],
};

/** Only the current claimant of the key, still in progress, may write to its record. */
export const CLAIMANT_CONDITION = '#status = :inProgress AND request_hash = :hash AND claim_id = :claim';

/** A claim on a key as its record's condition reads it. */
export interface ClaimOnKey {
  scope: { shopId: string; route: string; idempotencyKey: string };
  requestHash: string;
  claimId: string;
}

export const claimantValues = (claim: ClaimOnKey) => ({
  ':inProgress': 'in_progress',
  ':hash': claim.requestHash,
  ':claim': claim.claimId,
});

/**
 * Records `progress` on the claim, in the transaction that does the work it describes: the work and its
 * record commit together, and both are refused if another invocation has taken the claim over.
 */
export function recordProgressOnClaim(claim: ClaimOnKey, progress: Record<string, string>): Write {
  const { shopId, route, idempotencyKey } = claim.scope;
  return namedWrite('record progress on a claim', {
    Update: {
      TableName: tableName(),
      Key: idempotencyRecordKey(shopId, route, idempotencyKey),
      UpdateExpression: 'SET progress = :progress',
      ConditionExpression: CLAIMANT_CONDITION,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ':progress': progress, ...claimantValues(claim) },
    },
  });
}
