// The domain events a change committed (`DOMAIN_EVENT#<shop>#<id>` items, shared/data/items/domain-event.ts),
// read straight from the table (what the stream will deliver, for tests that run no stream reader), and a
// function stopped right after its commit: the two ways the tests show that a change and its events commit
// together or not at all. And the member facts every event about a member must carry.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { ScanCommand, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { documentClient, setRawClientHook, tableName } from '../../shared/data/client';
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

/** The types that concern no member: `customer.erased` carries ids and time only (the member is gone). */
export const EVENTS_WITHOUT_MEMBER_FACTS: readonly string[] = ['customer.erased'];

/**
 * The events that lack a member fact the contract requires of every event about a member (EVENTS-CONTRACT.md,
 * "An event"): a string `email` and `first_name`, a whole `points_balance` (after the change), and a `tier` that
 * is `{ id, name }` or null. Each listed with what it lacks; none for events of `EVENTS_WITHOUT_MEMBER_FACTS`.
 */
export function eventsLackingMemberFacts(
  events: ReadonlyArray<Record<string, unknown>>,
): Array<{ id: unknown; type: unknown; lacks: string[] }> {
  const tierOk = (tier: unknown) =>
    tier === null ||
    (typeof tier === 'object' &&
      typeof (tier as { id?: unknown }).id === 'string' &&
      typeof (tier as { name?: unknown }).name === 'string' &&
      Object.keys(tier).length === 2);
  return events.flatMap((event) => {
    if (EVENTS_WITHOUT_MEMBER_FACTS.includes(String(event.type))) return [];
    const lacks = [
      ...(typeof event.email === 'string' ? [] : ['email']),
      ...(typeof event.first_name === 'string' ? [] : ['first_name']),
      ...(Number.isInteger(event.points_balance) ? [] : ['points_balance']),
      ...('tier' in event && tierOk(event.tier) ? [] : ['tier']),
    ];
    return lacks.length === 0 ? [] : [{ id: event.id, type: event.type, lacks }];
  });
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
