// The one retry helper: every loop that tries again (an optimistic write that lost a race, unprocessed
// batch items, a referral code drawn twice) goes through `retryUntil`, with capped exponential
// backoff and full jitter so racing writers spread out instead of colliding again.
import { setTimeout as sleep } from 'node:timers/promises';

export interface Backoff {
  /** Wait ceiling before the first retry is 2 × baseMs, doubling per retry... */
  baseMs: number;
  /** ...up to this. */
  capMs: number;
  /**
   * `full` (default): a uniform random wait below the ceiling, which spreads racing writers best;
   * `equal`: half the ceiling plus a random half, never retrying at once; `none`: the ceiling.
   */
  jitter?: 'full' | 'equal' | 'none';
}

/** Writers of one item racing each other (points, customer updates, purchases). */
export const CONTENTION_BACKOFF: Backoff = { baseMs: 1, capMs: 50 };
/** DynamoDB's unprocessed batch items: back off without jitter, as its guidance for throttled batches says. */
export const BATCH_BACKOFF: Backoff = { baseMs: 25, capMs: 1000, jitter: 'none' };

/** The wait before retry `retry` (1 for the first retry). */
export function backoffDelay(retry: number, { baseMs, capMs, jitter = 'full' }: Backoff, random: () => number = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.min(retry, 30));
  if (jitter === 'full') return random() * ceiling;
  if (jitter === 'equal') return ceiling / 2 + random() * (ceiling / 2);
  return ceiling;
}

/**
 * Calls `attempt` up to `maxAttempts` times until it returns something other than undefined, waiting
 * per `backoff` before each retry (not at all when it is null; a function decides the wait itself, e.g.
 * from a server's Retry-After, and 0 retries at once). Undefined when every try came back
 * empty: the caller knows what to report. An error thrown by `attempt` ends the retries at once.
 */
export async function retryUntil<T>(
  maxAttempts: number,
  backoff: Backoff | ((retry: number) => number) | null,
  attempt: (index: number) => Promise<T | undefined>,
): Promise<T | undefined> {
  for (let index = 0; index < maxAttempts; index += 1) {
    const wait = index > 0 && backoff ? (typeof backoff === 'function' ? backoff(index) : backoffDelay(index, backoff)) : 0;
    if (wait > 0) await sleep(wait);
    const result = await attempt(index);
    if (result !== undefined) return result;
  }
  return undefined;
}
