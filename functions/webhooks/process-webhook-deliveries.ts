// Consumes the webhook delivery queue: each verified delivery (or Shopify EventBridge event) applied once
// (shared/webhooks), with partial batch failures so that only the messages that failed go back to the queue
// (and to the dead-letter queue after that), each logged at ERROR.
import { BatchProcessor, EventType, processPartialResponse } from '@aws-lambda-powertools/batch';
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import { eventHandler } from '../../shared/observability/event-handler';
import { logger } from '../../shared/observability/powertools';
import { processQueuedDelivery } from '../../shared/webhooks/process-queued-delivery';

const processor = new BatchProcessor(EventType.SQS);

const recordHandler = async (record: SQSRecord) => {
  try {
    return await processQueuedDelivery(record.body, record.messageId);
  } catch (error) {
    // Work that did not happen (the message goes back to the queue, then to its dead-letter queue): an ERROR.
    // What can never apply (unreadable, unknown shop, malformed payload) is acknowledged with a WARN instead.
    logger.error('Webhook delivery not processed', {
      messageId: record.messageId,
      receiveCount: Number(record.attributes?.ApproximateReceiveCount ?? 0),
      error: error as Error,
    });
    throw error;
  }
};

/** The consumer's work: one batch of the queue, its failed messages reported back. */
export const processWebhookDeliveries = async (event: SQSEvent, context: Context) =>
  processPartialResponse(event, recordHandler, processor, { context });

export const handler = eventHandler(processWebhookDeliveries);
