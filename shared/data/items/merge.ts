// The customer merge items (docs/earning-engine.md#customer-merges): the merge record in the deleted
// customer's partition (which customer it went into, and the merge's progress) and the marker in the kept
// member's partition while the merge still moves items into it.
import { customerPk } from './customer-profile';
import { type ItemKey, type ItemType } from './item-type';

export const mergedIntoKey = (shopId: string, customerId: string): ItemKey => ({ pk: customerPk(shopId, customerId), sk: 'MERGED' });

export const INCOMING_MERGE_PREFIX = 'MERGE#';

export const incomingMergeKey = (shopId: string, customerId: string, fromId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${INCOMING_MERGE_PREFIX}${fromId}`,
});

/** The deleted customer's id of a marker's sort key (`MERGE#<deleted id>`). */
export const incomingMergeOf = (sk: string): string => sk.slice(INCOMING_MERGE_PREFIX.length);

export const mergeTypes: readonly ItemType[] = [
  { name: 'customer merge record ([earning-engine.md](earning-engine.md#customer-merges))', key: mergedIntoKey('<shop>', '<deleted id>') },
  { name: 'customer merge marker (while the merge moves items)', key: incomingMergeKey('<shop>', '<kept id>', '<deleted id>') },
];
