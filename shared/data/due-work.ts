// The due-work index's reads: the paged query a job reads its due work with. What is due on an item is
// derived by the item's own module (items/) from its fields, with the attributes of items/due.ts.
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { type DueKind, duePartition } from './items/due';
import type { ItemKey } from './items/item-type';
import { GLOBAL_INDEXES } from './table';

export { type DueKind, dueTimeOf } from './items/due';

export interface DuePage {
  keys: ItemKey[];
  /** Where the next page starts; null when the due work is read to the end. */
  next: Record<string, unknown> | null;
}

/**
 * One page of the items of `kind` due before `until` (inclusive: an item due at `until` exactly is
 * due). The index is eventually consistent: the caller reads each item before acting on it.
 */
export async function queryDue(
  shopId: string,
  kind: DueKind,
  until: string,
  limit: number,
  start?: Record<string, unknown> | null,
): Promise<DuePage> {
  const page = await documentClient().send(
    new QueryCommand({
      TableName: tableName(),
      IndexName: GLOBAL_INDEXES.dueWork.indexName,
      KeyConditionExpression: 'due_pk = :pk AND due_at < :until',
      // '$' sorts right after the '#' that separates the time from the id.
      ExpressionAttributeValues: { ':pk': duePartition(shopId, kind), ':until': `${until}$` },
      Limit: limit,
      ...(start ? { ExclusiveStartKey: start } : {}),
    }),
  );
  return {
    keys: (page.Items ?? []).map((item) => ({ pk: String(item.pk), sk: String(item.sk) })),
    next: page.LastEvaluatedKey ?? null,
  };
}
