// The erasure tombstone: a customer the platform's customers/redact erased, by the platform's customer id
// alone (no name, no e-mail, no figure), so that no later import brings them back (`config apply`, the
// twin's start, `loyalty import`) until an enrolment of the customer anew clears it. In a partition of its
// own, so reading a shop's configuration never reads them; a shop erasure deletes the partition.
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
