// Consumes the figures queue (every loyalty event of the bus, by rule): each event counted once on its shop's
// day and "now" figures (shared/figures/program-figures.ts). A batch counts in one transaction per shop and
// 25 events, so the consumer's work is the whole batch (`wholeBatch`); a redelivered event is dropped as
// counted by its marker, so a batch that fails is handed again whole (every event's record reported failed:
// the ones counted already are dropped as duplicates next time). An unreadable message is logged and
// acknowledged: nothing could ever count it.
import type { SQSRecord } from 'aws-lambda';
import type { CommittedEvent } from '../../shared/domain/events';
import { countDeliveredEvents, eventOfMessage } from '../../shared/figures/program-figures';
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';
import { queueConsumer, wholeBatch } from '../../shared/observability/queue-consumer';

function readEvent(record: SQSRecord): CommittedEvent | undefined {
  const read = eventOfMessage(record.body);
  if (typeof read !== 'string') return read;
  logger.warn('Figures consumer: message dropped', { messageId: record.messageId, reason: read });
  return undefined;
}

async function countBatch(events: CommittedEvent[]): Promise<void> {
  const outcome = await countDeliveredEvents(events);
  logger.info('Figures counted', { ...outcome });
}

/** The consumer's work: one batch of the figures queue. */
export const countProgramFigures = queueConsumer({
  failure: 'Figures not counted: the batch is handed again',
  work: { perBatch: (records) => wholeBatch(records.length, readEvent, countBatch) },
  // Every record reported failed, as a partial batch response, rather than an invocation error.
  throwOnFullBatchFailure: false,
});

export const handler = eventHandler(countProgramFigures);
