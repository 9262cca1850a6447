// Consumes the Klaviyo queue (the bus's loyalty events, by rule): each event's profile properties and metric
// sent to the shop's Klaviyo account (shared/klaviyo), with partial batch failures so that only the events
// Klaviyo did not take now go back to the queue (and to its dead-letter queue after that). What Klaviyo refuses
// is parked in the refusals queue and acknowledged: it never holds up the rest of the batch.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';
import { processKlaviyoMessage } from '../../shared/klaviyo/klaviyo-consumer';
import { withInvocationDeadline } from '../../shared/runtime/invocation';

const processor = new BatchProcessor(EventType.SQS);

const recordHandler = async (record: SQSRecord) => {
  try {
    return await processKlaviyoMessage(record.body);
  } catch (error) {
    logger.error('Klaviyo event not delivered', {
      messageId: record.messageId,
      receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 0),
      error: error as Error,
    });
    throw error;
  }
};

/** The consumer's work: one batch of the Klaviyo queue, answered as Lambda's partial batch response. */
export const deliverKlaviyoEvents = (event: SQSEvent, context: Context) =>
  withInvocationDeadline(context.getRemainingTimeInMillis(), () => processPartialResponse(event, recordHandler, processor, { context }));

export const handler = eventHandler(deliverKlaviyoEvents);
