// The domain events committed with their changes (`DOMAIN_EVENT#<shop>#<id>` items, shared/data/items/domain-event.ts),
// read straight from the table: what the stream will deliver, for tests that run no stream reader.
import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { DOMAIN_EVENT_PREFIX, eventOfItem } from '../../shared/data/items/domain-event';
import type { CommittedEvent } from '../../shared/domain/events';

/** Every event committed for `shopId` (of `type`, when given), oldest first by `occurred_at`, then id. */
export async function committedEvents(shopId: string, type?: string): Promise<CommittedEvent[]> {
  const events: CommittedEvent[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page: ScanCommandOutput = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': `${DOMAIN_EVENT_PREFIX}${shopId}#` },
        ConsistentRead: true,
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const event = eventOfItem(item);
      if (event && (type === undefined || event.type === type)) events.push(event);
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return events.sort((a, b) => a.occurred_at.localeCompare(b.occurred_at) || a.id.localeCompare(b.id));
}
