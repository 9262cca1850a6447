// The staff routes through HTTP on the twin (SURFACES-CONTRACT.md, "Staff routes"): /admin/api/v1/... mirrors
// every /v1 route from the same functions, authorized by Shopify's admin ID token; each refusal of a token with
// or without App Bridge's retry header; keys and customer session tokens refused there, ID tokens refused on
// /v1 and /shopper; a staff adjustment's actor on its entry in /admin/api answers, in the table and in the
// customer's data export, and never on /v1; an Idempotency-Key scoped to the shop and the staff user.
import { SignJWT } from 'jose';
import type { Twin } from '../../infra/local/twin';
import { DETAILS } from '../../shared/http/errors';
import { RESPONSE_SCHEMAS } from '../../shared/openapi/response-schemas';
import {
  CROSS_ORIGIN_STAFF_PATHS,
  ROUTES,
  STAFF_API_PREFIX,
  STAFF_CORS_HEADERS,
  STAFF_PREFLIGHT_HEADERS,
  STAFF_ROUTES,
} from '../../shared/runtime/entry-points';
import { RETRY_INVALID_SESSION_HEADER } from '../../shared/staff/staff-requests';
import { e2eConfig, KEYS } from '../fixtures/e2e-config';
import { openApiValidator } from '../support/openapi-validator';
import { sessionToken } from '../support/shopper';
import { scanAll } from '../support/test-table';
import { apiClient, type ApiResponse, expectError, sendJson, startTestTwin } from '../support/twin';
import { mintIdToken } from '../../infra/local/simulator/shopify-tokens';

jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const APP = { clientId: 'e2e-app-client-id', clientSecret: 'e2e-app-client-secret', domain: 'e2e.myshopify.com' };
const OTHER_APP = { clientId: 'other-app-client-id', clientSecret: 'other-app-client-secret', domain: 'e2e-other.myshopify.com' };

let twin: Twin;

beforeAll(async () => {
  const config: Json = e2eConfig();
  const [e2e, other, credit] = config.shops;
  e2e.platform = { ...e2e.platform, shop_domain: APP.domain, client_id: APP.clientId, client_secret: APP.clientSecret };
  other.platform = {
    ...other.platform,
    shop_domain: OTHER_APP.domain,
    client_id: OTHER_APP.clientId,
    client_secret: OTHER_APP.clientSecret,
  };
  // A legacy custom app: no client credentials, so no embedded app.
  credit.platform = { ...credit.platform, shop_domain: 'e2e-credit.myshopify.com' };
  twin = await startTestTwin(config, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

/** An ID token from the simulator's POST /_id_tokens, as App Bridge hands it to the embedded app. */
async function idToken(shop = 'e2e', userId = '42'): Promise<string> {
  const response = await fetch(`${twin.platformUrl}/_id_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shop, user_id: userId }),
  });
  if (response.status !== 200) throw new Error(`POST /_id_tokens answered ${response.status}`);
  return ((await response.json()) as { token: string }).token;
}

const nowSeconds = () => Math.floor(Date.now() / 1000);

/** An ID token signed as a test chooses; by default what Shopify mints for staff user 42 of the e2e shop. */
async function signed(
  overrides: { alg?: string; key?: string; aud?: string; iss?: string; dest?: string; expIn?: number; nbfIn?: number } = {},
): Promise<string> {
  const now = nowSeconds();
  const exp = now + (overrides.expIn ?? 60);
  const nbf = now + (overrides.nbfIn ?? 0);
  return new SignJWT({ dest: overrides.dest ?? `https://${APP.domain}`, sid: 'session-1' })
    .setProtectedHeader({ alg: overrides.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer(overrides.iss ?? `https://${APP.domain}/admin`)
    .setAudience(overrides.aud ?? APP.clientId)
    .setSubject('42')
    .setIssuedAt(Math.min(now, exp))
    .setNotBefore(nbf)
    .setExpirationTime(exp)
    .setJti(crypto.randomUUID())
    .sign(new TextEncoder().encode(overrides.key ?? APP.clientSecret));
}

/** A caller of /admin/api with this bearer token (none: no Authorization header). */
const staff =
  (token: string | null) =>
  (method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<ApiResponse> =>
    sendJson(
      `${twin.url}${STAFF_API_PREFIX}${path}`,
      method,
      { ...(token === null ? {} : { Authorization: `Bearer ${token}` }), ...headers },
      body,
    );

function expectRetry(response: ApiResponse, detail: RegExp): void {
  expectError(response, 401, detail);
  expect(response.headers.get(RETRY_INVALID_SESSION_HEADER)).toBe('1');
}

function expectNoRetry(response: ApiResponse, detail?: RegExp): void {
  expectError(response, 401, detail);
  expect(response.headers.get(RETRY_INVALID_SESSION_HEADER)).toBeNull();
}

/** A request path of a route: `{identifier}` a member of the e2e shop, `{id}` an entry that does not exist. */
const concrete = (path: string) => path.replace('{identifier}', '1001').replace('{id}', 'no-such-entry');

describe('the mirror of every /v1 route', () => {
  it('has a staff twin for every route of the manifest, same path below /admin/api', () => {
    expect(STAFF_ROUTES.map((route) => `${route.method} ${route.path}`)).toEqual(
      ROUTES.map((route) => `${route.method} ${STAFF_API_PREFIX}${route.path}`),
    );
  });

  it.each(ROUTES.map((route) => [route.name, route] as const))(
    '%s answers on /admin/api with an ID token exactly as on /v1 with a key',
    async (_name, route) => {
      const token = await idToken();
      const path = concrete(route.path);
      // Reads as they are; writes with a body that cannot be parsed, so nothing is written on either side.
      const body = route.method === 'GET' ? undefined : '{not json';
      const v1 = await sendJson(`${twin.url}${path}`, route.method, { Authorization: KEYS.full }, body);
      const mirrored = await sendJson(`${twin.url}${STAFF_API_PREFIX}${path}`, route.method, { Authorization: `Bearer ${token}` }, body);

      expect(mirrored.status).toBe(v1.status);
      expect(mirrored.status).not.toBe(401);
      expect(mirrored.body).toEqual(v1.body);
    },
  );

  it('answers a read with the same body as /v1: a customer', async () => {
    const v1 = await apiClient(twin.url, KEYS.full).get('/v1/customers/1001');
    const mirrored = await staff(await idToken())('GET', '/v1/customers/1001');

    expect(v1.status).toBe(200);
    expect(mirrored.status).toBe(200);
    expect(mirrored.body).toEqual(v1.body);
  });

  it('answers a write with the same body as /v1: a points adjustment, each applied once', async () => {
    const before = (await apiClient(twin.url, KEYS.full).get('/v1/customers/1004')).body.data.attributes.current_points;
    const v1 = await apiClient(twin.url, KEYS.full).post('/v1/customers/1004/points', { adjustment: 10, note: 'by key' });
    const mirrored = await staff(await idToken())('POST', '/v1/customers/1004/points', { adjustment: 10, note: 'by staff' });

    expect(v1.status).toBe(200);
    expect(mirrored.status).toBe(200);
    const attributes = v1.body.data.attributes;
    expect(attributes).toMatchObject({ points_before: before, points_after: before + 10 });
    expect(mirrored.body).toEqual({
      data: {
        ...v1.body.data,
        attributes: { ...attributes, points_before: before + 10, points_after: before + 20, current_points: before + 20 },
      },
    });
  });

  it('answers another method on a staff path with 404, as the stack (no 405 mock there)', async () => {
    expectError(await staff(await idToken())('DELETE', '/v1/customers/1001'), 404, /No route matches DELETE/);
    // The staff-only routes too: the overview and the member list.
    for (const path of ['/overview', '/members']) {
      const response = await staff(await idToken())('POST', path, {});
      expectError(response, 404, /No route matches POST/);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
  });

  it("keeps one shop's staff out of another shop's members", async () => {
    const response = await staff(await idToken('e2e-other'))('GET', '/v1/customers/1001');

    expectError(response, 404);
    expect((await staff(await idToken('e2e-other'))('GET', '/v1/customers/5001')).body.data.id).toBe('5001');
  });
});

describe("/admin/api across origins (the admin block calls it from Shopify's sandbox)", () => {
  const corsOf = (headers: Headers) => Object.fromEntries([...headers].filter(([name]) => name.startsWith('access-control-')));
  const lower = (headers: Record<string, string>) =>
    Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));

  it("answers the preflight of the block's and the POS extension's paths with 204 and the headers, without a token; no other staff path", async () => {
    expect(CROSS_ORIGIN_STAFF_PATHS).toEqual([
      `${STAFF_API_PREFIX}/v1/customers/{identifier}`,
      `${STAFF_API_PREFIX}/v1/customers`,
      `${STAFF_API_PREFIX}/members`,
      `${STAFF_API_PREFIX}/program`,
      `${STAFF_API_PREFIX}/v1/rewards/{id}/purchase`,
      `${STAFF_API_PREFIX}/v1/customers/{identifier}/reward-history`,
      `${STAFF_API_PREFIX}/v1/customers/{identifier}/reward-history/{id}/refund`,
      `${STAFF_API_PREFIX}/v1/customers/{identifier}/points`,
      `${STAFF_API_PREFIX}/v1/customers/{identifier}/earning-history`,
    ]);
    const write = await fetch(`${twin.url}${STAFF_API_PREFIX}/v1/rewards/five-off/purchase`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://extensions.shopifycdn.com',
        'Access-Control-Request-Method': 'POST',
        'Access-Control-Request-Headers': 'authorization, content-type, idempotency-key',
      },
    });
    expect(write.status).toBe(204);
    expect(corsOf(write.headers)).toEqual(lower(STAFF_PREFLIGHT_HEADERS));
    const preflight = await fetch(`${twin.url}${STAFF_API_PREFIX}/v1/customers/1001`, {
      method: 'OPTIONS',
      headers: {
        Origin: 'https://extensions.shopifycdn.com',
        'Access-Control-Request-Method': 'GET',
        'Access-Control-Request-Headers': 'authorization',
      },
    });
    expect(preflight.status).toBe(204);
    expect(corsOf(preflight.headers)).toEqual(lower(STAFF_PREFLIGHT_HEADERS));
    expect((await fetch(`${twin.url}${STAFF_API_PREFIX}/v1/customers/1001/birthday`, { method: 'OPTIONS' })).status).toBe(404);
  });

  it('carries the CORS headers on every staff answer, a refusal included, and none on /v1', async () => {
    const read = await staff(await idToken())('GET', '/v1/customers/1001');
    expect(read.status).toBe(200);
    expect(corsOf(read.headers)).toEqual(lower(STAFF_CORS_HEADERS));
    const refused = await staff(null)('GET', '/v1/customers/1001');
    expectRetry(refused, /Missing Authorization header/);
    expect(corsOf(refused.headers)).toEqual(lower(STAFF_CORS_HEADERS));
    const v1 = await apiClient(twin.url, KEYS.full).get('/v1/customers/1001');
    expect(corsOf(v1.headers)).toEqual({});
  });
});

describe('the ID token on /admin/api', () => {
  it('refuses a missing token, with the retry header', async () => {
    expectRetry(await staff(null)('GET', '/v1/customers/1001'), /Missing Authorization header/);
  });

  it.each([
    ['a wrong algorithm (HS512)', { alg: 'HS512' }, /HS256/],
    ['a wrong audience', { aud: 'someone-elses-app' }, /aud/],
    ['iss and dest naming different shops', { iss: `https://${OTHER_APP.domain}/admin` }, /iss and dest name different shops/],
    [
      "another shop's token signed with this shop's secret",
      { iss: `https://${OTHER_APP.domain}/admin`, dest: `https://${OTHER_APP.domain}` },
      /aud|signature/,
    ],
    [
      'a shop this service does not serve',
      { iss: 'https://nobody.myshopify.com/admin', dest: 'https://nobody.myshopify.com' },
      /No shop of this service/,
    ],
    // Times relative to when the test runs: `signed` reads them as offsets from now.
    ['a token expired 11 s ago (beyond the leeway)', { expIn: -11 }, /expired/],
    ['a token valid only in 11 s (nbf in the future)', { nbfIn: 11 }, /not valid yet/],
    ['a forged signature', { key: 'not-the-app-secret' }, /signature/],
  ])('refuses %s, with the retry header', async (_name, overrides, detail) => {
    expectRetry(await staff(await signed(overrides))('GET', '/v1/customers/1001'), detail);
  });

  it('accepts a token within the leeway: expired 5 s ago, nbf 5 s ahead', async () => {
    expect((await staff(await signed({ expIn: -5 }))('GET', '/v1/customers/1001')).status).toBe(200);
    expect((await staff(await signed({ nbfIn: 5 }))('GET', '/v1/customers/1001')).status).toBe(200);
  });

  it("keeps real time when the twin's clock is moved", async () => {
    const api = apiClient(twin.url);
    const token = await idToken();
    await api.put('/_clock', { now: '2031-01-01T00:00:00.000Z' });
    try {
      expect((await staff(token)('GET', '/v1/customers/1001')).status).toBe(200);
    } finally {
      await api.put('/_clock', { now: null });
    }
  });

  it('refuses a shop with legacy credentials, saying so, without the retry header (no token of it can succeed)', async () => {
    const token = await mintIdToken({ clientId: 'any', clientSecret: 'any' }, 'e2e-credit.myshopify.com', '42');

    expectNoRetry(await staff(token)('GET', '/v1/customers/7001'), /legacy credentials.*no embedded app/);
  });

  it('refuses an API key there, bare or as a bearer, without the retry header', async () => {
    expectNoRetry(
      await sendJson(`${twin.url}${STAFF_API_PREFIX}/v1/customers/1001`, 'GET', { Authorization: KEYS.full }),
      /API key authorizes \/v1 only/,
    );
    expectNoRetry(await staff(KEYS.full)('GET', '/v1/customers/1001'), /API key authorizes \/v1 only/);
  });

  it('refuses a customer session token there, without the retry header', async () => {
    const token = await sessionToken(twin.platformUrl, 'e2e', '1001');

    expectNoRetry(await staff(token)('GET', '/v1/customers/1001'), /not an admin ID token/);
  });

  it('refuses the request before reading its body: a write with a bad token changes nothing', async () => {
    const before = (await apiClient(twin.url, KEYS.full).get('/v1/customers/1005')).body.data.attributes.current_points;
    expectRetry(await staff(await signed({ key: 'forged' }))('POST', '/v1/customers/1005/points', { adjustment: 50 }), /signature/);

    expect((await apiClient(twin.url, KEYS.full).get('/v1/customers/1005')).body.data.attributes.current_points).toBe(before);
  });
});

describe('ID tokens elsewhere', () => {
  it('refuses an ID token on /v1', async () => {
    const token = await idToken();

    expectError(await sendJson(`${twin.url}/v1/customers/1001`, 'GET', { Authorization: `Bearer ${token}` }), 401, DETAILS.tokenNotKey);
    expectError(await sendJson(`${twin.url}/v1/customers/1001`, 'GET', { Authorization: token }), 401, DETAILS.tokenNotKey);
  });

  it('refuses an ID token on /shopper', async () => {
    const response = await sendJson(`${twin.url}/shopper/member`, 'GET', { Authorization: `Bearer ${await idToken()}` });

    expectError(response, 401, /dest/);
  });
});

/** Shopify's customers/data_request for the customer, delivered, and the export the twin's bus received. */
async function dataRequestExport(customerId: number, requestId: number): Promise<Json> {
  const delivered = await fetch(`${twin.platformUrl}/_webhooks/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      shop: 'e2e',
      topic: 'customers/data_request',
      payload: { shop_id: 1, shop_domain: APP.domain, customer: { id: customerId }, orders_requested: [], data_request: { id: requestId } },
    }),
  });
  expect(((await delivered.json()) as Json).webhook.status).toBe(200);
  const events = ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Json[] }).events;
  return events.find((event) => event.type === 'customer.data_requested' && event.data_request_id === String(requestId));
}

describe('the actor of a staff write', () => {
  let staffEntryId: string;
  let keyEntryId: string;

  beforeAll(async () => {
    expect((await apiClient(twin.url, KEYS.full).post('/v1/customers/1003/points', { adjustment: 7, note: 'by key' })).status).toBe(200);
    const response = await staff(await idToken('e2e', '77'))('POST', '/v1/customers/1003/points', { adjustment: 30, note: 'goodwill' });
    expect(response.status).toBe(200);
    const entries = (await staff(await idToken())('GET', '/v1/customers/1003/earning-history?sort=-created_at')).body.data as Json[];
    staffEntryId = entries.find((entry) => entry.attributes.points === 30)!.id;
    keyEntryId = entries.find((entry) => entry.attributes.points === 7)!.id;
  });

  it('carries actor { type: staff, id: <sub> } on its entry in /admin/api answers, the API key by name on a /v1 write', async () => {
    const listed = await staff(await idToken())('GET', '/v1/customers/1003/earning-history');
    const list = listed.body.data as Json[];
    const one = await staff(await idToken())('GET', `/v1/customers/1003/earning-history/${staffEntryId}`);
    // The staff mirror's list is its documented schema, the one the admin UI's and POS's types are inferred from.
    expect(RESPONSE_SCHEMAS.StaffEarningHistoryList.safeParse(listed.body).error).toBeUndefined();

    expect(list.find((entry) => entry.id === staffEntryId).attributes.actor).toEqual({ type: 'staff', id: '77' });
    expect(one.body.data.attributes.actor).toEqual({ type: 'staff', id: '77' });
    expect(list.find((entry) => entry.id === keyEntryId).attributes.actor).toEqual({
      type: 'api_key',
      id: expect.stringMatching(/^[0-9a-f]{16}$/),
      name: 'Backend',
    });
    // Every entry says who it is by: the entries no request made, by what made them.
    expect(list.every((entry) => typeof entry.attributes.actor?.type === 'string')).toBe(true);
    expect(list.filter((entry) => entry.attributes.actor.type === 'staff').map((entry) => entry.id)).toEqual([staffEntryId]);
  });

  it('never shows it on /v1, whose answers stay exactly the spec', async () => {
    const validator = openApiValidator();
    const api = apiClient(twin.url, KEYS.full);
    const list = await api.get('/v1/customers/1003/earning-history');
    const one = await api.get(`/v1/customers/1003/earning-history/${staffEntryId}`);

    expect(list.body.data.find((entry: Json) => entry.id === staffEntryId).attributes).not.toHaveProperty('actor');
    expect(one.body.data.attributes).not.toHaveProperty('actor');
    expect(validator.check('/v1/customers/{identifier}/earning-history', 'GET', 200, list.body)).toBeNull();
    expect(validator.check('/v1/customers/{identifier}/earning-history/{id}', 'GET', 200, one.body)).toBeNull();
    // The staff answer is the /v1 answer plus the actor and the adjustment's internal note.
    const staffOne = await staff(await idToken())('GET', `/v1/customers/1003/earning-history/${staffEntryId}`);
    const { actor: _actor, note, order_source_name: source, ...rest } = staffOne.body.data.attributes;
    expect(note).toBe('goodwill');
    expect(source).toBeNull();
    expect({ ...staffOne.body, data: { ...staffOne.body.data, attributes: rest } }).toEqual(one.body);
  });

  it("keeps it in the table, on the entry's item", async () => {
    const items = await scanAll();
    const item = items.find((candidate) => candidate.pk === 'SHOP#e2e#C#1003' && candidate.sk === `EARN#${staffEntryId}`);

    expect(item).toMatchObject({ actor: { type: 'staff', id: '77' }, note: 'goodwill' });
    expect(items.find((candidate) => candidate.sk === `EARN#${keyEntryId}`)).toMatchObject({ actor: { type: 'api_key', name: 'Backend' } });
  });

  it("includes it in the customer's customers/data_request export", async () => {
    const exported = await dataRequestExport(1003, 4242);

    expect(exported.earning_history.find((entry: Json) => entry.id === staffEntryId).actor).toEqual({ type: 'staff', id: '77' });
  });
});

describe('who made a redemption and its refund', () => {
  let byStaff: string;
  let byKey: string;
  let byShopper: string;

  beforeAll(async () => {
    const api = apiClient(twin.url, KEYS.full);
    expect((await api.post('/v1/customers/1007/points', { adjustment: 1500, note: 'for rewards' })).status).toBe(200);
    byStaff = (await staff(await idToken('e2e', '77'))('POST', '/v1/rewards/five-off/purchase', { customer_identifier: '1007' })).body.data
      .id;
    byKey = (await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '1007' })).body.data.id;
    const shopper = await sendJson(
      `${twin.url}/shopper/rewards/five-off/redeem`,
      'POST',
      { Authorization: `Bearer ${await sessionToken(twin.platformUrl, 'e2e', '1007')}` },
      {},
    );
    expect(shopper.status).toBe(201);
    byShopper = shopper.body.data.id;
    expect((await staff(await idToken('e2e', '78'))('POST', `/v1/customers/1007/reward-history/${byStaff}/refund`)).status).toBe(200);
  });

  it('says on each reward history entry in /admin/api answers: the staff user, the API key by name, the customer', async () => {
    const listed = await staff(await idToken())('GET', '/v1/customers/1007/reward-history');
    const list = listed.body.data as Json[];
    expect(RESPONSE_SCHEMAS.StaffRewardHistoryList.safeParse(listed.body).error).toBeUndefined();
    const actorOf = (id: string) => list.find((entry) => entry.id === id).attributes.actor;

    expect(actorOf(byStaff)).toEqual({ type: 'staff', id: '77' });
    expect(actorOf(byKey)).toEqual({ type: 'api_key', id: expect.stringMatching(/^[0-9a-f]{16}$/), name: 'Backend' });
    expect(actorOf(byShopper)).toEqual({ type: 'customer' });
    const one = await staff(await idToken())('GET', `/v1/customers/1007/reward-history/${byKey}`);
    expect(one.body.data.attributes.actor).toMatchObject({ type: 'api_key', name: 'Backend' });
  });

  it("says who undid a redemption on the entry that gives the points back, and on the refund's answer", async () => {
    const earningList = await staff(await idToken())('GET', '/v1/customers/1007/earning-history');
    expect(RESPONSE_SCHEMAS.StaffEarningHistoryList.safeParse(earningList.body).error).toBeUndefined();
    const earning = earningList.body.data as Json[];
    const refund = earning.find((entry) => entry.attributes.action === 'reward_refund');

    expect(refund.attributes.actor).toEqual({ type: 'staff', id: '78' });
    expect(earning.find((entry) => entry.attributes.note === 'for rewards').attributes.actor).toMatchObject({ type: 'api_key' });
    const again = await staff(await idToken('e2e', '78'))('POST', `/v1/customers/1007/reward-history/${byKey}/refund`);
    expect(again.status).toBe(200);
    expect(again.body.data.attributes.actor).toMatchObject({ type: 'api_key', name: 'Backend' });
  });

  it('never shows it on /v1, whose reward history stays exactly the spec', async () => {
    const list = await apiClient(twin.url, KEYS.full).get('/v1/customers/1007/reward-history');

    expect(list.body.data.every((entry: Json) => !('actor' in entry.attributes))).toBe(true);
    expect(openApiValidator().check('/v1/customers/{identifier}/reward-history', 'GET', 200, list.body)).toBeNull();
  });
});

describe('every staff write records who made it', () => {
  const audits = async (customerId: string): Promise<Json[]> =>
    (await scanAll())
      .filter((item) => item.pk === `SHOP#e2e#C#${customerId}` && String(item.sk).startsWith('AUDIT#'))
      .sort((a, b) => String(a.sk).localeCompare(String(b.sk)));

  it('in the transaction of each change: an exclusion and an inclusion, a birthday, a redemption and its refund', async () => {
    const api = apiClient(twin.url, KEYS.full);
    // By key: no audit.
    expect((await api.put('/v1/customers/1006', { date_of_birth: '1990-01-02' })).status).toBe(200);
    expect(await audits('1006')).toEqual([]);

    const as88 = staff(await idToken('e2e', '88'));
    expect((await as88('PUT', '/v1/customers/1006', { is_excluded: true })).status).toBe(200);
    expect((await as88('PUT', '/v1/customers/1006', { is_excluded: false })).status).toBe(200);
    expect((await as88('PUT', '/v1/customers/1006', { date_of_birth: '1990-03-04' })).status).toBe(200);
    expect((await api.post('/v1/customers/1006/points', { adjustment: 600, note: 'for a reward' })).status).toBe(200);
    const bought = await as88('POST', '/v1/rewards/five-off/purchase', { customer_identifier: '1006' });
    expect(bought.status).toBe(201);
    expect((await as88('POST', `/v1/customers/1006/reward-history/${bought.body.data.id}/refund`)).status).toBe(200);

    const recorded = await audits('1006');
    expect(recorded.every((item) => item.actor.type === 'staff' && item.actor.id === '88')).toBe(true);
    const requests = recorded.map((item) => item.request);
    expect(requests.filter((request) => request === 'PUT /admin/api/v1/customers/{identifier}')).toHaveLength(3);
    expect(requests).toContain('POST /admin/api/v1/rewards/{id}/purchase');
    expect(requests).toContain('POST /admin/api/v1/customers/{identifier}/reward-history/{id}/refund');
    // Nothing the key did, and each names its writes and its time.
    expect(requests.every((request) => request.includes('/admin/api/'))).toBe(true);
    for (const item of recorded) {
      expect(item.writes.length).toBeGreaterThan(0);
      expect(String(item.sk)).toBe(`AUDIT#${item.at}#${String(item.sk).split('#').at(-1)}`);
    }
  });

  it("lists them in the customer's customers/data_request export", async () => {
    const exported = await dataRequestExport(1006, 4343);

    expect(exported.staff_changes.length).toBe((await audits('1006')).length);
    expect(exported.staff_changes[0]).toMatchObject({
      actor: { type: 'staff', id: '88' },
      request: expect.stringMatching(/^PUT \/admin\/api/),
    });
    expect(exported.staff_changes[0]).not.toHaveProperty('pk');
  });
});

describe('the Idempotency-Key of a staff write', () => {
  it('is scoped to the shop and the staff user: replayed for the same user, a new request for another', async () => {
    const body = { adjustment: 5 };
    const headers = { 'Idempotency-Key': 'staff-key-1' };
    const first = await staff(await idToken('e2e', '11'))('POST', '/v1/customers/1006/points', body, headers);
    const replay = await staff(await idToken('e2e', '11'))('POST', '/v1/customers/1006/points', body, headers);
    const otherUser = await staff(await idToken('e2e', '12'))('POST', '/v1/customers/1006/points', body, headers);

    expect(first.status).toBe(200);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    expect(otherUser.headers.get('idempotency-replayed')).toBeNull();
    expect(otherUser.body.data.attributes.points_before).toBe(first.body.data.attributes.points_after);
    const entries = (await staff(await idToken())('GET', '/v1/customers/1006/earning-history')).body.data as Json[];
    expect(
      entries
        .filter((entry) => entry.attributes.actor.type === 'staff' && entry.attributes.action === 'manual_adjustment')
        .map((entry) => entry.attributes.actor.id)
        .sort(),
    ).toEqual(['11', '12']);
  });
});
