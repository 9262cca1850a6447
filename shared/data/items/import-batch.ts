// The imported balance's batch (`BATCH#import` in the customer's partition): where an imported balance is
// not covered by imported entries, an internal item the expiry jobs read like a batch entry (no history
// entry). A customer merge moves another member's imported batch in under a key of its own. It sits on the
// ledger's given-at local index above every entry (IMPORTED_BATCH_GIVEN_AT), so the member's page reads it
// with the ledger's newest end in the same Query, while the earning history, which stops at NOT_GIVEN_YET,
// never lists it.
import { customerPk } from './customer-profile';
import { dueAttributes, DUE_ATTRIBUTES } from './due';
import type { Write } from '../write';
import { defineItem } from './define-item';
import { type Item, type ItemKey } from './item-type';

/** Id of the imported balance's batch (the expiry entry that removes it derives its own id from it). */
export const IMPORT_BATCH_ID = 'import';

export const BATCH_PREFIX = 'BATCH#';

/**
 * The imported batch's place on the ledger's given-at local index: after NOT_GIVEN_YET (`~`) and every
 * timestamp, so a read of the ledger's newest end meets it first and a history listing (up to `~`) never.
 */
export const IMPORTED_BATCH_GIVEN_AT = '~~';

export const importBatchKey = (shopId: string, customerId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${BATCH_PREFIX}${IMPORT_BATCH_ID}`,
});

/** Another member's imported batch, moved into this member's partition by a customer merge. */
export const mergedImportBatchKey = (shopId: string, customerId: string, fromId: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${BATCH_PREFIX}${IMPORT_BATCH_ID}-${fromId}`,
});

export const importBatch = defineItem({
  name: 'imported balance batch',
  key: importBatchKey,
  placeholder: ['<shop>', '<platform id>'],
  indexed: ['earn_given_at', ...DUE_ATTRIBUTES],
  derived: ['earn_given_at', ...DUE_ATTRIBUTES],
});

export const mergedImportBatch = defineItem({
  name: 'imported balance batch of a merged member',
  key: mergedImportBatchKey,
  placeholder: ['<shop>', '<platform id>', '<deleted id>'],
  indexed: ['earn_given_at', ...DUE_ATTRIBUTES],
  derived: ['earn_given_at', ...DUE_ATTRIBUTES],
});

/**
 * An imported batch written before it sat on the ledger's given-at local index (own or merged, at `key`), put
 * on it; only while it is still there (a merge may have moved it) and not on the index yet.
 */
export const placeImportedBatchOnLedger = (key: ItemKey): Write =>
  importBatch.update('place the imported batch on the ledger', key, {
    set: { earn_given_at: IMPORTED_BATCH_GIVEN_AT },
    condition: 'attribute_exists(pk) AND attribute_not_exists(earn_given_at)',
  });

/** The imported balance's uncovered batch, waiting for its reminder when it has an expiry date. */
export function importBatchItem(
  shopId: string,
  customerId: string,
  batch: { batch_offset: number; points: number; points_given_at: string; points_expiry_at: string | null },
): Item {
  const entry = { id: IMPORT_BATCH_ID, status: 'approved' as const, ...batch };
  return {
    ...importBatchKey(shopId, customerId),
    ...entry,
    earn_given_at: IMPORTED_BATCH_GIVEN_AT,
    ...(batch.points_expiry_at ? dueAttributes(shopId, 'batch-remind', batch.points_expiry_at, IMPORT_BATCH_ID) : {}),
  };
}
