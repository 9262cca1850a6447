// Shopify webhooks delivered through the EventBridge partner source reach the processor as whole EventBridge
// events in SQS records: they earn exactly as signed deliveries do, once each, and what cannot be applied is
// acknowledged (no partial batch failure, so no redelivery loop).
import type { Context, SQSEvent, SQSRecord } from 'aws-lambda';
import type { Twin } from '../../infra/local/twin';
import { handler } from '../../functions/webhooks/process-webhook-deliveries';
import { apiClient, startTestTwin } from '../support/twin';
import { platformControls } from '../support/orders';

jest.setTimeout(60_000);

const KEY = 'eventbridge_full_key';
const config = {
  shops: [
    {
      id: 'bridge',
      name: 'Bridge',
      currency: 'USD',
      referral_base_url: 'https://bridge.example/',
      api_keys: [{ name: 'Full', scope: 'full', key: KEY }],
      earning_rules: [
        { id: 'per-dollar', name: 'A point per dollar', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 },
      ],
      platform: { customers: [{ id: '4001', email: 'eb@example.com' }] },
      members: [
        {
          platform_customer_id: '4001',
          current_points: 0,
          lifetime_points: 0,
          redeemed_points: 0,
          enrolled_at: '2025-01-01T00:00:00.000Z',
        },
      ],
    },
  ],
};

let twin: Twin;
const api = () => apiClient(twin.url, KEY);

beforeAll(async () => {
  twin = await startTestTwin(config, { throttling: false });
});
afterAll(async () => {
  await twin.stop();
});

/** An SQS record holding what the partner-source rule forwards: the whole EventBridge event. */
function eventBridgeRecord(messageId: string, topic: string, shopDomain: string, payload: unknown): SQSRecord {
  const event = {
    version: '0',
    id: `event-${messageId}`,
    'detail-type': 'shopifyWebhook',
    source: 'aws.partner/shopify.com/123456/loyalty',
    account: '111122223333',
    time: '2027-01-15T15:00:01Z',
    region: 'us-east-1',
    resources: [],
    detail: {
      payload,
      metadata: {
        'Content-Type': 'application/json',
        'X-Shopify-Topic': topic,
        'X-Shopify-Shop-Domain': shopDomain,
        'X-Shopify-Webhook-Id': `webhook-${messageId}`,
      },
    },
  };
  return {
    messageId,
    receiptHandle: messageId,
    body: JSON.stringify(event),
    attributes: {},
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: 'arn:aws:sqs:us-east-1:111122223333:orders',
    awsRegion: 'us-east-1',
  } as unknown as SQSRecord;
}

const run = (records: SQSRecord[]) =>
  handler(
    { Records: records } as SQSEvent,
    { functionName: 'process-deliveries', awsRequestId: 'test', getRemainingTimeInMillis: () => 30_000 } as unknown as Context,
  );

describe('a Shopify webhook through EventBridge', () => {
  it('earns like a signed delivery, once, even when EventBridge delivers it twice', async () => {
    // The simulator makes the order and its REST payload; the test delivers it as EventBridge would.
    const { order } = await platformControls(twin).order({
      shop: 'bridge',
      customer_id: '4001',
      subtotal_price: '42.50',
      total_price: '45.00',
      deliver: false,
    });

    const first = await run([eventBridgeRecord('m-1', 'orders/paid', 'bridge.myshopify.com', order)]);
    const again = await run([eventBridgeRecord('m-2', 'orders/paid', 'bridge.myshopify.com', order)]);

    expect(first).toEqual({ batchItemFailures: [] });
    expect(again).toEqual({ batchItemFailures: [] });
    const customer = await api().get('/v1/customers/4001');
    expect(customer.body.data.attributes).toMatchObject({ current_points: 42, lifetime_points: 42 });
    const history = await api().get('/v1/customers/4001/earning-history');
    expect(history.body.data).toEqual([
      expect.objectContaining({ attributes: expect.objectContaining({ order_id: String(order.id), points: 42, status: 'approved' }) }),
    ]);
  });

  it('for an unknown shop, or without a usable body, is acknowledged and changes nothing', async () => {
    const { order } = await platformControls(twin).order({
      shop: 'bridge',
      customer_id: '4001',
      subtotal_price: '10.00',
      total_price: '10.00',
      deliver: false,
    });
    const before = (await api().get('/v1/customers/4001')).body.data.attributes;

    const answer = await run([
      eventBridgeRecord('m-3', 'orders/paid', 'elsewhere.myshopify.com', order),
      eventBridgeRecord('m-4', 'orders/paid', 'bridge.myshopify.com', { id: 'not-an-order' }),
      { ...eventBridgeRecord('m-5', 'orders/paid', 'bridge.myshopify.com', order), body: 'not json' },
    ]);

    expect(answer).toEqual({ batchItemFailures: [] });
    expect((await api().get('/v1/customers/4001')).body.data.attributes).toMatchObject({
      current_points: before.current_points,
      lifetime_points: before.lifetime_points,
    });
  });
});
