// Delivery of committed domain events, at least once: a batch of the table's stream records (the cloud's
// stream consumer, the twin's reader over DynamoDB Local) is read for the events it inserts, and those are
// put on the bus; what the bus refuses is put again, with backoff, until it is accepted or the attempts of
// this batch are spent. Then the batch reports the first record not delivered: the stream hands it (and
// everything after it) again, so nothing is lost; an event after it that was delivered is delivered twice,
// which consumers absorb by deduplicating on `id` (docs/events.md).
import { committedEventOfRecord, type StreamRecordLike } from '../data/domain-event-stream';
import type { CommittedEvent } from '../domain/events';
import type { EventBus } from '../outbound/event-bus';

export interface DeliveryPolicy {
  /** Puts of one batch before it reports a failure (the stream then hands the rest again). */
  readonly attempts: number;
  /** The wait before the second put; each further wait doubles. */
  readonly firstBackoffMs: number;
  /** How a wait is spent (tests pass one that returns at once). */
  readonly wait: (ms: number) => Promise<void>;
}

export const DELIVERY_POLICY: DeliveryPolicy = {
  attempts: 4,
  firstBackoffMs: 100,
  wait: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

export interface EventBatchDelivered {
  /** Events the bus accepted in this batch. */
  readonly delivered: number;
  /** The sequence number of the first record whose event is not delivered yet; null when all are. */
  readonly firstUndelivered: string | null;
  /** Puts the bus refused in whole or in part. */
  readonly refusals: number;
}

/** Delivers the events of `records` (in stream order) to `bus`, retrying what it refuses. */
export async function deliverStreamRecords(
  records: readonly StreamRecordLike[],
  bus: EventBus,
  policy: DeliveryPolicy = DELIVERY_POLICY,
): Promise<EventBatchDelivered> {
  let pending: Array<{ record: number; event: CommittedEvent }> = [];
  records.forEach((record, index) => {
    const event = committedEventOfRecord(record);
    if (event) pending.push({ record: index, event });
  });
  let delivered = 0;
  let refusals = 0;
  for (let attempt = 0; attempt < policy.attempts && pending.length > 0; attempt += 1) {
    if (attempt > 0) await policy.wait(policy.firstBackoffMs * 2 ** (attempt - 1));
    let refused: number[];
    try {
      refused = await bus.put(pending.map(({ event }) => event));
    } catch {
      refused = pending.map((_, at) => at);
    }
    if (refused.length > 0) refusals += 1;
    delivered += pending.length - refused.length;
    pending = refused.map((at) => pending[at]!);
  }
  const first = pending[0];
  return {
    delivered,
    firstUndelivered: first ? (records[first.record]!.dynamodb?.SequenceNumber ?? null) : null,
    refusals,
  };
}
