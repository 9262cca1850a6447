// One message of the order event queue, whichever way it came: the receiver's (shop resolved, HMAC checked)
// or EventBridge's (shop named by domain, trusted). What cannot be read or belongs to no shop is
// acknowledged and logged: retrying cannot fix it.
import { findShopByDomain } from '../data/shop-repository';
import { logger } from '../observability/powertools';
import { readQueuedDelivery } from '../webhooks/read-queued-delivery';
import { processOrderEvent, type ProcessOutcome } from './process-order-event';

/** `messageId`: the queue's id of the message, kept across its receives. */
export async function processQueuedOrderEvent(messageBody: string, messageId?: string): Promise<ProcessOutcome> {
  const delivery = readQueuedDelivery(messageBody);
  if (delivery.source === 'unreadable') {
    logger.warn('Unreadable order queue message acknowledged', { reason: delivery.reason });
    return { topic: '(unknown)', outcome: 'unreadable' };
  }
  if (delivery.source === 'receiver') return processOrderEvent(delivery.message, messageId);
  const shopId = await findShopByDomain(delivery.shopDomain);
  if (!shopId) {
    logger.warn('EventBridge delivery for an unknown shop acknowledged', {
      topic: delivery.message.topic,
      shopDomain: delivery.shopDomain,
    });
    return { topic: delivery.message.topic, outcome: 'unknown shop' };
  }
  return processOrderEvent({ shopId, ...delivery.message }, messageId);
}
