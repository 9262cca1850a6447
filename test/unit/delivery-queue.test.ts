// The webhook delivery queue: in the cloud each verified delivery goes to the SQS queue the stack names
// (WEBHOOK_DELIVERY_QUEUE_URL) as one JSON body; the twin's registered queue takes its place.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { mockClient } from 'aws-sdk-client-mock';
import { deliveryQueue, setDeliveryQueue } from '../../shared/webhooks/delivery-queue';
import { readQueuedDelivery, type WebhookDelivery } from '../../shared/webhooks/queued-delivery';
import { setEnvironment } from '../support/environment';

const sqs = mockClient(SQSClient);
const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/111122223333/deliveries';

const delivery: WebhookDelivery = {
  shopId: 'acme',
  topic: 'customers/redact',
  webhookId: 'w-1',
  eventId: 'e-1',
  triggeredAt: '2027-01-15T15:00:00.000Z',
  body: '{"customer":{"id":1}}',
};

let restore = () => {};
beforeEach(() => {
  sqs.reset();
  setDeliveryQueue(undefined);
});
afterEach(() => {
  restore();
  setDeliveryQueue(undefined);
});

describe('the webhook delivery queue', () => {
  it('sends a delivery of any topic to the SQS queue named, as the body the processor reads back', async () => {
    restore = setEnvironment({ TABLE_NAME: 't', WEBHOOK_DELIVERY_QUEUE_URL: QUEUE_URL });
    sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });

    await deliveryQueue().send(delivery);

    const sent = sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);
    expect(sent).toEqual([{ QueueUrl: QUEUE_URL, MessageBody: expect.any(String) }]);
    expect(readQueuedDelivery(sent[0]!.MessageBody!)).toEqual({ source: 'receiver', message: delivery });
  });

  it('refuses to send without a queue, naming the setting', () => {
    restore = setEnvironment({ TABLE_NAME: 't', WEBHOOK_DELIVERY_QUEUE_URL: undefined });

    expect(() => deliveryQueue()).toThrow(/WEBHOOK_DELIVERY_QUEUE_URL/);
  });

  it('hands deliveries to the queue the twin registered, and to SQS again once it is unregistered', async () => {
    restore = setEnvironment({ TABLE_NAME: 't', WEBHOOK_DELIVERY_QUEUE_URL: QUEUE_URL });
    sqs.on(SendMessageCommand).resolves({});
    const held: WebhookDelivery[] = [];
    setDeliveryQueue({ send: async (message) => void held.push(message) });

    await deliveryQueue().send(delivery);
    setDeliveryQueue(undefined);
    await deliveryQueue().send(delivery);

    expect(held).toEqual([delivery]);
    expect(sqs.commandCalls(SendMessageCommand)).toHaveLength(1);
  });
});
