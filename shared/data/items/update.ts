// The update request an item module's named write is made of: attributes set and removed on one item,
// under a condition. Only item modules build one; what they set includes what their own derive function
// gives (due work, index attributes), so a caller never names a derived attribute.
import { tableName } from '../client';
import type { ItemKey } from './item-type';
import type { TransactItem } from '../write';

export interface ItemChange {
  set?: Record<string, unknown>;
  remove?: readonly string[];
  /** The condition, naming attributes as `#name` (each is declared here) and values as `:value`. */
  condition: string;
  values?: Record<string, unknown>;
  /** The item as it stood comes back with a refusal. */
  returnOld?: boolean;
}

/** The Update request of a transaction for `change` on the item at `key`. */
export function updateRequest(key: ItemKey, change: ItemChange): TransactItem {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...change.values };
  const sets = Object.entries(change.set ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([attribute, value], index) => {
      names[`#s${index}`] = attribute;
      values[`:s${index}`] = value;
      return `#s${index} = :s${index}`;
    });
  const removes = (change.remove ?? []).map((attribute, index) => {
    names[`#r${index}`] = attribute;
    return `#r${index}`;
  });
  for (const match of change.condition.matchAll(/#([a-z_]+)/g)) names[`#${match[1]}`] = match[1]!;
  return {
    Update: {
      TableName: tableName(),
      Key: key,
      UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : '']
        .filter(Boolean)
        .join(' '),
      ConditionExpression: change.condition,
      ExpressionAttributeNames: names,
      ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
      ...(change.returnOld ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  };
}

/** A put of a new item, refused if an item with its key exists. */
export function putNewRequest(item: Record<string, unknown>): TransactItem {
  return { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } };
}
