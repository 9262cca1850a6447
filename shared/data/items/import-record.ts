// The import's own items (docs/migrate.md): its header (`SHOP#<shop>#IMPORT#<id>` / `IMPORT`: the options
// it ran with, when, whether it was undone) and one record per member it changed, under the import's
// partitions sharded by customer (`SHOP#<shop>#IMPORT#<id>#<shard>` / `<customer id>`): what it did to the
// member (created or updated, the points it moved, the values it replaced), written in the member's own
// transaction by its named writes. `undo` reads the shards alone, never the shop.
import type { Write } from '../write';
import { defineItem } from './define-item';
import { shopPk, type ItemKey, type ItemType } from './item-type';
import { deterministicShard } from '../../domain/deterministic-id';

/**
 * Partitions the member records of one import are spread over. A record is written in a transaction
 * (2 WCU for an item under 1 KB) and one partition takes about 1 000 WCU/s: 16 shards hold 8 000 members
 * a second, well past what the other items of an enrolment allow (docs/performance.md#import).
 */
export const IMPORT_SHARDS = 16;

export const importPartition = (shopId: string, importId: string) => `${shopPk(shopId)}#IMPORT#${importId}`;

export const importHeaderKey = (shopId: string, importId: string): ItemKey => ({ pk: importPartition(shopId, importId), sk: 'IMPORT' });

/** The shard of a member's record: a hash of its id, so any run of the import finds the same one. */
export function importShardOf(customerId: string): number {
  return deterministicShard({ text: customerId }, IMPORT_SHARDS);
}

export const importRecordPartition = (shopId: string, importId: string, shard: number) =>
  `${importPartition(shopId, importId)}#${String(shard).padStart(2, '0')}`;

export const importRecordKey = (shopId: string, importId: string, customerId: string): ItemKey => ({
  pk: importRecordPartition(shopId, importId, importShardOf(customerId)),
  sk: customerId,
});

export const importHeader = defineItem({
  name: 'import header (its options, when it ran, when it was undone)',
  key: importHeaderKey,
  placeholder: ['<shop>', '<import id>'],
});

export const importRecord = defineItem({
  name: 'import record of one member (what the import did to it, for undo)',
  key: (shopId: string, importId: string, shard: string, customerId: string): ItemKey => ({
    pk: `${importPartition(shopId, importId)}#${shard}`,
    sk: customerId,
  }),
  placeholder: ['<shop>', '<import id>', '<shard 00-15>', '<platform id>'],
});

export const importTypes: readonly ItemType[] = [importHeader.type, importRecord.type];

/** An import as its header keeps it. */
export interface ImportHeader {
  shop_id: string;
  import_id: string;
  from: string;
  mode: 'add' | 'set';
  file_name: string;
  started_at: string;
  undone_at: string | null;
}

/** The import's header, only if there is none: a re-run keeps the first run's. */
export const recordImport = (header: ImportHeader): Write =>
  importHeader.put('record the import', importHeaderKey(header.shop_id, header.import_id), header, { ifNew: true });

/** The import live again (`undone_at` cleared), or undone at `at`. */
export const markImport = (shopId: string, importId: string, undoneAt: string | null): Write =>
  importHeader.update(undoneAt === null ? 'make the import live again' : 'mark the import undone', importHeaderKey(shopId, importId), {
    set: { undone_at: undoneAt },
  });

/** What one import did to one member: enough to take it back, and to tell whether it changed since. */
export interface ImportMemberRecord {
  customer_id: string;
  /** The file's line the member came from. */
  line: number;
  /** The import enrolled the member (undo removes it when nothing changed it since). */
  created: boolean;
  /** The import's earning entry, or null when the balance did not move (`set` to the balance it had). */
  entry_id: string | null;
  /** What the balance actually moved (a take-back of a `set` is negative). */
  points: number;
  /** Added to lifetime points. */
  lifetime_added: number;
  /** The profile's version the import wrote: unchanged since means nothing else wrote the member. */
  version: number;
  /**
   * Values the import replaced, and what it wrote (null: the import left the field alone). Named apart
   * from the profile's fields: `redeemed_points` and `lifetime_points` are index keys of the table.
   */
  redeemed_change: { before: number; after: number } | null;
  birth_change: { before: string | null; after: string | null } | null;
  status_change: { before: string; after: string } | null;
  /** The e-mail the member was created with (its postings), for a created member. */
  email: string | null;
  /** The referral code drawn for a created member. */
  referral_code: string | null;
  at: string;
}

/** The import's record of a member, only if there is none: a member is imported once per import. */
export const recordImportedMember = (shopId: string, importId: string, record: ImportMemberRecord): Write =>
  importRecord.put("record the member's import", importRecordKey(shopId, importId, record.customer_id), record, { ifNew: true });

/** The import's record of a member deleted, only while it exists: an undo takes a member back once. */
export const forgetImportedMember = (shopId: string, importId: string, customerId: string): Write =>
  importRecord.delete("forget the member's import", importRecordKey(shopId, importId, customerId), { condition: 'attribute_exists(pk)' });
