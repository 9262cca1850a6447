// The erasure tombstone: a customer the platform's customers/redact erased, by the platform's customer id
// alone (no name, no e-mail, no figure), so that no later import brings them back (`config apply`, the
// twin's start, `loyalty import`) until an enrolment of the customer anew clears it. In a partition of its
// own, so reading a shop's configuration never reads them; a shop erasure deletes the partition.
import type { Write } from '../write';
import { defineItem } from './define-item';
import type { ItemKey } from './item-type';

/** The shop's partition of erasure tombstones. */
export const erasureTombstonesPartition = (shopId: string) => `SHOP#${shopId}#ERASED`;

export const erasureTombstoneKey = (shopId: string, customerId: string): ItemKey => ({
  pk: erasureTombstonesPartition(shopId),
  sk: `CUSTOMER#${customerId}`,
});

export const erasureTombstone = defineItem({
  name: 'erasure tombstone (customers/redact; no personal data)',
  key: erasureTombstoneKey,
  placeholder: ['<shop>', '<platform id>'],
});

/** Holds only while no erasure tombstone of the customer stands: a write that brings a member back is refused while one does. */
export function checkNotErased(shopId: string, customerId: string): Write {
  return erasureTombstone.check('check the customer is not erased', erasureTombstoneKey(shopId, customerId), {
    condition: 'attribute_not_exists(pk)',
  });
}

/** The tombstone cleared: the customer is enrolled anew. */
export function clearTombstone(shopId: string, customerId: string): Write {
  return erasureTombstone.delete('clear the erasure tombstone', erasureTombstoneKey(shopId, customerId));
}

/** The tombstone (its key and when the erasure was asked for; nothing else), refused when one stands: a redelivery keeps the first. */
export function leaveTombstone(shopId: string, customerId: string, erasedAt: string): Write {
  return erasureTombstone.put(
    'leave the erasure tombstone',
    erasureTombstoneKey(shopId, customerId),
    { erased_at: erasedAt },
    { ifNew: true },
  );
}
