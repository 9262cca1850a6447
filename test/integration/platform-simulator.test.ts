// The platform simulator over HTTP: the Admin GraphQL subset the adapter uses, validated against the SDL,
// fault modes, and the order controls with their signed, redeliverable webhooks.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { orderFromWebhook } from '../../shared/platform/order-from-webhook';
import { refundFromWebhook } from '../../shared/platform/refund-from-webhook';
import { PlatformError, PlatformUnavailableError, type DiscountCodeInput, type Platform } from '../../shared/platform/port';
import { createShopifyPlatform } from '../../shared/platform/shopify';
import { createShopifyTransport } from '../../shared/platform/shopify-transport';
import { discountCodeInput } from '../fixtures/discount-code-input';
import { eventually } from '../support/twin-process';

let simulator: PlatformSimulator;

function adapterFor(shopId: string, accessToken = 'local-token'): Platform {
  return createShopifyPlatform({
    endpoint: simulator.graphqlEndpoint(shopId),
    accessToken,
    timeoutMs: 2000,
    baseDelayMs: 1,
  });
}

function codeInput(code: string, overrides: Partial<DiscountCodeInput> = {}): DiscountCodeInput {
  return discountCodeInput({ code, endsAt: '2025-07-01T00:00:00.000Z', ...overrides });
}

async function putFaults(body: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${simulator.url}/_faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function listedCodes(): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${simulator.url}/_discount_codes`);
  const body = (await response.json()) as { discount_codes: Array<Record<string, unknown>> };
  return body.discount_codes;
}

async function failure(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

beforeAll(async () => {
  simulator = await startPlatformSimulator({
    port: 0,
    shops: {
      demo: {
        customers: [
          { id: '1001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: '2024-03-01T10:00:00.000Z' },
          { id: '1002', email: '', first_name: '', last_name: '', created_at: null },
        ],
      },
      other: { customers: [] },
    },
  });
});

afterAll(async () => {
  await simulator.stop();
});

const CALM = {
  customers: 'ok',
  discount_codes: 'ok',
  orders: 'ok',
  store_credit: 'ok',
  klaviyo: 'ok',
  token_lifetime_seconds: 86399,
  bus: 'ok',
} as const;

afterEach(() => {
  simulator.setFaults(CALM);
});

describe('platform simulator: customers', () => {
  it('serves a seeded customer to the Shopify adapter', async () => {
    const customer = await adapterFor('demo').getCustomer('1001');

    expect(customer).toEqual({
      id: '1001',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      createdAt: '2024-03-01T10:00:00.000Z',
    });
  });

  it('answers null for a customer the shop does not have, even one another shop has', async () => {
    const unknown = await adapterFor('demo').getCustomer('9999');
    const elsewhere = await adapterFor('other').getCustomer('1001');

    expect(unknown).toBeNull();
    expect(elsewhere).toBeNull();
  });

  it('serves customers added after start and blank details as empty strings', async () => {
    simulator.addCustomer('other', { id: '2001', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', created_at: null });

    const added = await adapterFor('other').getCustomer('2001');
    const blank = await adapterFor('demo').getCustomer('1002');

    expect(added).toEqual({ id: '2001', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper', createdAt: null });
    expect(blank).toEqual({ id: '1002', email: '', firstName: '', lastName: '', createdAt: null });
  });
});

describe('platform simulator: discount codes', () => {
  it('records a created code with its terms and lists it on GET /_discount_codes', async () => {
    const created = await adapterFor('demo').createDiscountCode(codeInput('LIST-1', { minimumSpend: 25 }));

    const listed = (await listedCodes()).find((entry) => entry.code === 'LIST-1');

    expect(created).toEqual({ id: expect.stringMatching(/^gid:\/\/shopify\/DiscountCodeNode\/\d+$/), code: 'LIST-1' });
    expect(listed).toEqual({
      shop: 'demo',
      id: created.id,
      code: 'LIST-1',
      customer_id: '1001',
      amount: 5,
      type: 'fixed',
      kind: 'fixed',
      product_variant_id: null,
      cap: null,
      usage_limit: 1,
      applies_once_per_customer: true,
      minimum_spend: 25,
      ends_at: '2025-07-01T00:00:00.000Z',
      starts_at: '2025-06-01T00:00:00.000Z',
      title: '$5 off',
      created_at: expect.any(String),
    });
  });

  it('lists a percentage code with the percentage the port gave', async () => {
    await adapterFor('demo').createDiscountCode(codeInput('PCT-1', { discountType: 'percentage', amount: 15, endsAt: null }));

    const listed = simulator.discountCodes().find((entry) => entry.code === 'PCT-1');

    expect(listed).toMatchObject({ type: 'percentage', kind: 'percentage', amount: 15, minimum_spend: 0, ends_at: null, cap: null });
  });

  it('returns the existing code when the same code is created twice, and keeps one', async () => {
    const adapter = adapterFor('demo');

    const first = await adapter.createDiscountCode(codeInput('TWICE-1'));
    const second = await adapter.createDiscountCode(codeInput('TWICE-1'));

    expect(second).toEqual(first);
    expect((await listedCodes()).filter((entry) => entry.code === 'TWICE-1')).toHaveLength(1);
  });

  it('keeps codes apart per shop', async () => {
    const inDemo = await adapterFor('demo').createDiscountCode(codeInput('SHARED-1'));
    const inOther = await adapterFor('other').createDiscountCode(codeInput('SHARED-1'));

    expect(inOther.id).not.toBe(inDemo.id);
    expect(await adapterFor('other').findDiscountCode('NOT-THERE')).toBeNull();
  });

  it('finds a code by its text and deletes it by its id', async () => {
    const adapter = adapterFor('demo');
    const created = await adapter.createDiscountCode(codeInput('GONE-1'));

    const found = await adapter.findDiscountCode('GONE-1');
    await adapter.deleteDiscountCode(created.id);
    const afterDelete = await adapter.findDiscountCode('GONE-1');

    expect(found).toEqual(created);
    expect(afterDelete).toBeNull();
    expect(simulator.discountCodes().some((entry) => entry.code === 'GONE-1')).toBe(false);
  });

  it('refuses to delete a code that does not exist', async () => {
    const error = await failure(adapterFor('demo').deleteDiscountCode('gid://shopify/DiscountCodeNode/999999'));

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/Discount does not exist/);
  });

  it('refuses a code without a code or a customer', async () => {
    const error = await failure(adapterFor('demo').createDiscountCode(codeInput('', { customerId: '' })));

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/basicCodeDiscount\.code/);
    expect(error.message).toMatch(/basicCodeDiscount\.context/);
  });
});

describe('platform simulator: faults', () => {
  it('makes the customer query fail with a PlatformError in error mode, leaving codes alone', async () => {
    simulator.setFaults({ customers: 'error' });

    const error = await failure(adapterFor('demo').getCustomer('1001'));
    const code = await adapterFor('demo').findDiscountCode('NOT-THERE');

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/Internal error/);
    expect(code).toBeNull();
  });

  it('makes customers unavailable in unreachable mode', async () => {
    simulator.setFaults({ customers: 'unreachable' });

    const error = await failure(adapterFor('demo').getCustomer('1001'));

    expect(error).toBeInstanceOf(PlatformUnavailableError);
  });

  it('makes every discount code operation fail with a PlatformError in error mode, creating nothing', async () => {
    const existing = await adapterFor('demo').createDiscountCode(codeInput('FAULT-KEEP'));
    simulator.setFaults({ discount_codes: 'error' });
    const adapter = adapterFor('demo');

    const errors = await Promise.all([
      failure(adapter.createDiscountCode(codeInput('FAULT-1'))),
      failure(adapter.findDiscountCode('FAULT-KEEP')),
      failure(adapter.deleteDiscountCode(existing.id)),
    ]);
    const customer = await adapter.getCustomer('1001');

    for (const error of errors) expect(error).toBeInstanceOf(PlatformError);
    expect(simulator.discountCodes().map((entry) => entry.code)).toContain('FAULT-KEEP');
    expect(simulator.discountCodes().map((entry) => entry.code)).not.toContain('FAULT-1');
    expect(customer?.id).toBe('1001');
  });

  it('makes every discount code operation unavailable in unreachable mode', async () => {
    simulator.setFaults({ discount_codes: 'unreachable' });
    const adapter = adapterFor('demo');

    const errors = await Promise.all([
      failure(adapter.createDiscountCode(codeInput('FAULT-2'))),
      failure(adapter.findDiscountCode('FAULT-2')),
      failure(adapter.deleteDiscountCode('gid://shopify/DiscountCodeNode/1')),
    ]);

    for (const error of errors) expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect(simulator.discountCodes().map((entry) => entry.code)).not.toContain('FAULT-2');
  });
});

describe('platform simulator: the hang fault', () => {
  const CUSTOMER_QUERY = 'query { customer(id: "gid://shopify/Customer/1001") { id } }';

  /** A GraphQL request that gives up after `ms`: the error says whether it timed out or the connection went. */
  const rawCall = (query: string, ms: number, on: PlatformSimulator = simulator) =>
    fetch(on.graphqlEndpoint('demo'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'local-token' },
      body: JSON.stringify({ query }),
      signal: AbortSignal.timeout(ms),
    });
  /** One attempt with a short timeout, so the adapter gives up quickly. */
  const impatientAdapter = () =>
    createShopifyPlatform({ endpoint: simulator.graphqlEndpoint('demo'), accessToken: 'local-token', timeoutMs: 200, maxAttempts: 1 });

  it('keeps the request open and answers nothing (no status, no dropped connection) until the client gives up', async () => {
    simulator.setFaults({ customers: 'hang' });

    const error = await failure(rawCall(CUSTOMER_QUERY, 300));

    expect(error.name).toBe('TimeoutError');
    expect(simulator.faults().customers).toBe('hang');
  });

  it('answers none of the areas in hang mode, and the adapter gives up after its timeout as unavailable', async () => {
    simulator.setFaults({ customers: 'hang', discount_codes: 'hang', orders: 'hang' });
    const adapter = impatientAdapter();

    const errors = await Promise.all([
      failure(adapter.getCustomer('1001')),
      failure(adapter.createDiscountCode(codeInput('HANG-1'))),
      failure(adapter.findDiscountCode('HANG-1')),
      failure(adapter.deleteDiscountCode('gid://shopify/DiscountCodeNode/1')),
      failure(adapter.listOrdersUpdatedSince('2020-01-01T00:00:00Z')),
    ]);

    for (const error of errors) {
      expect(error).toBeInstanceOf(PlatformUnavailableError);
      expect(error.message).toMatch(/timed out after 200 ms/);
    }
  });

  it('does nothing of what a hung request asked, even once the fault is healed', async () => {
    const existing = await adapterFor('demo').createDiscountCode(codeInput('HANG-KEEP'));
    simulator.setFaults({ discount_codes: 'hang' });
    const adapter = impatientAdapter();

    await failure(adapter.createDiscountCode(codeInput('HANG-2')));
    await failure(adapter.deleteDiscountCode(existing.id));
    simulator.setFaults({ discount_codes: 'ok' });
    const codes = simulator.discountCodes().map((entry) => entry.code);

    expect(codes).toContain('HANG-KEEP');
    expect(codes).not.toContain('HANG-2');
    expect(await adapterFor('demo').findDiscountCode('HANG-2')).toBeNull();
  });

  it('answers the other areas while one hangs', async () => {
    simulator.setFaults({ discount_codes: 'hang' });

    const customer = await adapterFor('demo').getCustomer('1001');

    expect(customer?.id).toBe('1001');
  });

  it('drops the connections it holds when it stops, at once', async () => {
    const own = await startPlatformSimulator({ port: 0, shops: { demo: { customers: [] } } });
    own.setFaults({ customers: 'hang' });
    // Without the drop, this request would stay open for its whole minute.
    const hung = failure(rawCall(CUSTOMER_QUERY, 60_000, own));
    await eventually(own.hungRequests, (count) => count === 1);

    const started = Date.now();
    await own.stop();
    const error = await hung;

    expect(Date.now() - started).toBeLessThan(2_000);
    expect(error.name).not.toBe('TimeoutError');
    expect(error.message).toMatch(/fetch failed/);
    expect(own.hungRequests()).toBe(0);
  });
});

describe('platform simulator: control endpoints and requests it refuses', () => {
  it('echoes the modes and token lifetime in force after PUT /_faults, keeping the keys left out', async () => {
    const first = await putFaults(JSON.stringify({ customers: 'error' }));
    const second = await putFaults(JSON.stringify({ discount_codes: 'unreachable', token_lifetime_seconds: 60 }));
    const third = await putFaults(JSON.stringify({ orders: 'access_denied' }));
    const current = await (await fetch(`${simulator.url}/_faults`)).json();

    expect(first).toEqual({ status: 200, body: { ...CALM, customers: 'error' } });
    expect(second).toEqual({
      status: 200,
      body: { ...CALM, customers: 'error', discount_codes: 'unreachable', token_lifetime_seconds: 60 },
    });
    expect(third.body).toEqual({
      customers: 'error',
      discount_codes: 'unreachable',
      orders: 'access_denied',
      store_credit: 'ok',
      klaviyo: 'ok',
      token_lifetime_seconds: 60,
      bus: 'ok',
    });
    expect(current).toEqual(third.body);
  });

  it('takes hang for every area on PUT /_faults, and names every mode when it refuses one', async () => {
    const set = await putFaults(JSON.stringify({ customers: 'hang', discount_codes: 'hang', orders: 'hang' }));
    simulator.setFaults(CALM);
    const refused = await putFaults(JSON.stringify({ orders: 'stalled' }));

    expect(set).toEqual({ status: 200, body: { ...CALM, customers: 'hang', discount_codes: 'hang', orders: 'hang' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error).toContain('one of ok, error, throttled, access_denied, unreachable, hang, hold');
  });

  it.each([
    ['an unknown mode', JSON.stringify({ customers: 'broken' })],
    ['an unknown key', JSON.stringify({ products: 'error' })],
    ['a body that is not an object', JSON.stringify(['error'])],
    ['a body that is not JSON', 'customers=error'],
    ['a token lifetime of zero', JSON.stringify({ token_lifetime_seconds: 0 })],
    ['a token lifetime that is not whole', JSON.stringify({ token_lifetime_seconds: 1.5 })],
    ['a token lifetime given as text', JSON.stringify({ token_lifetime_seconds: '60' })],
  ])('refuses %s on PUT /_faults with 400 and changes nothing', async (_label, body) => {
    const reply = await putFaults(body);

    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual(expect.any(String));
    expect(simulator.faults()).toEqual(CALM);
  });

  it('answers 404 for a shop it does not know, which the adapter reports as a PlatformError', async () => {
    const raw = await fetch(simulator.graphqlEndpoint('nope'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'local-token' },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });

    const error = await failure(adapterFor('nope').getCustomer('1001'));

    expect(raw.status).toBe(404);
    expect(error).toBeInstanceOf(PlatformError);
  });

  it('answers 401 without an access token', async () => {
    const raw = await fetch(simulator.graphqlEndpoint('demo'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ query: 'query { customer(id: "gid://shopify/Customer/1001") { id } }' }),
    });

    expect(raw.status).toBe(401);
    expect(await raw.json()).toEqual({ errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' });
  });
});

async function graphqlCall(
  query: string,
  variables: Record<string, unknown> = {},
  shop = 'demo',
  on: PlatformSimulator = simulator,
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw GraphQL answers
): Promise<{ status: number; body: any }> {
  const response = await fetch(on.graphqlEndpoint(shop), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'local-token' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await response.json() };
}

describe('platform simulator: every document is validated against the Admin API schema subset', () => {
  it("refuses a misspelt field in Shopify's error shape, which the adapter's transport reports as a PlatformError", async () => {
    const document = 'query { customer(id: "gid://shopify/Customer/1001") { id emial } }';
    const transport = createShopifyTransport({ endpoint: simulator.graphqlEndpoint('demo'), accessToken: 'local-token', baseDelayMs: 1 });

    const reply = await graphqlCall(document);
    const error = await failure(transport.request('getCustomer', document, {}));

    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      errors: [
        {
          message: 'Cannot query field "emial" on type "Customer".',
          locations: [{ line: 1, column: 58 }],
          extensions: { code: 'undefinedField' },
        },
      ],
    });
    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/Cannot query field "emial"/);
  });

  it('refuses an argument the field does not take', async () => {
    const reply = await graphqlCall('query { orders(first: 5, sort: UPDATED_AT) { nodes { id } } }');

    expect(reply.body.errors).toEqual([
      expect.objectContaining({
        message: 'Unknown argument "sort" on field "QueryRoot.orders".',
        extensions: { code: 'argumentNotAccepted' },
      }),
    ]);
  });

  it('refuses the deprecated customerSelection input and a float where a Decimal string belongs', async () => {
    const deprecated = await graphqlCall(`mutation { discountCodeBasicCreate(basicCodeDiscount: {
      code: "OLD-1", customerSelection: { customers: { add: ["gid://shopify/Customer/1001"] } } }) { userErrors { message } } }`);
    const float = await graphqlCall(
      'mutation Create($input: DiscountCodeBasicInput!) { discountCodeBasicCreate(basicCodeDiscount: $input) { userErrors { message } } }',
      { input: { code: 'FLOAT-1', customerGets: { value: { discountAmount: { amount: 5 } } } } },
    );

    expect(deprecated.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/"customerSelection" is not defined by type "DiscountCodeBasicInput"/),
    });
    expect(float.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/Decimal must be a decimal written as a string/),
      extensions: { code: 'INVALID_VARIABLE' },
    });
    expect(simulator.discountCodes().map((entry) => entry.code)).not.toContain('FLOAT-1');
  });

  it('answers a valid document with the query cost extension', async () => {
    const reply = await graphqlCall('query { customer(id: "gid://shopify/Customer/1001") { firstName } }');

    expect(reply.body).toEqual({
      data: { customer: { firstName: 'Ada' } },
      extensions: {
        cost: {
          requestedQueryCost: 1,
          actualQueryCost: 1,
          throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1999, restoreRate: 100 },
        },
      },
    });
  });

  it('throttles in throttled mode until the adapter gives up, and lets the adapter through once the mode is ok', async () => {
    simulator.setFaults({ orders: 'throttled' });
    const adapter = adapterFor('demo');

    const error = await failure(adapter.listOrdersUpdatedSince('2020-01-01T00:00:00Z'));
    simulator.setFaults({ orders: 'ok' });
    const page = await adapter.listOrdersUpdatedSince('2020-01-01T00:00:00Z');

    expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect(error.message).toMatch(/throttled/);
    expect(page.nextCursor).toBeNull();
  });
});

interface Received {
  headers: Record<string, string>;
  body: string;
}

/** Stands in for the twin's webhook receiver: checks the signature, records what arrived, answers `status`. */
async function startReceiver(secret: string) {
  const received: Received[] = [];
  let status = 200;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([name, value]) => [name, String(value)]));
      received.push({ headers, body });
      const expected = createHmac('sha256', secret).update(body, 'utf8').digest();
      const given = Buffer.from(headers['x-shopify-hmac-sha256'] ?? '', 'base64');
      const valid = given.length === expected.length && timingSafeEqual(given, expected);
      res.writeHead(valid ? status : 401).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/webhooks/shopify`,
    received,
    answer: (next: number) => {
      status = next;
    },
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe('platform simulator: orders and their webhooks', () => {
  const SECRET = 'shop-b-secret';
  let shopSimulator: PlatformSimulator;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let clock = new Date('2027-01-15T10:00:00.000Z');

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- control answers
  const control = async (method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> => {
    const response = await fetch(`${shopSimulator.url}${path}`, {
      method,
      ...(body !== undefined
        ? { headers: { 'Content-Type': 'application/json' }, body: typeof body === 'string' ? body : JSON.stringify(body) }
        : {}),
    });
    return { status: response.status, body: await response.json() };
  };

  beforeAll(async () => {
    receiver = await startReceiver(SECRET);
    shopSimulator = await startPlatformSimulator({
      port: 0,
      now: () => clock,
      webhookUrl: receiver.url,
      shops: {
        'shop-b': {
          shop_domain: 'shop-b.myshopify.com',
          webhook_secret: SECRET,
          currency: 'EUR',
          customers: [{ id: '2001', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', created_at: null }],
        },
        'shop-c': { customers: [] },
      },
    });
  });

  afterAll(async () => {
    await shopSimulator.stop();
    await receiver.stop();
  });

  beforeEach(() => {
    receiver.answer(200);
  });

  it("creates a paid order and delivers a signed orders/paid with Shopify's headers, stamped by the clock", async () => {
    clock = new Date('2027-01-15T10:00:00.000Z');

    const reply = await control('POST', '/_orders', {
      shop: 'shop-b',
      customer_id: '2001',
      subtotal_price: '120.00',
      total_price: '131.50',
      discount_codes: ['LOYAL-1'],
      landing_site: '/?ref=FRIEND1',
      note_attributes: [{ name: 'referral_code', value: 'FRIEND1' }],
    });
    const delivered = receiver.received.at(-1)!;

    expect(reply.status).toBe(201);
    expect(reply.body.webhook).toEqual({ id: expect.any(String), status: 200 });
    expect(reply.body.order).toMatchObject({
      id: expect.any(Number),
      name: '#1001',
      currency: 'EUR',
      financial_status: 'paid',
      subtotal_price: '120.00',
      current_subtotal_price: '120.00',
      total_price: '131.50',
      created_at: '2027-01-15T10:00:00.000Z',
      processed_at: '2027-01-15T10:00:00.000Z',
      updated_at: '2027-01-15T10:00:00.000Z',
      cancelled_at: null,
      discount_codes: [expect.objectContaining({ code: 'LOYAL-1' })],
      landing_site: '/?ref=FRIEND1',
      note_attributes: [{ name: 'referral_code', value: 'FRIEND1' }],
      customer: expect.objectContaining({ id: 2001, email: 'grace@example.com' }),
    });
    expect(delivered.headers).toMatchObject({
      'x-shopify-topic': 'orders/paid',
      'x-shopify-shop-domain': 'shop-b.myshopify.com',
      'x-shopify-webhook-id': reply.body.webhook.id,
      'x-shopify-event-id': expect.any(String),
      'x-shopify-triggered-at': '2027-01-15T10:00:00.000Z',
      'x-shopify-api-version': '2026-10',
      'content-type': 'application/json',
    });
    expect(delivered.headers['x-shopify-hmac-sha256']).toBe(createHmac('sha256', SECRET).update(delivered.body, 'utf8').digest('base64'));
    expect(JSON.parse(delivered.body)).toEqual(reply.body.order);
    expect(orderFromWebhook(JSON.parse(delivered.body))).toMatchObject({
      customerId: '2001',
      eligibleSubtotal: '120.00',
      refundedEligible: '0.00',
      landingSite: '/?ref=FRIEND1',
      financialStatus: 'paid',
      test: false,
    });
  });

  it('numbers orders per shop and takes a guest order without a customer or a delivery', async () => {
    const first = await control('POST', '/_orders', { shop: 'shop-c', customer_id: null, subtotal_price: '10', deliver: false });
    const second = await control('POST', '/_orders', { shop: 'shop-c', subtotal_price: '12.5', deliver: false });

    expect(first.body).toMatchObject({ order: { name: '#1001', customer: null, subtotal_price: '10.00', currency: 'USD' }, webhook: null });
    expect(second.body.order).toMatchObject({ name: '#1002', subtotal_price: '12.50' });
    expect(second.body.order.id).toBeGreaterThan(first.body.order.id);
  });

  it("records a refund, delivers refunds/create with the refunded subtotal, and moves the order's amounts", async () => {
    const created = await control('POST', '/_orders', { shop: 'shop-b', customer_id: '2001', subtotal_price: '100.00', deliver: false });
    clock = new Date('2027-01-16T08:00:00.000Z');

    const reply = await control('POST', `/_orders/${created.body.order.id}/refunds`, { subtotal: '40.00' });
    const delivered = receiver.received.at(-1)!;

    expect(reply.status).toBe(201);
    expect(reply.body.webhook).toEqual({ id: expect.any(String), status: 200 });
    expect(delivered.headers['x-shopify-topic']).toBe('refunds/create');
    expect(JSON.parse(delivered.body)).toEqual(reply.body.refund);
    expect(reply.body.refund.refund_line_items).toEqual([
      expect.objectContaining({ subtotal: 40, total_tax: 0, quantity: 0, line_item_id: created.body.order.line_items[0].id }),
    ]);
    expect(refundFromWebhook(reply.body.refund)).toEqual({
      id: String(reply.body.refund.id),
      orderId: String(created.body.order.id),
      lines: [{ giftCard: false, subtotal: '40', tax: '0' }],
      discrepancies: [],
      createdAt: '2027-01-16T08:00:00.000Z',
    });
    expect(reply.body.order).toMatchObject({
      current_subtotal_price: '60.00',
      financial_status: 'partially_refunded',
      updated_at: '2027-01-16T08:00:00.000Z',
    });
    expect(orderFromWebhook(reply.body.order).refundedEligible).toBe('40.00');
  });

  it('refuses a refund of more than is left, and an amount with more decimals than the currency has', async () => {
    const created = await control('POST', '/_orders', { shop: 'shop-b', customer_id: '2001', subtotal_price: '30.00', deliver: false });
    await control('POST', `/_orders/${created.body.order.id}/refunds`, { subtotal: '20.00', deliver: false });

    const tooMuch = await control('POST', `/_orders/${created.body.order.id}/refunds`, { subtotal: '10.01' });
    const tooPrecise = await control('POST', `/_orders/${created.body.order.id}/refunds`, { subtotal: '1.005' });

    expect(tooMuch).toEqual({ status: 400, body: { error: expect.stringMatching(/10\.01 is more than the 10\.00 left to refund/) } });
    expect(tooPrecise).toEqual({ status: 400, body: { error: expect.stringMatching(/EUR amounts have at most 2 decimals/) } });
  });

  it('cancels an order, delivers orders/cancelled, and refuses to cancel it twice', async () => {
    const created = await control('POST', '/_orders', { shop: 'shop-b', customer_id: '2001', subtotal_price: '50.00', deliver: false });
    clock = new Date('2027-01-17T09:00:00.000Z');

    const reply = await control('POST', `/_orders/${created.body.order.id}/cancel`);
    const again = await control('POST', `/_orders/${created.body.order.id}/cancel`, { deliver: false });
    const delivered = receiver.received.at(-1)!;

    expect(reply.status).toBe(200);
    expect(reply.body.order).toMatchObject({
      cancelled_at: '2027-01-17T09:00:00.000Z',
      cancel_reason: 'customer',
      updated_at: '2027-01-17T09:00:00.000Z',
    });
    expect(delivered.headers['x-shopify-topic']).toBe('orders/cancelled');
    expect(orderFromWebhook(JSON.parse(delivered.body)).cancelledAt).toBe('2027-01-17T09:00:00.000Z');
    expect(again).toEqual({ status: 400, body: { error: expect.stringMatching(/already cancelled/) } });
  });

  it('redelivers a webhook byte for byte and lists every attempt with the status it got', async () => {
    const created = await control('POST', '/_orders', { shop: 'shop-b', customer_id: '2001', subtotal_price: '20.00' });
    const original = receiver.received.at(-1)!;
    receiver.answer(503);
    clock = new Date('2027-02-01T00:00:00.000Z');

    const redelivered = await control('POST', `/_webhooks/${created.body.webhook.id}/redeliver`);
    const copy = receiver.received.at(-1)!;
    const listed = (await control('GET', '/_webhooks')).body.webhooks.find((entry: { id: string }) => entry.id === created.body.webhook.id);

    expect(redelivered).toEqual({ status: 200, body: { webhook: { id: created.body.webhook.id, status: 503 } } });
    expect(copy.body).toBe(original.body);
    expect(copy.headers).toEqual(original.headers);
    expect(listed).toMatchObject({
      topic: 'orders/paid',
      shop: 'shop-b',
      order_id: String(created.body.order.id),
      status: 503,
      attempts: [
        { status: 200, at: expect.any(String) },
        { status: 503, at: '2027-02-01T00:00:00.000Z' },
      ],
      payload: created.body.order,
    });
  });

  it('records status null when the receiver cannot be reached, and still answers the control call', async () => {
    // A port that was free a moment ago: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    shopSimulator.setWebhookUrl(`http://127.0.0.1:${port}/webhooks/shopify`);
    try {
      const reply = await control('POST', '/_orders', { shop: 'shop-b', customer_id: '2001', subtotal_price: '5.00' });

      expect(reply.status).toBe(201);
      expect(reply.body.webhook).toEqual({ id: expect.any(String), status: null, error: expect.stringMatching(/ECONNREFUSED/) });
    } finally {
      shopSimulator.setWebhookUrl(receiver.url);
    }
  });

  it.each([
    ['an unknown shop', { shop: 'nope', subtotal_price: '1.00' }, /shop: no shop 'nope'/],
    [
      'a customer the shop does not have',
      { shop: 'shop-b', customer_id: '9999', subtotal_price: '1.00' },
      /'9999' is not a customer of shop 'shop-b'/,
    ],
    ['an amount that is not a decimal string', { shop: 'shop-b', subtotal_price: 12 }, /subtotal_price: /],
    ['an unknown field', { shop: 'shop-b', subtotal_price: '1.00', subtotal: '1.00' }, /Unrecognized key/],
    [
      'a total below the subtotal',
      { shop: 'shop-b', subtotal_price: '10.00', total_price: '9.00' },
      /total_price: must be at least subtotal_price/,
    ],
  ])('refuses %s with 400 and creates nothing', async (_label, body, message) => {
    const before = (await control('GET', '/_orders?shop=shop-b')).body.orders.length;

    const reply = await control('POST', '/_orders', body);
    const after = (await control('GET', '/_orders?shop=shop-b')).body.orders.length;

    expect(reply).toEqual({ status: 400, body: { error: expect.stringMatching(message) } });
    expect(after).toBe(before);
  });

  it("sends any topic signed as the shop's deliveries are, and refuses a request it cannot send", async () => {
    const payload = {
      shop_id: 1,
      shop_domain: 'shop-b.myshopify.com',
      customer: { id: 2001, email: 'grace@example.com', phone: null },
      orders_to_redact: [],
    };

    const reply = await control('POST', '/_webhooks/send', { shop: 'shop-b', topic: 'customers/redact', payload });
    const delivered = receiver.received.at(-1)!;
    const unknownShop = await control('POST', '/_webhooks/send', { shop: 'shop-z', topic: 'shop/redact', payload: {} });
    const badTopic = await control('POST', '/_webhooks/send', { shop: 'shop-b', topic: 'redact', payload: {} });
    const wrongMethod = await fetch(`${shopSimulator.url}/_webhooks/send`);

    expect(reply).toEqual({ status: 200, body: { webhook: { id: expect.any(String), status: 200 } } });
    expect(delivered.headers).toMatchObject({ 'x-shopify-topic': 'customers/redact', 'x-shopify-shop-domain': 'shop-b.myshopify.com' });
    expect(JSON.parse(delivered.body)).toEqual(payload);
    expect(unknownShop).toEqual({ status: 400, body: { error: expect.stringMatching(/no shop 'shop-z'/) } });
    expect(badTopic).toEqual({ status: 400, body: { error: expect.stringMatching(/topic: /) } });
    expect(wrongMethod.status).toBe(405);
  });

  it('answers 404 for an order or a webhook it does not have', async () => {
    const refund = await control('POST', '/_orders/123/refunds', { subtotal: '1.00' });
    const cancel = await control('POST', '/_orders/123/cancel');
    const redeliver = await control('POST', '/_webhooks/nope/redeliver');

    expect([refund.status, cancel.status, redeliver.status]).toEqual([404, 404, 404]);
    expect(refund.body.error).toMatch(/No order with id '123'/);
  });

  it('serves orders changed since a time to the adapter, page by page in update order', async () => {
    const fresh = await startPlatformSimulator({
      port: 0,
      now: () => clock,
      shops: { 'shop-b': { customers: [{ id: '2001', email: 'g@example.com', first_name: '', last_name: '', created_at: null }] } },
    });
    const post = (path: string, body: unknown) =>
      fetch(`${fresh.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- control answers
        (r) => r.json() as Promise<any>,
      );
    try {
      clock = new Date('2027-03-01T10:00:00.000Z');
      const old = await post('/_orders', { shop: 'shop-b', customer_id: '2001', subtotal_price: '10.00' });
      clock = new Date('2027-03-02T10:00:00.000Z');
      const a = await post('/_orders', { shop: 'shop-b', customer_id: '2001', subtotal_price: '20.00', landing_site: '/?ref=FRIEND1' });
      clock = new Date('2027-03-02T11:00:00.000Z');
      const b = await post('/_orders', { shop: 'shop-b', customer_id: null, subtotal_price: '30.00' });
      clock = new Date('2027-03-02T12:00:00.000Z');
      await post(`/_orders/${old.order.id}/refunds`, { subtotal: '4.00' });
      const adapter = createShopifyPlatform({
        endpoint: fresh.graphqlEndpoint('shop-b'),
        accessToken: 'local-token',
        baseDelayMs: 1,
        ordersPageSize: 2,
      });

      const first = await adapter.listOrdersUpdatedSince('2027-03-02T10:00:00.000Z');
      const second = await adapter.listOrdersUpdatedSince('2027-03-02T10:00:00.000Z', first.nextCursor);
      const later = await adapter.listOrdersUpdatedSince('2027-03-02T12:00:00.001Z');

      expect(first.orders.map((order) => order.id)).toEqual([String(a.order.id), String(b.order.id)]);
      expect(first.nextCursor).toEqual(expect.any(String));
      expect(second).toEqual({
        orders: [
          expect.objectContaining({
            id: String(old.order.id),
            eligibleSubtotal: '10.00',
            refundedEligible: '4.00',
            financialStatus: 'partially_refunded',
          }),
        ],
        nextCursor: null,
      });
      expect(first.orders[0]).toEqual(orderFromWebhook(a.order));
      expect(first.orders[0]!.landingSite).toBe('/?ref=FRIEND1');
      expect(later).toEqual({ orders: [], nextCursor: null });
    } finally {
      await fresh.stop();
    }
  });

  it('takes line items with tax, discounts and gift cards, and writes them as Shopify does', async () => {
    const reply = await control('POST', '/_orders', {
      shop: 'shop-b',
      customer_id: '2001',
      taxes_included: true,
      line_items: [
        { price: '30.00', quantity: 2, tax: '9.50', discount: '3.00' },
        { price: '25.00', quantity: 1, gift_card: true },
      ],
      test: true,
      landing_site_ref: 'FRIEND2',
      total_price: '87.00',
      deliver: false,
    });
    const order = reply.body.order;

    expect(reply.status).toBe(201);
    expect(order).toMatchObject({
      subtotal_price: '82.00',
      total_line_items_price: '85.00',
      total_discounts: '3.00',
      total_tax: '9.50',
      total_price: '87.00',
      total_shipping_price_set: { shop_money: { amount: '5.00', currency_code: 'EUR' } },
      taxes_included: true,
      test: true,
      landing_site_ref: 'FRIEND2',
      financial_status: 'paid',
    });
    expect(order.line_items[0]).toMatchObject({
      price: '30.00',
      quantity: 2,
      gift_card: false,
      tax_lines: [{ price: '9.50', rate: 0.2, title: 'Tax', price_set: { shop_money: { amount: '9.50', currency_code: 'EUR' } } }],
      discount_allocations: [{ amount: '3.00', discount_application_index: 0 }],
    });
    expect(order.line_items[1]).toMatchObject({ gift_card: true, tax_lines: [], discount_allocations: [], requires_shipping: false });
    // 82.00 less the included tax 9.50, less the 25.00 gift card.
    expect(orderFromWebhook(order)).toMatchObject({
      eligibleSubtotal: '47.50',
      refundedEligible: '0.00',
      test: true,
      referralCode: 'FRIEND2',
    });
  });

  it('computes the subtotal from the lines when it is left out, and refuses one that does not match them', async () => {
    const computed = await control('POST', '/_orders', {
      shop: 'shop-b',
      line_items: [{ price: '19.99', quantity: 3, discount: '0.97' }],
      deliver: false,
    });
    const mismatch = await control('POST', '/_orders', {
      shop: 'shop-b',
      subtotal_price: '60.00',
      line_items: [{ price: '19.99', quantity: 3 }],
    });
    const tooMuchDiscount = await control('POST', '/_orders', {
      shop: 'shop-b',
      line_items: [{ price: '5.00', quantity: 1, discount: '6.00' }],
    });
    const neither = await control('POST', '/_orders', { shop: 'shop-b' });
    const noLines = await control('POST', '/_orders', { shop: 'shop-b', line_items: [] });
    const badQuantity = await control('POST', '/_orders', { shop: 'shop-b', line_items: [{ price: '5.00', quantity: 1.5 }] });
    const taxNotAdded = await control('POST', '/_orders', {
      shop: 'shop-b',
      line_items: [{ price: '10.00', quantity: 1, tax: '2.00' }],
      total_price: '11.00',
    });

    expect(computed.body.order).toMatchObject({ subtotal_price: '59.00', total_price: '59.00' });
    expect(mismatch).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/subtotal_price: 60\.00 does not match the line items .*59\.97/) },
    });
    expect(tooMuchDiscount).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/line_items\[0\]\.discount: 6\.00 is more than/) },
    });
    expect(neither).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/subtotal_price: is required unless line_items are given/) },
    });
    expect(noLines).toEqual({ status: 400, body: { error: expect.stringMatching(/line_items: must hold at least one line/) } });
    expect(badQuantity).toEqual({ status: 400, body: { error: expect.stringMatching(/line_items\.0\.quantity: must be a whole number/) } });
    expect(taxNotAdded).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/total_price: must be at least subtotal_price plus the lines' tax, 12\.00/) },
    });
  });

  it('holds an order awaiting payment until it is paid: orders/updated first, orders/paid when paid', async () => {
    clock = new Date('2027-04-01T10:00:00.000Z');
    const created = await control('POST', '/_orders', {
      shop: 'shop-b',
      customer_id: '2001',
      subtotal_price: '45.00',
      financial_status: 'pending',
    });
    const createdDelivery = receiver.received.at(-1)!;
    const refundFirst = await control('POST', `/_orders/${created.body.order.id}/refunds`, { subtotal: '5.00' });
    clock = new Date('2027-04-03T09:00:00.000Z');

    const paid = await control('POST', `/_orders/${created.body.order.id}/pay`);
    const paidDelivery = receiver.received.at(-1)!;
    const again = await control('POST', `/_orders/${created.body.order.id}/pay`, { deliver: false });
    const voidPaid = await control('POST', `/_orders/${created.body.order.id}/void`);

    expect(created.body.order).toMatchObject({ financial_status: 'pending', total_outstanding: '45.00' });
    expect(createdDelivery.headers['x-shopify-topic']).toBe('orders/updated');
    expect(refundFirst).toEqual({ status: 400, body: { error: expect.stringMatching(/is pending: only a paid order can be refunded/) } });
    expect(paid.status).toBe(200);
    expect(paid.body.webhook).toEqual({ id: expect.any(String), status: 200 });
    expect(paid.body.order).toMatchObject({
      financial_status: 'paid',
      total_outstanding: '0.00',
      processed_at: '2027-04-01T10:00:00.000Z',
      updated_at: '2027-04-03T09:00:00.000Z',
    });
    expect(paidDelivery.headers['x-shopify-topic']).toBe('orders/paid');
    expect(JSON.parse(paidDelivery.body)).toEqual(paid.body.order);
    expect(again).toEqual({ status: 400, body: { error: expect.stringMatching(/already paid/) } });
    expect(voidPaid).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/is paid: only a pending or authorized order can be voided \(refund it instead\)/) },
    });
  });

  it('voids an authorized order with orders/updated, after which it can be neither paid nor refunded', async () => {
    const created = await control('POST', '/_orders', {
      shop: 'shop-b',
      customer_id: '2001',
      subtotal_price: '12.00',
      financial_status: 'authorized',
      deliver: false,
    });
    clock = new Date('2027-04-05T12:00:00.000Z');

    const voided = await control('POST', `/_orders/${created.body.order.id}/void`);
    const delivered = receiver.received.at(-1)!;
    const pay = await control('POST', `/_orders/${created.body.order.id}/pay`);
    const refund = await control('POST', `/_orders/${created.body.order.id}/refunds`, { subtotal: '1.00' });
    const unknownBody = await control('POST', `/_orders/${created.body.order.id}/void`, { reason: 'x' });
    const missing = await control('POST', '/_orders/123/pay');

    expect(voided.body.order).toMatchObject({ financial_status: 'voided', updated_at: '2027-04-05T12:00:00.000Z', cancelled_at: null });
    expect(delivered.headers['x-shopify-topic']).toBe('orders/updated');
    expect(orderFromWebhook(JSON.parse(delivered.body)).financialStatus).toBe('voided');
    expect(pay).toEqual({ status: 400, body: { error: expect.stringMatching(/is voided: it cannot be paid/) } });
    expect(refund).toEqual({ status: 400, body: { error: expect.stringMatching(/is voided: only a paid order can be refunded/) } });
    expect(unknownBody).toEqual({ status: 400, body: { error: expect.stringMatching(/^Invalid void: .*Unrecognized key/) } });
    expect(missing.status).toBe(404);
  });

  it('refunds whole units of lines with their share of the discount and the tax, and refuses more than is left', async () => {
    const created = await control('POST', '/_orders', {
      shop: 'shop-b',
      customer_id: '2001',
      taxes_included: true,
      line_items: [
        { price: '10.00', quantity: 3, tax: '5.00', discount: '1.00' },
        { price: '50.00', quantity: 1, gift_card: true },
      ],
      deliver: false,
    });
    const id = created.body.order.id;

    const first = await control('POST', `/_orders/${id}/refunds`, { line_items: [{ index: 0, quantity: 1 }], deliver: false });
    const second = await control('POST', `/_orders/${id}/refunds`, {
      line_items: [
        { index: 0, quantity: 2 },
        { index: 1, quantity: 1 },
      ],
    });
    const delivered = receiver.received.at(-1)!;
    const more = await control('POST', `/_orders/${id}/refunds`, { line_items: [{ index: 0, quantity: 1 }] });
    const both = await control('POST', `/_orders/${id}/refunds`, { subtotal: '1.00', line_items: [{ index: 0, quantity: 1 }] });
    const noLine = await control('POST', `/_orders/${id}/refunds`, { line_items: [{ index: 5, quantity: 1 }] });

    // 3 units share a 1.00 discount and 5.00 of tax: 0.33 + 0.34 + 0.33, 1.67 + 1.66 + 1.67.
    expect(first.body.refund.refund_line_items).toEqual([
      expect.objectContaining({
        quantity: 1,
        subtotal: 9.67,
        total_tax: 1.67,
        subtotal_set: expect.objectContaining({ shop_money: { amount: '9.67', currency_code: 'EUR' } }),
      }),
    ]);
    expect(first.body.refund.transactions).toEqual([expect.objectContaining({ kind: 'refund', amount: '9.67', currency: 'EUR' })]);
    expect(second.body.refund.refund_line_items).toEqual([
      expect.objectContaining({ quantity: 2, subtotal: 19.33, total_tax: 3.33 }),
      expect.objectContaining({ quantity: 1, subtotal: 50, total_tax: 0, line_item: expect.objectContaining({ gift_card: true }) }),
    ]);
    expect(JSON.parse(delivered.body)).toEqual(second.body.refund);
    expect(second.body.order).toMatchObject({ financial_status: 'refunded', current_subtotal_price: '0.00', current_total_tax: '0.00' });
    expect(second.body.order.line_items.map((line: { current_quantity: number }) => line.current_quantity)).toEqual([0, 0]);
    // Eligible: 79.00 less 5.00 of tax less the 50.00 gift card; refunded on the same basis.
    expect(orderFromWebhook(second.body.order)).toMatchObject({
      eligibleSubtotal: '24.00',
      refundedEligible: '24.00',
      financialStatus: 'refunded',
    });
    expect(refundFromWebhook(second.body.refund).lines).toEqual([
      { giftCard: false, subtotal: '19.33', tax: '3.33' },
      { giftCard: true, subtotal: '50', tax: '0' },
    ]);
    expect(more).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/line_items\[0\]\.quantity: 1 is more than the 0 unit\(s\) of line 0 not yet refunded/) },
    });
    expect(both).toEqual({ status: 400, body: { error: expect.stringMatching(/give either subtotal .* or line_items/) } });
    expect(noLine).toEqual({ status: 400, body: { error: expect.stringMatching(/has no line 5 \(its lines are 0 to 1\)/) } });
  });

  it('takes an amount refund from the lines in order, with the tax in proportion', async () => {
    const created = await control('POST', '/_orders', {
      shop: 'shop-b',
      line_items: [
        { price: '20.00', quantity: 1, tax: '4.00' },
        { price: '10.00', quantity: 1, tax: '2.00' },
      ],
      deliver: false,
    });

    const reply = await control('POST', `/_orders/${created.body.order.id}/refunds`, { subtotal: '25.00', deliver: false });

    expect(created.body.order).toMatchObject({ subtotal_price: '30.00', total_price: '36.00', total_tax: '6.00' });
    expect(reply.body.refund.refund_line_items).toEqual([
      expect.objectContaining({ quantity: 1, subtotal: 20, total_tax: 4 }),
      expect.objectContaining({ quantity: 0, subtotal: 5, total_tax: 1 }),
    ]);
    expect(reply.body.refund.transactions).toEqual([expect.objectContaining({ amount: '30.00' })]);
    expect(reply.body.order).toMatchObject({
      financial_status: 'partially_refunded',
      current_total_price: '6.00',
      current_total_tax: '1.00',
    });
  });

  it('serves lines, refunds and refunded lines beyond the inline pages to the adapter, which reads them as the webhook has them', async () => {
    const fresh = await startPlatformSimulator({
      port: 0,
      now: () => clock,
      shops: { 'shop-b': { customers: [{ id: '2001', email: 'g@example.com', first_name: '', last_name: '', created_at: null }] } },
    });
    const post = (path: string, body: unknown) =>
      fetch(`${fresh.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- control answers
        (r) => r.json() as Promise<any>,
      );
    try {
      clock = new Date('2027-05-01T10:00:00.000Z');
      const lines = Array.from({ length: 25 }, (_unused, index) => ({
        price: '4.00',
        quantity: 2,
        tax: '0.80',
        ...(index % 5 === 0 ? { gift_card: true } : {}),
        ...(index % 3 === 0 ? { discount: '0.50' } : {}),
      }));
      const created = await post('/_orders', {
        shop: 'shop-b',
        customer_id: '2001',
        taxes_included: true,
        line_items: lines,
        landing_site_ref: 'REF9',
      });
      // Six refunds (one more than the query reads inline), the last with twelve lines (two more).
      for (let index = 0; index < 5; index += 1) {
        await post(`/_orders/${created.order.id}/refunds`, { line_items: [{ index, quantity: 1 }], deliver: false });
      }
      const last = await post(`/_orders/${created.order.id}/refunds`, {
        line_items: Array.from({ length: 12 }, (_unused, index) => ({ index: index + 5, quantity: 2 })),
        deliver: false,
      });
      const adapter = createShopifyPlatform({ endpoint: fresh.graphqlEndpoint('shop-b'), accessToken: 'local-token', baseDelayMs: 1 });

      const page = await adapter.listOrdersUpdatedSince('2027-05-01T00:00:00.000Z');

      expect(page.orders).toHaveLength(1);
      expect(page.orders[0]).toEqual(orderFromWebhook(last.order));
      expect(page.orders[0]).toMatchObject({ referralCode: 'REF9', taxesIncluded: true });
      expect(Number(page.orders[0]!.refundedEligible)).toBeGreaterThan(0);
    } finally {
      await fresh.stop();
    }
  });

  it('records money refunded apart from the lines as a refund_discrepancy, in the webhook and in GraphQL alike', async () => {
    const fresh = await startPlatformSimulator({
      port: 0,
      now: () => clock,
      shops: { 'shop-b': { customers: [{ id: '2001', email: 'g@example.com', first_name: '', last_name: '', created_at: null }] } },
    });
    const post = (path: string, body: unknown) =>
      fetch(`${fresh.url}${path}`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) }).then(
        // eslint-disable-next-line @typescript-eslint/no-explicit-any -- control answers
        async (r) => ({ status: r.status, body: (await r.json()) as any }),
      );
    try {
      clock = new Date('2027-06-01T10:00:00.000Z');
      // 2 × 50.00 with 10.00 of tax on top: 110.00 paid.
      const created = await post('/_orders', {
        shop: 'shop-b',
        customer_id: '2001',
        line_items: [{ price: '50.00', quantity: 2, tax: '10.00' }],
      });
      const id = created.body.order.id;
      // One unit back (50.00 + 5.00 tax) but 30.00 refunded: a discrepancy of 25.00; then 20.00 more without a line.
      const partial = await post(`/_orders/${id}/refunds`, { line_items: [{ index: 0, quantity: 1 }], amount: '30.00', deliver: false });
      const moneyOnly = await post(`/_orders/${id}/refunds`, { amount: '20.00', deliver: false });
      const tooMuch = await post(`/_orders/${id}/refunds`, { amount: '60.01', deliver: false });
      const nothing = await post(`/_orders/${id}/refunds`, { amount: '0.00', deliver: false });
      const empty = await post(`/_orders/${id}/refunds`, { deliver: false });
      const adapter = createShopifyPlatform({ endpoint: fresh.graphqlEndpoint('shop-b'), accessToken: 'local-token', baseDelayMs: 1 });

      const page = await adapter.listOrdersUpdatedSince('2027-06-01T00:00:00.000Z');

      expect(partial.body.refund.order_adjustments).toEqual([
        expect.objectContaining({ kind: 'refund_discrepancy', amount: '25.00', refund_id: partial.body.refund.id, order_id: id }),
      ]);
      expect(partial.body.refund.transactions).toEqual([expect.objectContaining({ amount: '30.00' })]);
      expect(moneyOnly.body.refund).toMatchObject({
        refund_line_items: [],
        order_adjustments: [expect.objectContaining({ kind: 'refund_discrepancy', amount: '-20.00' })],
        transactions: [expect.objectContaining({ amount: '20.00' })],
      });
      expect(refundFromWebhook(moneyOnly.body.refund)).toMatchObject({ lines: [], discrepancies: ['-20.00'] });
      // 50.00 − 25.00 = 25.00, then 0 − (−20.00) = 20.00: 45.00 of the 100.00 eligible taken, 50.00 of 110.00 refunded.
      expect(moneyOnly.body.order).toMatchObject({ financial_status: 'partially_refunded', current_total_price: '60.00' });
      expect(page.orders[0]).toEqual(orderFromWebhook(moneyOnly.body.order));
      expect(page.orders[0]).toMatchObject({
        eligibleSubtotal: '100.00',
        refundedEligible: '45.00',
        refunds: [
          { id: String(partial.body.refund.id), taken: '25.00' },
          { id: String(moneyOnly.body.refund.id), taken: '20.00' },
        ],
      });
      expect(tooMuch).toEqual({
        status: 400,
        body: { error: expect.stringMatching(/amount: 60\.01 is more than the 60\.00 of order #1001 not yet refunded/) },
      });
      expect(nothing).toEqual({
        status: 400,
        body: { error: expect.stringMatching(/amount: must be more than zero for a refund of no line/) },
      });
      expect(empty).toEqual({ status: 400, body: { error: expect.stringMatching(/give subtotal .*, line_items .* or amount/) } });
    } finally {
      await fresh.stop();
    }
  });

  it('answers order(id:) and refund(id:) by global id, pages lines by cursor, and refuses an id of another type', async () => {
    const created = await control('POST', '/_orders', {
      shop: 'shop-b',
      line_items: [
        { price: '1.00', quantity: 1 },
        { price: '2.00', quantity: 1, tax: '0.20' },
        { price: '3.00', quantity: 1, discount: '0.30' },
      ],
      deliver: false,
    });
    const refunded = await control('POST', `/_orders/${created.body.order.id}/refunds`, {
      line_items: [{ index: 1, quantity: 1 }],
      deliver: false,
    });
    const orderGid = created.body.order.admin_graphql_api_id;
    const refundGid = refunded.body.refund.admin_graphql_api_id;
    const linesQuery = `query Lines($id: ID!, $after: String) { order(id: $id) { test taxesIncluded
      lineItems(first: 2, after: $after) { nodes { quantity originalUnitPriceSet { shopMoney { amount } } taxLines { priceSet { shopMoney { amount } } }
        discountAllocations { allocatedAmountSet { shopMoney { amount } } } } pageInfo { hasNextPage endCursor } } } }`;

    const first = await graphqlCall(linesQuery, { id: orderGid }, 'shop-b', shopSimulator);
    const second = await graphqlCall(
      linesQuery,
      { id: orderGid, after: first.body.data.order.lineItems.pageInfo.endCursor },
      'shop-b',
      shopSimulator,
    );
    const refund = await graphqlCall(
      `query R($id: ID!) { refund(id: $id) { id refundLineItems(first: 5) { nodes { subtotalSet { shopMoney { amount } } totalTaxSet { shopMoney { amount } } lineItem { isGiftCard } } } } }`,
      { id: refundGid },
      'shop-b',
      shopSimulator,
    );
    const elsewhere = await graphqlCall('query R($id: ID!) { order(id: $id) { id } }', { id: orderGid }, 'shop-c', shopSimulator);
    const wrongType = await graphqlCall('query R($id: ID!) { order(id: $id) { id } }', { id: refundGid }, 'shop-b', shopSimulator);
    const badCursor = await graphqlCall(linesQuery, { id: orderGid, after: 'nope' }, 'shop-b', shopSimulator);
    shopSimulator.setFaults({ orders: 'access_denied' });
    const denied = await graphqlCall('query R($id: ID!) { refund(id: $id) { id } }', { id: refundGid }, 'shop-b', shopSimulator).finally(
      () => shopSimulator.setFaults({ orders: 'ok' }),
    );

    expect(first.body.data.order).toMatchObject({ test: false, taxesIncluded: false });
    expect(first.body.data.order.lineItems.nodes).toEqual([
      { quantity: 1, originalUnitPriceSet: { shopMoney: { amount: '1.00' } }, taxLines: [], discountAllocations: [] },
      {
        quantity: 1,
        originalUnitPriceSet: { shopMoney: { amount: '2.00' } },
        taxLines: [{ priceSet: { shopMoney: { amount: '0.20' } } }],
        discountAllocations: [],
      },
    ]);
    expect(first.body.data.order.lineItems.pageInfo.hasNextPage).toBe(true);
    expect(second.body.data.order.lineItems).toEqual({
      nodes: [
        {
          quantity: 1,
          originalUnitPriceSet: { shopMoney: { amount: '3.00' } },
          taxLines: [],
          discountAllocations: [{ allocatedAmountSet: { shopMoney: { amount: '0.30' } } }],
        },
      ],
      pageInfo: { hasNextPage: false, endCursor: expect.any(String) },
    });
    expect(refund.body.data.refund).toEqual({
      id: refundGid,
      refundLineItems: {
        nodes: [
          {
            subtotalSet: { shopMoney: { amount: '2.00' } },
            totalTaxSet: { shopMoney: { amount: '0.20' } },
            lineItem: { isGiftCard: false },
          },
        ],
      },
    });
    expect(elsewhere.body.data).toEqual({ order: null });
    expect(wrongType.body.errors).toEqual([expect.objectContaining({ message: `Invalid global id '${refundGid}'` })]);
    expect(badCursor.body.errors).toEqual([
      expect.objectContaining({ message: "Invalid cursor 'nope'", extensions: { code: 'BAD_REQUEST' } }),
    ]);
    expect(denied.body).toMatchObject({
      data: { refund: null },
      errors: [{ extensions: { code: 'ACCESS_DENIED', requiredAccess: '`read_orders` access scope.' } }],
    });
  });

  it('refuses a search term it does not understand instead of ignoring it', async () => {
    const response = await fetch(shopSimulator.graphqlEndpoint('shop-b'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'local-token' },
      body: JSON.stringify({ query: 'query { orders(first: 1, query: "status:open") { nodes { id } } }' }),
    });

    expect(((await response.json()) as { errors: unknown[] }).errors).toEqual([
      expect.objectContaining({
        message: "The platform simulator does not support the search term 'status:open'",
        extensions: { code: 'BAD_REQUEST' },
      }),
    ]);
  });
});

describe('platform simulator: orders rung up at POS', () => {
  const order = async (body: Record<string, unknown>) => {
    const response = await fetch(`${simulator.url}/_orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ shop: 'demo', customer_id: '1001', subtotal_price: '24.50', deliver: false, ...body }),
    });
    return { status: response.status, body: (await response.json()) as { order?: Record<string, unknown>; error?: string } };
  };

  it("writes a POS order's shape: source_name pos, its till's location, device and staff user, no landing page", async () => {
    const pos = await order({ source_name: 'pos', location_id: 71540850911, device_id: 3, user_id: 42 });
    expect(pos.status).toBe(201);
    expect(pos.body.order).toMatchObject({
      source_name: 'pos',
      location_id: 71540850911,
      device_id: 3,
      user_id: 42,
      landing_site: null,
      browser_ip: null,
    });
    const defaults = await order({ source_name: 'pos' });
    expect(defaults.body.order).toMatchObject({ source_name: 'pos', location_id: 1, device_id: 1, user_id: null });
    const web = await order({});
    expect(web.body.order).toMatchObject({ source_name: 'web', location_id: null, device_id: null, user_id: null });
  });

  it('refuses a till on a web order and a landing page on a POS order', async () => {
    const till = await order({ location_id: 1 });
    expect(till.status).toBe(400);
    expect(till.body.error).toMatch(/location_id, device_id and user_id belong to a POS order/);
    const landing = await order({ source_name: 'pos', landing_site: '/?ref=FRIEND' });
    expect(landing.status).toBe(400);
    expect(landing.body.error).toMatch(/a POS order has no landing_site/);
    expect((await order({ source_name: 'Point of Sale' })).status).toBe(400);
  });
});
