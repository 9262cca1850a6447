// The order processor's work per queued delivery: by topic, map the signed payload and apply it (orders and
// refunds here, the privacy topics in shared/webhooks/privacy-requests.ts). A signed
// payload that is not a usable order or refund is acknowledged and logged, never retried (retrying cannot
// fix it); a failure of the table is thrown, so the queue retries the message and parks it after that.
import type { OrderEventMessage } from '../events/order-event-queue';
import { logger } from '../observability/powertools';
import { orderFromWebhook } from '../platform/order-from-webhook';
import { PlatformPayloadError } from '../platform/port';
import { refundFromWebhook } from '../platform/refund-from-webhook';
import { shopCatalog } from '../shops/shop-catalog';
import { isPrivacyTopic, processPrivacyRequest } from '../webhooks/privacy-requests';
import { applyOrder, applyRefund } from './apply-order';

export const ORDER_TOPICS = ['orders/paid', 'orders/cancelled', 'orders/updated', 'refunds/create'] as const;

export type ProcessOutcome = { topic: string; outcome: string };

export async function processOrderEvent(message: OrderEventMessage): Promise<ProcessOutcome> {
  const { topic, shopId } = message;
  if (!(ORDER_TOPICS as readonly string[]).includes(topic) && !isPrivacyTopic(topic)) {
    logger.info('Webhook topic ignored', { topic, shop: shopId });
    return { topic, outcome: 'ignored' };
  }
  try {
    let payload: unknown;
    try {
      payload = JSON.parse(message.body) as unknown;
    } catch {
      throw new PlatformPayloadError(['(payload): is not valid JSON']);
    }
    let outcome: string;
    if (isPrivacyTopic(topic)) outcome = await processPrivacyRequest(topic, shopId, payload);
    else if (topic === 'refunds/create') outcome = await applyRefund(await shopCatalog(shopId), refundFromWebhook(payload));
    else outcome = await applyOrder(await shopCatalog(shopId), orderFromWebhook(payload));
    logger.info('Webhook processed', { topic, shop: shopId, webhookId: message.webhookId, outcome });
    return { topic, outcome };
  } catch (error) {
    if (error instanceof PlatformPayloadError) {
      logger.warn('Malformed webhook payload acknowledged', {
        topic,
        shop: shopId,
        webhookId: message.webhookId,
        problems: error.problems,
      });
      return { topic, outcome: 'malformed' };
    }
    throw error;
  }
}
