// A small client of Klaviyo's API (fetch, no SDK: docs/decisions.md): the two calls the loyalty consumer makes
// (`POST /api/profile-import`, `POST /api/events`), with Klaviyo's limits kept. A 429 waits as its
// `Retry-After` says and tries again; a 5XX or a lost connection retries with backoff; any other 4XX is a
// refusal that no retry changes (KlaviyoRefused, with Klaviyo's error body). Every request first takes a
// token from the account's buckets, so one function instance never sends faster than its share of Klaviyo's
// steady rate. The waiting reads an injectable clock (real time in Lambda), never the domain clock; the
// private key is sent in its header and never logged, put in an error or kept as a map key.
import { deterministicId } from '../domain/deterministic-id';
import { setTimeout as sleep } from 'node:timers/promises';
import { backoffDelay, type Backoff } from '../runtime/retry';

export const KLAVIYO_BASE_URL = 'https://a.klaviyo.com';
/** The API revision every request names (EVENTS-CONTRACT.md). */
export const KLAVIYO_REVISION = '2026-10-15';
export const JSON_API = 'application/vnd.api+json';

export type KlaviyoPath = '/api/profile-import' | '/api/events';

/**
 * Klaviyo's steady rates per account and minute: 3 500 for events (its XL class, and the contract's ceiling
 * for an account's whole sending), 700 for profile-import (its L class). Burst limits (350/s, 75/s) are far
 * above what the buckets below ever let through.
 */
export const KLAVIYO_STEADY_PER_MINUTE: Record<KlaviyoPath | 'account', number> = {
  account: 3500,
  '/api/events': 3500,
  '/api/profile-import': 700,
};

/** Real time, or a test's clock: what the client waits with. */
export interface Waiter {
  /** Milliseconds since the epoch. */
  now(): number;
  sleep(ms: number): Promise<void>;
}

export const realTime: Waiter = { now: () => Date.now(), sleep: (ms) => sleep(ms).then(() => undefined) };

/** Klaviyo's error object (JSON:API `errors[]`). */
export interface KlaviyoError {
  id?: string;
  status?: number;
  code?: string;
  title?: string;
  detail?: string;
  source?: { pointer?: string; parameter?: string };
}

/** Klaviyo refused the request (a 4XX other than 429): sending it again changes nothing. */
export class KlaviyoRefused extends Error {
  constructor(
    readonly path: KlaviyoPath,
    readonly status: number,
    readonly errors: KlaviyoError[],
  ) {
    super(`Klaviyo refused ${path} with ${status}: ${errors.map((error) => error.detail ?? error.title ?? error.code).join('; ')}`);
    this.name = 'KlaviyoRefused';
  }
}

/** Klaviyo did not take the request within the attempts and the time allowed: the message is tried again later. */
export class KlaviyoUnavailable extends Error {
  constructor(
    readonly path: KlaviyoPath,
    reason: string,
  ) {
    super(`Klaviyo did not take ${path}: ${reason}`);
    this.name = 'KlaviyoUnavailable';
  }
}

/**
 * Token buckets per account (and per endpoint and account): at most `perMinute` requests in any window of
 * 60 seconds. A bucket holds `burst` tokens and refills at (perMinute − burst) a minute, so even a full
 * bucket spent at once plus a minute of refill stays within `perMinute`.
 */
export interface RateLimiter {
  /** Waits until a request to `path` of this account may leave. */
  take(account: string, path: KlaviyoPath): Promise<void>;
}

export function accountRateLimiter(options: { waiter: Waiter; share: number; burst?: number }): RateLimiter {
  const burst = options.burst ?? 10;
  const buckets = new Map<string, { tokens: number; at: number; capacity: number; perMs: number }>();
  const bucket = (name: string, perMinute: number) => {
    let found = buckets.get(name);
    if (!found) {
      const limit = Math.floor(perMinute * options.share);
      const capacity = Math.max(1, Math.min(burst, Math.floor(limit / 2)));
      found = { tokens: capacity, at: options.waiter.now(), capacity, perMs: (limit - capacity) / 60_000 };
      buckets.set(name, found);
    }
    return found;
  };
  const refill = (state: { tokens: number; at: number; capacity: number; perMs: number }, now: number) => {
    state.tokens = Math.min(state.capacity, state.tokens + (now - state.at) * state.perMs);
    state.at = now;
  };
  // One taker at a time per limiter: concurrent requests queue instead of both spending the same token.
  let queue: Promise<void> = Promise.resolve();
  return {
    take(account, path) {
      const turn = queue.then(async () => {
        const states = [
          bucket(`${account}`, KLAVIYO_STEADY_PER_MINUTE.account),
          bucket(`${account} ${path}`, KLAVIYO_STEADY_PER_MINUTE[path]),
        ];
        for (;;) {
          const now = options.waiter.now();
          for (const state of states) refill(state, now);
          const short = Math.max(...states.map((state) => (state.tokens >= 1 ? 0 : Math.ceil((1 - state.tokens) / state.perMs))));
          if (short === 0) break;
          await options.waiter.sleep(short);
        }
        for (const state of states) state.tokens -= 1;
      });
      queue = turn.catch(() => undefined);
      return turn;
    },
  };
}

/** An account's name for the limiter and the logs: a digest of its key, never the key. */
export function accountOf(privateKey: string): string {
  return deterministicId({ text: privateKey }, { as: 'hex', length: 12 });
}

export interface KlaviyoClientOptions {
  baseUrl: string;
  waiter: Waiter;
  limiter: RateLimiter;
  /** Tries of one request against a 5XX or a lost connection (429s are not counted). */
  maxAttempts?: number;
  backoff?: Backoff;
  /** One request's own time limit (real time). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

export interface KlaviyoCall {
  status: number;
  body: unknown;
}

export interface KlaviyoClient {
  /**
   * Sends until Klaviyo takes it; `deadline` (the waiter's ms) bounds the waiting: past it, KlaviyoUnavailable.
   * Counts every request it sends in `requests`.
   */
  post(privateKey: string, path: KlaviyoPath, body: unknown, deadline: number): Promise<KlaviyoCall>;
  requests(): number;
}

/** Backoff of a 5XX or a lost connection: 0.5 s, 1 s, 2 s... up to 8 s, half of it random. */
export const KLAVIYO_BACKOFF: Backoff = { baseMs: 250, capMs: 8000, jitter: 'equal' };

export function klaviyoClient(options: KlaviyoClientOptions): KlaviyoClient {
  const maxAttempts = options.maxAttempts ?? 5;
  const backoff = options.backoff ?? KLAVIYO_BACKOFF;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const send = options.fetch ?? fetch;
  const base = options.baseUrl.replace(/\/+$/, '');
  let requests = 0;
  return {
    requests: () => requests,
    async post(privateKey, path, body, deadline) {
      const account = accountOf(privateKey);
      const payload = JSON.stringify(body);
      let failures = 0;
      const waitOrGiveUp = async (ms: number, reason: string) => {
        if (options.waiter.now() + ms > deadline) throw new KlaviyoUnavailable(path, reason);
        await options.waiter.sleep(ms);
      };
      for (;;) {
        await options.limiter.take(account, path);
        requests += 1;
        let response: Response;
        try {
          response = await send(`${base}${path}`, {
            method: 'POST',
            headers: {
              Authorization: `Klaviyo-API-Key ${privateKey}`,
              revision: KLAVIYO_REVISION,
              'Content-Type': JSON_API,
              Accept: JSON_API,
            },
            body: payload,
            signal: AbortSignal.timeout(timeoutMs),
          });
        } catch (error) {
          failures += 1;
          // The cause names the connection's failure (ECONNREFUSED, ECONNRESET, a timeout), never the request's headers.
          const cause = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
          if (failures >= maxAttempts) throw new KlaviyoUnavailable(path, `connection failed ${failures} times (${cause})`);
          await waitOrGiveUp(backoffDelay(failures, backoff), `connection failed (${cause}) and the next try would pass the deadline`);
          continue;
        }
        const text = await response.text();
        const parsed = parseBody(text);
        if (response.ok) return { status: response.status, body: parsed };
        if (response.status === 429) {
          await waitOrGiveUp(retryAfterMs(response.headers.get('retry-after')), 'throttled (429) past the deadline');
          continue;
        }
        if (response.status >= 500) {
          failures += 1;
          if (failures >= maxAttempts) throw new KlaviyoUnavailable(path, `answered ${response.status} ${failures} times`);
          await waitOrGiveUp(backoffDelay(failures, backoff), `answered ${response.status} and the next try would pass the deadline`);
          continue;
        }
        throw new KlaviyoRefused(path, response.status, errorsOf(parsed, response.status));
      }
    },
  };
}

/** `Retry-After` in seconds (Klaviyo's form) or an HTTP date; 1 s when absent or unreadable. */
export function retryAfterMs(value: string | null, now = Date.now()): number {
  if (value === null) return 1000;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1000 : Math.max(0, date - now);
}

function parseBody(text: string): unknown {
  if (text.trim() === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text.slice(0, 500);
  }
}

/** Klaviyo's `errors[]`, kept to its own fields (an answer never carries the key; nothing else is copied). */
function errorsOf(body: unknown, status: number): KlaviyoError[] {
  const errors = (body as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(errors)) return [{ status, detail: typeof body === 'string' ? body : 'no error body' }];
  return errors.map((error: Record<string, unknown>) => ({
    ...(typeof error.id === 'string' ? { id: error.id } : {}),
    ...(typeof error.status === 'number' ? { status: error.status } : {}),
    ...(typeof error.code === 'string' ? { code: error.code } : {}),
    ...(typeof error.title === 'string' ? { title: error.title } : {}),
    ...(typeof error.detail === 'string' ? { detail: error.detail } : {}),
    ...(error.source && typeof error.source === 'object' ? { source: error.source as KlaviyoError['source'] } : {}),
  }));
}
