// Sending to an SQS queue: each message as one JSON body. The adapter knows no message shape; the feature
// that owns a queue gives it its message type (shared/webhooks/delivery-queue.ts for the webhook deliveries).
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { traceAwsClient } from '../observability/tracing';

/** Where messages of one shape are put: SQS in the cloud, an in-process stand-in in the twin. */
export interface MessageQueue<Message> {
  send(message: Message): Promise<void>;
}

export function sqsQueue<Message>(queueUrl: string, client = traceAwsClient(new SQSClient({}))): MessageQueue<Message> {
  return {
    send: async (message) => {
      await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(message) }));
    },
  };
}
