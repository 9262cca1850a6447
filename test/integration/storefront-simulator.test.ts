// The platform simulator's storefront over HTTP: sign-in and sign-out, the theme pages, the CDN's
// assets, and the app proxy as Shopify plays it (cookies dropped, Shopify's parameters added and
// signed with the app's secret, method, body and Idempotency-Key forwarded, the answer passed back
// without Set-Cookie), checked against a stand-in for the API that records what reached it.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { appProxyQueryPairs } from '../../shared/platform/app-proxy-signature';
import { hasValidAppProxySignature } from '../support/app-proxy-signature';

const SECRET = 'shop-app-secret';
const customers = [
  { id: '1001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: null },
  { id: '1002', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', created_at: null },
];

interface Received {
  method: string;
  path: string;
  query: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe("the platform simulator's storefront", () => {
  let simulator: PlatformSimulator;
  let api: Server;
  const received: Received[] = [];
  const now = 1_800_000_000_000;

  beforeAll(async () => {
    api = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const url = new URL(req.url ?? '/', 'http://x');
        received.push({ method: req.method ?? '', path: url.pathname, query: url.search.slice(1), headers: req.headers, body });
        res.writeHead(req.method === 'POST' ? 201 : 200, {
          'Content-Type': 'application/json',
          'Cache-Control': 'private, no-store',
          'Set-Cookie': 'tracking=1',
          'X-Internal': 'secret',
        });
        res.end(JSON.stringify({ data: { echoed: url.pathname } }));
      });
    });
    await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
    simulator = await startPlatformSimulator({
      shops: {
        ada: { customers, name: 'Ada & Co', client_id: 'ada-client', client_secret: SECRET },
        legacy: { customers, name: 'Legacy' },
      },
      realNow: () => now,
    });
    simulator.setAppProxyUrl(`http://127.0.0.1:${(api.address() as AddressInfo).port}/shopper`);
  });
  afterAll(async () => {
    await simulator.stop();
    await new Promise((resolve) => api.close(resolve));
  });
  beforeEach(() => (received.length = 0));

  const at = (path: string, init: RequestInit = {}) => fetch(`${simulator.url}${path}`, { redirect: 'manual', ...init });
  const signIn = async (shop: string, id: string) => {
    const response = await at(`/storefront/${shop}/account/login?customer_id=${id}`);
    expect(response.status).toBe(303);
    return response.headers.get('set-cookie')!.split(';')[0]!;
  };

  it('signs a platform customer in with a cookie of the storefront, and out again', async () => {
    const login = await at('/storefront/ada/account/login?customer_id=1001');
    const cookie = login.headers.get('set-cookie')!;
    expect(login.headers.get('location')).toBe('/storefront/ada/');
    // The storefront's cookie, and the same for the shop's customer account pages (signed in there too).
    expect(login.headers.getSetCookie()).toEqual([
      'storefront_customer=1001; Path=/storefront/ada; HttpOnly; SameSite=Lax',
      'storefront_customer=1001; Path=/account/ada; HttpOnly; SameSite=Lax',
    ]);

    const signedIn = await (await at('/storefront/ada/', { headers: { cookie: cookie.split(';')[0]! } })).text();
    expect(signedIn).toContain('Signed in as Ada Lovelace');
    expect(signedIn).toContain('<title>Home · Ada &amp; Co</title>');

    const logout = await at('/storefront/ada/account/logout');
    expect(logout.status).toBe(303);
    expect(logout.headers.getSetCookie()).toEqual([
      expect.stringMatching(/^storefront_customer=; Path=\/storefront\/ada;.*Max-Age=0/),
      expect.stringMatching(/^storefront_customer=; Path=\/account\/ada;.*Max-Age=0/),
    ]);

    const unknown = await at('/storefront/ada/account/login?customer_id=9999');
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('set-cookie')).toBeNull();
    expect(await unknown.text()).toContain('The shop has no customer 9999.');
    const form = await (await at('/storefront/ada/account/login')).text();
    expect(form).toContain('<option value="1002">Grace Hopper');
    // Only a path inside the storefront is a place to return to.
    expect(
      (await at('/storefront/ada/account/login?customer_id=1001&return_to=/storefront/ada/products/canvas-tote')).headers.get('location'),
    ).toBe('/storefront/ada/products/canvas-tote');
    expect((await at('/storefront/ada/account/login?customer_id=1001&return_to=https://evil.example/')).headers.get('location')).toBe(
      '/storefront/ada/',
    );
  });

  it('serves the theme pages with the app, or without it, and 404s for what it lacks', async () => {
    const withApp = await (await at('/storefront/ada/')).text();
    const withoutApp = await (await at('/storefront/ada/?apps=off')).text();
    expect(withApp).toContain('id="loyalty-embed"');
    expect(withoutApp).not.toMatch(/loyalty-embed|loy-|\/cdn\//);
    // The block is rendered with the variant's price; its figure is this shopper's, filled in the browser (docs/storefront.md).
    expect(await (await at('/storefront/ada/products/merino-scarf')).text()).toMatch(/data-loyalty-product data-price="8900"/);
    expect((await at('/storefront/ada/products/nothing')).status).toBe(404);
    expect((await at('/storefront/ada/nowhere')).status).toBe(404);
    expect((await at('/storefront/nobody/')).status).toBe(404);
    expect((await at('/storefront/ada/', { method: 'POST' })).status).toBe(405);
  });

  it("serves the extension's assets as a CDN: versioned, cached for a year, gzip when accepted", async () => {
    const page = await (await at('/storefront/ada/')).text();
    const script = /data-script="([^"]+)"/.exec(page)![1]!;
    const plain = await at(script, { headers: { 'accept-encoding': 'identity' } });
    const packed = await at(script, { headers: { 'accept-encoding': 'gzip' } });

    expect(plain.status).toBe(200);
    expect(plain.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(plain.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(packed.headers.get('content-encoding')).toBe('gzip');
    expect(Number(packed.headers.get('content-length'))).toBeLessThan(Number(plain.headers.get('content-length')));
    expect(await packed.text()).toBe(await plain.text());
    expect((await at(script.replace(/\/[0-9a-f]{12}\//, '/000000000000/'))).status).toBe(404);
    expect((await at(script.replace('loyalty-launcher.js', 'other.js'))).status).toBe(404);
  });

  it("forwards the app proxy to /shopper signed for the signed-in customer, without the shopper's cookies", async () => {
    const cookie = await signIn('ada', '1002');
    const answer = await at('/storefront/ada/apps/loyalty/rewards/five-off/redeem?page%5Bsize%5D=5', {
      method: 'POST',
      headers: {
        cookie: `${cookie}; _shopify_y=abc`,
        'content-type': 'application/json',
        'idempotency-key': 'key-1',
        'x-other': 'dropped',
      },
      body: '{"points":100}',
    });

    expect(answer.status).toBe(201);
    expect(await answer.json()).toEqual({ data: { echoed: '/shopper/rewards/five-off/redeem' } });
    expect(answer.headers.get('cache-control')).toBe('private, no-store');
    expect(answer.headers.get('set-cookie')).toBeNull();
    expect(answer.headers.get('x-internal')).toBeNull();
    const [request] = received;
    expect(request).toMatchObject({ method: 'POST', path: '/shopper/rewards/five-off/redeem', body: '{"points":100}' });
    expect(request!.headers).toMatchObject({ 'content-type': 'application/json', 'idempotency-key': 'key-1' });
    expect(request!.headers.cookie).toBeUndefined();
    expect(request!.headers['x-other']).toBeUndefined();
    expect(hasValidAppProxySignature(request!.query, SECRET)).toBe(true);
    expect(hasValidAppProxySignature(request!.query, 'another-secret')).toBe(false);
    expect(Object.fromEntries(appProxyQueryPairs(request!.query))).toEqual({
      'page[size]': '5',
      shop: 'ada.myshopify.com',
      logged_in_customer_id: '1002',
      path_prefix: '/apps/loyalty',
      timestamp: String(now / 1000),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
    });
  });

  it('forwards a guest with an empty logged_in_customer_id, and a shop without an app unsigned', async () => {
    await at('/storefront/ada/apps/loyalty/program');
    await at('/storefront/legacy/apps/loyalty/program', { headers: { cookie: await signIn('legacy', '1001') } });

    const [guest, legacy] = received;
    expect(hasValidAppProxySignature(guest!.query, SECRET)).toBe(true);
    expect(Object.fromEntries(appProxyQueryPairs(guest!.query)).logged_in_customer_id).toBe('');
    expect(appProxyQueryPairs(legacy!.query).map(([key]) => key)).toEqual(['shop', 'logged_in_customer_id', 'path_prefix', 'timestamp']);
  });

  it('answers 502 while no API is connected', async () => {
    simulator.setAppProxyUrl(null);
    try {
      expect((await at('/storefront/ada/apps/loyalty/program')).status).toBe(502);
    } finally {
      simulator.setAppProxyUrl(`http://127.0.0.1:${(api.address() as AddressInfo).port}/shopper`);
    }
  });
});
