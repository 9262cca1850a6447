// The twin's webhook delivery queue: instead of SQS, the processor handler is invoked at once with an SQS-shaped
// event and awaited, so a webhook's effects are visible as soon as the delivery was answered. A message the
// processor reports as failed is retried as SQS would, then set aside like a dead-letter queue.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import type { DeliveryQueue } from '../../shared/webhooks/delivery-queue';
import type { WebhookDelivery } from '../../shared/webhooks/queued-delivery';
import { lambdaContext } from './gateway';

type ConsumerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface InProcessQueue extends DeliveryQueue {
  /** Messages that failed every attempt (the twin's dead-letter queue). */
  deadLetters(): WebhookDelivery[];
}

const MAX_RECEIVES = 3;

export function inProcessQueue(root: string, consumer: { name: string; handler: string; timeoutSeconds: number }): InProcessQueue {
  let module: Promise<{ handler: unknown }> | undefined;
  const dead: WebhookDelivery[] = [];
  const invoke = async (message: WebhookDelivery, messageId: string, receiveCount: number): Promise<boolean> => {
    module ??= import(join(root, consumer.handler)) as Promise<{ handler: unknown }>;
    const handler = (await module).handler as ConsumerHandler;
    const event: SQSEvent = {
      Records: [
        {
          messageId,
          receiptHandle: `${messageId}#${receiveCount}`,
          body: JSON.stringify(message),
          attributes: {
            ApproximateReceiveCount: String(receiveCount),
            SentTimestamp: String(Date.now()),
            SenderId: 'local',
            ApproximateFirstReceiveTimestamp: String(Date.now()),
          },
          messageAttributes: {},
          md5OfBody: '',
          eventSource: 'aws:sqs',
          eventSourceARN: 'arn:aws:sqs:local:000000000000:webhook-deliveries',
          awsRegion: 'local',
        },
      ],
    };
    try {
      const result = await handler(event, lambdaContext(consumer.name, randomUUID(), consumer.timeoutSeconds));
      return !(result && result.batchItemFailures.length > 0);
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Delivery processor failed', error: String(error) }));
      return false;
    }
  };
  return {
    async send(message) {
      // One message id for every receive of the message, as SQS keeps it.
      const messageId = randomUUID();
      for (let receive = 1; receive <= MAX_RECEIVES; receive += 1) if (await invoke(message, messageId, receive)) return;
      dead.push(message);
      console.error(
        JSON.stringify({
          level: 'ERROR',
          message: 'Webhook delivery moved to the dead-letter list',
          topic: message.topic,
          webhookId: message.webhookId,
        }),
      );
    },
    deadLetters: () => [...dead],
  };
}
