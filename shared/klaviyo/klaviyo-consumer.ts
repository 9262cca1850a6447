// The Klaviyo consumer's wiring: one client per warm function (its token buckets live as long as it), the
// shop's key from its secret, the refusals queue (SQS in the cloud, KLAVIYO_REFUSED_QUEUE_URL; in process in
// the twin, which registers its own), and one queued message handled end to end.
import {
  accountRateLimiter,
  KLAVIYO_BACKOFF,
  KLAVIYO_BASE_URL,
  klaviyoClient,
  realTime,
  type KlaviyoClient,
  type Waiter,
} from '../outbound/klaviyo-client';
import { type MessageQueue, sqsQueue } from '../outbound/sqs-queue';
import { logger } from '../observability/powertools';
import { klaviyoKeyForShop } from '../platform/shop-secrets';
import { env } from '../runtime/env';
import { invocationRemainingMs } from '../runtime/invocation';
import { shopCatalog } from '../shops/shop-catalog';
import { deliverToKlaviyo, type KlaviyoDeliveryDeps, type KlaviyoOutcome, type KlaviyoRefusal } from './klaviyo-delivery';
import { readQueuedEvent } from './loyalty-event';

/**
 * At most this many consumer instances run at once (the event source's maximum concurrency, the stack's):
 * each sends within 1/KLAVIYO_CONSUMER_CONCURRENCY of an account's steady rate, so all of them together
 * never exceed it (docs/decisions.md#klaviyo-a-small-client-and-a-shared-rate).
 */
export const KLAVIYO_CONSUMER_CONCURRENCY = 2;
/** Time kept back from the invocation's deadline: a request that would wait past it is left to the queue. */
const DEADLINE_MARGIN_MS = 5000;

let refusals: MessageQueue<KlaviyoRefusal> | undefined;
let deps: KlaviyoDeliveryDeps | undefined;

/** The twin registers its refusals list here; undefined returns to SQS. */
export function setKlaviyoRefusals(next: MessageQueue<KlaviyoRefusal> | undefined): void {
  refusals = next;
  deps = undefined;
}

function refusalsQueue(): MessageQueue<KlaviyoRefusal> {
  if (refusals) return refusals;
  const url = env().KLAVIYO_REFUSED_QUEUE_URL;
  if (!url) throw new Error('No Klaviyo refusals queue configured: set KLAVIYO_REFUSED_QUEUE_URL');
  refusals = sqsQueue<KlaviyoRefusal>(url);
  return refusals;
}

/** The consumer's parts: a test hands its own clock and client; the function builds them once. */
export function klaviyoDeliveryDeps(options: { waiter?: Waiter; client?: KlaviyoClient } = {}): KlaviyoDeliveryDeps {
  const waiter = options.waiter ?? realTime;
  const client =
    options.client ??
    klaviyoClient({
      baseUrl: env().KLAVIYO_BASE_URL ?? KLAVIYO_BASE_URL,
      waiter,
      limiter: accountRateLimiter({ waiter, share: 1 / KLAVIYO_CONSUMER_CONCURRENCY }),
      backoff: { ...KLAVIYO_BACKOFF, baseMs: env().KLAVIYO_RETRY_BASE_MS },
    });
  return {
    client,
    keyFor: klaviyoKeyForShop,
    shop: shopCatalog,
    refusals: { send: (message) => refusalsQueue().send(message) },
    // Within the invocation (real time left, on the client's clock); outside one, a minute.
    deadline: () => waiter.now() + Math.max(0, (invocationRemainingMs() ?? 60_000 + DEADLINE_MARGIN_MS) - DEADLINE_MARGIN_MS),
  };
}

/** Forgets the warm function's client (the twin, when its settings change). */
export function resetKlaviyoConsumer(): void {
  deps = undefined;
}

/**
 * One queued message: an unreadable one is acknowledged with a WARN (no try makes it readable); a refusal is
 * parked with its error body; a Klaviyo that does not answer now throws, and the queue tries again.
 */
export async function processKlaviyoMessage(body: string, given?: KlaviyoDeliveryDeps): Promise<KlaviyoOutcome | { unreadable: string }> {
  const event = readQueuedEvent(body);
  if (typeof event === 'string') {
    logger.warn('Klaviyo consumer: message dropped', { reason: event });
    return { unreadable: event };
  }
  return deliverToKlaviyo(event, given ?? (deps ??= klaviyoDeliveryDeps()));
}
