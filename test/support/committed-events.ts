// The domain events a change committed (shared/data/items/domain-event.ts), read straight from the table, and a
// function stopped right after its commit: the two ways the tests show that a change and its events commit
// together or not at all.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { documentClient, setRawClientHook, tableName } from '../../shared/data/client';
import { DOMAIN_EVENT_PREFIX, eventOfItem } from '../../shared/data/items/domain-event';
import type { CommittedEvent } from '../../shared/domain/events';

/** Every event the shop's changes committed so far (consistent read of the whole test table). */
export async function committedEvents(shopId: string): Promise<CommittedEvent[]> {
  const events: CommittedEvent[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        ConsistentRead: true,
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': `${DOMAIN_EVENT_PREFIX}${shopId}#` },
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const item of page.Items ?? []) {
      const event = eventOfItem(item);
      if (event) events.push(event);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  return events;
}

export interface StopAfterCommit {
  /** Resolves once a transaction committed and the function was stopped right after it. */
  stopped: Promise<void>;
  /** Takes the stop off the client (the stopped invocation stays stopped). */
  remove(): void;
}

/**
 * The next TransactWriteItems that commits never answers: the function waits forever right after its commit, as
 * one stopped there by Lambda's time limit would, and nothing it would do after the commit runs.
 */
export function stopAfterCommit(): StopAfterCommit {
  let signal!: () => void;
  const stopped = new Promise<void>((resolve) => (signal = resolve));
  let armed = true;
  setRawClientHook((client: DynamoDBClient) =>
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const status = (result.response as { statusCode?: number }).statusCode ?? 500;
        if (!armed || context.commandName !== 'TransactWriteItemsCommand' || status >= 300) return result;
        armed = false;
        signal();
        return new Promise<never>(() => undefined);
      },
      { step: 'deserialize', priority: 'low', name: 'stopAfterCommit' },
    ),
  );
  return { stopped, remove: () => setRawClientHook(undefined) };
}
