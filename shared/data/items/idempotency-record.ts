// The idempotency record: a stored first response for an Idempotency-Key, per shop and route, removed by the
// table's TTL. It is a claim (./claim.ts): `in_progress` with the request's hash and an
// `in_progress_expiry`, then `completed` with the response's status and body.
import { TTL_ATTRIBUTE } from '../table';
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

/** The words of the record as a claim: its finished status, its lease and the answer's attributes. */
export const IDEMPOTENCY_RECORD_FORM = {
  finished: 'completed',
  leaseAttribute: 'in_progress_expiry',
  status: 'response_status',
  body: 'response_body',
} as const;
