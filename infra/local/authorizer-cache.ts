// The twin's stand-in for API Gateway's authorizer result cache: answers kept per Authorization value
// for the stage's TTL, and all of them dropped at once on a flush (FlushStageAuthorizersCache), which
// the twin does on every API key write it is told of (shared/data/api-key-changes.ts).
import type { APIGatewayAuthorizerResult } from 'aws-lambda';

/** API Gateway's default and our stack's: 300 s; 0 turns the cache off. */
export const DEFAULT_AUTHORIZER_CACHE_TTL_SECONDS = 300;
/** A flood of random keys must not grow the twin without bound: past this, the oldest answer goes. */
const MAX_ENTRIES = 10_000;

export interface AuthorizerCache {
  /** A cached answer for this header value still within its TTL, or undefined. */
  get(authorization: string): APIGatewayAuthorizerResult | undefined;
  /**
   * Keeps an answer, unless the cache was flushed since `generation` was read: an answer computed
   * before a revocation must not outlive the flush that revocation caused.
   */
  set(authorization: string, answer: APIGatewayAuthorizerResult, generation: number): void;
  /** Changes on every flush. */
  readonly generation: number;
  /** Drops every cached answer of the stage. */
  flush(): void;
  readonly size: number;
  readonly ttlSeconds: number;
}

export function authorizerCache(ttlSeconds: number, now: () => number = Date.now): AuthorizerCache {
  if (!Number.isFinite(ttlSeconds) || ttlSeconds < 0 || ttlSeconds > 3600) {
    throw new Error(`Authorizer cache TTL must be 0 to 3600 seconds (API Gateway's range), not ${ttlSeconds}`);
  }
  const entries = new Map<string, { answer: APIGatewayAuthorizerResult; expiresAt: number }>();
  let generation = 0;
  return {
    get(authorization) {
      const entry = entries.get(authorization);
      if (!entry) return undefined;
      if (now() < entry.expiresAt) return entry.answer;
      entries.delete(authorization);
      return undefined;
    },
    set(authorization, answer, readAt) {
      if (ttlSeconds === 0 || readAt !== generation) return;
      entries.delete(authorization);
      if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
      entries.set(authorization, { answer, expiresAt: now() + ttlSeconds * 1000 });
    },
    flush() {
      entries.clear();
      generation += 1;
    },
    get generation() {
      return generation;
    },
    get size() {
      return entries.size;
    },
    ttlSeconds,
  };
}
