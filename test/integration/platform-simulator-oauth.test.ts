// The platform simulator as Shopify behaves for an app with client credentials: the client credentials
// grant on both paths, the Admin API refusing what is not a shop's own unexpired token, tokens that live in
// real time (not the domain clock), the token list and its mass expiry, and the access_denied fault.
import { createHmac } from 'node:crypto';
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { createShopifyPlatform } from '../../shared/platform/shopify';
import { discountCodeBasicInput } from '../../shared/platform/shopify-discount-codes';
import { discountCodeInput } from '../fixtures/discount-code-input';

const START = Date.parse('2026-11-24T12:00:00.000Z');
const INVALID_TOKEN = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };
const SCOPES =
  'read_customers,read_customer_merge,read_discounts,write_discounts,write_store_credit_account_transactions,read_store_credit_accounts,read_store_credit_account_transactions,read_orders';
const CALM = {
  customers: 'ok',
  discount_codes: 'ok',
  orders: 'ok',
  store_credit: 'ok',
  klaviyo: 'ok',
  token_lifetime_seconds: 86399,
  bus: 'ok',
} as const;
const CUSTOMER_QUERY = 'query GetCustomer($id: ID!) { customer(id: $id) { id firstName } }';
const ADA = { id: 'gid://shopify/Customer/1001' };

let simulator: PlatformSimulator;
/** Real time as the simulator's tokens see it: tests move it instead of sleeping. */
let realTime = START;
/** The domain clock (the twin's PUT /_clock). */
let domainClock = new Date(START);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw JSON answers
type Json = any;

async function grant(path: string, fields: Record<string, string>, as: 'form' | 'json' = 'form'): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${simulator.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': as === 'form' ? 'application/x-www-form-urlencoded' : 'application/json' },
    body: as === 'form' ? new URLSearchParams(fields).toString() : JSON.stringify(fields),
  });
  return { status: response.status, body: await response.json() };
}

const pairA = { grant_type: 'client_credentials', client_id: 'client-a', client_secret: 'secret-a' };
const pairB = { grant_type: 'client_credentials', client_id: 'client-b', client_secret: 'secret-b' };

/** A token of shop A from its own path. */
async function tokenOfA(): Promise<string> {
  const reply = await grant('/app-a/admin/oauth/access_token', pairA);
  expect(reply.status).toBe(200);
  return reply.body.access_token as string;
}

async function graphql(
  shop: string,
  token: string | null,
  query = CUSTOMER_QUERY,
  variables: Record<string, unknown> = ADA,
): Promise<{ status: number; body: Json }> {
  const response = await fetch(simulator.graphqlEndpoint(shop), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...(token !== null ? { 'X-Shopify-Access-Token': token } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  return { status: response.status, body: await response.json() };
}

async function control(method: string, path: string): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${simulator.url}${path}`, { method });
  return { status: response.status, body: await response.json() };
}

const ada = { id: '1001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: null };

beforeAll(async () => {
  simulator = await startPlatformSimulator({
    port: 0,
    now: () => domainClock,
    realNow: () => realTime,
    shops: {
      'app-a': { client_id: 'client-a', client_secret: 'secret-a', customers: [ada] },
      'app-b': { client_id: 'client-b', client_secret: 'secret-b', customers: [ada] },
      // One app installed in two stores: the same pair.
      'store-1': { client_id: 'shared-client', client_secret: 'shared-secret', customers: [ada] },
      'store-2': { client_id: 'shared-client', client_secret: 'shared-secret', customers: [ada] },
      legacy: { customers: [ada] },
    },
  });
});

afterAll(async () => {
  await simulator.stop();
});

beforeEach(() => {
  realTime = START;
  domainClock = new Date(START);
});

afterEach(() => {
  simulator.setFaults(CALM);
});

describe('platform simulator: the client credentials grant', () => {
  it("grants a token for the right pair on the shop's path, with the store's scopes and the lifetime in force", async () => {
    const reply = await grant('/app-a/admin/oauth/access_token', pairA);
    const served = await graphql('app-a', reply.body.access_token);

    expect(reply).toEqual({
      status: 200,
      body: { access_token: expect.stringMatching(/^shpat_[0-9a-f]{32}$/), scope: SCOPES, expires_in: 86399 },
    });
    expect(served).toMatchObject({ status: 200, body: { data: { customer: { id: ADA.id, firstName: 'Ada' } } } });
  });

  it('grants on the bare path by finding the shop of the client id, and takes a JSON body too', async () => {
    const form = await grant('/admin/oauth/access_token', pairB);
    const json = await grant('/admin/oauth/access_token', pairB, 'json');

    expect(form.status).toBe(200);
    expect(json.status).toBe(200);
    expect(json.body.access_token).not.toBe(form.body.access_token);
    expect((await graphql('app-b', form.body.access_token)).status).toBe(200);
    expect((await graphql('app-b', json.body.access_token)).status).toBe(200);
    expect(simulator.oauthTokens().slice(-2)).toEqual([
      expect.objectContaining({ shop: 'app-b' }),
      expect.objectContaining({ shop: 'app-b' }),
    ]);
  });

  it('serves the Shopify adapter once it carries a granted token', async () => {
    const adapter = createShopifyPlatform({ endpoint: simulator.graphqlEndpoint('app-a'), accessToken: await tokenOfA(), baseDelayMs: 1 });

    expect(await adapter.getCustomer('1001')).toMatchObject({ id: '1001', firstName: 'Ada' });
  });

  it.each([
    ['a wrong secret on the shop path', '/app-a/admin/oauth/access_token', { ...pairA, client_secret: 'secret-b' }],
    ['a wrong secret on the bare path', '/admin/oauth/access_token', { ...pairA, client_secret: 'secret-a ' }],
    ['an unknown client id on the bare path', '/admin/oauth/access_token', { ...pairA, client_id: 'client-z' }],
    ['an unknown client id on the shop path', '/app-a/admin/oauth/access_token', { ...pairA, client_id: 'client-z' }],
    ["another shop's pair on the shop path", '/app-a/admin/oauth/access_token', pairB],
    ['no client secret', '/app-a/admin/oauth/access_token', { grant_type: 'client_credentials', client_id: 'client-a' }],
    ['no client id', '/admin/oauth/access_token', { grant_type: 'client_credentials', client_secret: 'secret-a' }],
    ['a shop without client credentials', '/legacy/admin/oauth/access_token', pairA],
  ])('refuses %s with invalid_client and grants nothing', async (_label, path, fields) => {
    const before = simulator.oauthTokens().length;

    const reply = await grant(path, fields);

    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: 'invalid_client', error_description: expect.any(String) });
    expect(simulator.oauthTokens()).toHaveLength(before);
  });

  it('refuses a grant type other than client_credentials, and a request without one', async () => {
    const other = await grant('/app-a/admin/oauth/access_token', { ...pairA, grant_type: 'authorization_code' });
    const none = await grant('/app-a/admin/oauth/access_token', { client_id: 'client-a', client_secret: 'secret-a' });

    expect(other).toEqual({ status: 400, body: { error: 'unsupported_grant_type', error_description: expect.any(String) } });
    expect(none).toEqual({ status: 400, body: { error: 'invalid_request', error_description: expect.stringMatching(/grant_type/) } });
  });

  it("refuses the bare path for a client id that several shops share, naming them, and grants on each shop's path", async () => {
    const pair = { grant_type: 'client_credentials', client_id: 'shared-client', client_secret: 'shared-secret' };

    const bare = await grant('/admin/oauth/access_token', pair);
    const first = await grant('/store-1/admin/oauth/access_token', pair);
    const second = await grant('/store-2/admin/oauth/access_token', pair);

    expect(bare).toEqual({ status: 400, body: { error: 'invalid_request', error_description: expect.stringMatching(/store-1, store-2/) } });
    expect((await graphql('store-1', first.body.access_token)).status).toBe(200);
    expect((await graphql('store-2', second.body.access_token)).status).toBe(200);
    expect((await graphql('store-2', first.body.access_token)).status).toBe(401);
  });

  it('answers 404 for a shop it does not have and 405 for a GET', async () => {
    const unknown = await grant('/nope/admin/oauth/access_token', pairA);
    const get = await fetch(`${simulator.url}/admin/oauth/access_token`);

    expect(unknown.status).toBe(404);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
  });
});

describe('platform simulator: the Admin API of a shop with client credentials', () => {
  it("answers 401 in Shopify's words without a token, with a made-up one, and with another shop's", async () => {
    const ofB = (await grant('/app-b/admin/oauth/access_token', pairB)).body.access_token as string;

    const replies = [await graphql('app-a', null), await graphql('app-a', 'local-token'), await graphql('app-a', ofB)];

    expect(replies).toEqual([
      { status: 401, body: INVALID_TOKEN },
      { status: 401, body: INVALID_TOKEN },
      { status: 401, body: INVALID_TOKEN },
    ]);
    expect((await graphql('app-b', ofB)).status).toBe(200);
  });

  it('still drops the connection of an unreachable platform before looking at the token', async () => {
    simulator.setFaults({ customers: 'unreachable' });

    await expect(graphql('app-a', null)).rejects.toThrow(/fetch failed/);
  });

  it('refuses a token once its lifetime has run out in real time, but not when the domain clock moves', async () => {
    const token = await tokenOfA();

    domainClock = new Date(START + 3 * 86_400_000);
    const afterClockMoved = await graphql('app-a', token);
    realTime = START + 86_399_000 - 1;
    const lastMoment = await graphql('app-a', token);
    realTime = START + 86_399_000;
    const expired = await graphql('app-a', token);

    expect(afterClockMoved.status).toBe(200);
    expect(lastMoment.status).toBe(200);
    expect(expired).toEqual({ status: 401, body: INVALID_TOKEN });
  });

  it('gives tokens granted after token_lifetime_seconds changes that lifetime, leaving earlier ones theirs', async () => {
    const earlier = await tokenOfA();
    const set = simulator.setFaults({ token_lifetime_seconds: 1 });

    const reply = await grant('/app-a/admin/oauth/access_token', pairA);
    const listed = simulator.oauthTokens().at(-1);
    realTime = START + 999;
    const justBefore = await graphql('app-a', reply.body.access_token);
    realTime = START + 1000;
    const after = await graphql('app-a', reply.body.access_token);
    const earlierAfter = await graphql('app-a', earlier);

    expect(set.token_lifetime_seconds).toBe(1);
    expect(reply.body.expires_in).toBe(1);
    expect(listed).toEqual({ shop: 'app-a', issued_at: '2026-11-24T12:00:00.000Z', expires_at: '2026-11-24T12:00:01.000Z' });
    expect(justBefore.status).toBe(200);
    expect(after.status).toBe(401);
    expect(earlierAfter.status).toBe(200);
  });

  it('takes token_lifetime_seconds on PUT /_faults and echoes it there and on GET', async () => {
    const put = await fetch(`${simulator.url}/_faults`, { method: 'PUT', body: JSON.stringify({ token_lifetime_seconds: 120 }) });
    const get = await control('GET', '/_faults');

    expect(await put.json()).toEqual({ ...CALM, token_lifetime_seconds: 120 });
    expect(get.body).toEqual({ ...CALM, token_lifetime_seconds: 120 });
    expect((await grant('/app-a/admin/oauth/access_token', pairA)).body.expires_in).toBe(120);
  });

  it('lists every grant on GET /_oauth/tokens, one more per grant, without the token text', async () => {
    const before = (await control('GET', '/_oauth/tokens')).body.tokens.length as number;
    const token = await tokenOfA();
    realTime = START + 5000;
    await grant('/admin/oauth/access_token', pairB);

    const response = await fetch(`${simulator.url}/_oauth/tokens`);
    const text = await response.text();
    const { tokens } = JSON.parse(text) as Json;

    expect(tokens).toHaveLength(before + 2);
    expect(tokens.slice(-2)).toEqual([
      { shop: 'app-a', issued_at: '2026-11-24T12:00:00.000Z', expires_at: '2026-11-25T11:59:59.000Z' },
      { shop: 'app-b', issued_at: '2026-11-24T12:00:05.000Z', expires_at: '2026-11-25T12:00:04.000Z' },
    ]);
    expect(text).not.toContain(token);
    expect(text).not.toContain('shpat_');
  });

  it('expires every token granted so far on DELETE /_oauth/tokens, and grants fresh ones afterwards', async () => {
    const ofA = await tokenOfA();
    const ofB = (await grant('/app-b/admin/oauth/access_token', pairB)).body.access_token as string;
    realTime = START + 60_000;

    const deleted = await control('DELETE', '/_oauth/tokens');
    const listed = await control('GET', '/_oauth/tokens');
    const refused = [await graphql('app-a', ofA), await graphql('app-b', ofB)];
    const fresh = await tokenOfA();

    expect(deleted.status).toBe(200);
    expect(deleted.body.tokens.length).toBeGreaterThanOrEqual(2);
    for (const entry of deleted.body.tokens) expect(Date.parse(entry.expires_at)).toBeLessThanOrEqual(START + 60_000);
    expect(deleted.body.tokens.slice(-2)).toEqual([
      { shop: 'app-a', issued_at: '2026-11-24T12:00:00.000Z', expires_at: '2026-11-24T12:01:00.000Z' },
      { shop: 'app-b', issued_at: '2026-11-24T12:00:00.000Z', expires_at: '2026-11-24T12:01:00.000Z' },
    ]);
    expect(listed.body).toEqual(deleted.body);
    expect(refused.map((reply) => reply.status)).toEqual([401, 401]);
    expect((await graphql('app-a', fresh)).status).toBe(200);
  });

  it('answers 405 on /_oauth/tokens for anything but GET and DELETE', async () => {
    const reply = await fetch(`${simulator.url}/_oauth/tokens`, { method: 'POST' });

    expect(reply.status).toBe(405);
    expect(reply.headers.get('allow')).toBe('GET, DELETE');
  });
});

describe('platform simulator: webhooks of a shop with client credentials', () => {
  it('are signed with the client secret unless the shop names a webhook secret', async () => {
    const outcome = await simulator.deliverWebhook('app-a', 'shop/redact', { shop_domain: 'app-a.myshopify.com' });
    const delivery = simulator.webhooks().find((entry) => entry.id === outcome.id)!;

    expect(delivery.headers['X-Shopify-Hmac-Sha256']).toBe(createHmac('sha256', 'secret-a').update(delivery.body, 'utf8').digest('base64'));
  });
});

describe('platform simulator: a shop without client credentials is unchanged', () => {
  it('takes any access token, refuses none with the same 401, and needs no grant', async () => {
    const before = simulator.oauthTokens().length;

    const any = await graphql('legacy', 'local-token');
    const none = await graphql('legacy', null);
    realTime = START + 10 * 86_400_000;
    const later = await graphql('legacy', 'local-token');
    simulator.expireOAuthTokens();
    const afterExpiry = await graphql('legacy', 'local-token');

    expect(any).toMatchObject({ status: 200, body: { data: { customer: { firstName: 'Ada' } } } });
    expect(none).toEqual({ status: 401, body: INVALID_TOKEN });
    expect([later.status, afterExpiry.status]).toEqual([200, 200]);
    expect(simulator.oauthTokens()).toHaveLength(before);
  });
});

const FIND_CODE = `query FindDiscountCode($code: String!) {
  codeDiscountNodeByCode(code: $code) { id }
}`;
const CREATE_CODE = `mutation CreateDiscountCode($input: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $input) { codeDiscountNode { id } userErrors { message } }
}`;
const DELETE_CODE = `mutation DeleteDiscountCode($id: ID!) {
    discountCodeDelete(id: $id) { deletedCodeDiscountId userErrors { message } }
}`;
const ORDERS = `query Orders {
  orders(first: 5) { nodes { id } }
}`;

const codeInput = (code: string) => discountCodeBasicInput(discountCodeInput({ code }));

function scopeError(field: string, scope: string, line: number, column: number) {
  return {
    message: `Access denied for ${field} field. Required access: \`${scope}\` access scope.`,
    locations: [{ line, column }],
    path: [field],
    extensions: {
      code: 'ACCESS_DENIED',
      documentation: 'https://shopify.dev/api/usage/access-scopes',
      requiredAccess: `\`${scope}\` access scope.`,
    },
  };
}

describe('platform simulator: access the store has not granted (access_denied)', () => {
  it('refuses the customer query as protected customer data, with the field null', async () => {
    simulator.setFaults({ customers: 'access_denied' });

    const reply = await graphql('legacy', 'local-token');

    expect(reply).toEqual({
      status: 200,
      body: {
        data: { customer: null },
        errors: [
          {
            message:
              'This app is not approved to access the Customer object. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.',
            extensions: { code: 'ACCESS_DENIED' },
          },
        ],
      },
    });
  });

  it('refuses to find a discount code, naming read_discounts, where the field stands in the document', async () => {
    simulator.setFaults({ discount_codes: 'access_denied' });

    const reply = await graphql('legacy', 'local-token', FIND_CODE, { code: 'ANY' });

    expect(reply).toEqual({
      status: 200,
      body: { errors: [scopeError('codeDiscountNodeByCode', 'read_discounts', 2, 3)], data: { codeDiscountNodeByCode: null } },
    });
  });

  it('refuses to create or delete a code, naming write_discounts, and neither happens', async () => {
    const existing = await graphql('legacy', 'local-token', CREATE_CODE, { input: codeInput('DENIED-KEEP') });
    const existingId = existing.body.data.discountCodeBasicCreate.codeDiscountNode.id as string;
    simulator.setFaults({ discount_codes: 'access_denied' });

    const created = await graphql('legacy', 'local-token', CREATE_CODE, { input: codeInput('DENIED-NEW') });
    const deleted = await graphql('legacy', 'local-token', DELETE_CODE, { id: existingId });

    expect(created.body).toEqual({
      errors: [scopeError('discountCodeBasicCreate', 'write_discounts', 2, 3)],
      data: { discountCodeBasicCreate: null },
    });
    expect(deleted.body).toEqual({
      errors: [scopeError('discountCodeDelete', 'write_discounts', 2, 5)],
      data: { discountCodeDelete: null },
    });
    const codes = simulator.discountCodes().map((entry) => entry.code);
    expect(codes).toContain('DENIED-KEEP');
    expect(codes).not.toContain('DENIED-NEW');
  });

  it('refuses the orders query, naming read_orders', async () => {
    simulator.setFaults({ orders: 'access_denied' });

    const reply = await graphql('legacy', 'local-token', ORDERS, {});

    expect(reply).toEqual({ status: 200, body: { errors: [scopeError('orders', 'read_orders', 2, 3)], data: { orders: null } } });
  });

  it('keys the refused field by its alias, and answers the fields of other areas beside it', async () => {
    simulator.setFaults({ discount_codes: 'access_denied' });
    const document =
      'query Both { found: codeDiscountNodeByCode(code: "X") { id } customer(id: "gid://shopify/Customer/1001") { firstName } }';

    const reply = await graphql('legacy', 'local-token', document, {});

    expect(reply.body).toMatchObject({
      data: { found: null, customer: { firstName: 'Ada' } },
      errors: [{ ...scopeError('codeDiscountNodeByCode', 'read_discounts', 1, 14), path: ['found'] }],
    });
  });

  it('leaves the other areas alone', async () => {
    simulator.setFaults({ customers: 'access_denied' });

    const reply = await graphql('legacy', 'local-token', FIND_CODE, { code: 'NOT-THERE' });

    expect(reply.body).toMatchObject({ data: { codeDiscountNodeByCode: null } });
    expect(reply.body.errors).toBeUndefined();
  });

  it('asks a shop with client credentials for its token first', async () => {
    simulator.setFaults({ customers: 'access_denied' });

    const withoutToken = await graphql('app-a', null);
    const withToken = await graphql('app-a', await tokenOfA());

    expect(withoutToken).toEqual({ status: 401, body: INVALID_TOKEN });
    expect(withToken.body.errors[0].extensions.code).toBe('ACCESS_DENIED');
  });
});
