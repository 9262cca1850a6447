import { RateLimiter } from '../../infra/local/rate-limiter';

describe('local rate limiter', () => {
  it('allows a burst, refuses the next, and refills at the rate', () => {
    let now = 0;
    const limiter = new RateLimiter(() => now);
    const limit = { rateLimit: 6, burstLimit: 6 };

    const first = Array.from({ length: 6 }, () => limiter.take('k', limit));
    const seventh = limiter.take('k', limit);
    now += 500; // half a second refills three tokens
    const refilled = Array.from({ length: 4 }, () => limiter.take('k', limit));

    expect(first.every(Boolean)).toBe(true);
    expect(seventh).toBe(false);
    expect(refilled).toEqual([true, true, true, false]);
  });

  it('keeps buckets apart per key', () => {
    const limiter = new RateLimiter(() => 0);
    const limit = { rateLimit: 1, burstLimit: 1 };

    expect(limiter.take('a', limit)).toBe(true);
    expect(limiter.take('a', limit)).toBe(false);
    expect(limiter.take('b', limit)).toBe(true);
  });
});
