// Hostile requests at the surfaces' routes, each a way in a tester found: a plain HTML form spending a signed-in
// shopper's points through the app proxy (a cross-site request forgery), a body nested thousands deep beside an
// Idempotency-Key, and an app proxy query carrying parameters the service never reads, which Shopify's
// separator-free signature could let a shopper re-cut. Each is refused in the envelope, before anything is written.
import { request as httpRequest } from 'node:http';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { MAX_JSON_DEPTH } from '../../shared/http/middleware/json-body';
import { DEMO_APP, sessionToken } from '../support/shopper';
import { apiClient, expectError, sendJson, startTestTwin } from '../support/twin';
import { scanAll } from '../support/test-table';
import { signAppProxyQuery } from '../../infra/local/simulator/shopify-tokens';

jest.setTimeout(120_000);

let twin: Twin;
beforeAll(async () => {
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

const snapshot = async () => JSON.stringify((await scanAll()).map((item) => `${item.pk}|${item.sk}|${JSON.stringify(item)}`).sort());
const points = async (customerId: string) =>
  (await apiClient(twin.url, 'demo_full_key').get(`/v1/customers/${customerId}`)).body.data.attributes.current_points as number;

/** A signed app proxy query for `customerId`, with `extra` pairs signed with the rest (as Shopify would sign them). */
const proxied = (customerId: string, extra: Array<[string, string]> = [], prefix = '/apps/loyalty') =>
  signAppProxyQuery(
    [
      ...extra,
      ['shop', DEMO_APP.domain],
      ['logged_in_customer_id', customerId],
      ['path_prefix', prefix],
      ['timestamp', String(Math.floor(Date.now() / 1000))],
    ],
    DEMO_APP.clientSecret,
  );

/** A body `depth` objects deep: {"a":{"a":…{}…}}. */
const nested = (depth: number) => `${'{"a":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`;

describe('a write through the app proxy from a plain HTML form (cross-site request forgery)', () => {
  it.each([
    ['a form', 'application/x-www-form-urlencoded', 'points=100'],
    ['a multipart form', 'multipart/form-data; boundary=x', '--x\r\nContent-Disposition: form-data; name="points"\r\n\r\n100\r\n--x--'],
    ['text', 'text/plain', '{"points":100}'],
    ['no type at all', undefined, ''],
  ])('is refused with 415 when it sends %s, and spends nothing', async (_name, type, body) => {
    const before = await points('1001');
    const state = await snapshot();
    for (const path of ['/rewards/five-off/redeem', '/member']) {
      const response = await fetch(`${twin.url}/shopper${path}?${proxied('1001')}`, {
        method: 'POST',
        headers: type ? { 'Content-Type': type } : {},
        body,
      });
      const answer = { status: response.status, body: await response.json(), headers: response.headers };
      expectError(answer, 415, /application\/json/);
      expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    }
    expect(await points('1001')).toBe(before);
    expect(await snapshot()).toBe(state);
  });

  it('is answered when it says its body is JSON, as the storefront and the account page send it', async () => {
    const response = await sendJson(`${twin.url}/shopper/member?${proxied('1001')}`, 'POST', {
      'Content-Type': 'application/json; charset=utf-8',
    });
    expect(response.status).toBe(200);
  });
});

describe('a body nested past any depth the API uses, with an Idempotency-Key', () => {
  const deep = nested(4_000);
  const headers = { 'Content-Type': 'application/json', 'Idempotency-Key': 'deep-1' };

  it('is a 400 saying so on /v1, on /shopper and on /admin/api, never a 500, and writes nothing', async () => {
    const state = await snapshot();
    const token = await sessionToken(twin.platformUrl, 'demo', '1001');
    const idToken = (
      (await (
        await fetch(`${twin.platformUrl}/_id_tokens`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ shop: 'demo', user_id: '7' }),
        })
      ).json()) as { token: string }
    ).token;
    const answers = [
      await sendJson(`${twin.url}/v1/customers/1001/points`, 'POST', { ...headers, Authorization: 'demo_full_key' }, deep),
      await sendJson(`${twin.url}/shopper/rewards/five-off/redeem`, 'POST', { ...headers, Authorization: `Bearer ${token}` }, deep),
      await sendJson(`${twin.url}/admin/api/v1/customers/1001/points`, 'POST', { ...headers, Authorization: `Bearer ${idToken}` }, deep),
    ];
    for (const answer of answers) expectError(answer, 400, new RegExp(`more than ${MAX_JSON_DEPTH} levels`));
    expect(await snapshot()).toBe(state);
  });

  it('is refused one level past the limit and read on its merits at the limit', async () => {
    const auth = { 'Content-Type': 'application/json', Authorization: 'demo_full_key' };
    expectError(await sendJson(`${twin.url}/v1/customers/1001/points`, 'POST', auth, nested(MAX_JSON_DEPTH + 1)), 400, /levels deep/);
    const atLimit = await sendJson(`${twin.url}/v1/customers/1001/points`, 'POST', auth, nested(MAX_JSON_DEPTH));
    expectError(atLimit, 400, /adjustment/);
  });
});

describe('an app proxy query signed with parameters the service does not read', () => {
  it.each([
    ['a parameter no route reads', [['customer', '1002']] as Array<[string, string]>, '/apps/loyalty', /does not read: 'customer'/],
    [
      'a page size that is not a number',
      [['page[size]', '5logged_in_customer_id=1002']] as Array<[string, string]>,
      '/apps/loyalty',
      /page\[size\]/,
    ],
    ['a path_prefix carrying more than its subpath', [], '/apps/loyaltylogged_in_customer_id=1002', /path_prefix/],
  ])('is refused with 401 though its signature is valid: %s', async (_name, extra, prefix, detail) => {
    const response = await sendJson(`${twin.url}/shopper/member?${proxied('1001', extra, prefix)}`, 'GET', {});
    expectError(response, 401, detail);
  });

  it("is answered with the routes' own parameters in their strict form", async () => {
    const response = await sendJson(`${twin.url}/shopper/member/activity?${proxied('1001', [['page[size]', '5']])}`, 'GET', {});
    expect(response.status).toBe(200);
  });
});

/** A request with exactly the Host given (fetch sets its own). */
function withHost(url: string, method: string, host: string, body?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method, headers: { Host: host, 'Content-Type': 'application/json' } }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', reject);
    request.end(body);
  });
}

describe("the twin's control endpoints under another site's name (DNS rebinding)", () => {
  const port = (url: string) => new URL(url).port;

  it.each([
    ['the API port', () => `${twin.url}/_events`, 'GET', undefined],
    ['the simulator', () => `${twin.platformUrl}/_session_tokens`, 'POST', JSON.stringify({ shop: 'demo', customer_id: '1001' })],
    ['the simulator', () => `${twin.platformUrl}/_faults`, 'PUT', JSON.stringify({ customers: 'unreachable' })],
  ])('refuse a Host that is not the twin itself on %s (%s)', async (_name, address, method, body) => {
    const url = address();
    for (const host of [
      `evil.example:${port(url)}`,
      'evil.example',
      `127.0.0.1.evil.example:${port(url)}`,
      `127.0.0.1:${Number(port(url)) + 1}`,
    ]) {
      expect({ host, status: await withHost(url, method, host, body) }).toEqual({ host, status: 403 });
    }
    // Its own names still answer.
    for (const host of [`127.0.0.1:${port(url)}`, `localhost:${port(url)}`]) {
      expect({ host, status: await withHost(url, method, host, body?.replace('unreachable', 'ok')) }).toEqual({ host, status: 200 });
    }
  });
});
