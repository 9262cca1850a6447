// The twin's usage plan, as API Gateway's with the API key source AUTHORIZER: an allowed request whose
// usageIdentifierKey is not an enabled key attached to the plan is refused (INVALID_API_KEY, which the stack's
// gateway response answers 401 with the invalid key's detail), and the throttles count per usage-plan key, not per
// principal: the plan's standard limits across every method of the key, a strict route's limits per method on top.
// A fixture authorizer names the key; the limiter's clock is held.
import { join } from 'node:path';
import { ResponseType } from 'aws-cdk-lib/aws-apigateway';
import { GATEWAY_RESPONSES } from '../../infra/cdk/constructs/loyalty-api';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { RateLimiter } from '../../infra/local/rate-limiter';
import { twinUsagePlan, type TwinUsagePlan } from '../../infra/local/twin-usage-plan';
import { DETAILS, envelope } from '../../shared/http/errors';
import { type Route, THROTTLE_LIMITS } from '../../shared/runtime/entry-points';

const ECHO = 'test/fixtures/echo-authorizer-handler.ts';
const ROUTES: Route[] = [
  { name: 'list', method: 'GET', path: '/v1/customers', handler: ECHO, table: 'none', scope: 'read', throttle: 'standard' },
  { name: 'get', method: 'GET', path: '/v1/customers/{identifier}', handler: ECHO, table: 'none', scope: 'read', throttle: 'standard' },
  {
    name: 'birthday',
    method: 'GET',
    path: '/v1/customers/{identifier}/birthday',
    handler: ECHO,
    table: 'none',
    scope: 'read',
    throttle: 'strict',
  },
  {
    name: 'anniversary',
    method: 'GET',
    path: '/v1/customers/{identifier}/anniversary',
    handler: ECHO,
    table: 'none',
    scope: 'read',
    throttle: 'strict',
  },
];

let gateway: Gateway;
let plan: TwinUsagePlan;
const now = { ms: 0 };

beforeAll(async () => {
  plan = twinUsagePlan();
  gateway = await startGateway({
    routes: ROUTES,
    root: join(__dirname, '..', '..'),
    port: 0,
    limiter: new RateLimiter(() => now.ms),
    authorizer: 'test/fixtures/policy-authorizer.ts',
    usagePlan: plan,
  });
});
afterAll(async () => {
  await gateway?.stop();
});

let counter = 0;
/** A key of the plan, created and (unless told otherwise) attached; its value is what the authorizer names. */
async function planKey({ attach = true } = {}): Promise<{ id: string; value: string }> {
  counter += 1;
  const value = `usage-value-${counter}-0123456789abcdef`;
  const { id } = await plan.keys.create(`key-${counter}`, value);
  if (attach) await plan.keys.attach(plan.id, id);
  return { id, value };
}

const get = async (path: string, value: string, principal = 'p1') =>
  (await fetch(`${gateway.url}${path}`, { headers: { Authorization: `usage ${value} ${principal}` } })).status;

/** `count` requests at once, each to the next path of `paths`; how many got 200 and how many 429. */
async function burst(count: number, paths: string[], value: string, principal = (i: number) => `p${i}`) {
  const statuses = await Promise.all(Array.from({ length: count }, (_, i) => get(paths[i % paths.length]!, value, principal(i))));
  return { ok: statuses.filter((s) => s === 200).length, throttled: statuses.filter((s) => s === 429).length };
}

describe("the usage plan's keys", () => {
  it('takes an enabled key attached to the plan', async () => {
    expect(await get('/v1/customers', (await planKey()).value)).toBe(200);
  });

  it('refuses, as the stack does, a key the plan does not hold, one not attached, and one disabled', async () => {
    const unattached = await planKey({ attach: false });
    const disabled = await planKey();
    expect(await get('/v1/customers', disabled.value)).toBe(200);
    await plan.keys.disable(disabled.id);

    // The stack's gateway response for INVALID_API_KEY: 401 with the invalid key's detail.
    const stack = GATEWAY_RESPONSES.find((response) => response.type === ResponseType.INVALID_API_KEY)!;
    expect(stack).toMatchObject({ statusCode: '401', detail: DETAILS.invalidKey });
    for (const value of ['never-created-0123456789abcdef', unattached.value, disabled.value]) {
      const response = await fetch(`${gateway.url}/v1/customers`, { headers: { Authorization: `usage ${value} p1` } });
      expect(response.status).toBe(Number(stack.statusCode));
      expect(await response.json()).toEqual(envelope(Number(stack.statusCode), stack.detail));
    }
  });

  it('refuses an Allow that names no usage-plan key at all', async () => {
    // The fixture's Allow for a policy test carries `fixture-usage-key`, which this plan does not hold.
    expect((await fetch(`${gateway.url}/v1/customers`, { headers: { Authorization: 'any-action' } })).status).toBe(401);
  });

  it('refuses to attach a key to another plan, or a key it does not hold', async () => {
    const key = await planKey({ attach: false });
    await expect(plan.keys.attach('other-plan', key.id)).rejects.toThrow('Invalid Usage Plan ID');
    await expect(plan.keys.attach(plan.id, 'tw00000000')).rejects.toThrow('Invalid API Key identifier');
    await expect(plan.keys.create('again', key.value)).rejects.toThrow('already exists');
  });
});

describe("the usage plan's throttles", () => {
  beforeEach(() => {
    // A new second far from the last test's: every bucket full again.
    now.ms += 3_600_000;
  });

  it('counts per usage-plan key, whatever the principal: one key sent under many principals shares one budget', async () => {
    const { value } = await planKey();
    const limit = THROTTLE_LIMITS.strict.burstLimit;

    const shared = await burst(limit * 3, ['/v1/customers/1/birthday'], value);

    expect(shared).toEqual({ ok: limit, throttled: limit * 2 });
  });

  it('gives two usage-plan keys of one principal a budget each', async () => {
    const [a, b] = [await planKey(), await planKey()];
    const limit = THROTTLE_LIMITS.strict.burstLimit;

    const first = await burst(limit, ['/v1/customers/1/birthday'], a.value, () => 'same');
    const second = await burst(limit, ['/v1/customers/1/birthday'], b.value, () => 'same');

    expect([first.ok, second.ok]).toEqual([limit, limit]);
  });

  it("holds the plan's standard limit across every method of a key, a strict method's limit per method on top", async () => {
    const { value } = await planKey();
    const { burstLimit } = THROTTLE_LIMITS.standard;

    // Two standard methods together: the plan's burst once, not once per method.
    const standard = await burst(burstLimit * 2, ['/v1/customers', '/v1/customers/1'], value);
    now.ms += 3_600_000;
    const strict = await burst(THROTTLE_LIMITS.strict.burstLimit * 4, ['/v1/customers/1/birthday', '/v1/customers/1/anniversary'], value);

    expect(standard).toEqual({ ok: burstLimit, throttled: burstLimit });
    expect(strict.ok).toBe(THROTTLE_LIMITS.strict.burstLimit * 2);
  });
});
