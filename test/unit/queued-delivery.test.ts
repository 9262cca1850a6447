// The webhook delivery queue's two message shapes: the receiver's verified deliveries and Shopify's EventBridge events
// (partner event source), read into the same delivery, and anything else refused without a retry loop.
import { readQueuedDelivery } from '../../shared/webhooks/queued-delivery';

const order = { id: 5000000001, name: '#1001', customer: { id: 1001 } };

/** An event as the partner source puts it on the bus and the rule forwards it to SQS. */
const eventBridgeEvent = (metadata: Record<string, unknown>, payload: unknown = order) => ({
  version: '0',
  id: 'a1b2c3d4-0000-0000-0000-000000000000',
  'detail-type': 'shopifyWebhook',
  source: 'aws.partner/shopify.com/123456/loyalty',
  account: '111122223333',
  time: '2027-01-15T15:00:01Z',
  region: 'us-east-1',
  resources: [],
  detail: { payload, metadata },
});

const shopifyMetadata = {
  'Content-Type': 'application/json',
  'X-Shopify-Topic': 'orders/paid',
  'X-Shopify-Shop-Domain': 'demo.myshopify.com',
  'X-Shopify-Webhook-Id': 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
  'X-Shopify-Event-Id': '98880550-7158-44d4-b7cd-2c97c8a091b5',
  'X-Shopify-Triggered-At': '2027-01-15T15:00:00.000Z',
  'X-Shopify-API-Version': '2026-10',
};

describe('a message of the webhook delivery queue', () => {
  it('from the receiver is read as it was sent', () => {
    const message = { shopId: 'shop-1', topic: 'orders/paid', webhookId: 'w-1', eventId: null, triggeredAt: null, body: '{"id":1}' };

    expect(readQueuedDelivery(JSON.stringify(message))).toEqual({ source: 'receiver', message });
  });

  it('from EventBridge names the shop by domain and carries the topic, ids and payload of the metadata', () => {
    const delivery = readQueuedDelivery(JSON.stringify(eventBridgeEvent(shopifyMetadata)));

    expect(delivery).toEqual({
      source: 'eventbridge',
      shopDomain: 'demo.myshopify.com',
      message: {
        topic: 'orders/paid',
        webhookId: 'b54557e4-bdd9-4b37-8a5f-bf7d70bcd043',
        eventId: '98880550-7158-44d4-b7cd-2c97c8a091b5',
        triggeredAt: '2027-01-15T15:00:00.000Z',
        body: JSON.stringify(order),
      },
    });
  });

  it('from EventBridge reads metadata headers whatever their case, and falls back to the event time', () => {
    const delivery = readQueuedDelivery(
      JSON.stringify(eventBridgeEvent({ 'x-shopify-topic': 'refunds/create', 'x-shopify-shop-domain': 'demo.myshopify.com' })),
    );

    expect(delivery).toMatchObject({
      source: 'eventbridge',
      shopDomain: 'demo.myshopify.com',
      message: { topic: 'refunds/create', webhookId: null, eventId: null, triggeredAt: '2027-01-15T15:00:01Z' },
    });
  });

  it.each([
    ['not JSON', 'orders/paid'],
    ['a JSON array', '[]'],
    ['neither shape', JSON.stringify({ hello: 'world' })],
    ['a receiver message without a body', JSON.stringify({ shopId: 'shop-1', topic: 'orders/paid' })],
    ['an EventBridge event without metadata', JSON.stringify({ 'detail-type': 'shopifyWebhook', detail: { payload: order } })],
    ['an EventBridge event without a payload', JSON.stringify(eventBridgeEvent(shopifyMetadata, 'text'))],
    ['an EventBridge event without a shop domain', JSON.stringify(eventBridgeEvent({ 'X-Shopify-Topic': 'orders/paid' }))],
  ])('that is %s is unreadable, with the reason', (_, body) => {
    const delivery = readQueuedDelivery(body);

    expect(delivery).toEqual({ source: 'unreadable', reason: expect.stringMatching(/\w/) });
  });
});
