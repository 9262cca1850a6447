// The Klaviyo client's rate and request shape, on a test clock and a counting fetch: no window of 60 seconds
// ever holds more requests than an instance's share of Klaviyo's steady rate, per endpoint and per account;
// two instances together stay within the account's 3 500 a minute; the headers and body are the contract's.
import {
  accountRateLimiter,
  KLAVIYO_STEADY_PER_MINUTE,
  klaviyoClient,
  KlaviyoRefused,
  retryAfterMs,
  type Waiter,
} from '../../shared/outbound/klaviyo-client';

function testClock(): Waiter {
  let now = 0;
  return { now: () => now, sleep: async (ms) => void (now += ms) };
}

/** The largest number of times in any window of `windowMs` (times sorted ascending). */
function busiestWindow(times: number[], windowMs = 60_000): number {
  let most = 0;
  let start = 0;
  for (let end = 0; end < times.length; end += 1) {
    while (times[end]! - times[start]! >= windowMs) start += 1;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

function countingFetch(clock: Waiter, sent: Array<{ at: number; url: string; init: RequestInit }>): typeof fetch {
  return (async (url: string, init: RequestInit) => {
    sent.push({ at: clock.now(), url, init });
    return new Response(null, { status: 202 });
  }) as unknown as typeof fetch;
}

describe('the Klaviyo client', () => {
  it('never sends more than its share of the steady rate in any minute, per endpoint', async () => {
    // Arrange
    const clock = testClock();
    const sent: Array<{ at: number; url: string; init: RequestInit }> = [];
    const client = klaviyoClient({
      baseUrl: 'https://k.test',
      waiter: clock,
      limiter: accountRateLimiter({ waiter: clock, share: 0.5 }),
      fetch: countingFetch(clock, sent),
    });

    // Act: far more than a minute's worth, as fast as the client lets them go.
    for (let i = 0; i < 800; i += 1) await client.post('pk_a', '/api/profile-import', {}, Number.MAX_SAFE_INTEGER);
    for (let i = 0; i < 4000; i += 1) await client.post('pk_b', '/api/events', {}, Number.MAX_SAFE_INTEGER);

    // Assert
    const times = (path: string) => sent.filter((request) => request.url.endsWith(path)).map((request) => request.at);
    expect(busiestWindow(times('/api/profile-import'))).toBeLessThanOrEqual(KLAVIYO_STEADY_PER_MINUTE['/api/profile-import'] / 2);
    expect(busiestWindow(times('/api/events'))).toBeLessThanOrEqual(KLAVIYO_STEADY_PER_MINUTE['/api/events'] / 2);
    // ...and not far below it: the limit is used, not just respected.
    expect(busiestWindow(times('/api/events'))).toBeGreaterThanOrEqual(1700);
    expect(client.requests()).toBe(4800);
  });

  it('keeps two instances of one account within 3 500 a minute together, whatever they send to', async () => {
    // Arrange: both on one clock, as two functions at the most concurrency the stack allows.
    const clock = testClock();
    const sent: Array<{ at: number; url: string; init: RequestInit }> = [];
    const clients = [0, 1].map(() =>
      klaviyoClient({
        baseUrl: 'https://k.test',
        waiter: clock,
        limiter: accountRateLimiter({ waiter: clock, share: 0.5 }),
        fetch: countingFetch(clock, sent),
      }),
    );

    // Act
    await Promise.all(
      clients.map(async (client) => {
        for (let i = 0; i < 3000; i += 1)
          await client.post('pk_same', i % 5 === 0 ? '/api/profile-import' : '/api/events', {}, Number.MAX_SAFE_INTEGER);
      }),
    );

    // Assert
    expect(busiestWindow(sent.map((request) => request.at).sort((a, b) => a - b))).toBeLessThanOrEqual(KLAVIYO_STEADY_PER_MINUTE.account);
  });

  it('sends the contract headers and the JSON body, and hands a refusal its error body', async () => {
    // Arrange
    const clock = testClock();
    const seen: RequestInit[] = [];
    const refusing = (async (_url: string, init: RequestInit) => {
      seen.push(init);
      return new Response(
        JSON.stringify({
          errors: [{ id: 'e1', status: 400, code: 'invalid', title: 'Invalid input.', detail: 'bad', source: { pointer: '/data' } }],
        }),
        {
          status: 400,
        },
      );
    }) as unknown as typeof fetch;
    const client = klaviyoClient({
      baseUrl: 'https://k.test/',
      waiter: clock,
      limiter: accountRateLimiter({ waiter: clock, share: 1 }),
      fetch: refusing,
    });

    // Act
    const failure = await client
      .post('pk_secret_1', '/api/events', { data: { type: 'event' } }, Number.MAX_SAFE_INTEGER)
      .catch((error: unknown) => error);

    // Assert
    expect(seen[0]!.headers).toEqual({
      Authorization: 'Klaviyo-API-Key pk_secret_1',
      // The revision the contract names, written out: a change of revision is a change of contract.
      revision: '2026-10-15',
      'Content-Type': 'application/vnd.api+json',
      Accept: 'application/vnd.api+json',
    });
    expect(seen[0]!.body).toBe('{"data":{"type":"event"}}');
    expect(failure).toBeInstanceOf(KlaviyoRefused);
    expect((failure as KlaviyoRefused).errors).toEqual([
      { id: 'e1', status: 400, code: 'invalid', title: 'Invalid input.', detail: 'bad', source: { pointer: '/data' } },
    ]);
    expect(JSON.stringify(failure) + String(failure)).not.toContain('pk_secret_1');
  });

  it('reads Retry-After in seconds or as a date, and waits a second without one', () => {
    expect(retryAfterMs('1')).toBe(1000);
    expect(retryAfterMs('2.5')).toBe(2500);
    expect(retryAfterMs(new Date(10_000).toUTCString(), 4_000)).toBe(6000);
    expect(retryAfterMs(null)).toBe(1000);
    expect(retryAfterMs('soon')).toBe(1000);
  });
});
