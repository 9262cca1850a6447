// A store connected through a Dev Dashboard app, end to end on the twin (SHOPIFY-CONTRACT.md, "Credentials
// and access tokens" and "Access the store has not granted"): the API asks the simulator's OAuth endpoint
// for a token when a call first needs one, shares it, renews it once after it expired, never stampedes,
// reports a wrong client secret and access the store has not granted as an operator's 503, and a shop
// whose app was uninstalled asks for no token at all.
import type { Twin } from '../../infra/local/twin';
import { logger } from '../../shared/observability/powertools';
import { resetPlatforms } from '../../shared/platform/platform-for-shop';
import { registerLocalShopSecrets } from '../../shared/platform/shop-secrets';
import { platformControls, postWebhook, signedHeaders } from '../support/orders';
import { apiClient, expectError, startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

const KEY = 'tokens_full_key_01';
const CLIENT_ID = 'dev-dashboard-client-id';
const CLIENT_SECRET = 'shpss_dev_dashboard_client_secret';
const customers = Array.from({ length: 60 }, (_, i) => ({ id: String(7001 + i), email: `t${7001 + i}@example.com` }));
const platform = { shop_domain: 'tokens.myshopify.com', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, customers };
const shop = {
  id: 'tokens',
  name: 'Tokens',
  currency: 'USD',
  referral_base_url: 'https://tokens.example/',
  api_keys: [{ name: 'Full', scope: 'full', key: KEY }],
  earning_rules: [{ id: 'order', name: 'Order', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 }],
  rewards: [{ id: 'five-off', name: '$5 off', points_cost: 10, discount_amount: 5 }],
  platform,
  members: [{ platform_customer_id: '7060', current_points: 500, enrolled_at: '2026-01-01T00:00:00.000Z' }],
};
const config = { shops: [shop] };

let twin: Twin;
const api = () => apiClient(twin.url, KEY);

async function simulator(method: string, path: string, body?: unknown) {
  const response = await fetch(`${twin.platformUrl}${path}`, {
    method,
    ...(body !== undefined ? { headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as Record<string, unknown>;
}
const grants = async () => ((await simulator('GET', '/_oauth/tokens')).tokens as unknown[]).length;
const expireTokens = () => simulator('DELETE', '/_oauth/tokens');
const faults = (modes: Record<string, unknown>) => simulator('PUT', '/_faults', modes);

beforeAll(async () => {
  // 50 requests at once on a loaded machine: the platform's answers may take longer than the test twin's 1 s.
  twin = await startTestTwin(config, { throttling: false, environment: { PLATFORM_TIMEOUT_MS: '5000' } });
});
afterAll(async () => {
  await twin?.stop();
});
afterEach(async () => {
  await faults({ customers: 'ok', discount_codes: 'ok', orders: 'ok' });
  jest.restoreAllMocks();
});

describe('tokens from the client credentials grant', () => {
  it('asks for none at start-up, then one for two enrolments', async () => {
    expect(await grants()).toBe(0);

    expect((await api().post('/v1/customers', { platform_customer_id: '7001' })).status).toBe(201);
    expect((await api().post('/v1/customers', { platform_customer_id: '7002' })).status).toBe(201);

    expect(await grants()).toBe(1);
  });

  it('renews an expired token once and the call succeeds', async () => {
    const before = await grants();
    await expireTokens();

    expect((await api().post('/v1/customers', { platform_customer_id: '7003' })).status).toBe(201);
    expect((await api().post('/v1/customers', { platform_customer_id: '7004' })).status).toBe(201);

    expect(await grants()).toBe(before + 1);
  });

  it('50 concurrent calls that find the token expired ask for one new token between them', async () => {
    const before = await grants();
    await expireTokens();
    // What the functions log as unhandled, so a failure here says why.
    const unhandled: string[] = [];
    jest.spyOn(logger, 'error').mockImplementation((...args: unknown[]) => {
      const [, details] = args as [string, { error?: Error }];
      unhandled.push(String(details?.error?.stack ?? JSON.stringify(args)).slice(0, 600));
    });

    const answers = await Promise.all(
      customers.slice(4, 54).map((customer) => api().post('/v1/customers', { platform_customer_id: customer.id })),
    );

    expect({ failed: answers.filter((answer) => answer.status !== 201).length, unhandled: unhandled.slice(0, 2) }).toEqual({
      failed: 0,
      unhandled: [],
    });
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 201));
    expect(await grants()).toBe(before + 1);
  });
});

describe('refusals an operator must fix', () => {
  it('a wrong client secret answers 503 saying the credentials were refused, logs at ERROR, and never shows the secret', async () => {
    const errors: string[] = [];
    jest.spyOn(logger, 'error').mockImplementation((...args: unknown[]) => void errors.push(JSON.stringify(args)));
    // What a typo in the shop's secret does: the functions hold another secret than the app's.
    registerLocalShopSecrets({ tokens: { client_id: CLIENT_ID, client_secret: 'shpss_typo', webhook_secret: CLIENT_SECRET } });
    resetPlatforms();
    try {
      const answer = await api().post('/v1/customers', { platform_customer_id: '7057' });

      expectError(answer, 503, /credentials were refused/);
      expect(JSON.stringify(answer.body)).not.toContain('shpss_');
      expect(errors.join('\n')).toMatch(/refused the client credentials.*tokens.*invalid_client/);
      expect(errors.join('\n')).not.toContain('shpss_');
    } finally {
      registerLocalShopSecrets({ tokens: { client_id: CLIENT_ID, client_secret: CLIENT_SECRET, webhook_secret: CLIENT_SECRET } });
      resetPlatforms();
    }
    expect((await api().post('/v1/customers', { platform_customer_id: '7057' })).status).toBe(201);
  });

  it('protected customer data not granted: enrolment answers 503 naming it', async () => {
    await faults({ customers: 'access_denied' });

    expectError(
      await api().post('/v1/customers', { platform_customer_id: '7058' }),
      503,
      /protected customer data \(the Customer object\)/,
    );
  });

  it('discount scopes not granted: a purchase answers 503 naming the scope, and the points stay', async () => {
    await faults({ discount_codes: 'access_denied' });

    expectError(await api().post('/v1/rewards/five-off/purchase', { customer_identifier: '7060' }), 503, /`write_discounts` access scope/);
    expect((await api().get('/v1/customers/7060')).body.data.attributes.current_points).toBe(500);
  });

  it('read_orders not granted: order reconciliation reports the shop failed and keeps its watermark', async () => {
    const errors: string[] = [];
    jest.spyOn(logger, 'error').mockImplementation((...args: unknown[]) => void errors.push(JSON.stringify(args)));
    await faults({ orders: 'access_denied' });

    const run = (await (await fetch(`${twin.url}/_jobs/run`, { method: 'POST' })).json()) as Record<string, Record<string, number>>;

    expect(run.order_reconciliation).toMatchObject({ shops: 1, failed: 1 });
    expect(errors.join('\n')).toMatch(/`read_orders` access scope/);
  });
});

describe('an uninstalled app', () => {
  it('asks for no token: jobs pass the shop by and platform work answers 503', async () => {
    await platformControls(twin).order({ shop: 'tokens', customer_id: '7001', subtotal_price: '10.00', deliver: false });
    const body = JSON.stringify({ id: 1, myshopify_domain: 'tokens.myshopify.com' });
    const delivered = await postWebhook(twin, body, {
      ...signedHeaders(body, CLIENT_SECRET, 'tokens.myshopify.com', 'app/uninstalled'),
      'X-Shopify-Event-Id': 'evt-uninstall',
    });
    expect(delivered.status).toBe(200);
    await expireTokens();
    const before = await grants();

    const run = (await (await fetch(`${twin.url}/_jobs/run`, { method: 'POST' })).json()) as Record<string, Record<string, number>>;
    expectError(await api().post('/v1/customers', { platform_customer_id: '7059' }), 503, /uninstalled/);

    expect(run.order_reconciliation).toMatchObject({ disconnected: 1, failed: 0 });
    expect(await grants()).toBe(before);
  });
});
