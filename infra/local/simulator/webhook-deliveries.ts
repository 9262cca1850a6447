// Shopify-shaped webhook deliveries from the simulator to the twin: the REST body signed with the shop's
// webhook secret, Shopify's headers, one POST awaited to its answer, and every attempt recorded so that a
// delivery can be sent again byte for byte (same headers, same body) and listed with the status it got.
import { createHmac, randomUUID } from 'node:crypto';
import { SHOPIFY_API_VERSION } from '../../../shared/platform/shopify-api-version';
import { NotFound } from './simulator-http';

export interface ShopWebhookIdentity {
  shop: string;
  /** X-Shopify-Shop-Domain, e.g. demo.myshopify.com. */
  domain: string;
  /** Key of X-Shopify-Hmac-Sha256. */
  secret: string;
}

export interface DeliveryAttempt {
  /** HTTP status the receiver answered, or null when it gave none (see `error`). */
  status: number | null;
  error?: string;
  at: string;
  /** Real milliseconds from the POST to its answer (or failure): the receipt's latency as Shopify sees it. */
  ms?: number;
}

export interface WebhookDelivery {
  id: string;
  event_id: string;
  shop: string;
  topic: string;
  /** The order the delivery is about, for finding it in GET /_webhooks. */
  order_id: string | null;
  triggered_at: string;
  headers: Record<string, string>;
  /** The raw body as sent and signed. */
  body: string;
  attempts: DeliveryAttempt[];
}

/** What a control endpoint reports: the delivery and the status of its latest attempt. */
export interface WebhookSent {
  id: string;
  status: number | null;
  error?: string;
}

export interface WebhookDeliveries {
  /** Where deliveries go; null records them unsent (status null). */
  setUrl(url: string | null): void;
  deliver(identity: ShopWebhookIdentity, topic: string, payload: unknown, orderId?: string | null): Promise<WebhookSent>;
  redeliver(id: string): Promise<WebhookSent>;
  list(): WebhookDelivery[];
}

export interface WebhookDeliveriesOptions {
  url: string | null;
  now: () => Date;
  /** Shopify waits 5 s for an answer before it counts a delivery as failed. */
  timeoutMs?: number;
}

/** The base64 HMAC-SHA256 of the raw body: X-Shopify-Hmac-Sha256. */
export function webhookSignature(body: string, secret: string): string {
  return createHmac('sha256', secret).update(body, 'utf8').digest('base64');
}

/** Shopify's headers of one delivery of `body` (the bench signs its own bursts with them too). */
export function webhookHeaders(
  identity: ShopWebhookIdentity,
  topic: string,
  body: string,
  delivery: { id: string; eventId: string; triggeredAt: string },
): Record<string, string> {
  return {
    'Content-Type': 'application/json',
    'User-Agent': 'Shopify-Captain-Hook',
    'X-Shopify-Topic': topic,
    'X-Shopify-Hmac-Sha256': webhookSignature(body, identity.secret),
    'X-Shopify-Shop-Domain': identity.domain,
    'X-Shopify-Webhook-Id': delivery.id,
    'X-Shopify-Event-Id': delivery.eventId,
    'X-Shopify-Triggered-At': delivery.triggeredAt,
    'X-Shopify-API-Version': SHOPIFY_API_VERSION,
  };
}

export function createWebhookDeliveries(options: WebhookDeliveriesOptions): WebhookDeliveries {
  let url = options.url;
  const timeoutMs = options.timeoutMs ?? 5000;
  const deliveries: WebhookDelivery[] = [];
  const byId = new Map<string, WebhookDelivery>();

  const attempt = async (delivery: WebhookDelivery): Promise<WebhookSent> => {
    const at = options.now().toISOString();
    const started = performance.now();
    let outcome: DeliveryAttempt;
    if (url === null) {
      outcome = { status: null, error: 'no webhook URL is configured', at };
    } else {
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: delivery.headers,
          body: delivery.body,
          signal: AbortSignal.timeout(timeoutMs),
        });
        await response.arrayBuffer().catch(() => undefined);
        outcome = { status: response.status, at, ms: Math.round(performance.now() - started) };
      } catch (error) {
        // fetch says only "fetch failed"; the cause says why (ECONNREFUSED, a timeout, a reset).
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        const detail = [String((error as Error)?.message ?? error), cause?.code ?? cause?.message].filter(Boolean).join(': ');
        outcome = { status: null, error: detail, at, ms: Math.round(performance.now() - started) };
      }
    }
    delivery.attempts.push(outcome);
    return { id: delivery.id, status: outcome.status, ...(outcome.error ? { error: outcome.error } : {}) };
  };

  return {
    setUrl(next) {
      url = next;
    },

    deliver(identity, topic, payload, orderId = null) {
      const body = JSON.stringify(payload);
      const id = randomUUID();
      const eventId = randomUUID();
      const triggeredAt = options.now().toISOString();
      const delivery: WebhookDelivery = {
        id,
        event_id: eventId,
        shop: identity.shop,
        topic,
        order_id: orderId,
        triggered_at: triggeredAt,
        headers: webhookHeaders(identity, topic, body, { id, eventId, triggeredAt }),
        body,
        attempts: [],
      };
      deliveries.push(delivery);
      byId.set(id, delivery);
      return attempt(delivery);
    },

    redeliver(id) {
      const delivery = byId.get(id);
      if (!delivery) throw new NotFound(`No webhook delivery with id '${id}'`);
      return attempt(delivery);
    },

    list: () => deliveries.map((delivery) => ({ ...delivery, headers: { ...delivery.headers }, attempts: [...delivery.attempts] })),
  };
}
