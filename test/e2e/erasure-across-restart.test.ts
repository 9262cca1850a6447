// A member erased by customers/redact stays erased when the twin starts again on the same table and applies
// its configuration file, which still lists them (as `npm start -- --persist` does); the others are kept.
import { shopConfig } from '../fixtures/shop-config';
import { apiClient, startTestTwin, type TestTwin } from '../support/twin';

jest.setTimeout(120_000);

const KEY = 'restart_full_key_01';
const config = { shops: [shopConfig('restart', KEY, {}, ['8001', '8002'])] };

let twin: TestTwin | undefined;
afterAll(async () => {
  await twin?.stop();
});

it('keeps an erased member out of the table when the twin applies its file again', async () => {
  twin = await startTestTwin(config);
  const tableName = twin.tableName;
  expect((await apiClient(twin.url, KEY).get('/v1/customers/8001')).status).toBe(200);
  const delivered = await fetch(`${twin.platformUrl}/_webhooks/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      shop: 'restart',
      topic: 'customers/redact',
      payload: { shop_id: 1, shop_domain: 'restart.myshopify.com', customer: { id: 8001, email: 'c8001@example.com', phone: null } },
    }),
  });
  expect(((await delivered.json()) as { webhook: { status: number } }).webhook.status).toBe(200);
  await twin.stop({ keepTable: true });

  twin = await startTestTwin(config, { tableName });
  const api = apiClient(twin.url, KEY);

  expect((await api.get('/v1/customers/8001')).status).toBe(404);
  expect((await api.get('/v1/customers/8002')).status).toBe(200);
  expect((await api.get('/v1/customers')).body.meta.total).toBe(1);
});
