// What a write costs in write capacity units, priced by DynamoDB's published rules from the item as it was
// before the write and as it is after it (marshalled, as DynamoDB stores it). Pure: the recorder
// (write-recorder.ts) reads the two images around each write the code sends; this module prices them.
//
// The rules, from the DynamoDB Developer Guide:
// - Item size ("DynamoDB item sizes and formats",
//   https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/CapacityUnitCalculations.html): the sum
//   of its attribute names' and values' lengths; a string is its UTF-8 bytes; a number about 1 byte per two
//   significant digits plus 1; a binary its raw bytes; null and Boolean 1 byte; a List or Map 3 bytes plus its
//   elements, each element 1 byte more; a set the sum of its members.
// - Write units ("Read/write capacity mode", provisioned-capacity-mode.html and
//   on-demand-capacity-mode.html): one write of an item up to 1 KB is 1 WCU, rounded up per item to the next
//   1 KB; PutItem and UpdateItem are priced on the larger of the item before and after, DeleteItem on the
//   item deleted.
// - Transactions ("Amazon DynamoDB Transactions: How it works", transaction-apis.html, capacity management):
//   a transactional write takes 2 WCU per 1 KB of each item, rounded up per item. A ConditionCheck writes
//   nothing: it is priced as a transactional read (read units), so it adds no WCU here.
// - Secondary indexes ("Global secondary indexes", GSI.html#GSI.Writes, and the same rules for local ones,
//   LSI.html#LSI.ThroughputConsiderations.Writes): an item that enters an index is one index write; one that
//   leaves it is one; a change of the index's key attribute is two (the old entry deleted, the new one put);
//   a change of a projected attribute only is one; nothing projected changed, none. Each is rounded up to
//   1 KB of the index entry (the table's key, the index's key and the projected attributes). An index write
//   of a transaction is priced at the transaction's 2 WCU per KB, as bench/webhook-burst.ts's design minimum
//   prices the profile's and the entry's index writes (an event item is in no index, so the events' extra
//   cost does not depend on this choice).
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { GLOBAL_INDEXES, LOCAL_INDEXES, type GlobalIndexDefinition, PARTITION_KEY, SORT_KEY } from '../shared/data/table';

export type StoredItem = Record<string, AttributeValue>;

export const KB = 1024;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** A number's size: 1 byte per two significant digits (leading and trailing zeroes trimmed), plus 1. */
export function numberSize(text: string): number {
  const digits = text
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** A value's size without its name. */
export function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, member) => sum + utf8(member), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, member) => sum + numberSize(member), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, member) => sum + member.byteLength, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, element) => sum + 1 + valueSize(element), 0);
  if (value.M !== undefined)
    return 3 + Object.entries(value.M).reduce((sum, [name, element]) => sum + 1 + utf8(name) + valueSize(element), 0);
  throw new Error(`An attribute value of no known type: ${JSON.stringify(value)}`);
}

/** An item's size in bytes: each attribute's name and value. */
export function itemSize(item: StoredItem): number {
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

/** Units of `bytes` at `perKb` units per started KB; a write of nothing still costs one KB's units. */
export const unitsOf = (bytes: number, perKb: number) => Math.max(1, Math.ceil(bytes / KB)) * perKb;

interface IndexShape {
  name: string;
  keys: readonly string[];
  /** 'ALL', or the non-key attributes projected beside the keys. */
  projection: 'ALL' | readonly string[];
}

/** The table's indexes as index writes see them (shared/data/table.ts). */
export const INDEXES: readonly IndexShape[] = [
  ...(Object.values(GLOBAL_INDEXES) as GlobalIndexDefinition[]).map((index) => ({
    name: index.indexName,
    keys: [index.partitionKey.name, ...(index.sortKey ? [index.sortKey.name] : [])],
    projection: index.projection === 'ALL' ? ('ALL' as const) : index.projection === 'KEYS_ONLY' ? [] : index.projection,
  })),
  ...Object.values(LOCAL_INDEXES).map((index) => ({
    name: index.indexName,
    keys: [PARTITION_KEY, index.sortKey.name],
    projection: index.projection,
  })),
];

/** The item's entry in `index`, or null when the item is not in it (a sparse index without its keys). */
function indexEntry(index: IndexShape, item: StoredItem | null): StoredItem | null {
  if (!item || !index.keys.every((key) => item[key] !== undefined)) return null;
  if (index.projection === 'ALL') return item;
  const names = new Set([PARTITION_KEY, SORT_KEY, ...index.keys, ...index.projection]);
  return Object.fromEntries(Object.entries(item).filter(([name]) => names.has(name)));
}

const same = (a: AttributeValue | undefined, b: AttributeValue | undefined) => JSON.stringify(a) === JSON.stringify(b);

export interface IndexWrite {
  index: string;
  /** `put` (enters), `delete` (leaves), `move` (its key changed: delete and put, two writes), `update` (a projected attribute changed). */
  kind: 'put' | 'delete' | 'move' | 'update';
  writes: number;
  units: number;
}

/** The index writes of one item going from `before` to `after` (null: absent), at `perKb` units per KB. */
export function indexWrites(before: StoredItem | null, after: StoredItem | null, perKb: number): IndexWrite[] {
  const writes: IndexWrite[] = [];
  for (const index of INDEXES) {
    const old = indexEntry(index, before);
    const next = indexEntry(index, after);
    if (!old && !next) continue;
    if (!old) writes.push({ index: index.name, kind: 'put', writes: 1, units: unitsOf(itemSize(next!), perKb) });
    else if (!next) writes.push({ index: index.name, kind: 'delete', writes: 1, units: unitsOf(itemSize(old), perKb) });
    else if (index.keys.some((key) => !same(old[key], next[key])))
      writes.push({ index: index.name, kind: 'move', writes: 2, units: unitsOf(itemSize(old), perKb) + unitsOf(itemSize(next), perKb) });
    else {
      const names = new Set([...Object.keys(old), ...Object.keys(next)]);
      if ([...names].some((name) => !same(old[name], next[name])))
        writes.push({ index: index.name, kind: 'update', writes: 1, units: unitsOf(Math.max(itemSize(old), itemSize(next)), perKb) });
    }
  }
  return writes;
}

export type WriteAction = 'Put' | 'Update' | 'Delete' | 'ConditionCheck';

export interface ItemWriteCost {
  action: WriteAction;
  transactional: boolean;
  /** The item's size as the write prices it: the larger of before and after (a delete: before). */
  bytes: number;
  /** The table's write units for the item. */
  tableUnits: number;
  indexes: IndexWrite[];
  /** Table and index write units together. */
  units: number;
}

/** One item's write, priced: a transaction's at 2 WCU per KB, a single write's at 1. */
export function itemWriteCost(
  action: WriteAction,
  before: StoredItem | null,
  after: StoredItem | null,
  transactional: boolean,
): ItemWriteCost {
  const perKb = transactional ? 2 : 1;
  if (action === 'ConditionCheck')
    return { action, transactional, bytes: before ? itemSize(before) : 0, tableUnits: 0, indexes: [], units: 0 };
  const bytes = Math.max(before ? itemSize(before) : 0, after ? itemSize(after) : 0);
  const tableUnits = unitsOf(bytes, perKb);
  const indexes = indexWrites(before, after, perKb);
  return { action, transactional, bytes, tableUnits, indexes, units: tableUnits + indexes.reduce((sum, write) => sum + write.units, 0) };
}
