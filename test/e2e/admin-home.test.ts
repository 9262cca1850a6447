// GET /admin through HTTP on the twin (SURFACES-CONTRACT.md, "Staff routes"): the app's home for a valid ID
// token, framed only by the verified shop's admin and admin.shopify.com (plus the twin's admin); App Bridge's
// bounce without a token, with a forged or expired one and with another shop's; never the program's data.
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { SignJWT } from 'jose';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { DEMO_APP } from '../support/shopper';
import { startTestTwin } from '../support/twin';
import { mintIdToken } from '../../infra/local/simulator/shopify-tokens';

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
    shop('legacy', { shop_domain: 'legacy.myshopify.com' }),
  );
  twin = await startTestTwin(demo, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

const HOST = Buffer.from('admin.shopify.com/store/demo').toString('base64').replace(/=+$/, '');
const staffToken = (app = DEMO_APP, nowMs = Date.now()) =>
  mintIdToken({ clientId: app.clientId, clientSecret: app.clientSecret }, app.domain, '42', nowMs);
const open = (query: Record<string, string>) => fetch(`${twin.url}/admin?${new URLSearchParams(query).toString()}`, { redirect: 'manual' });
const twinAdminOrigin = () => new URL(twin.platformUrl).origin;

describe('GET /admin with a valid ID token', () => {
  it("answers the app's page with the verified shop's frame-ancestors and App Bridge loaded first", async () => {
    const response = await open({ shop: DEMO_APP.domain, host: HOST, embedded: '1', id_token: await staffToken() });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(response.headers.get('content-security-policy')).toBe(
      `frame-ancestors https://${DEMO_APP.domain} https://admin.shopify.com ${twinAdminOrigin()};`,
    );
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const html = await response.text();
    expect(html).toContain(`<meta name="shopify-api-key" content="${DEMO_APP.clientId}">`);
    // App Bridge is the first script, neither async nor deferred; in the twin it is the simulator's stand-in.
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((match) => match[1]!);
    expect(scripts[0]).toBe(` src="${twin.platformUrl}/cdn/shopifycloud/app-bridge.js"`);
    expect(html).toContain('<div id="app"></div>');
  });

  it("names the token's shop in the policy, whatever the shop parameter says", async () => {
    const response = await open({ shop: DEMO_APP.domain, embedded: '1', id_token: await staffToken(OTHER_APP) });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(
      `frame-ancestors https://${OTHER_APP.domain} https://admin.shopify.com ${twinAdminOrigin()};`,
    );
    expect(await response.text()).toContain(`content="${OTHER_APP.clientId}"`);
  });
});

describe('GET /admin without a valid ID token: the bounce', () => {
  const forged = async () => {
    const now = Math.floor(Date.now() / 1000);
    return new SignJWT({ dest: `https://${DEMO_APP.domain}`, sid: 's', jti: 'j' })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(`https://${DEMO_APP.domain}/admin`)
      .setAudience(DEMO_APP.clientId)
      .setSubject('42')
      .setIssuedAt(now)
      .setNotBefore(now)
      .setExpirationTime(now + 60)
      .sign(new TextEncoder().encode('not-the-shops-secret'));
  };
  const cases: Array<[string, () => Promise<Record<string, string>>]> = [
    ['no token', async () => ({})],
    ['a forged token', async () => ({ id_token: await forged() })],
    ['an expired token', async () => ({ id_token: await staffToken(DEMO_APP, Date.now() - 10 * 60_000) })],
    ['a token that is no JWT', async () => ({ id_token: 'not-a-token' })],
  ];

  it.each(cases)('with %s: redirects to the same page with shopify-reload, the token left out', async (_name, extra) => {
    const response = await open({ shop: DEMO_APP.domain, host: HOST, embedded: '1', ...(await extra()) });

    expect(response.status).toBe(302);
    // Relative to the API's own address: no Host or X-Forwarded-Proto a caller sent is echoed.
    expect(response.headers.get('location')).toMatch(/^\/admin\?/);
    const location = new URL(response.headers.get('location')!, twin.url);
    expect(location.searchParams.get('id_token')).toBeNull();
    expect(location.searchParams.get('shopify-reload')).toMatch(/^\/admin\?/);
    const reload = new URL(location.searchParams.get('shopify-reload')!, twin.url);
    expect(Object.fromEntries(reload.searchParams)).toEqual({ shop: DEMO_APP.domain, host: HOST, embedded: '1' });
    expect(await response.text()).toBe('');
  });

  it("never names a host the caller sent in the redirect (Host and X-Forwarded-Proto are the caller's to set)", async () => {
    const location = await new Promise<string | undefined>((resolve, reject) => {
      const request = httpRequest(
        `${twin.url}/admin?shop=${DEMO_APP.domain}&embedded=1`,
        { headers: { Host: 'evil.example', 'X-Forwarded-Proto': 'https', 'X-Forwarded-Host': 'evil.example' } },
        (response) => {
          response.resume();
          resolve(response.statusCode === 302 ? response.headers.location : `status ${response.statusCode}`);
        },
      );
      request.on('error', reject);
      request.end();
    });

    expect(location).toMatch(/^\/admin\?/);
    expect(location).not.toMatch(/evil|https?:/);
  });

  it.each(cases)('with %s and shopify-reload: answers the bounce page (App Bridge alone), never data', async (_name, extra) => {
    const reload = `${twin.url}/admin?shop=${DEMO_APP.domain}&embedded=1`;
    const response = await open({ shop: DEMO_APP.domain, embedded: '1', 'shopify-reload': reload, ...(await extra()) });

    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(
      `frame-ancestors https://${DEMO_APP.domain} https://admin.shopify.com ${twinAdminOrigin()};`,
    );
    const html = await response.text();
    expect(html).toContain(`<meta name="shopify-api-key" content="${DEMO_APP.clientId}">`);
    expect(html).toContain(`<script src="${twin.platformUrl}/cdn/shopifycloud/app-bridge.js"></script>`);
    expect([...html.matchAll(/<script/g)]).toHaveLength(1);
    expect(html).not.toContain('id="app"');
  });

  it('refuses with 401 in the envelope when no shop of this service can be named', async () => {
    for (const query of [
      {} as Record<string, string>,
      { shop: 'nobody.myshopify.com' },
      { shop: 'legacy.myshopify.com' },
      { shop: 'https://evil.example' },
    ]) {
      const response = await open(query);
      expect(response.status).toBe(401);
      expect(response.headers.get('content-type')).toBe('application/json');
      const body = (await response.json()) as { errors: Array<{ detail: string }> };
      expect(body.errors[0]!.detail).toMatch(/id_token|shop|legacy/);
    }
  });

  it('answers 405 to another method', async () => {
    const response = await fetch(`${twin.url}/admin`, { method: 'POST' });
    expect(response.status).toBe(405);
  });
});
