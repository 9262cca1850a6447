// A twin shop whose platform config carries a Dev Dashboard app's client_id and client_secret: the simulator
// grants tokens for that pair only, asks for one on every Admin API call, keeps it valid however the twin's
// clock moves, and signs the shop's webhooks with the client secret, which the twin accepts.
import { createHmac } from 'node:crypto';
import type { Twin } from '../../infra/local/twin';
import { SHOPIFY_API_VERSION } from '../../shared/platform/shopify-api-version';
import { shopConfig } from '../fixtures/shop-config';
import { apiClient, startTestTwin } from '../support/twin';

jest.setTimeout(60_000);

const PAIR = { grant_type: 'client_credentials', client_id: 'dev-app-client-id', client_secret: 'dev-app-client-secret' };
const INVALID_TOKEN = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
const customers = [{ id: '5001', email: 'lin@example.com', first_name: 'Lin', last_name: 'Wu' }];
const config = {
  shops: [
    shopConfig(
      'dev-app',
      'dev_app_full_key_01',
      { platform: { customers, client_id: PAIR.client_id, client_secret: PAIR.client_secret } },
      ['5001'],
    ),
    shopConfig('legacy-app', 'legacy_app_full_key', {}, ['5001']),
  ],
};

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw JSON answers
type Json = any;

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
  post(`${twin.platformUrl}/dev-app/admin/oauth/access_token`, new URLSearchParams(fields).toString(), {
    'Content-Type': 'application/x-www-form-urlencoded',
  });

const customerQuery = (shop: string, token: string | null) =>
  post(
    `${twin.platformUrl}/${shop}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    JSON.stringify({ query: '{ customer(id: "gid://shopify/Customer/5001") { firstName } }' }),
    { 'Content-Type': 'application/json', ...(token !== null ? { 'X-Shopify-Access-Token': token } : {}) },
  );

it("grants tokens for the shop's configured pair only, and the Admin API asks for one", async () => {
  const granted = await grant(PAIR);
  const wrong = await grant({ ...PAIR, client_secret: 'dev-app-webhook-secret' });

  expect(granted.status).toBe(200);
  expect(wrong).toEqual({ status: 400, body: { error: 'invalid_client', error_description: expect.any(String) } });
  expect(await customerQuery('dev-app', 'local-simulator-token')).toEqual({ status: 401, body: INVALID_TOKEN });
  expect(await customerQuery('dev-app', granted.body.access_token)).toMatchObject({
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

    expect((await customerQuery('dev-app', body.access_token)).status).toBe(200);
  } finally {
    await api.put('/_clock', { now: null });
  }
});

it("signs the shop's webhooks with the client secret, which the twin accepts", async () => {
  const payload = {
    shop_id: 1,
    shop_domain: 'dev-app.myshopify.com',
    customer: { id: 5001, email: 'lin@example.com', phone: null },
    orders_requested: [],
    data_request: { id: 77 },
  };

  const sent = await post(
    `${twin.platformUrl}/_webhooks/send`,
    JSON.stringify({ shop: 'dev-app', topic: 'customers/data_request', payload }),
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
