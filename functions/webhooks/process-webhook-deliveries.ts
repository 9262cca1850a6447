// Consumes the webhook delivery queue: each verified delivery (or Shopify EventBridge event) applied once
// (shared/webhooks), with partial batch failures so that only the messages that failed go back to the queue
// (and to the dead-letter queue after that), each logged at ERROR. What can never apply (unreadable, unknown
// shop, malformed payload) is acknowledged with a WARN instead.
import { eventHandler } from '../../shared/observability/event-handler';
import { queueConsumer } from '../../shared/observability/queue-consumer';
import { processQueuedDelivery } from '../../shared/webhooks/process-queued-delivery';

/** The consumer's work: one batch of the queue, its failed messages reported back. */
export const processWebhookDeliveries = queueConsumer({
  failure: 'Webhook delivery not processed',
  work: (record) => processQueuedDelivery(record.body, record.messageId),
});

export const handler = eventHandler(processWebhookDeliveries);
