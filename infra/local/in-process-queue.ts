// The twin's queues: instead of SQS, the consumer's handler is invoked at once with an SQS-shaped event and
// awaited, so a webhook's effects are visible as soon as the delivery was answered (the Klaviyo queue's
// sender does not wait: infra/local/klaviyo-target.ts). A message the consumer reports as failed is retried
// as SQS would, then set aside like a dead-letter queue.
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Context, SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import type { MessageQueue } from '../../shared/events/sqs-queue';
import type { WebhookDelivery } from '../../shared/webhooks/queued-delivery';
import { lambdaContext } from './gateway';

type ConsumerHandler = (event: SQSEvent, context: Context) => Promise<SQSBatchResponse | void>;

export interface InProcessQueue<Message = WebhookDelivery> extends MessageQueue<Message> {
  /** Messages that failed every attempt (the twin's dead-letter queue). */
  deadLetters(): Message[];
}

const MAX_RECEIVES = 3;

export interface InProcessQueueOptions<Message> {
  /** What the dead-letter log line says of a message (default: a webhook delivery's topic and id). */
  describe?: (message: Message) => Record<string, unknown>;
  /** Receives before a message is set aside (default 3). */
  maxReceives?: number;
}

/** One SQS record as the event source mapping hands it to the queue's consumer (its `receiveCount`-th receive). */
export function sqsRecord(queueName: string, messageId: string, receiveCount: number, message: unknown): SQSRecord {
  return {
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
    eventSourceARN: `arn:aws:sqs:local:000000000000:${queueName}`,
    awsRegion: 'local',
  };
}

export function inProcessQueue<Message = WebhookDelivery>(
  root: string,
  consumer: { name: string; handler: string; timeoutSeconds: number },
  options: InProcessQueueOptions<Message> = {},
): InProcessQueue<Message> {
  let module: Promise<{ handler: unknown }> | undefined;
  const dead: Message[] = [];
  const maxReceives = options.maxReceives ?? MAX_RECEIVES;
  const describe =
    options.describe ??
    ((message: Message) => ({ topic: (message as WebhookDelivery).topic, webhookId: (message as WebhookDelivery).webhookId }));
  const invoke = async (message: Message, messageId: string, receiveCount: number): Promise<boolean> => {
    module ??= import(join(root, consumer.handler)) as Promise<{ handler: unknown }>;
    const handler = (await module).handler as ConsumerHandler;
    const event: SQSEvent = { Records: [sqsRecord(consumer.name, messageId, receiveCount, message)] };
    try {
      const result = await handler(event, lambdaContext(consumer.name, randomUUID(), consumer.timeoutSeconds));
      return !(result && result.batchItemFailures.length > 0);
    } catch (error) {
      console.error(JSON.stringify({ level: 'ERROR', message: 'Queue consumer failed', consumer: consumer.name, error: String(error) }));
      return false;
    }
  };
  return {
    async send(message) {
      // One message id for every receive of the message, as SQS keeps it.
      const messageId = randomUUID();
      for (let receive = 1; receive <= maxReceives; receive += 1) if (await invoke(message, messageId, receive)) return;
      dead.push(message);
      console.error(
        JSON.stringify({ level: 'ERROR', message: 'Message moved to the dead-letter list', consumer: consumer.name, ...describe(message) }),
      );
    },
    deadLetters: () => [...dead],
  };
}
