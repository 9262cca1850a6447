// Domain events that marketing integrations can subscribe to, and where they are published:
// EventBridge in the cloud (EVENT_BUS_NAME), a JSON-lines file in the local twin (EVENTS_LOG_FILE).
import { appendFile } from 'node:fs/promises';
import { EventBridgeClient, PutEventsCommand } from '@aws-sdk/client-eventbridge';
import { env } from '../runtime/env';
import { logger } from '../observability/powertools';
import { traceAwsClient } from '../observability/tracing';
import type { DomainEvent } from '../domain/events';

export const EVENT_SOURCE = 'loyalty-api';

// The event types are the domain's; they are exported from here too, where the publishers are.
export type { DomainEvent, EarningEvent, PointsAdjustedEvent, TierChangedEvent } from '../domain/events';

export interface EventPublisher {
  publish(events: DomainEvent[]): Promise<void>;
}

/** Appends one JSON object per line; the twin serves the file at GET /_events. */
export function jsonLinesPublisher(file: string): EventPublisher {
  return {
    publish: async (events) => {
      if (events.length === 0) return;
      await appendFile(file, events.map((event) => `${JSON.stringify(event)}\n`).join(''), 'utf8');
    },
  };
}

/** PutEvents in batches of 10 (the API's limit); a partly failed batch is an error. */
export function eventBridgePublisher(busName: string, client = traceAwsClient(new EventBridgeClient({}))): EventPublisher {
  return {
    publish: async (events) => {
      for (let start = 0; start < events.length; start += 10) {
        const batch = events.slice(start, start + 10);
        const result = await client.send(
          new PutEventsCommand({
            Entries: batch.map((event) => ({
              EventBusName: busName,
              Source: EVENT_SOURCE,
              DetailType: event.type,
              Detail: JSON.stringify(event),
            })),
          }),
        );
        if ((result.FailedEntryCount ?? 0) > 0) throw new Error(`${result.FailedEntryCount} events were not accepted by EventBridge`);
      }
    },
  };
}

let publisher: EventPublisher | undefined;

/** The publisher this runtime is configured for; without one, events are not published anywhere. */
export function eventPublisher(): EventPublisher {
  if (publisher) return publisher;
  const settings = env();
  if (settings.EVENT_BUS_NAME) publisher = eventBridgePublisher(settings.EVENT_BUS_NAME);
  else if (settings.EVENTS_LOG_FILE) publisher = jsonLinesPublisher(settings.EVENTS_LOG_FILE);
  else throw new Error('No event destination configured: set EVENT_BUS_NAME or EVENTS_LOG_FILE');
  return publisher;
}

export function resetEventPublisher(): void {
  publisher = undefined;
}

/** Twin only: the publisher the twin's subscribers hear from (undefined returns to the environment's). */
export function setEventPublisher(next: EventPublisher | undefined): void {
  publisher = next;
}

/**
 * Publishes after the write has committed. A publish failure cannot undo the write, so it is logged
 * (the request still succeeds) rather than turned into an error the caller would retry.
 */
export async function publishAfterCommit(events: DomainEvent[]): Promise<void> {
  try {
    await eventPublisher().publish(events);
  } catch (error) {
    logger.error('Domain events not published', { types: events.map((e) => e.type), error: error as Error });
  }
}
