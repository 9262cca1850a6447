// Each shopper route's method throttle, as the twin's gateway applies the stack's stage method settings: a
// burst above it gets 429 in the envelope, with the CORS headers, for all callers together and per method.
// The limiter's clock is held, so no token comes back during the test and nothing depends on its speed.
import { join } from 'node:path';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { RateLimiter } from '../../infra/local/rate-limiter';
import { SHOPPER_ROUTES, SHOPPER_THROTTLE } from '../../shared/runtime/entry-points';
import { expectError } from '../support/twin';

let gateway: Gateway;

beforeAll(async () => {
  gateway = await startGateway({
    routes: [],
    shopperRoutes: SHOPPER_ROUTES,
    root: join(__dirname, '..', '..'),
    port: 0,
    limiter: new RateLimiter(() => 0),
  });
});
afterAll(async () => {
  await gateway.stop();
});

async function call(method: string, path: string) {
  const response = await fetch(`${gateway.url}${path}`, { method });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

describe('the shopper routes’ method throttle', () => {
  it('lets the write burst through (to the handler, which refuses the missing identity), then answers 429 with CORS', async () => {
    const { burstLimit } = SHOPPER_THROTTLE.write;
    const statuses: number[] = [];
    for (let i = 0; i < burstLimit; i += 1) statuses.push((await call('POST', '/shopper/member')).status);
    const throttled = await call('POST', '/shopper/member');

    expect(new Set(statuses)).toEqual(new Set([401]));
    expectError(throttled, 429, 'Rate limit exceeded');
    expect(throttled.headers.get('access-control-allow-origin')).toBe('*');
    // Another method of the same path has its own bucket; the preflight is not counted.
    expect((await call('GET', '/shopper/member')).status).toBe(401);
    expect((await fetch(`${gateway.url}/shopper/member`, { method: 'OPTIONS' })).status).toBe(204);
  });

  it('holds the read burst the same way', async () => {
    const { burstLimit } = SHOPPER_THROTTLE.read;
    for (let i = 0; i < burstLimit; i += 1) expect((await call('GET', '/shopper/program')).status).toBe(401);
    expectError(await call('GET', '/shopper/program'), 429);
  });
});
