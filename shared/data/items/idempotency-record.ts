// The idempotency record: a stored first response for an Idempotency-Key, per shop and route, removed by the
// table's TTL.
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
