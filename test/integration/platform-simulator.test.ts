import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/platform-simulator';
import { PlatformError, PlatformUnavailableError, type DiscountCodeInput, type Platform } from '../../shared/platform/port';
import { createShopifyPlatform } from '../../shared/platform/shopify';
import { discountCodeInput } from '../fixtures/discount-code-input';
import { failureOf } from '../support/failure';

let simulator: PlatformSimulator;

function adapterFor(shopId: string, accessToken = 'local-token'): Platform {
  return createShopifyPlatform({
    endpoint: simulator.graphqlEndpoint(shopId),
    accessToken,
    timeoutMs: 2000,
    baseDelayMs: 1,
  });
}

const codeInput = (code: string, overrides: Partial<DiscountCodeInput> = {}) => discountCodeInput({ code, endsAt: '2025-07-01T00:00:00.000Z', ...overrides });

async function putFaults(body: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${simulator.url}/_faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function listedCodes(): Promise<Array<Record<string, unknown>>> {
  const response = await fetch(`${simulator.url}/_discount_codes`);
  const body = (await response.json()) as { discount_codes: Array<Record<string, unknown>> };
  return body.discount_codes;
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

afterEach(() => {
  simulator.setFaults({ customers: 'ok', discount_codes: 'ok' });
});

describe('platform simulator: customers', () => {
  it('serves a seeded customer to the Shopify adapter', async () => {
    const customer = await adapterFor('demo').getCustomer('1001');

    expect(customer).toEqual({ id: '1001', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace', createdAt: '2024-03-01T10:00:00.000Z' });
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

    expect(listed).toMatchObject({ type: 'percentage', amount: 15, minimum_spend: 0, ends_at: null });
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
    const error = await failureOf(adapterFor('demo').deleteDiscountCode('gid://shopify/DiscountCodeNode/999999'));

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/Discount does not exist/);
  });

  it('refuses a code without a code or a customer', async () => {
    const error = await failureOf(adapterFor('demo').createDiscountCode(codeInput('', { customerId: '' })));

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/basicCodeDiscount\.code/);
    expect(error.message).toMatch(/basicCodeDiscount\.customerSelection/);
  });
});

describe('platform simulator: faults', () => {
  it('makes the customer query fail with a PlatformError in error mode, leaving codes alone', async () => {
    simulator.setFaults({ customers: 'error' });

    const error = await failureOf(adapterFor('demo').getCustomer('1001'));
    const code = await adapterFor('demo').findDiscountCode('NOT-THERE');

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/Internal error/);
    expect(code).toBeNull();
  });

  it('makes customers unavailable in unreachable mode', async () => {
    simulator.setFaults({ customers: 'unreachable' });

    const error = await failureOf(adapterFor('demo').getCustomer('1001'));

    expect(error).toBeInstanceOf(PlatformUnavailableError);
  });

  it('makes every discount code operation fail with a PlatformError in error mode, creating nothing', async () => {
    const existing = await adapterFor('demo').createDiscountCode(codeInput('FAULT-KEEP'));
    simulator.setFaults({ discount_codes: 'error' });
    const adapter = adapterFor('demo');

    const errors = await Promise.all([
      failureOf(adapter.createDiscountCode(codeInput('FAULT-1'))),
      failureOf(adapter.findDiscountCode('FAULT-KEEP')),
      failureOf(adapter.deleteDiscountCode(existing.id)),
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
      failureOf(adapter.createDiscountCode(codeInput('FAULT-2'))),
      failureOf(adapter.findDiscountCode('FAULT-2')),
      failureOf(adapter.deleteDiscountCode('gid://shopify/DiscountCodeNode/1')),
    ]);

    for (const error of errors) expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect(simulator.discountCodes().map((entry) => entry.code)).not.toContain('FAULT-2');
  });
});

describe('platform simulator: control endpoints and requests it refuses', () => {
  it('echoes the modes in force after PUT /_faults, keeping the keys left out', async () => {
    const first = await putFaults(JSON.stringify({ customers: 'error' }));
    const second = await putFaults(JSON.stringify({ discount_codes: 'unreachable' }));
    const current = await (await fetch(`${simulator.url}/_faults`)).json();

    expect(first).toEqual({ status: 200, body: { customers: 'error', discount_codes: 'ok' } });
    expect(second).toEqual({ status: 200, body: { customers: 'error', discount_codes: 'unreachable' } });
    expect(current).toEqual({ customers: 'error', discount_codes: 'unreachable' });
  });

  it.each([
    ['an unknown mode', JSON.stringify({ customers: 'broken' })],
    ['an unknown key', JSON.stringify({ orders: 'error' })],
    ['a body that is not an object', JSON.stringify(['error'])],
    ['a body that is not JSON', 'customers=error'],
  ])('refuses %s on PUT /_faults with 400 and changes nothing', async (_label, body) => {
    const reply = await putFaults(body);

    expect(reply.status).toBe(400);
    expect(reply.body.error).toEqual(expect.any(String));
    expect(simulator.faults()).toEqual({ customers: 'ok', discount_codes: 'ok' });
  });

  it('answers 404 for a shop it does not know, which the adapter reports as a PlatformError', async () => {
    const raw = await fetch(simulator.graphqlEndpoint('nope'), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'local-token' },
      body: JSON.stringify({ query: '{ shop { name } }' }),
    });

    const error = await failureOf(adapterFor('nope').getCustomer('1001'));

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
    expect(await raw.json()).toEqual({ errors: '[API] Invalid API key or access token' });
  });
});
