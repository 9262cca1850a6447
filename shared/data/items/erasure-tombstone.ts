// The erasure tombstone: a customer the platform's customers/redact erased, by the platform's customer id
// alone (no name, no e-mail, no figure), so that no later import brings them back (`config apply`, the
// twin's start, `loyalty import`) until an enrolment of the customer anew clears it. In a partition of its
// own, so reading a shop's configuration never reads them; a shop erasure deletes the partition.
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import { type ItemKey, type ItemType } from './item-type';

/** The shop's partition of erasure tombstones. */
export const erasureTombstonesPartition = (shopId: string) => `SHOP#${shopId}#ERASED`;

export const erasureTombstoneKey = (shopId: string, customerId: string): ItemKey => ({
  pk: erasureTombstonesPartition(shopId),
  sk: `CUSTOMER#${customerId}`,
});

/** The tombstone: its key and when the erasure was asked for; nothing else. */
export const erasureTombstoneItem = (shopId: string, customerId: string, erasedAt: string) => ({
  ...erasureTombstoneKey(shopId, customerId),
  erased_at: erasedAt,
});

export const erasureTombstoneType: ItemType = {
  name: 'erasure tombstone (customers/redact; no personal data)',
  key: erasureTombstoneKey('<shop>', '<platform id>'),
};

/** Holds only while no erasure tombstone of the customer stands: a write that brings a member back is refused while one does. */
export function checkNotErased(shopId: string, customerId: string): Write {
  return namedWrite('check the customer is not erased', {
    ConditionCheck: {
      TableName: tableName(),
      Key: erasureTombstoneKey(shopId, customerId),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
}

/** The tombstone cleared: the customer is enrolled anew. */
export function clearTombstone(shopId: string, customerId: string): Write {
  return namedWrite('clear the erasure tombstone', { Delete: { TableName: tableName(), Key: erasureTombstoneKey(shopId, customerId) } });
}

/** The tombstone's conditional put (a redelivery keeps the first one as it is), as a single-item PutItem. */
export const erasureTombstonePut = (shopId: string, customerId: string, erasedAt: string) => ({
  TableName: tableName(),
  Item: erasureTombstoneItem(shopId, customerId, erasedAt),
  ConditionExpression: 'attribute_not_exists(pk)',
});
