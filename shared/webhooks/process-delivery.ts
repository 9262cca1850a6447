// The processor's work per queued delivery: claim its event (X-Shopify-Event-Id) so that a redelivery has
// its effects once, then dispatch by topic: the order topics to the earning engine's logic in shared/orders,
// the customer's and the app's lifecycle to customer-lifecycle.ts, the privacy topics to privacy-requests.ts.
// A signed payload that is not usable is acknowledged and logged, never retried (retrying cannot fix it); a
// failure of the table or the platform is thrown, so the queue retries the message and parks it after that.
import { once } from '../data/claims';
import { webhookEventOnce } from '../data/webhook-event-repository';
import { logger } from '../observability/powertools';
import { applyRefund } from '../orders/apply-order';
import { applyOrderEnrolling } from '../orders/apply-order-enrolling';
import { orderFromWebhook } from '../platform/order-from-webhook';
import { PlatformPayloadError } from '../platform/port';
import { refundFromWebhook } from '../platform/refund-from-webhook';
import { isHandledTopic } from '../platform/shopify-app';
import { parseWebhookJson } from '../platform/webhook-payload-fields';
import { platformWhenNeeded } from '../shops/connected-platform';
import { shopCatalog } from '../shops/shop-catalog';
import { appUninstalled, customerCreated, customerDeleted, customersMerged, customerUpdated } from './customer-lifecycle';
import { isPrivacyTopic, processPrivacyRequest } from './privacy-requests';
import type { WebhookDelivery } from './queued-delivery';

export type WebhookProcessed = { topic: string; outcome: string };

/** Longer than the processor's timeout: a claim outlives only a processor that died holding it. */
const EVENT_LEASE_MS = 60_000;

/** Which handler a topic goes to, and what it made of the payload, as a short outcome for the log. */
async function applyTopic(topic: string, shopId: string, payload: unknown): Promise<string> {
  if (isPrivacyTopic(topic)) return processPrivacyRequest(topic, shopId, payload);
  if (topic === 'app/uninstalled') return appUninstalled(shopId);
  if (topic === 'customers/delete') return customerDeleted(shopId, payload);
  const shop = await shopCatalog(shopId);
  switch (topic) {
    case 'refunds/create':
      return applyRefund(shop, refundFromWebhook(payload));
    case 'customers/create':
      return customerCreated(shop, payload);
    case 'customers/update':
      return customerUpdated(shop, payload);
    case 'customers/merge':
      return customersMerged(shop, payload);
    case 'orders/paid':
    case 'orders/updated':
    case 'orders/cancelled':
      return applyOrderEnrolling(shop, orderFromWebhook(payload), platformWhenNeeded(shop));
    default:
      return 'ignored';
  }
}

/** A delivery's effects and its outcome for the log; a malformed payload is acknowledged as `malformed`. */
async function applyDelivery(message: WebhookDelivery): Promise<string> {
  const { topic, shopId } = message;
  try {
    const outcome = await applyTopic(topic, shopId, parseWebhookJson(message.body));
    logger.info('Webhook processed', { topic, shop: shopId, webhookId: message.webhookId, outcome });
    return outcome;
  } catch (error) {
    if (!(error instanceof PlatformPayloadError)) throw error;
    logger.warn('Malformed webhook payload acknowledged', { topic, shop: shopId, webhookId: message.webhookId, problems: error.problems });
    return 'malformed';
  }
}

/** `messageId`: the queue message's id, the same on each receive of it (its claim of the event is its own). */
export async function processDelivery(message: WebhookDelivery, messageId?: string): Promise<WebhookProcessed> {
  const { topic, shopId, eventId } = message;
  if (!isHandledTopic(topic)) {
    logger.info('Webhook topic ignored', { topic, shop: shopId });
    return { topic, outcome: 'ignored' };
  }
  if (!eventId) return { topic, outcome: await applyDelivery(message) };
  const done = await once(webhookEventOnce(shopId, eventId, messageId), EVENT_LEASE_MS, async () => {
    const outcome = await applyDelivery(message);
    // A shop erased leaves nothing behind, not even the record of the event that erased it (a repeat erases nothing).
    return topic === 'shop/redact' ? { release: true as const, result: outcome } : { finish: outcome, result: outcome };
  });
  if (done.ran) return { topic, outcome: done.result };
  // Being applied by another delivery right now: if that one fails, the queue retries it, so this one can go.
  const claim = done.refused === 'finished' ? 'done' : 'in_progress';
  logger.info('Webhook event already handled', { topic, shop: shopId, eventId, claim });
  return { topic, outcome: claim === 'done' ? 'duplicate' : 'duplicate_in_progress' };
}
