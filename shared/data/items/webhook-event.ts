// The handled webhook event (`X-Shopify-Event-Id`): the shop's events being or having been processed, so
// that their effects happen once; kept a week by the table's TTL. It is a claim (./claim.ts):
// `in_progress` under a `lease_until`, then `done` with the delivery's `outcome`.
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

/** The words of the event as a claim: its finished status, its lease and the answer's attribute. */
export const WEBHOOK_EVENT_FORM = { finished: 'done', leaseAttribute: 'lease_until', outcome: 'outcome' } as const;
