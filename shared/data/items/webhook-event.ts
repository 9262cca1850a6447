// The handled webhook event (`X-Shopify-Event-Id`): the shop's events being or having been processed, so
// that their effects happen once; kept a week by the table's TTL.
import { TTL_ATTRIBUTE } from '../table';
import { type ItemKey, type ItemType } from './item-type';

/** The shop's partition of handled webhook events. */
export const webhookEventsPartition = (shopId: string) => `SHOP#${shopId}#EVENTS`;

export const webhookEventKey = (shopId: string, eventId: string): ItemKey => ({
  pk: webhookEventsPartition(shopId),
  sk: `EVENT#${eventId}`,
});

export const webhookEventType: ItemType = {
  name: 'handled webhook event (`X-Shopify-Event-Id`, TTL 7 days)',
  key: webhookEventKey('<shop>', '<event id>'),
  indexed: [TTL_ATTRIBUTE],
  derived: [TTL_ATTRIBUTE],
};
