// A twin shop whose platform config carries a Dev Dashboard app's client_id and client_secret (the example
// shop of docs/local-twin.md): the simulator grants tokens for that pair only, asks for one on every Admin
// API call, keeps it valid however the twin's clock moves, and signs the shop's webhooks with the client
// secret, which the twin accepts. The page's commands for such a shop run here as written.
import { execFile } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Twin } from '../../infra/local/twin';
import { SHOPIFY_API_VERSION } from '../../shared/platform/shopify-api-version';
import { shopConfig } from '../fixtures/shop-config';
import { ROOT } from '../support/twin-process';
import { apiClient, startTestTwin } from '../support/twin';

jest.setTimeout(60_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw JSON answers
type Json = any;

/** The page's section on shops with client credentials: its example shop and its shell commands. */
function documentedSection(): { shop: Json; commands: string[] } {
  const page = readFileSync(join(ROOT, 'docs', 'local-twin.md'), 'utf8');
  const section = page.slice(page.indexOf('### Shops with client credentials'));
  const shop = JSON.parse(/^```jsonc\n([\s\S]*?)^```/m.exec(section)![1]!) as Json;
  const block = /^```sh\n([\s\S]*?)^```/m.exec(section)![1]!;
  const commands = block
    .replace(/\\\n\s*/g, ' ')
    .split('\n')
    .map((line) => line.replace(/\s#\s.*$/, '').trim())
    .filter((line) => line !== '');
  return { shop, commands };
}

const documented = documentedSection();
const PAIR = {
  grant_type: 'client_credentials',
  client_id: documented.shop.platform.client_id as string,
  client_secret: documented.shop.platform.client_secret as string,
};
const INVALID_TOKEN = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
const customers = [{ id: '5001', email: 'lin@example.com', first_name: 'Lin', last_name: 'Wu' }];
const config = {
  shops: [
    { ...documented.shop, platform: { ...documented.shop.platform, customers } },
    shopConfig('legacy-app', 'legacy_app_full_key', {}, ['5001']),
  ],
};

let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin(config, { throttling: false });
});
afterAll(async () => {
  await twin.stop();
});

async function post(url: string, body: string, headers: Record<string, string>): Promise<{ status: number; body: Json }> {
  const response = await fetch(url, { method: 'POST', headers, body });
  return { status: response.status, body: await response.json() };
}

const grant = (fields: Record<string, string>) =>
  post(`${twin.platformUrl}/my-shop/admin/oauth/access_token`, new URLSearchParams(fields).toString(), {
    'Content-Type': 'application/x-www-form-urlencoded',
  });

const customerQuery = (shop: string, token: string | null) =>
  post(
    `${twin.platformUrl}/${shop}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    JSON.stringify({ query: '{ customer(id: "gid://shopify/Customer/5001") { firstName } }' }),
    { 'Content-Type': 'application/json', ...(token !== null ? { 'X-Shopify-Access-Token': token } : {}) },
  );

function sh(command: string): Promise<{ code: number; stdout: string }> {
  return new Promise((resolve) => {
    execFile('sh', ['-c', command], { cwd: ROOT }, (error, stdout) => resolve({ code: error ? 1 : 0, stdout }));
  });
}

it("grants tokens for the shop's configured pair only, and the Admin API asks for one", async () => {
  const granted = await grant(PAIR);
  const wrong = await grant({ ...PAIR, client_secret: 'my-shop-webhook-secret' });

  expect(granted.status).toBe(200);
  expect(wrong).toEqual({ status: 400, body: { error: 'invalid_client', error_description: expect.any(String) } });
  expect(await customerQuery('my-shop', 'local-simulator-token')).toEqual({ status: 401, body: INVALID_TOKEN });
  expect(await customerQuery('my-shop', granted.body.access_token)).toMatchObject({
    status: 200,
    body: { data: { customer: { firstName: 'Lin' } } },
  });
  // A shop without client credentials keeps taking the twin's fixed token.
  expect((await customerQuery('legacy-app', 'local-simulator-token')).status).toBe(200);
});

it("keeps a token valid when the twin's clock moves past its lifetime", async () => {
  const { body } = await grant(PAIR);
  const api = apiClient(twin.url);

  try {
    expect((await api.put('/_clock', { now: '2099-01-01T00:00:00.000Z' })).status).toBe(200);

    expect((await customerQuery('my-shop', body.access_token)).status).toBe(200);
  } finally {
    await api.put('/_clock', { now: null });
  }
});

it("signs the shop's webhooks with the client secret, which the twin accepts", async () => {
  const payload = {
    shop_id: 1,
    shop_domain: 'my-shop.myshopify.com',
    customer: { id: 5001, email: 'lin@example.com', phone: null },
    orders_requested: [],
    data_request: { id: 77 },
  };

  const sent = await post(
    `${twin.platformUrl}/_webhooks/send`,
    JSON.stringify({ shop: 'my-shop', topic: 'customers/data_request', payload }),
    {
      'Content-Type': 'application/json',
    },
  );
  const delivery = twin.simulator.webhooks().find((entry) => entry.id === sent.body.webhook.id)!;

  expect(sent).toEqual({ status: 200, body: { webhook: { id: expect.any(String), status: 200 } } });
  expect(delivery.headers['X-Shopify-Hmac-Sha256']).toBe(
    createHmac('sha256', PAIR.client_secret).update(delivery.body, 'utf8').digest('base64'),
  );
});

it("answers the page's commands as it says: a token, the new lifetime, every token expired", async () => {
  const [grantCommand, lifetimeCommand, expireCommand] = documented.commands.map((command) =>
    command.replaceAll('http://127.0.0.1:4001', twin.platformUrl),
  );

  const granted = await sh(grantCommand!);
  const lifetime = await sh(lifetimeCommand!);
  const later = await sh(grantCommand!);
  const expired = await sh(expireCommand!);

  expect(documented.commands).toHaveLength(3);
  expect(JSON.parse(granted.stdout)).toEqual({ access_token: expect.any(String), scope: expect.any(String), expires_in: 86399 });
  expect(JSON.parse(lifetime.stdout)).toMatchObject({ token_lifetime_seconds: 60 });
  expect(JSON.parse(later.stdout).expires_in).toBe(60);
  const { tokens } = JSON.parse(expired.stdout) as Json;
  expect(tokens.length).toBeGreaterThanOrEqual(3);
  expect(tokens.every((token: Json) => token.shop === 'my-shop' && Date.parse(token.expires_at) <= Date.now())).toBe(true);
  expect((await customerQuery('my-shop', JSON.parse(granted.stdout).access_token)).status).toBe(401);
  expect([granted.code, lifetime.code, later.code, expired.code]).toEqual([0, 0, 0, 0]);
});
