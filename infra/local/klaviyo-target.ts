// The twin's stand-in for the stack's Klaviyo rule (infra/cdk/constructs/klaviyo-delivery.ts): the bus's
// delivered events of the types the rule matches, each put on the Klaviyo queue in EventBridge's envelope,
// whose consumer (the manifest's `deliverKlaviyoEvents`, run by the in-process queue) sends them on to the
// simulator's Klaviyo. The bus does not wait for Klaviyo: the target answers at once and the queue works in
// the background, so a slow or failing Klaviyo never slows the API.
import { EVENT_SOURCE } from '../../shared/outbound/event-bus';
import type { KlaviyoRefusal } from '../../shared/klaviyo/klaviyo-delivery';
import { KLAVIYO_EVENT_TYPES } from '../../shared/klaviyo/loyalty-event';
import { type QueueConsumer } from '../../shared/runtime/entry-points';
import { nowIso } from '../../shared/runtime/clock';
import { inProcessQueue, type InProcessQueue } from './in-process-queue';

/** An event as the bus delivered it: its id, its type (`DetailType`) and the event itself (`Detail`). */
export interface DeliveredEvent {
  id: string;
  type: string;
  detail: unknown;
}

/** EventBridge's envelope, as an SQS target receives it. */
export interface EventBridgeEnvelope {
  version: '0';
  id: string;
  'detail-type': string;
  source: string;
  account: string;
  time: string;
  region: string;
  resources: string[];
  detail: unknown;
}

export interface KlaviyoTarget {
  /** Hands delivered events to the Klaviyo queue (the types the rule matches); answers at once. */
  (events: readonly DeliveredEvent[]): void;
  /** Resolves when every event handed so far has been consumed (or set aside). */
  idle(): Promise<void>;
  queue: InProcessQueue<EventBridgeEnvelope>;
}

const MATCHED = new Set(KLAVIYO_EVENT_TYPES);

export function klaviyoQueue(root: string, consumer: QueueConsumer): InProcessQueue<EventBridgeEnvelope> {
  return inProcessQueue<EventBridgeEnvelope>(root, consumer, {
    describe: (message) => ({ eventId: message.id, type: message['detail-type'] }),
  });
}

export function klaviyoTarget(queue: InProcessQueue<EventBridgeEnvelope>): KlaviyoTarget {
  const pending = new Set<Promise<void>>();
  const target = ((events: readonly DeliveredEvent[]) => {
    for (const event of events) {
      if (!MATCHED.has(event.type)) continue;
      const sent = queue
        .send({
          version: '0',
          id: event.id,
          'detail-type': event.type,
          source: EVENT_SOURCE,
          account: '000000000000',
          time: nowIso(),
          region: 'local',
          resources: [],
          detail: event.detail,
        })
        .catch((error: unknown) => console.error(JSON.stringify({ level: 'ERROR', message: 'Klaviyo queue failed', error: String(error) })))
        .finally(() => pending.delete(sent));
      pending.add(sent);
    }
  }) as KlaviyoTarget;
  target.idle = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  target.queue = queue;
  return target;
}

/**
 * The target as a subscriber of the twin's bus, which hands over one delivered event at a time (the event
 * itself, with its `id` and `type`): `bus.subscribe(klaviyoSubscriber(target))`.
 */
export function klaviyoSubscriber(target: KlaviyoTarget): (event: { id: string; type: string }) => void {
  return (event) => target([{ id: event.id, type: event.type, detail: event }]);
}

/** The twin's refusals queue: what Klaviyo refused, kept in process (GET /_klaviyo/refused). */
export function klaviyoRefusals(): { send(message: KlaviyoRefusal): Promise<void>; list(): KlaviyoRefusal[] } {
  const refused: KlaviyoRefusal[] = [];
  return {
    send: async (message) => {
      refused.push(message);
    },
    list: () => [...refused],
  };
}
