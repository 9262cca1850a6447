// The webhook delivery queue: where the receiver puts every verified delivery (order, customer, app and
// privacy topics alike) for the processor. SQS in the cloud (WEBHOOK_DELIVERY_QUEUE_URL), in process in the
// twin, which registers its queue here and runs the processor before the delivery is answered.
import { type MessageQueue, sqsQueue } from '../outbound/sqs-queue';
import { env } from '../runtime/env';
import type { WebhookDelivery } from './queued-delivery';

export type DeliveryQueue = MessageQueue<WebhookDelivery>;

let queue: DeliveryQueue | undefined;

/** The twin registers its in-process queue here before it serves webhooks; undefined returns to SQS. */
export function setDeliveryQueue(next: DeliveryQueue | undefined): void {
  queue = next;
}

export function deliveryQueue(): DeliveryQueue {
  if (queue) return queue;
  const url = env().WEBHOOK_DELIVERY_QUEUE_URL;
  if (!url) throw new Error('No webhook delivery queue configured: set WEBHOOK_DELIVERY_QUEUE_URL');
  queue = sqsQueue<WebhookDelivery>(url);
  return queue;
}
