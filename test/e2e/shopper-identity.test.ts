// Who a shopper is, through HTTP on the twin (SURFACES-CONTRACT.md, "Shopper routes"): every refusal of an
// app proxy signature and of a customer session token, a customer id smuggled anywhere never read, CORS on
// every answer and on the preflight, a shop with legacy credentials refused on every route, and the method
// throttle's 429 in the envelope.
import { readFileSync } from 'node:fs';
import { SignJWT } from 'jose';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { SHOPPER_ROUTES } from '../../shared/runtime/entry-points';
import { bare, DEMO_APP, proxyQuery, sessionToken, viaProxy, withToken } from '../support/shopper';
import { apiClient, type ApiResponse, expectError, startTestTwin } from '../support/twin';

const OTHER_APP = { clientId: 'other-app-client-id', clientSecret: 'other-app-client-secret', domain: 'other.myshopify.com' };

let twin: Twin;

beforeAll(async () => {
  const demo = JSON.parse(readFileSync(DEMO_CONFIG, 'utf8'));
  const shop = (id: string, platform: Record<string, unknown>) => ({
    id,
    name: id,
    currency: 'USD',
    referral_base_url: `https://${id}.example/`,
    platform: { customers: [{ id: '1001', email: `ada@${id}.example` }], ...platform },
    members: [{ platform_customer_id: '1001', current_points: 5 }],
  });
  demo.shops.push(
    shop('other', { shop_domain: OTHER_APP.domain, client_id: OTHER_APP.clientId, client_secret: OTHER_APP.clientSecret }),
    // A legacy custom app: no client credentials, so no app proxy and no extensions.
    shop('legacy', { shop_domain: 'legacy.myshopify.com' }),
  );
  twin = await startTestTwin(demo, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

const nowSeconds = () => Math.floor(Date.now() / 1000);
const secret = (text: string) => new TextEncoder().encode(text);

/** A session token signed as a test chooses; by default exactly what Shopify mints for the demo shop's customer 1001. */
async function token(
  overrides: { alg?: string; key?: string; aud?: string; dest?: string; sub?: string | null; exp?: number; nbf?: number } = {},
): Promise<string> {
  const now = nowSeconds();
  const sub = overrides.sub === undefined ? 'gid://shopify/Customer/1001' : overrides.sub;
  return new SignJWT({ dest: overrides.dest ?? DEMO_APP.domain, ...(sub === null ? {} : { sub }) })
    .setProtectedHeader({ alg: overrides.alg ?? 'HS256', typ: 'JWT' })
    .setIssuer(`https://${overrides.dest ?? DEMO_APP.domain}`)
    .setAudience(overrides.aud ?? DEMO_APP.clientId)
    .setIssuedAt(now)
    .setNotBefore(overrides.nbf ?? now)
    .setExpirationTime(overrides.exp ?? now + 300)
    .sign(secret(overrides.key ?? DEMO_APP.clientSecret));
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function expectCors(response: ApiResponse): void {
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('cache-control')).toBe('private, no-store');
}

function expectRefused(response: ApiResponse, detail: RegExp): void {
  expectError(response, 401, detail);
  expectCors(response);
}

describe('the app proxy signature', () => {
  it("accepts Shopify's signed query for a guest and for the signed-in customer", async () => {
    expect((await viaProxy(twin.url, 'GET', '/member')).body.meta).toEqual({ logged_in: false, member: false });
    expect((await viaProxy(twin.url, 'GET', '/member', { customerId: '1001' })).body.data.id).toBe('1001');
  });

  it('refuses a wrong signature and a missing one', async () => {
    expectRefused(await viaProxy(twin.url, 'GET', '/member', { customerId: '1001', secret: 'not-the-secret' }), /signature is not valid/);
    const unsigned = proxyQuery({ customerId: '1001' }).replace(/&signature=[0-9a-f]+$/, '');
    expectRefused(await bare(twin.url, 'GET', `/member?${unsigned}`), /signature is missing/);
  });

  it('refuses a query changed after signing (another customer put in)', async () => {
    const signed = proxyQuery({ customerId: '1001' });
    expectRefused(
      await bare(twin.url, 'GET', `/member?${signed.replace('logged_in_customer_id=1001', 'logged_in_customer_id=1002')}`),
      /signature/,
    );
  });

  it('refuses a timestamp 91 s old or 91 s ahead (real time), accepts one 80 s old', async () => {
    expectRefused(await viaProxy(twin.url, 'GET', '/program', { timestamp: nowSeconds() - 91 }), /more than 90 seconds/);
    expectRefused(await viaProxy(twin.url, 'GET', '/program', { timestamp: nowSeconds() + 91 }), /more than 90 seconds/);
    expect((await viaProxy(twin.url, 'GET', '/program', { timestamp: nowSeconds() - 80 })).status).toBe(200);
  });

  it("keeps real time when the twin's clock is moved", async () => {
    const api = apiClient(twin.url);
    await api.put('/_clock', { now: '2031-01-01T00:00:00.000Z' });
    try {
      expect((await viaProxy(twin.url, 'GET', '/program')).status).toBe(200);
      expect((await withToken(twin.url, await token(), 'GET', '/program')).status).toBe(200);
    } finally {
      await api.put('/_clock', { now: null });
    }
  });

  it('refuses a repeated shop, even correctly signed', async () => {
    const response = await viaProxy(twin.url, 'GET', '/member', { customerId: '1001', params: [['shop', OTHER_APP.domain]] });

    expectRefused(response, /name its shop exactly once/);
  });

  it('refuses an unknown shop domain', async () => {
    expectRefused(await viaProxy(twin.url, 'GET', '/program', { shopDomain: 'nobody.myshopify.com' }), /No shop of this service/);
  });

  it("refuses another shop's request signed with this shop's secret", async () => {
    expectRefused(await viaProxy(twin.url, 'GET', '/program', { shopDomain: OTHER_APP.domain }), /signature is not valid/);
    expect(
      (await viaProxy(twin.url, 'GET', '/program', { shopDomain: OTHER_APP.domain, secret: OTHER_APP.clientSecret })).body.data.id,
    ).toBe('other');
  });
});

describe('the customer session token', () => {
  it("accepts the simulator's token, and Shopify's 10 s of leeway on exp and nbf", async () => {
    const minted = await sessionToken(twin.platformUrl, 'demo', '1001');
    expect((await withToken(twin.url, minted, 'GET', '/member')).body.data.id).toBe('1001');
    expect((await withToken(twin.url, await token({ exp: nowSeconds() - 5 }), 'GET', '/member')).status).toBe(200);
    expect((await withToken(twin.url, await token({ nbf: nowSeconds() + 5 }), 'GET', '/member')).status).toBe(200);
  });

  it('reads a token without sub as a guest', async () => {
    const response = await withToken(twin.url, await token({ sub: null }), 'GET', '/member');
    expect(response.body).toEqual({ data: null, meta: { logged_in: false, member: false } });
  });

  it('refuses another algorithm and alg: none', async () => {
    expectRefused(await withToken(twin.url, await token({ alg: 'HS512' }), 'GET', '/member'), /HS256/);
    expectRefused(await withToken(twin.url, await token({ alg: 'HS384' }), 'GET', '/member'), /HS256/);
    const payload = { dest: DEMO_APP.domain, aud: DEMO_APP.clientId, sub: 'gid://shopify/Customer/1001', exp: nowSeconds() + 300 };
    const unsigned = `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(payload)}.`;
    expectRefused(await withToken(twin.url, unsigned, 'GET', '/member'), /session token/);
  });

  it('refuses another audience, another secret and another shop', async () => {
    expectRefused(await withToken(twin.url, await token({ aud: OTHER_APP.clientId }), 'GET', '/member'), /aud/);
    expectRefused(await withToken(twin.url, await token({ key: 'forged-secret' }), 'GET', '/member'), /signature/);
    // Signed by this shop's app for another shop's domain: the other shop's secret does not verify it.
    expectRefused(await withToken(twin.url, await token({ dest: OTHER_APP.domain }), 'GET', '/member'), /signature/);
    expectRefused(await withToken(twin.url, await token({ dest: 'nobody.myshopify.com' }), 'GET', '/member'), /No shop of this service/);
  });

  it('refuses an expired token and one not valid yet, beyond the leeway', async () => {
    expectRefused(await withToken(twin.url, await token({ exp: nowSeconds() - 11 }), 'GET', '/member'), /expired/);
    expectRefused(await withToken(twin.url, await token({ nbf: nowSeconds() + 30 }), 'GET', '/member'), /not valid yet/);
  });

  it("refuses a staff token's numeric sub, and any sub that is not a customer gid", async () => {
    expectRefused(await withToken(twin.url, await token({ sub: '42' }), 'GET', '/member'), /not a customer/);
    expectRefused(await withToken(twin.url, await token({ sub: 'gid://shopify/StaffMember/42' }), 'GET', '/member'), /not a customer/);
  });

  it('refuses no identity at all, and an API key in the Authorization header', async () => {
    expectRefused(await bare(twin.url, 'GET', '/member'), /No shopper identity/);
    expectRefused(await bare(twin.url, 'GET', '/member', { Authorization: 'demo_full_key' }), /Bearer/);
    expectRefused(await withToken(twin.url, 'demo_full_key', 'GET', '/member'), /not a JWT/);
  });
});

describe('a shop with legacy credentials', () => {
  it('is refused on every shopper route, with a detail saying it has no app proxy or extensions', async () => {
    for (const route of SHOPPER_ROUTES) {
      const path = route.path.replace('/shopper', '').replace('{id}', 'five-off');
      const response = await viaProxy(twin.url, route.method, path, {
        shopDomain: 'legacy.myshopify.com',
        customerId: '1001',
        secret: 'anything',
      });
      expectRefused(response, /legacy credentials.*no app proxy or extensions/);
    }
    const legacyToken = await token({ dest: 'legacy.myshopify.com' });
    expectRefused(await withToken(twin.url, legacyToken, 'GET', '/member'), /no app proxy or extensions/);
  });

  it('gets no session token from the simulator', async () => {
    const response = await fetch(`${twin.platformUrl}/_session_tokens`, { method: 'POST', body: JSON.stringify({ shop: 'legacy' }) });
    expect(response.status).toBe(422);
  });
});

describe('the shopper is the verified customer and no one else', () => {
  it('never reads a customer id from the path, the query or the body', async () => {
    const mine = (await viaProxy(twin.url, 'GET', '/member', { customerId: '1001' })).body.data;
    // Extra parameters of the storefront's request are signed with the rest, as the proxy forwards them: a key no
    // route reads is refused before the signature is even checked, so none can name another customer.
    const queried = await viaProxy(twin.url, 'GET', '/member', {
      customerId: '1001',
      params: [
        ['customer_id', '1002'],
        ['customer_identifier', '1002'],
        ['platform_customer_id', '1002'],
      ],
    });
    expectError(queried, 401, "The app proxy request carries a parameter this service does not read: 'customer_id'");
    const tokenQueried = await withToken(twin.url, await token(), 'GET', '/member?customer_id=1002&customer_identifier=1002');
    expect(tokenQueried.body.data).toEqual(mine);
    // A customer id as a path segment is no route.
    expect((await withToken(twin.url, await token(), 'GET', '/member/1002')).status).toBe(404);

    const before = (await apiClient(twin.url, 'demo_read_key').get('/v1/customers/1002')).body.data.attributes.current_points;
    const redeemed = await withToken(twin.url, await token(), 'POST', '/rewards/five-off/redeem', {
      customer_identifier: '1002',
      customer_id: '1002',
    });
    expect(redeemed.status).toBe(201);
    const history = (await apiClient(twin.url, 'demo_read_key').get('/v1/customers/1001/reward-history')).body.data;
    expect(history.map((entry: { id: string }) => entry.id)).toContain(redeemed.body.data.id);
    expect((await apiClient(twin.url, 'demo_read_key').get('/v1/customers/1002')).body.data.attributes.current_points).toBe(before);

    // A guest's join naming a customer in the body is still a guest's.
    const join = await viaProxy(twin.url, 'POST', '/member', { body: { platform_customer_id: '1010' } });
    expectError(join, 401, /Sign in/);
    expect((await apiClient(twin.url, 'demo_read_key').get('/v1/customers/1010')).status).toBe(404);
  });

  it("never shows another shop's member: the same customer id in another shop is that shop's member", async () => {
    const other = await viaProxy(twin.url, 'GET', '/member', {
      shopDomain: OTHER_APP.domain,
      secret: OTHER_APP.clientSecret,
      customerId: '1001',
    });
    expect(other.body.data.attributes.current_points).toBe(5);
  });
});

describe('CORS', () => {
  it('answers OPTIONS on every shopper path with 204 and the headers, without a token', async () => {
    for (const path of new Set(SHOPPER_ROUTES.map((route) => route.path.replace('/shopper', '').replace('{id}', 'five-off')))) {
      const response = await bare(twin.url, 'OPTIONS', path, {
        Origin: 'https://demo.myshopify.com',
        'Access-Control-Request-Method': 'POST',
      });
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, OPTIONS');
      expect(response.headers.get('access-control-allow-headers')).toBe('Authorization, Content-Type, Idempotency-Key');
    }
  });

  it('carries the headers on answers and refusals of every kind', async () => {
    expectCors(await viaProxy(twin.url, 'GET', '/program'));
    expectCors(await withToken(twin.url, await token(), 'GET', '/member'));
    expectCors(await withToken(twin.url, await token(), 'POST', '/rewards/no-such-reward/redeem', {}));
    expectCors(await withToken(twin.url, await token(), 'POST', '/rewards/five-off/redeem', 'not json'));
    const wrongMethod = await withToken(twin.url, await token(), 'PUT', '/member', {});
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.get('access-control-allow-origin')).toBe('*');
  });
});
