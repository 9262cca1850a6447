// The one update-expression builder: every update of an item, in a transaction or alone, is an `ItemChange`
// (attributes set, set only when absent, appended to, added to, removed, under a condition) turned into the
// request here. Only item modules build one, through their item definition (define-item.ts); what they set
// includes what their own derive gives (due work, index attributes), so a caller never names a derived
// attribute.
import { tableName } from '../client';
import type { ItemKey } from './item-type';
import type { TransactItem } from '../write';

export interface ItemChange {
  /** Attributes set to these values (an undefined value is left alone). */
  set?: Record<string, unknown>;
  /** Attributes set only when the item has none yet (`if_not_exists`). */
  setIfAbsent?: Record<string, unknown>;
  /** Lists appended to, started empty when the item has none yet. */
  append?: Record<string, readonly unknown[]>;
  /** Numbers added to (a negative one subtracts; an absent attribute counts from 0). */
  add?: Record<string, number>;
  /** Attributes removed; `name[3]` removes one element of a list. */
  remove?: readonly string[];
  /**
   * The condition, naming attributes as `#name` and values as `:value`. A `#name` is the attribute of that
   * name unless `names` maps it to another.
   */
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  /** The item as it stood comes back with a refusal. */
  returnOld?: boolean;
}

const defined = (record: Record<string, unknown> | undefined) => Object.entries(record ?? {}).filter(([, value]) => value !== undefined);

/** The update expression of `change`, its names and its values. */
export function updateExpression(change: ItemChange): {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
} {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = {};
  const name = (prefix: string, index: number, attribute: string) => {
    names[`#${prefix}${index}`] = attribute;
    return `#${prefix}${index}`;
  };
  const value = (prefix: string, index: number, given: unknown) => {
    values[`:${prefix}${index}`] = given;
    return `:${prefix}${index}`;
  };
  const sets = [
    ...defined(change.set).map(([attribute, given], index) => `${name('s', index, attribute)} = ${value('s', index, given)}`),
    ...defined(change.setIfAbsent).map(([attribute, given], index) => {
      const path = name('i', index, attribute);
      return `${path} = if_not_exists(${path}, ${value('i', index, given)})`;
    }),
    ...defined(change.append).map(([attribute, given], index) => {
      values[':empty'] = [];
      const path = name('l', index, attribute);
      return `${path} = list_append(if_not_exists(${path}, :empty), ${value('l', index, given)})`;
    }),
  ];
  const removes = (change.remove ?? []).map((attribute, index) => {
    const element = /^(.+)\[(\d+)\]$/.exec(attribute);
    return element ? `${name('r', index, element[1]!)}[${element[2]}]` : name('r', index, attribute);
  });
  const adds = defined(change.add).map(([attribute, given], index) => `${name('a', index, attribute)} ${value('a', index, given)}`);
  const expression = [
    sets.length ? `SET ${sets.join(', ')}` : '',
    removes.length ? `REMOVE ${removes.join(', ')}` : '',
    adds.length ? `ADD ${adds.join(', ')}` : '',
  ]
    .filter(Boolean)
    .join(' ');
  if (!expression) throw new Error('An update changes at least one attribute');
  return { expression, names, values };
}

/** The names a condition uses: each `#name` is the attribute of that name unless `given` maps it. */
export function conditionNames(condition: string | undefined, given: Record<string, string> = {}): Record<string, string> {
  const names: Record<string, string> = {};
  for (const match of (condition ?? '').matchAll(/#([A-Za-z0-9_]+)/g)) names[`#${match[1]}`] = given[`#${match[1]}`] ?? match[1]!;
  return names;
}

/** The Update request of a transaction for `change` on the item at `key`. */
export function updateRequest(key: ItemKey, change: ItemChange): TransactItem {
  const { expression, names, values } = updateExpression(change);
  const given = { names: conditionNames(change.condition, change.names), values: change.values ?? {} };
  for (const [placeholder, attribute] of Object.entries(given.names)) {
    if (placeholder in names && names[placeholder] !== attribute)
      throw new Error(`The condition's ${placeholder} is one of the update's own names`);
  }
  for (const placeholder of Object.keys(given.values)) {
    if (placeholder in values) throw new Error(`The condition's ${placeholder} is one of the update's own values`);
  }
  const allNames = { ...names, ...given.names };
  const allValues = { ...values, ...given.values };
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: expression,
      ...(change.condition ? { ConditionExpression: change.condition } : {}),
      ExpressionAttributeNames: allNames,
      ...(Object.keys(allValues).length ? { ExpressionAttributeValues: allValues } : {}),
      ...(change.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  };
}
