// The twin's event bus, EventBridge's stand-in: what the twin's stream reader delivers is (a) appended to the
// events file that GET /_events lists (one JSON object a line, in delivery order) and (b) handed to each subscriber,
// as EventBridge hands an event to each rule's target. While the bus is faulted (`PUT /_faults` with
// `"bus": "error"` on the simulator) it refuses every put, and the reader hands the events again later.
import { appendFile, readFile } from 'node:fs/promises';
import type { CommittedEvent } from '../../shared/domain/events';
import type { EventBus } from '../../shared/outbound/event-bus';

/** A subscriber: gets every event the bus accepts, in delivery order; its failures are its own. */
export type BusTarget = (event: CommittedEvent) => void | Promise<void>;

export interface TwinBus extends EventBus {
  /** Hands every event accepted from now on to `target`; the answer unsubscribes it. */
  subscribe(target: BusTarget): () => void;
  /** Every event the bus received since the twin's data began, oldest first (GET /_events). */
  list(): Promise<unknown[]>;
  /** Events accepted by this bus since it started. */
  accepted(): number;
}

export interface TwinBusOptions {
  /** The JSON-lines file the bus appends to and lists. */
  file: string;
  /** True while the bus refuses every put. */
  refusing: () => boolean;
  /** Where a subscriber's failure is told (default: stderr as a JSON log line). */
  onTargetError?: (error: unknown) => void;
}

export function twinBus(options: TwinBusOptions): TwinBus {
  // One chain per subscriber: each gets the events in delivery order, and a slow one never holds the bus.
  const targets = new Map<BusTarget, { chain: Promise<void> }>();
  let accepted = 0;
  const onTargetError =
    options.onTargetError ??
    ((error: unknown) => console.error(JSON.stringify({ level: 'ERROR', message: 'Event bus subscriber failed', error: String(error) })));
  return {
    async put(events) {
      if (options.refusing()) return events.map((_, at) => at);
      if (events.length === 0) return [];
      await appendFile(options.file, events.map((event) => `${JSON.stringify(event)}\n`).join(''), 'utf8');
      accepted += events.length;
      for (const [target, state] of targets) {
        for (const event of events) {
          state.chain = state.chain.then(() => target(event)).catch(onTargetError);
        }
      }
      return [];
    },
    subscribe(target) {
      targets.set(target, { chain: Promise.resolve() });
      return () => targets.delete(target);
    },
    list: () => readEventsFile(options.file),
    accepted: () => accepted,
  };
}

/** The events file's lines, oldest first; a line cut short by a killed twin is left out. */
export async function readEventsFile(file: string): Promise<unknown[]> {
  const text = await readFile(file, 'utf8').catch(() => '');
  return text.split('\n').flatMap((line) => {
    if (line.trim() === '') return [];
    try {
      return [JSON.parse(line) as unknown];
    } catch {
      return [];
    }
  });
}
