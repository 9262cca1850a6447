// Token buckets by id: the local stand-in for the usage plan's throttles (per usage-plan key, and per key and method
// for a strict route) and for the stage's method throttles.

export interface Limit {
  rateLimit: number;
  burstLimit: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, { tokens: number; updatedAt: number }>();

  constructor(private readonly clock: () => number = () => Date.now()) {}

  /** Takes one token from the bucket `id`; false when the caller must get 429. */
  take(id: string, limit: Limit): boolean {
    const now = this.clock();
    const bucket = this.buckets.get(id) ?? { tokens: limit.burstLimit, updatedAt: now };
    bucket.tokens = Math.min(limit.burstLimit, bucket.tokens + ((now - bucket.updatedAt) / 1000) * limit.rateLimit);
    bucket.updatedAt = now;
    this.buckets.set(id, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
