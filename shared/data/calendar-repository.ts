// The scheduled jobs' reads and writes: an item found in the due-work index read consistently, and one
// transaction per member change (profile conditional on its version, new entries conditional on not
// existing, due items conditional on still being in the state the job read), so a job run twice, or two
// runs at once, change a member once.
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { CustomerRecord } from '../domain/customer';
import type { LedgerEntry } from '../domain/points-ledger';
import { tableName } from './client';
import type { Item } from './items';
import type { StoredCustomer } from './items/customer-profile';
import { earningEntryItem } from './items/earning-entry';
import type { ItemKey } from './items/item-type';
import { memberProfilePut, transactUnlessChanged } from './transactions';

/** The jobs read each item they found in the due-work index as stored, consistently. */
export { readItem } from './items';

/** A change to one item, applied only if `condition` still holds. */
export interface ItemUpdate {
  key: ItemKey;
  set?: Record<string, unknown>;
  remove?: string[];
  condition: string;
  values?: Record<string, unknown>;
}

export interface CalendarChange {
  shopId: string;
  customerId: string;
  /** The profile as read and its next figures (written only if still at that version and a member). */
  customer?: { current: StoredCustomer; next: CustomerRecord };
  /** New earning entries (approvals of their own, expiries, birthday points): never written twice. */
  newEntries?: LedgerEntry[];
  /** Whole items replaced as they are (timers). */
  puts?: Item[];
  updates?: ItemUpdate[];
  deletes?: ItemKey[];
}

/** Writes the change in one transaction; false when something changed since it was read (the caller reads again). */
export async function writeCalendarChange(change: CalendarChange): Promise<boolean> {
  const table = tableName();
  const items: NonNullable<TransactWriteCommandInput['TransactItems']> = [];
  if (change.customer) items.push(memberProfilePut(change.customer.current, change.customer.next));
  for (const entry of change.newEntries ?? []) {
    items.push({
      Put: {
        TableName: table,
        Item: earningEntryItem(change.shopId, change.customerId, entry),
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  }
  for (const item of change.puts ?? []) items.push({ Put: { TableName: table, Item: item } });
  for (const update of change.updates ?? []) items.push({ Update: updateInput(table, update) });
  for (const key of change.deletes ?? []) items.push({ Delete: { TableName: table, Key: key } });
  return transactUnlessChanged(items);
}

function updateInput(table: string, update: ItemUpdate) {
  const names: Record<string, string> = {};
  const values: Record<string, unknown> = { ...update.values };
  const sets = Object.entries(update.set ?? {})
    .filter(([, value]) => value !== undefined)
    .map(([attribute, value], index) => {
      names[`#s${index}`] = attribute;
      values[`:s${index}`] = value;
      return `#s${index} = :s${index}`;
    });
  const removes = (update.remove ?? []).map((attribute, index) => {
    names[`#r${index}`] = attribute;
    return `#r${index}`;
  });
  // Conditions name attributes as `#name`; every such name is declared here.
  for (const match of update.condition.matchAll(/#([a-z_]+)/g)) names[`#${match[1]}`] = match[1]!;
  return {
    TableName: table,
    Key: update.key,
    UpdateExpression: [sets.length ? `SET ${sets.join(', ')}` : '', removes.length ? `REMOVE ${removes.join(', ')}` : '']
      .filter(Boolean)
      .join(' '),
    ConditionExpression: update.condition,
    ExpressionAttributeNames: names,
    ...(Object.keys(values).length ? { ExpressionAttributeValues: values } : {}),
  };
}
