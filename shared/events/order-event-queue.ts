// Where the webhook receiver puts verified deliveries for the order processor: SQS in the cloud
// (ORDER_EVENTS_QUEUE_URL), in process in the twin, which runs the processor before the delivery is answered.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { env } from '../runtime/env';
import { traceAwsClient } from '../observability/tracing';

/** A verified platform delivery, as the processor receives it. */
export interface OrderEventMessage {
  shopId: string;
  topic: string;
  webhookId: string | null;
  eventId: string | null;
  triggeredAt: string | null;
  /** The raw body exactly as signed. */
  body: string;
}

export interface OrderEventQueue {
  send(message: OrderEventMessage): Promise<void>;
}

export function sqsOrderEventQueue(queueUrl: string, client = traceAwsClient(new SQSClient({}))): OrderEventQueue {
  return {
    send: async (message) => {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
    },
  };
}

let queue: OrderEventQueue | undefined;

/** The twin registers its in-process queue here before it serves webhooks. */
export function setOrderEventQueue(next: OrderEventQueue | undefined): void {
  queue = next;
}

export function orderEventQueue(): OrderEventQueue {
  if (queue) return queue;
  const url = env().ORDER_EVENTS_QUEUE_URL;
  if (!url) throw new Error('No order event queue configured: set ORDER_EVENTS_QUEUE_URL');
  queue = sqsOrderEventQueue(url);
  return queue;
}
