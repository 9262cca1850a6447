// Webhook events by X-Shopify-Event-Id: a delivery runs its effects under `once` (./claims.ts), so the
// same event delivered again (Shopify delivers at least once, and one event may reach us by several
// subscriptions) has its effects once. A claim is a lease: a processor that died leaves it to expire, so the
// queue's redelivery takes over. Done events are kept a week (the table's TTL), well past Shopify's 4 hours
// of retries and a day-late delivery. Leases and TTLs keep real time (the domain clock may stand still in the
// twin).
import type { ClaimKind, OnceKey } from './claims';
import { WEBHOOK_EVENT_FORM, webhookEventKey } from './items/webhook-event';

export const WEBHOOK_EVENT_TTL_SECONDS = 7 * 24 * 60 * 60;

const { finished, leaseAttribute, outcome } = WEBHOOK_EVENT_FORM;

const webhookEvents: ClaimKind<string> = {
  name: 'webhook event',
  finished,
  leaseAttribute,
  ttlSeconds: WEBHOOK_EVENT_TTL_SECONDS,
  keepsProgress: false,
  clock: () => new Date(),
  answer: { write: (answer) => ({ [outcome]: answer }), read: (item) => String(item[outcome]) },
};

/**
 * The event's key for `once`. `claimant` is the queue message's id when there is one: a claim found with it is
 * this message's own, left by an answer lost after the write or by an earlier receive of the same message that
 * failed before it could finish or release the claim. It is taken over, not taken for another delivery's; a
 * claim of another message still holds until its lease runs out.
 */
export const webhookEventOnce = (shopId: string, eventId: string, claimant?: string): OnceKey<string> => ({
  kind: webhookEvents,
  key: webhookEventKey(shopId, eventId),
  claimant,
});
