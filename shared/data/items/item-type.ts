// What every item module declares about its item type: the key it is stored under (with placeholders,
// as docs/architecture.md's table of items shows it), the attributes the table's indexes read on it, and
// the attributes written only on the stored item (derived from its fields, left out when it is read back).
// The table of items in the docs, and `KEY_ATTRIBUTES`, are built from these declarations.

/** The primary key of one item. */
export interface ItemKey {
  pk: string;
  sk: string;
}

/** One stored item: its attributes as DynamoDB's document client reads and writes them. */
export type Item = Record<string, unknown>;

export interface ItemType {
  /** How the table of items names the item type. */
  name: string;
  /** Its key with each part a placeholder (`<shop>`, `<id>`), built by the module's own key function. */
  key: ItemKey;
  /** Attributes the table's indexes read on this item: index keys and projected attributes. */
  indexed?: readonly string[];
  /** Attributes only the stored item has (keys of indexes, versions, expiry): not part of the record read back. */
  derived?: readonly string[];
}

/** The partition of a shop's own items. */
export const shopPk = (shopId: string) => `SHOP#${shopId}`;

/** The item without the attributes its type declares derived, and without its key. */
export function recordOf<T>(item: Item, type: Pick<ItemType, 'derived'>): T {
  const out: Item = {};
  const derived = new Set(['pk', 'sk', ...(type.derived ?? [])]);
  for (const [name, value] of Object.entries(item)) if (!derived.has(name)) out[name] = value;
  return out as T;
}
