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

/** A check that no erasure tombstone of the customer stands: a write that brings a member back is refused while one does. */
export const noErasureTombstone = (shopId: string, customerId: string): Write =>
  namedWrite('check no erasure tombstone stands', {
    ConditionCheck: {
      TableName: tableName(),
      Key: erasureTombstoneKey(shopId, customerId),
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  });
