// The one shape of a queue's consumer: Powertools' batch processor over the SQS batch, records handled in
// parallel, each failed record logged at ERROR (with its message id and receive count) and reported back
// alone as Lambda's partial batch response (the event source mappings set ReportBatchItemFailures), so only
// what failed goes back to the queue, and to its dead-letter queue after that. The work runs within the
// invocation's deadline (shared/runtime/invocation.ts). A consumer whose work is the whole batch at once
// (one transaction for many records) hands each record's part to `wholeBatch`.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { withInvocationDeadline } from '../runtime/invocation';
import { logger } from './powertools';

/** One record's work; throwing fails the record (it goes back to the queue). */
export type RecordWork = (record: SQSRecord) => Promise<unknown>;

export interface QueueConsumerOptions {
  /** The ERROR logged for each record that failed ("Klaviyo event not delivered"). */
  failure: string;
  /** The record handler of one batch: the same for every batch, or made per batch from its records (`wholeBatch`). */
  work: RecordWork | { perBatch: (records: readonly SQSRecord[]) => RecordWork };
  /**
   * Whether a batch whose every record failed throws (Lambda's error, Powertools' default) rather than reporting
   * every record failed. Either way SQS hands the records again.
   */
  throwOnFullBatchFailure?: boolean;
}

/** The consumer's work for one SQS batch, answered as Lambda's partial batch response. */
export function queueConsumer(options: QueueConsumerOptions): (event: SQSEvent, context: Context) => Promise<SQSBatchResponse> {
  return (event, context) => {
    // One processor per batch: it holds the batch it processes, and the twin runs invocations side by side.
    const processor = new BatchProcessor(EventType.SQS);
    const work = typeof options.work === 'function' ? options.work : options.work.perBatch(event.Records);
    const recordHandler = async (record: SQSRecord) => {
      try {
        return await work(record);
      } catch (error) {
        logger.error(options.failure, {
          messageId: record.messageId,
          receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 0),
          error: error as Error,
        });
        throw error;
      }
    };
    return withInvocationDeadline(context.getRemainingTimeInMillis(), () =>
      processPartialResponse(event, recordHandler, processor, {
        context,
        processInParallel: true,
        throwOnFullBatchFailure: options.throwOnFullBatchFailure ?? true,
      }),
    );
  };
}

/**
 * A record handler for work done on the whole batch at once: each record's part is read (`undefined`: the
 * record is dropped, acknowledged); once all `size` records are read, `work` runs once on the parts, and every
 * record that gave a part succeeds or fails with it. Needs the records handled in parallel, as `queueConsumer` does.
 */
export function wholeBatch<T>(
  size: number,
  read: (record: SQSRecord) => T | undefined,
  work: (parts: T[]) => Promise<unknown>,
): RecordWork {
  const parts: T[] = [];
  let arrived = 0;
  let ready!: () => void;
  const allRead = new Promise<void>((resolve) => (ready = resolve));
  const done = allRead.then(() => work(parts));
  // Every record that gave a part awaits `done`; one that did not must not leave its failure unhandled.
  done.catch(() => undefined);
  return async (record) => {
    const part = read(record);
    if (part !== undefined) parts.push(part);
    arrived += 1;
    if (arrived === size) ready();
    if (part !== undefined) await done;
  };
}
