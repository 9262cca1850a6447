// An item type declared once: its key, the attributes the table's indexes read on it and those only the
// stored item has, and `derive`, which gives the derived attributes from the item's own fields and is applied
// on every write that carries them (a put always; an update that says what the item becomes). Its `put`,
// `update`, `delete` and `check` make the named writes that `commit` and `commitOne` (commit.ts) take; no
// item module builds a request by hand.
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import type { Item, ItemKey, ItemType } from './item-type';
import { conditionNames, type ItemChange, updateRequest } from './update';

/** A condition on the item as it stands: `#name` an attribute (or what `names` maps it to), `:value` a value. */
export interface Condition {
  condition: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  /** The item as it stood comes back with a refusal. */
  returnOld?: boolean;
}

export interface PutOptions extends Partial<Condition> {
  /** Refused when an item with the key exists. */
  ifNew?: true;
}

export interface UpdateOf<F> extends ItemChange {
  /** What the item's fields become: its derived attributes follow (set, or removed when `derive` gives none). */
  derivedFrom?: F;
}

export interface ItemDefinition<A extends readonly unknown[], F> {
  /** How the table of items names the item type. */
  name: string;
  /** The key of one item. */
  key: (...args: A) => ItemKey;
  /** The key's arguments as placeholders (`<shop>`, `<id>`), as the table of items shows it. */
  placeholder: A;
  /** Attributes the table's indexes read on this item: index keys and projected attributes. */
  indexed?: readonly string[];
  /** Attributes only the stored item has (keys of indexes, versions, expiry): not part of the record read back. */
  derived?: readonly string[];
  /** The derived attributes of an item with `fields`; an undefined one is absent (a put leaves it out, an update removes it). */
  derive?: (fields: F) => Record<string, unknown>;
}

export interface DefinedItem<A extends readonly unknown[], F> {
  /** What the table of items shows of it (items/index.ts). */
  readonly type: ItemType;
  readonly key: (...args: A) => ItemKey;
  /** The stored item: its fields, what `derive` gives of them, and its key (which no field overrides). */
  item(key: ItemKey, fields: F): Item;
  put(name: string, key: ItemKey, fields: F, options?: PutOptions): Write;
  update(name: string, key: ItemKey, change: UpdateOf<F>): Write;
  delete(name: string, key: ItemKey, options?: Partial<Condition>): Write;
  /** A condition on the item that writes nothing: it holds, or the transaction is refused. */
  check(name: string, key: ItemKey, condition: Condition): Write;
}

const IF_NEW = 'attribute_not_exists(pk)';

/** The condition's parts of a request (none when there is no condition). */
function conditionOf(options: Partial<Condition>): Record<string, unknown> {
  if (!options.condition) return {};
  const names = conditionNames(options.condition, options.names);
  return {
    ConditionExpression: options.condition,
    ...(Object.keys(names).length ? { ExpressionAttributeNames: names } : {}),
    ...(options.values && Object.keys(options.values).length ? { ExpressionAttributeValues: options.values } : {}),
    ...(options.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
  };
}

export function defineItem<A extends readonly unknown[], F extends object = object>(definition: ItemDefinition<A, F>): DefinedItem<A, F> {
  const type: ItemType = {
    name: definition.name,
    key: definition.key(...definition.placeholder),
    ...(definition.indexed ? { indexed: definition.indexed } : {}),
    ...(definition.derived ? { derived: definition.derived } : {}),
  };
  const derivedOf = (fields: F) => Object.entries(definition.derive?.(fields) ?? {});
  const item = (key: ItemKey, fields: F): Item => {
    const derived = derivedOf(fields).filter(([, value]) => value !== undefined);
    return { ...fields, ...Object.fromEntries(derived), ...key };
  };
  return {
    type,
    key: definition.key,
    item,
    put: (name, key, fields, options = {}) => {
      const condition = options.ifNew
        ? { ...options, condition: options.condition ? `${IF_NEW} AND ${options.condition}` : IF_NEW }
        : options;
      return namedWrite(name, { Put: { TableName: tableName(), Item: item(key, fields), ...conditionOf(condition) } });
    },
    update: (name, key, { derivedFrom, ...change }) => {
      if (derivedFrom === undefined) return namedWrite(name, updateRequest(key, change));
      const derived = derivedOf(derivedFrom);
      const set = { ...change.set, ...Object.fromEntries(derived.filter(([, value]) => value !== undefined)) };
      const remove = [...(change.remove ?? []), ...derived.filter(([, value]) => value === undefined).map(([attribute]) => attribute)];
      return namedWrite(name, updateRequest(key, { ...change, set, remove }));
    },
    delete: (name, key, options = {}) => namedWrite(name, { Delete: { TableName: tableName(), Key: key, ...conditionOf(options) } }),
    check: (name, key, condition) =>
      namedWrite(name, {
        ConditionCheck: { TableName: tableName(), Key: key, ...conditionOf(condition), ConditionExpression: condition.condition },
      }),
  };
}
