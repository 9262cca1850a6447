// One message of the webhook delivery queue, whichever way it came: the receiver's (shop resolved, HMAC checked)
// or EventBridge's (shop named by domain, trusted). What cannot be read or belongs to no shop is
// acknowledged and logged: retrying cannot fix it.
import { findShopByDomain } from '../data/shop-repository';
import { logger } from '../observability/powertools';
import { processDelivery, type WebhookProcessed } from './process-delivery';
import { readQueuedDelivery } from './queued-delivery';

/** `messageId`: the queue's id of the message, kept across its receives. */
export async function processQueuedDelivery(messageBody: string, messageId?: string): Promise<WebhookProcessed> {
  const delivery = readQueuedDelivery(messageBody);
  if (delivery.source === 'unreadable') {
    logger.warn('Unreadable delivery queue message acknowledged', { reason: delivery.reason });
    return { topic: '(unknown)', outcome: 'unreadable' };
  }
  if (delivery.source === 'receiver') return processDelivery(delivery.message, messageId);
  const shopId = await findShopByDomain(delivery.shopDomain);
  if (!shopId) {
    logger.warn('EventBridge delivery for an unknown shop acknowledged', {
      topic: delivery.message.topic,
      shopDomain: delivery.shopDomain,
    });
    return { topic: delivery.message.topic, outcome: 'unknown shop' };
  }
  return processDelivery({ shopId, ...delivery.message }, messageId);
}
