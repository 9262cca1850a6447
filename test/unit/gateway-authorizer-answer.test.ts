// What the twin's gateway does with the authorizer's answer, as API Gateway does: the policy is evaluated against
// each request's method ARN, a cached answer's too (an Allow naming one method refuses another); the context
// reaches the integration as strings, with principalId and integrationLatency; a context value that is an object
// or an array is a 500 (AUTHORIZER_CONFIGURATION_ERROR), never cached. A fixture authorizer and handler.
import { join } from 'node:path';
import { authorizerCache } from '../../infra/local/authorizer-cache';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { stageWideResource } from '../../shared/auth/stage-wide-resource';
import { DETAILS, envelope } from '../../shared/http/errors';
import type { Route } from '../../shared/runtime/entry-points';
import { runs } from '../fixtures/policy-authorizer';

const ECHO = 'test/fixtures/echo-authorizer-handler.ts';
const ROUTES: Route[] = [
  { name: 'list', method: 'GET', path: '/v1/customers', handler: ECHO, table: 'none', scope: 'read', throttle: 'standard' },
  { name: 'enrol', method: 'POST', path: '/v1/customers', handler: ECHO, table: 'none', scope: 'full', throttle: 'standard' },
  { name: 'get', method: 'GET', path: '/v1/customers/{identifier}', handler: ECHO, table: 'none', scope: 'read', throttle: 'standard' },
];

let gateway: Gateway;
let cached: Gateway;

const start = (ttlSeconds: number) =>
  startGateway({
    routes: ROUTES,
    root: join(__dirname, '..', '..'),
    port: 0,
    limiter: null,
    authorizer: 'test/fixtures/policy-authorizer.ts',
    authorizerCache: authorizerCache(ttlSeconds),
  });

beforeAll(async () => {
  [gateway, cached] = await Promise.all([start(0), start(300)]);
});
afterAll(async () => {
  await Promise.all([gateway?.stop(), cached?.stop()]);
});

async function call(at: Gateway, method: string, path: string, authorization: string) {
  const response = await fetch(`${at.url}${path}`, { method, headers: { Authorization: authorization } });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
  return { status: response.status, body: (await response.json()) as any };
}

describe("the authorizer's policy, evaluated on every request", () => {
  it('lets the method an Allow names through, then refuses another method with the same cached answer', async () => {
    const before = runs.count;

    const first = await call(cached, 'GET', '/v1/customers', 'this-method-only');
    const other = await call(cached, 'POST', '/v1/customers', 'this-method-only');
    const again = await call(cached, 'GET', '/v1/customers', 'this-method-only');

    expect(first.status).toBe(200);
    // ACCESS_DENIED, as the stack's gateway response answers it: 401, `$context.authorizer.detail` (none in an Allow).
    expect(other).toEqual({ status: 401, body: envelope(401, '') });
    expect(again.status).toBe(200);
    expect(runs.count - before).toBe(1);
  });

  it('refuses another method without the cache too: the answer names the method ARN of its own request', async () => {
    expect((await call(gateway, 'POST', '/v1/customers', 'this-method-only')).status).toBe(200);
    expect((await call(gateway, 'GET', '/v1/customers/1001', 'this-method-only')).status).toBe(200);
  });

  it('matches a list of resources with wildcards, and a Deny wins over an Allow', async () => {
    expect((await call(cached, 'GET', '/v1/customers', 'list-of-two')).status).toBe(200);
    expect((await call(cached, 'GET', '/v1/customers/1001', 'list-of-two')).status).toBe(200);
    expect((await call(cached, 'POST', '/v1/customers', 'list-of-two')).status).toBe(401);
    expect((await call(cached, 'GET', '/v1/customers', 'deny-one')).status).toBe(200);
    expect((await call(cached, 'POST', '/v1/customers', 'deny-one')).status).toBe(401);
  });

  it('counts only statements whose action invokes the method', async () => {
    expect((await call(gateway, 'GET', '/v1/customers', 'other-action')).status).toBe(401);
    expect((await call(gateway, 'GET', '/v1/customers', 'any-action')).status).toBe(200);
  });

  it("prints a Deny's detail, as the stack's ACCESS_DENIED gateway response", async () => {
    expect(await call(cached, 'GET', '/v1/customers', 'not-a-key')).toEqual({ status: 401, body: envelope(401, DETAILS.invalidKey) });
  });

  it('builds the method ARN as API Gateway does: the request path (no template), which the stage-wide resource covers', async () => {
    await call(gateway, 'GET', '/v1/customers/1001/', 'this-method-only');

    const methodArn = runs.methodArns.at(-1)!;
    expect(methodArn).toBe('arn:aws:execute-api:local:000000000000:local/local/GET/v1/customers/1001');
    expect(stageWideResource(methodArn)).toBe('arn:aws:execute-api:local:000000000000:local/local/*/*');
  });
});

describe("the authorizer's context in the integration's event", () => {
  it('stringifies numbers and booleans, and adds principalId and integrationLatency', async () => {
    const fresh = await call(cached, 'GET', '/v1/customers/1001', 'scalars');
    const fromCache = await call(cached, 'POST', '/v1/customers', 'scalars');

    expect(fresh.status).toBe(200);
    expect(fresh.body.authorizer).toEqual({
      count: '7',
      ratio: '0.5',
      flag: 'true',
      off: 'false',
      name: 'x',
      principalId: 'fixture-principal',
      integrationLatency: expect.any(Number),
    });
    expect(fromCache.body.authorizer).toMatchObject({ count: '7', principalId: 'fixture-principal', integrationLatency: 0 });
  });

  it.each(['object-context', 'array-context'])(
    'answers 500 for a context value that is an object or an array (%s), never cached',
    async (value) => {
      const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
      const before = runs.count;

      const answers = [await call(cached, 'GET', '/v1/customers', value), await call(cached, 'GET', '/v1/customers', value)];

      spy.mockRestore();
      for (const answer of answers) expect(answer).toEqual({ status: 500, body: envelope(500, DETAILS.unexpected) });
      expect(runs.count - before).toBe(2);
    },
  );
});
