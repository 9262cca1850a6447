// A message of the webhook delivery queue: the receiver's verified delivery (the shape sent), or, when the
// stack has the EventBridge partner source switched on, Shopify's own EventBridge event. This reads either,
// without I/O.

/** A verified platform delivery, of any topic, as the receiver sends it and the processor receives it. */
export interface WebhookDelivery {
  shopId: string;
  topic: string;
  webhookId: string | null;
  eventId: string | null;
  triggeredAt: string | null;
  /** The raw body exactly as signed. */
  body: string;
}

/** Shopify's detail-type for every webhook it delivers through EventBridge. */
export const SHOPIFY_EVENTBRIDGE_DETAIL_TYPE = 'shopifyWebhook';

export type QueuedDelivery =
  /** Sent by the receiver after the HMAC held: the shop is already resolved. */
  | { source: 'receiver'; message: WebhookDelivery }
  /** Delivered by EventBridge (trusted, not signed): the shop is named by its domain. */
  | { source: 'eventbridge'; shopDomain: string; message: Omit<WebhookDelivery, 'shopId'> }
  | { source: 'unreadable'; reason: string };

type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/** A metadata header by name, whatever its case (EventBridge keeps Shopify's header names as sent). */
function metadataValue(metadata: Fields, name: string): string | null {
  const wanted = name.toLowerCase();
  const key = Object.keys(metadata).find((candidate) => candidate.toLowerCase() === wanted);
  return key === undefined ? null : text(metadata[key]);
}

function fromEventBridge(event: Fields): QueuedDelivery {
  const detail = event.detail;
  if (!isObject(detail) || !isObject(detail.metadata)) return { source: 'unreadable', reason: 'EventBridge event without detail.metadata' };
  if (!isObject(detail.payload)) return { source: 'unreadable', reason: 'EventBridge event without a detail.payload object' };
  const topic = metadataValue(detail.metadata, 'X-Shopify-Topic');
  const shopDomain = metadataValue(detail.metadata, 'X-Shopify-Shop-Domain');
  if (!topic || !shopDomain) return { source: 'unreadable', reason: 'EventBridge event without X-Shopify-Topic or X-Shopify-Shop-Domain' };
  return {
    source: 'eventbridge',
    shopDomain,
    message: {
      topic,
      webhookId: metadataValue(detail.metadata, 'X-Shopify-Webhook-Id'),
      eventId: metadataValue(detail.metadata, 'X-Shopify-Event-Id'),
      triggeredAt: metadataValue(detail.metadata, 'X-Shopify-Triggered-At') ?? text(event.time),
      // The processor maps the body as it maps a signed webhook body: the same JSON, re-serialized.
      body: JSON.stringify(detail.payload),
    },
  };
}

/** What a queue message holds: a receiver message, a Shopify EventBridge event, or neither. */
export function readQueuedDelivery(messageBody: string): QueuedDelivery {
  let parsed: unknown;
  try {
    parsed = JSON.parse(messageBody);
  } catch {
    return { source: 'unreadable', reason: 'message body is not JSON' };
  }
  if (!isObject(parsed)) return { source: 'unreadable', reason: 'message body is not a JSON object' };
  if (parsed['detail-type'] === SHOPIFY_EVENTBRIDGE_DETAIL_TYPE) return fromEventBridge(parsed);
  const shopId = text(parsed.shopId);
  const topic = text(parsed.topic);
  if (!shopId || !topic || typeof parsed.body !== 'string')
    return { source: 'unreadable', reason: 'neither a receiver message nor a Shopify EventBridge event' };
  return {
    source: 'receiver',
    message: {
      shopId,
      topic,
      webhookId: text(parsed.webhookId),
      eventId: text(parsed.eventId),
      triggeredAt: text(parsed.triggeredAt),
      body: parsed.body,
    },
  };
}
