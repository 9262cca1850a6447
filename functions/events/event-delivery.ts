// Fed by the table's stream, filtered to the insertion of domain event items: puts each committed event on
// the event bus (shared/delivery/deliver-events.ts). A batch the bus keeps refusing reports its first
// undelivered record, so the event source mapping hands the batch from there again (bisecting, then its
// on-failure queue with an alarm): an event is delivered at least once, never dropped in silence.
import type { DynamoDBBatchResponse, DynamoDBStreamEvent } from 'aws-lambda';
import { deliverStreamRecords } from '../../shared/delivery/deliver-events';
import { eventBus } from '../../shared/outbound/event-bus';
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';

/** The function's work: one batch of stream records put on the bus, answered as Lambda's partial batch response. */
export async function eventDelivery(event: DynamoDBStreamEvent): Promise<DynamoDBBatchResponse> {
  const outcome = await deliverStreamRecords(event.Records, eventBus());
  if (outcome.firstUndelivered === null) {
    logger.debug('Domain events delivered', { records: event.Records.length, delivered: outcome.delivered, refusals: outcome.refusals });
    return { batchItemFailures: [] };
  }
  logger.warn('The event bus refused domain events; the stream hands them again', {
    records: event.Records.length,
    delivered: outcome.delivered,
    refusals: outcome.refusals,
    firstUndelivered: outcome.firstUndelivered,
  });
  return { batchItemFailures: [{ itemIdentifier: outcome.firstUndelivered }] };
}

export const handler = eventHandler(eventDelivery);
