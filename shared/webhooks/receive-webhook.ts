// The webhook receiver's work: refuse what cannot be a delivery of a known shop, verify Shopify's HMAC of
// the raw body in constant time (current and previous secret), then hand the delivery to the webhook delivery queue.
// Nothing is parsed or written before the signature holds, and nothing is read for what cannot be a delivery.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { findShopByDomain } from '../data/shop-repository';
import { logger } from '../observability/powertools';
import { webhookSecretsForShop } from '../platform/shop-secrets';
import { deliveryQueue } from './delivery-queue';

/** Shopify's limit for a webhook payload; anything larger is not a delivery. */
export const MAX_WEBHOOK_BYTES = 1024 * 1024;
const SHA256_BYTES = 32;
/** Shopify's X-Shopify-Hmac-Sha256: a SHA-256 in standard base64, always 44 characters with one `=`. */
const SHA256_BASE64 = /^[A-Za-z0-9+/]{43}=$/;

/** A delivery as it reached the endpoint: Shopify's headers and the raw body bytes. */
export interface IncomingWebhook {
  topic: string | undefined;
  hmac: string | undefined;
  shopDomain: string | undefined;
  webhookId: string | undefined;
  eventId: string | undefined;
  triggeredAt: string | undefined;
  body: Buffer | null;
}

export type WebhookOutcome = { accepted: true; shopId: string } | { accepted: false; reason: string };

const refuse = (reason: string): WebhookOutcome => {
  logger.warn('Webhook refused', { reason });
  return { accepted: false, reason };
};

/** True when `signature` is the base64 HMAC-SHA256 of `body` under one of `secrets`; constant time per secret. */
export function signatureMatches(body: Buffer, signature: string, secrets: readonly string[]): boolean {
  const given = Buffer.from(signature, 'base64');
  if (given.length !== SHA256_BYTES) return false;
  let matched = false;
  // Every secret is tried, so the time taken does not tell which one (or whether an earlier one) matched.
  for (const secret of secrets) {
    const expected = createHmac('sha256', secret).update(body).digest();
    if (timingSafeEqual(expected, given)) matched = true;
  }
  return matched;
}

export async function receiveWebhook(delivery: IncomingWebhook): Promise<WebhookOutcome> {
  const { body, topic, hmac, shopDomain } = delivery;
  if (!body || body.length === 0) return refuse('empty body');
  if (body.length > MAX_WEBHOOK_BYTES) return refuse('body larger than 1 MiB');
  if (!topic || !hmac || !shopDomain) return refuse('missing X-Shopify-Topic, X-Shopify-Hmac-Sha256 or X-Shopify-Shop-Domain');
  if (shopDomain.length > 255) return refuse('shop domain too long');
  // Checked before the shop lookup: a forged flood with a made-up signature costs no DynamoDB read.
  if (!SHA256_BASE64.test(hmac)) return refuse('X-Shopify-Hmac-Sha256 is not a base64 SHA-256');
  const shopId = await findShopByDomain(shopDomain);
  if (!shopId) return refuse('unknown shop domain');
  const secrets = await webhookSecretsForShop(shopId);
  if (!signatureMatches(body, hmac, secrets)) return refuse('HMAC does not match');
  logger.appendKeys({ shop: shopId });
  await deliveryQueue().send({
    shopId,
    topic,
    webhookId: delivery.webhookId ?? null,
    eventId: delivery.eventId ?? null,
    triggeredAt: delivery.triggeredAt ?? null,
    body: body.toString('utf8'),
  });
  return { accepted: true, shopId };
}
