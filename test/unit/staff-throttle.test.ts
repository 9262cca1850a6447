// The staff methods' stage throttle (STAFF_THROTTLE in the route manifest, the stack's methodOptions: staff hold
// no key, so no usage plan counts them), applied by the twin's gateway from the same constant before the
// function runs: a burst past the limit is answered 429 in the envelope, and each method keeps its own bucket.
// The clock is held. The function behind it is a stand-in that accepts everything, so the gateway is measured.
import { join } from 'node:path';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { RateLimiter } from '../../infra/local/rate-limiter';
import { DETAILS, envelope } from '../../shared/http/errors';
import { ROUTES, STAFF_ROUTES, STAFF_THROTTLE } from '../../shared/runtime/entry-points';
import { received } from '../fixtures/accepting-webhook-handler';

let gateway: Gateway;
const now = 0;

const READ = STAFF_ROUTES.find((route) => route.route.name === 'getCustomer')!;
const WRITE = STAFF_ROUTES.find((route) => route.route.name === 'adjustPoints')!;

beforeAll(async () => {
  gateway = await startGateway({
    routes: ROUTES,
    root: join(__dirname, '..', '..'),
    port: 0,
    limiter: new RateLimiter(() => now),
    staffRoutes: [READ, WRITE].map((staff) => ({
      ...staff,
      route: { ...staff.route, handler: 'test/fixtures/accepting-webhook-handler.ts' },
    })),
  });
});
afterAll(async () => {
  await gateway.stop();
});

async function burst(path: string, method: string, count: number): Promise<Array<{ status: number; body: string }>> {
  return Promise.all(
    Array.from({ length: count }, async () => {
      const response = await fetch(`${gateway.url}${path}`, { method, ...(method === 'GET' ? {} : { body: '{}' }) });
      return { status: response.status, body: await response.text() };
    }),
  );
}

describe("the staff methods' stage throttle in the twin", () => {
  it('lets each method its burst through and refuses the rest with 429 in the envelope, reads and writes apart', async () => {
    const reads = await burst('/admin/api/v1/customers/1001', 'GET', STAFF_THROTTLE.read.burstLimit + 10);
    const writes = await burst('/admin/api/v1/customers/1001/points', 'POST', STAFF_THROTTLE.write.burstLimit + 10);

    expect(reads.filter((answer) => answer.status === 200)).toHaveLength(STAFF_THROTTLE.read.burstLimit);
    expect(writes.filter((answer) => answer.status === 200)).toHaveLength(STAFF_THROTTLE.write.burstLimit);
    expect(received.count).toBe(STAFF_THROTTLE.read.burstLimit + STAFF_THROTTLE.write.burstLimit);
    for (const answer of [...reads, ...writes].filter((candidate) => candidate.status !== 200)) {
      expect(answer.status).toBe(429);
      expect(JSON.parse(answer.body)).toEqual(envelope(429, DETAILS.rateLimited));
    }
  });

  it('is the throttle the manifest gives each staff method: reads 50/100, writes 20/40', () => {
    expect(STAFF_THROTTLE).toEqual({ read: { rateLimit: 50, burstLimit: 100 }, write: { rateLimit: 20, burstLimit: 40 } });
    for (const staff of STAFF_ROUTES) expect(staff.throttle).toBe(staff.method === 'GET' ? STAFF_THROTTLE.read : STAFF_THROTTLE.write);
  });
});
