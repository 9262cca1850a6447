// The twin's stand-in for the stack's figures rule (infra/cdk/constructs/figures-delivery.ts): every event the
// bus delivers is put on the figures queue in EventBridge's envelope, whose consumer (the manifest's
// `countProgramFigures`, run by the in-process queue) counts it once in the program's figures. The bus does
// not wait: the target answers at once and the queue works in the background.
import { EVENT_SOURCE } from '../../shared/events/event-bus';
import type { QueueConsumer } from '../../shared/runtime/entry-points';
import { nowIso } from '../../shared/runtime/clock';
import { inProcessQueue, type InProcessQueue } from './in-process-queue';
import type { EventBridgeEnvelope } from './klaviyo-target';

export interface FiguresTarget {
  /** Hands one delivered event (with its `id` and `type`) to the figures queue; answers at once. */
  (event: { id: string; type: string }): void;
  /** Resolves when every event handed so far has been counted (or set aside). */
  idle(): Promise<void>;
  queue: InProcessQueue<EventBridgeEnvelope>;
}

export function figuresTarget(root: string, consumer: QueueConsumer): FiguresTarget {
  const queue = inProcessQueue<EventBridgeEnvelope>(root, consumer, {
    describe: (message) => ({ eventId: message.id, type: message['detail-type'] }),
  });
  const pending = new Set<Promise<void>>();
  const target = ((event: { id: string; type: string }) => {
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
        detail: event,
      })
      .catch((error: unknown) => console.error(JSON.stringify({ level: 'ERROR', message: 'Figures queue failed', error: String(error) })))
      .finally(() => pending.delete(sent));
    pending.add(sent);
  }) as FiguresTarget;
  target.idle = async () => {
    while (pending.size > 0) await Promise.all([...pending]);
  };
  target.queue = queue;
  return target;
}
