// Each shopper route's method throttle, as the twin's gateway applies the stack's stage method settings: a
// burst above it gets 429 in the envelope, with the CORS headers, for all callers together and per method.
// The limiter's clock is held, so no token comes back during the test and nothing depends on its speed. The
// throttle holds SHOPPER_SHOPS_AT_FULL_RATE shops' budgets (hundreds of requests): the test sends a few through
// the gateway and spends the rest of the method's bucket directly, under the gateway's own key for it. One
// shop's budget, counted after the shopper is verified, is test/e2e/shopper-shop-budget.test.ts.
import { join } from 'node:path';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { RateLimiter } from '../../infra/local/rate-limiter';
import {
  SHOPPER_BUDGET,
  SHOPPER_ROUTES,
  SHOPPER_SHOPS_AT_FULL_RATE,
  SHOPPER_THROTTLE,
  shopperRouteClass,
} from '../../shared/runtime/entry-points';
import { expectError } from '../support/twin';

let gateway: Gateway;
const limiter = new RateLimiter(() => 0);

beforeAll(async () => {
  gateway = await startGateway({
    routes: [],
    shopperRoutes: SHOPPER_ROUTES,
    root: join(__dirname, '..', '..'),
    port: 0,
    limiter,
  });
});
afterAll(async () => {
  await gateway.stop();
});

async function call(method: string, path: string) {
  const response = await fetch(`${gateway.url}${path}`, { method });
  return { status: response.status, headers: response.headers, body: await response.json() };
}

/** Sends `sent` requests through the gateway, then spends all but one of the bucket's other tokens directly. */
async function spendAllButOne(method: string, path: string, burstLimit: number, sent: number): Promise<number[]> {
  const statuses: number[] = [];
  for (let i = 0; i < sent; i += 1) statuses.push((await call(method, path)).status);
  for (let i = 0; i < burstLimit - sent - 1; i += 1) limiter.take(`shopper ${method} ${path}`, { rateLimit: 1, burstLimit });
  return statuses;
}

describe('the shopper routes’ method throttle', () => {
  it('is SHOPPER_SHOPS_AT_FULL_RATE shops at their whole budget, not one shop’s', () => {
    expect(SHOPPER_THROTTLE.write).toEqual({
      rateLimit: SHOPPER_BUDGET.write.rateLimit * SHOPPER_SHOPS_AT_FULL_RATE,
      burstLimit: SHOPPER_BUDGET.write.burstLimit * SHOPPER_SHOPS_AT_FULL_RATE,
    });
    expect(SHOPPER_THROTTLE.read.burstLimit).toBe(SHOPPER_BUDGET.read.burstLimit * SHOPPER_SHOPS_AT_FULL_RATE);
    for (const route of SHOPPER_ROUTES) expect(route.throttle).toBe(SHOPPER_THROTTLE[shopperRouteClass(route)]);
  });

  it('lets the write burst through (to the handler, which refuses the missing identity), then answers 429 with CORS', async () => {
    const { burstLimit } = SHOPPER_THROTTLE.write;
    const statuses = await spendAllButOne('POST', '/shopper/member', burstLimit, 20);
    const last = await call('POST', '/shopper/member');
    const throttled = await call('POST', '/shopper/member');

    expect(new Set([...statuses, last.status])).toEqual(new Set([401]));
    expectError(throttled, 429, 'Rate limit exceeded');
    expect(throttled.headers.get('access-control-allow-origin')).toBe('*');
    // Another method of the same path has its own bucket; the preflight is not counted.
    expect((await call('GET', '/shopper/member')).status).toBe(401);
    expect((await fetch(`${gateway.url}/shopper/member`, { method: 'OPTIONS' })).status).toBe(204);
  });

  it('holds the read burst the same way', async () => {
    const { burstLimit } = SHOPPER_THROTTLE.read;
    const statuses = await spendAllButOne('GET', '/shopper/program', burstLimit, 20);
    expect(new Set(statuses)).toEqual(new Set([401]));
    expect((await call('GET', '/shopper/program')).status).toBe(401);
    expectError(await call('GET', '/shopper/program'), 429);
  });
});
