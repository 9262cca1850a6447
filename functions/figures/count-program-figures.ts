// Consumes the figures queue (every loyalty event of the bus, by rule): each event counted once on its shop's
// day and "now" figures (shared/figures/program-figures.ts). A batch counts in one transaction per shop and
// 25 events; a redelivered event is dropped as counted by its marker, so a batch that fails is handed again
// whole (every record reported failed: the ones counted already are dropped as duplicates next time). An
// unreadable message is logged and dropped: nothing could ever count it.
import type { SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { countDeliveredEvents, eventOfMessage } from '../../shared/figures/program-figures';
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';
import type { CommittedEvent } from '../../shared/domain/events';

/** The consumer's work: one batch of the figures queue. */
export const countProgramFigures = async (event: SQSEvent): Promise<SQSBatchResponse> => {
  const events: CommittedEvent[] = [];
  for (const record of event.Records) {
    const read = eventOfMessage(record.body);
    if (typeof read === 'string') logger.warn('Figures consumer: message dropped', { messageId: record.messageId, reason: read });
    else events.push(read);
  }
  try {
    const outcome = await countDeliveredEvents(events);
    logger.info('Figures counted', { ...outcome });
    return { batchItemFailures: [] };
  } catch (error) {
    logger.error('Figures not counted: the batch is handed again', { records: event.Records.length, error: error as Error });
    return { batchItemFailures: event.Records.map((record) => ({ itemIdentifier: record.messageId })) };
  }
};

export const handler = eventHandler(countProgramFigures);
