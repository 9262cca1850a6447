// The stack throttles each webhook method for the whole stage (WEBHOOK_THROTTLE in the route manifest, the
// stage's methodOptions: there is no API key to count per caller). The twin's gateway applies the same
// limits from the same constant, before the receiver runs: a flood past the burst, and past what the rate
// refills, is answered 429 in the envelope, and the receiver never sees it. The clock is held.
import { join } from 'node:path';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { RateLimiter } from '../../infra/local/rate-limiter';
import { DETAILS, envelope } from '../../shared/http/errors';
import { ROUTES, WEBHOOK_THROTTLE, WEBHOOKS } from '../../shared/runtime/entry-points';
import { received } from '../fixtures/accepting-webhook-handler';

let gateway: Gateway;
let now = 0;

beforeAll(async () => {
  gateway = await startGateway({
    routes: ROUTES,
    root: join(__dirname, '..', '..'),
    port: 0,
    limiter: new RateLimiter(() => now),
    // The manifest's webhook routes as they are, with a receiver that accepts everything.
    webhooks: WEBHOOKS.map((route) => ({ ...route, handler: 'test/fixtures/accepting-webhook-handler.ts' })),
  });
});
afterAll(async () => {
  await gateway.stop();
});

/** `count` deliveries at once on every webhook route; their statuses and bodies. */
async function flood(count: number): Promise<Array<{ status: number; body: string; cacheControl: string | null }>> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const route = WEBHOOKS[i % WEBHOOKS.length]!;
      const response = await fetch(`${gateway.url}${route.path}`, { method: route.method, body: '{}' });
      return { status: response.status, body: await response.text(), cacheControl: response.headers.get('cache-control') };
    }),
  );
}

describe("the webhook's stage throttle in the twin", () => {
  it('lets the burst through, refuses the rest with 429 in the envelope, and refills at the rate', async () => {
    // Act: one burst and a half at the same instant; then a second later, the rate and a half again.
    const first = await flood(WEBHOOK_THROTTLE.burstLimit * 1.5);
    const passedFirst = received.count;
    now += 1000;
    const second = await flood(WEBHOOK_THROTTLE.rateLimit * 1.5);

    // Assert
    expect(WEBHOOKS.length).toBe(1);
    expect(first.filter((answer) => answer.status === 200)).toHaveLength(WEBHOOK_THROTTLE.burstLimit);
    expect(second.filter((answer) => answer.status === 200)).toHaveLength(WEBHOOK_THROTTLE.rateLimit);
    expect(passedFirst).toBe(WEBHOOK_THROTTLE.burstLimit);
    expect(received.count).toBe(WEBHOOK_THROTTLE.burstLimit + WEBHOOK_THROTTLE.rateLimit);
    const refused = [...first, ...second].filter((answer) => answer.status !== 200);
    expect(refused).toHaveLength(WEBHOOK_THROTTLE.burstLimit / 2 + WEBHOOK_THROTTLE.rateLimit / 2);
    for (const answer of refused) {
      expect(answer.status).toBe(429);
      expect(JSON.parse(answer.body)).toEqual(envelope(429, DETAILS.rateLimited));
      expect(answer.cacheControl).toBe('no-store');
    }
  });
});
