// The event bus committed domain events are delivered to: EventBridge in the cloud (EVENT_BUS_NAME; Source
// `loyalty-api`, DetailType the event's type, Detail the event), the twin's own bus locally (set by the twin).
// A put answers which of the events the bus refused, so the deliverer retries exactly those.
import { EventBridgeClient, PutEventsCommand, type PutEventsRequestEntry } from '@aws-sdk/client-eventbridge';
import type { CommittedEvent } from '../domain/events';
import { env } from '../runtime/env';
import { traceAwsClient } from '../observability/tracing';

export const EVENT_SOURCE = 'loyalty-api';

export interface EventBus {
  /** Puts the events; answers the positions (in `events`) of those the bus refused; throws when it refused the call. */
  put(events: readonly CommittedEvent[]): Promise<number[]>;
}

/** PutEvents' limits: 10 entries and 256 KiB a call. */
const ENTRIES_PER_CALL = 10;
const BYTES_PER_CALL = 256 * 1024;

/** The entry of `event` on the bus, as the contract says. */
export function busEntry(event: CommittedEvent, busName: string): PutEventsRequestEntry {
  return { EventBusName: busName, Source: EVENT_SOURCE, DetailType: event.type, Detail: JSON.stringify(event) };
}

/** EventBridge's PutEvents, in calls within its limits; a refused entry is reported by its position. */
export function eventBridgeBus(busName: string, client = traceAwsClient(new EventBridgeClient({}))): EventBus {
  return {
    async put(events) {
      const refused: number[] = [];
      let batch: Array<{ at: number; entry: PutEventsRequestEntry }> = [];
      let bytes = 0;
      const send = async () => {
        if (batch.length === 0) return;
        const sent = batch;
        batch = [];
        bytes = 0;
        const result = await client.send(new PutEventsCommand({ Entries: sent.map(({ entry }) => entry) }));
        (result.Entries ?? []).forEach((answer, index) => {
          if (answer.ErrorCode || !answer.EventId) refused.push(sent[index]!.at);
        });
        if ((result.Entries ?? []).length < sent.length) for (const { at } of sent.slice(result.Entries?.length ?? 0)) refused.push(at);
      };
      for (const [at, event] of events.entries()) {
        const entry = busEntry(event, busName);
        const size = Buffer.byteLength(entry.Detail!) + Buffer.byteLength(entry.DetailType!) + Buffer.byteLength(EVENT_SOURCE);
        if (batch.length === ENTRIES_PER_CALL || (batch.length > 0 && bytes + size > BYTES_PER_CALL)) await send();
        batch.push({ at, entry });
        bytes += size;
      }
      await send();
      return refused.sort((a, b) => a - b);
    },
  };
}

let bus: EventBus | undefined;

/** The bus of this runtime: the one set (the twin's), else EventBridge's EVENT_BUS_NAME. */
export function eventBus(): EventBus {
  if (bus) return bus;
  const name = env().EVENT_BUS_NAME;
  if (!name) throw new Error('No event bus configured: set EVENT_BUS_NAME');
  bus = eventBridgeBus(name);
  return bus;
}

/** The twin sets its own bus; undefined returns to EVENT_BUS_NAME. */
export function setEventBus(next: EventBus | undefined): void {
  bus = next;
}
