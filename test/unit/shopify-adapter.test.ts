import { parse, validate } from 'graphql';
import { shopifyAdminSchema } from '../../infra/local/simulator/shopify-admin-schema';
import { PlatformError, PlatformRefusedError, PlatformUnavailableError, type DiscountCodeInput } from '../../shared/platform/port';
import { metrics } from '../../shared/observability/powertools';
import { createShopifyPlatform, type ShopifyPlatformOptions } from '../../shared/platform/shopify';
import { CUSTOMER_QUERY } from '../../shared/platform/shopify-customers';
import {
  DISCOUNT_CODE_BY_CODE_QUERY,
  DISCOUNT_CODE_CREATE_MUTATION,
  DISCOUNT_CODE_DELETE_MUTATION,
} from '../../shared/platform/shopify-discount-codes';
import {
  ORDERS_UPDATED_SINCE_QUERY,
  type ShopifyLineNode,
  type ShopifyOrderNode,
  type ShopifyRefundLineNode,
} from '../../shared/platform/shopify-orders';
import { discountCodeInput } from '../fixtures/discount-code-input';
import { withInvocationDeadline } from '../../shared/runtime/invocation';
import { FINISH_RESERVE_MS } from '../../shared/platform/call-budget';
import { checkRequestsAgainstRealSchema } from '../support/real-admin-schema';

const ENDPOINT = 'https://demo.myshopify.com/admin/api/2026-10/graphql.json';
const TOKEN = 'shpat_super_secret_token';

type Step = Response | Error | ((init: RequestInit) => Promise<Response>);

interface RecordedCall {
  url: string;
  headers: Record<string, string>;
  body: { query: string; variables: Record<string, unknown> };
}

// Every request the adapter sends in these tests must be one Shopify's real schema accepts, variables included.
const checkRequest = checkRequestsAgainstRealSchema();

/** A fetch that plays the given steps in order and records what the adapter sent. */
function scriptedFetch(steps: Step[]) {
  const calls: RecordedCall[] = [];
  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    checkRequest(init?.body);
    calls.push({
      url: String(input),
      headers: init?.headers as Record<string, string>,
      body: JSON.parse(String(init?.body)) as RecordedCall['body'],
    });
    const step = steps.shift();
    if (step === undefined) throw new Error('the script ran out of steps');
    if (step instanceof Error) throw step;
    if (typeof step === 'function') return step(init ?? {});
    return step;
  }) as typeof fetch;
  return { fetchImpl, calls };
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

const customerFound = () =>
  json({
    data: {
      customer: {
        id: 'gid://shopify/Customer/1001',
        firstName: 'Ada',
        lastName: 'Lovelace',
        createdAt: '2024-03-01T10:00:00Z',
        defaultEmailAddress: { emailAddress: 'ada@example.com' },
      },
    },
  });

const throttled = () => json({ errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] });

function platform(fetchImpl: typeof fetch, overrides: Partial<ShopifyPlatformOptions> = {}) {
  return createShopifyPlatform({ endpoint: ENDPOINT, accessToken: TOKEN, baseDelayMs: 1, fetchImpl, ...overrides });
}

const codeInput: DiscountCodeInput = discountCodeInput();

async function caught(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the call to fail');
}

describe('Shopify adapter: customers', () => {
  it('asks for the customer by gid with the access token and maps the answer to the numeric id', async () => {
    const { fetchImpl, calls } = scriptedFetch([customerFound()]);

    const customer = await platform(fetchImpl).getCustomer('1001');

    expect(customer).toEqual({
      id: '1001',
      email: 'ada@example.com',
      firstName: 'Ada',
      lastName: 'Lovelace',
      createdAt: '2024-03-01T10:00:00Z',
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.url).toBe(ENDPOINT);
    expect(calls[0]!.headers['X-Shopify-Access-Token']).toBe(TOKEN);
    expect(calls[0]!.body.query).toMatch(/customer\(id: \$id\)/);
    expect(calls[0]!.body.variables).toEqual({ id: 'gid://shopify/Customer/1001' });
  });

  it('returns null when the platform has no such customer', async () => {
    const { fetchImpl } = scriptedFetch([json({ data: { customer: null } })]);

    const customer = await platform(fetchImpl).getCustomer('404');

    expect(customer).toBeNull();
  });

  it('turns a missing email or name into empty strings', async () => {
    const { fetchImpl } = scriptedFetch([
      json({
        data: { customer: { id: 'gid://shopify/Customer/7', firstName: null, lastName: null, createdAt: null, defaultEmailAddress: null } },
      }),
    ]);

    const customer = await platform(fetchImpl).getCustomer('7');

    expect(customer).toEqual({ id: '7', email: '', firstName: '', lastName: '', createdAt: null });
  });
});

describe('Shopify adapter: retries', () => {
  it.each([
    ['HTTP 429', () => json({ errors: 'Exceeded 2 calls per second' }, 429)],
    ['HTTP 500', () => json({ errors: 'Internal Server Error' }, 500)],
    ['HTTP 503', () => new Response('<html>Service Unavailable</html>', { status: 503 })],
    ['a THROTTLED GraphQL error', throttled],
  ])('retries after %s and returns the answer that follows', async (_label, failure) => {
    const { fetchImpl, calls } = scriptedFetch([failure(), failure(), customerFound()]);

    const customer = await platform(fetchImpl).getCustomer('1001');

    expect(customer?.id).toBe('1001');
    expect(calls).toHaveLength(3);
  });

  it('gives up with PlatformUnavailableError once maxAttempts failures have been seen', async () => {
    const { fetchImpl, calls } = scriptedFetch([json({}, 502), json({}, 502), json({}, 502), json({}, 502)]);

    const error = await caught(platform(fetchImpl, { maxAttempts: 4 }).getCustomer('1001'));

    expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect(error.message).toMatch(/4 attempts/);
    expect(calls).toHaveLength(4);
  });

  it('retries network errors and reports the platform unavailable when they persist', async () => {
    const refused = () => new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED 127.0.0.1:1') });
    const { fetchImpl, calls } = scriptedFetch([refused(), refused(), refused()]);

    const error = await caught(platform(fetchImpl).findDiscountCode('LOYAL-ABC123'));

    expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect(error.message).toMatch(/ECONNREFUSED/);
    expect(calls).toHaveLength(3);
  });

  it('recovers when a network error is followed by an answer', async () => {
    const { fetchImpl, calls } = scriptedFetch([new TypeError('fetch failed'), customerFound()]);

    const customer = await platform(fetchImpl).getCustomer('1001');

    expect(customer?.email).toBe('ada@example.com');
    expect(calls).toHaveLength(2);
  });

  it('abandons an attempt that outlives timeoutMs and retries it', async () => {
    const hang = (init: RequestInit) =>
      new Promise<Response>((_resolve, reject) => {
        init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      });
    const { fetchImpl, calls } = scriptedFetch([hang, hang, hang]);

    const error = await caught(platform(fetchImpl, { timeoutMs: 5 }).getCustomer('1001'));

    expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect(error.message).toMatch(/timed out after 5 ms/);
    expect(calls).toHaveLength(3);
  });

  describe('with fake timers', () => {
    // Response bodies are read through microtasks and nextTick; only the clock is faked.
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());

    it("stops before the function's time limit: an attempt is cut to the time left, and no attempt starts without time", async () => {
      const hang = (init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      const { fetchImpl, calls } = scriptedFetch([hang, hang, hang]);
      // 400 ms of the function's time are left for the platform; each attempt alone may take 3 s.
      const pending = withInvocationDeadline(FINISH_RESERVE_MS + 400, () =>
        caught(platform(fetchImpl, { timeoutMs: 3000, baseDelayMs: 100 }).createDiscountCode(discountCodeInput())),
      );

      await jest.advanceTimersByTimeAsync(400);
      const error = await pending;

      expect(error).toBeInstanceOf(PlatformUnavailableError);
      expect(error.message).toMatch(
        /stopped after 1 attempts: the function's time limit is near; the last attempt: timed out after 400 ms/,
      );
      expect(calls).toHaveLength(1);
    });

    it('waits as long as Retry-After asks on a 429 instead of its own backoff', async () => {
      const { fetchImpl, calls } = scriptedFetch([json({ errors: 'Throttled' }, 429, { 'Retry-After': '1' }), customerFound()]);
      const pending = platform(fetchImpl, { baseDelayMs: 60_000 }).getCustomer('1001');

      await jest.advanceTimersByTimeAsync(999);
      const callsBeforeTheWait = calls.length;
      await jest.advanceTimersByTimeAsync(1);

      expect(callsBeforeTheWait).toBe(1);
      expect((await pending)?.id).toBe('1001');
      expect(calls).toHaveLength(2);
    });

    it('caps a long Retry-After at two seconds', async () => {
      const { fetchImpl, calls } = scriptedFetch([json({ errors: 'Throttled' }, 429, { 'Retry-After': '120' }), customerFound()]);
      const pending = platform(fetchImpl).getCustomer('1001');

      await jest.advanceTimersByTimeAsync(1999);
      const callsBeforeTheCap = calls.length;
      await jest.advanceTimersByTimeAsync(1);

      expect(callsBeforeTheCap).toBe(1);
      expect((await pending)?.id).toBe('1001');
      expect(calls).toHaveLength(2);
    });
  });
});

describe('Shopify adapter: errors that retrying will not fix', () => {
  it.each([
    ['HTTP 401', () => json({ errors: '[API] Invalid API key or access token' }, 401)],
    ['HTTP 404', () => json({ errors: 'Not Found' }, 404)],
    ['a GraphQL error', () => json({ errors: [{ message: "Field 'nope' doesn't exist", extensions: { code: 'undefinedField' } }] })],
    ['a body that is not JSON', () => new Response('<html>oops</html>', { status: 200 })],
  ])('fails at once with PlatformError on %s', async (_label, answer) => {
    const { fetchImpl, calls } = scriptedFetch([answer()]);

    const error = await caught(platform(fetchImpl).getCustomer('1001'));

    expect(error).toBeInstanceOf(PlatformError);
    expect(calls).toHaveLength(1);
  });

  it.each([
    ['a timed-out attempt', 'timeout', true],
    ['a lost connection', 'network', true],
    ['a throttling answer', 'throttled', false],
  ])(
    'says a refusal may not be final when it follows %s (the first attempt may have created the code)',
    async (_label, first, mayHaveApplied) => {
      const hang = (init: RequestInit) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        });
      const refusal = () =>
        json({
          data: {
            discountCodeBasicCreate: {
              codeDiscountNode: null,
              userErrors: [{ field: null, message: 'Internal error', code: 'INTERNAL_ERROR' }],
            },
          },
        });
      const graphqlError = () => json({ errors: [{ message: 'Internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
      const opening = (): Step => (first === 'timeout' ? hang : first === 'network' ? new TypeError('fetch failed') : throttled());

      const [refused, failed, alone] = await Promise.all([
        caught(platform(scriptedFetch([opening(), refusal()]).fetchImpl, { timeoutMs: 5 }).createDiscountCode(codeInput)),
        caught(platform(scriptedFetch([opening(), graphqlError()]).fetchImpl, { timeoutMs: 5 }).createDiscountCode(codeInput)),
        caught(platform(scriptedFetch([refusal()]).fetchImpl).createDiscountCode(codeInput)),
      ]);

      expect([refused, failed, alone].map((error) => error instanceof PlatformError)).toEqual([true, true, true]);
      expect([refused, failed, alone].map((error) => (error as PlatformError).earlierAttemptMayHaveApplied)).toEqual([
        mayHaveApplied,
        mayHaveApplied,
        false,
      ]);
    },
  );

  it('fails with PlatformError when the create mutation reports userErrors', async () => {
    const { fetchImpl, calls } = scriptedFetch([
      json({
        data: {
          discountCodeBasicCreate: {
            codeDiscountNode: null,
            userErrors: [{ field: ['basicCodeDiscount', 'endsAt'], message: 'Ends at must be after starts at', code: 'INVALID' }],
          },
        },
      }),
    ]);

    const error = await caught(platform(fetchImpl).createDiscountCode(codeInput));

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/basicCodeDiscount\.endsAt: Ends at must be after starts at/);
    expect(calls).toHaveLength(1);
  });

  it('fails with PlatformError when the delete mutation reports userErrors', async () => {
    const { fetchImpl } = scriptedFetch([
      json({
        data: {
          discountCodeDelete: {
            deletedCodeDiscountId: null,
            userErrors: [{ field: ['id'], message: 'Discount does not exist', code: 'INVALID' }],
          },
        },
      }),
    ]);

    const error = await caught(platform(fetchImpl).deleteDiscountCode('gid://shopify/DiscountCodeNode/9'));

    expect(error).toBeInstanceOf(PlatformError);
    expect(error.message).toMatch(/Discount does not exist/);
  });

  it('never puts the access token in an error message', async () => {
    const leaky = new TypeError(`fetch failed for X-Shopify-Access-Token: ${TOKEN}`);
    const unavailable = scriptedFetch([leaky, leaky, leaky]);
    const refused = scriptedFetch([json({ errors: `token ${TOKEN} is not valid` }, 401)]);

    const unavailableError = await caught(platform(unavailable.fetchImpl).getCustomer('1001'));
    const refusedError = await caught(platform(refused.fetchImpl).getCustomer('1001'));

    expect(unavailableError).toBeInstanceOf(PlatformUnavailableError);
    expect(refusedError).toBeInstanceOf(PlatformError);
    expect(unavailableError.message).not.toContain(TOKEN);
    expect(refusedError.message).not.toContain(TOKEN);
  });
});

describe('Shopify adapter: access the store has not granted', () => {
  afterEach(() => jest.restoreAllMocks());

  it.each([
    [
      'protected customer data',
      () =>
        json({
          data: { customer: null },
          errors: [
            {
              message:
                'This app is not approved to access the Customer object. See https://shopify.dev/docs/apps/launch/protected-customer-data for more details.',
              extensions: { code: 'ACCESS_DENIED' },
            },
          ],
        }),
      'protected customer data (the Customer object)',
    ],
    [
      'a missing scope',
      () =>
        json({
          data: { customer: null },
          errors: [
            {
              message: 'Access denied for customer field. Required access: `read_customers` access scope.',
              extensions: { code: 'ACCESS_DENIED', requiredAccess: '`read_customers` access scope.' },
            },
          ],
        }),
      '`read_customers` access scope',
    ],
    ['HTTP 403', () => json({ errors: 'Forbidden' }, 403), 'the access getCustomer needs'],
  ])('%s is refused at once, named, logged at ERROR and counted, never retried', async (_label, answer, missing) => {
    const { fetchImpl, calls } = scriptedFetch([answer(), answer(), answer()]);
    const counted = jest.spyOn(metrics, 'addMetric');

    const error = (await caught(platform(fetchImpl).getCustomer('1001'))) as PlatformRefusedError;

    expect(error).toBeInstanceOf(PlatformRefusedError);
    expect(error.reason).toBe('access_denied');
    expect(error.callerDetail).toContain(missing);
    expect(calls).toHaveLength(1);
    expect(counted).toHaveBeenCalledWith('PlatformAccessDenied', 'Count', 1);
  });
});

describe('Shopify adapter: discount codes', () => {
  it('creates a fixed-amount code for one customer, usable once, and returns its id', async () => {
    const { fetchImpl, calls } = scriptedFetch([
      json({ data: { discountCodeBasicCreate: { codeDiscountNode: { id: 'gid://shopify/DiscountCodeNode/1' }, userErrors: [] } } }),
    ]);

    const code = await platform(fetchImpl).createDiscountCode(codeInput);

    expect(code).toEqual({ id: 'gid://shopify/DiscountCodeNode/1', code: 'LOYAL-ABC123' });
    expect(calls[0]!.body.query).toMatch(/discountCodeBasicCreate\(basicCodeDiscount: \$input\)/);
    expect(calls[0]!.body.variables).toEqual({
      input: {
        title: '$5 off',
        code: 'LOYAL-ABC123',
        startsAt: '2025-06-01T00:00:00.000Z',
        endsAt: null,
        context: { customers: { add: ['gid://shopify/Customer/1001'] } },
        customerGets: { value: { discountAmount: { amount: '5', appliesOnEachItem: false } }, items: { all: true } },
        minimumRequirement: null,
        usageLimit: 1,
        appliesOncePerCustomer: true,
      },
    });
  });

  it('sends a percentage as a fraction of one and a minimum spend as a subtotal requirement', async () => {
    const { fetchImpl, calls } = scriptedFetch([
      json({ data: { discountCodeBasicCreate: { codeDiscountNode: { id: 'gid://shopify/DiscountCodeNode/2' }, userErrors: [] } } }),
    ]);

    await platform(fetchImpl).createDiscountCode({ ...codeInput, discountType: 'percentage', amount: 15, minimumSpend: 50 });

    const input = calls[0]!.body.variables.input as Record<string, unknown>;
    expect(input.customerGets).toEqual({ value: { percentage: 0.15 }, items: { all: true } });
    expect(input.minimumRequirement).toEqual({ subtotal: { greaterThanOrEqualToSubtotal: '50' } });
  });

  it.each([
    ['the TAKEN code', { field: ['basicCodeDiscount', 'code'], message: 'Code is already taken', code: 'TAKEN' }],
    [
      'a "must be unique" message',
      { field: ['basicCodeDiscount', 'code'], message: 'Code must be unique. Please try a different code.', code: null },
    ],
  ])('returns the existing code when the platform answers with %s', async (_label, userError) => {
    const { fetchImpl, calls } = scriptedFetch([
      json({ data: { discountCodeBasicCreate: { codeDiscountNode: null, userErrors: [userError] } } }),
      json({
        data: {
          codeDiscountNodeByCode: {
            id: 'gid://shopify/DiscountCodeNode/1',
            codeDiscount: { codes: { nodes: [{ code: 'LOYAL-ABC123' }] } },
          },
        },
      }),
    ]);

    const code = await platform(fetchImpl).createDiscountCode(codeInput);

    expect(code).toEqual({ id: 'gid://shopify/DiscountCodeNode/1', code: 'LOYAL-ABC123' });
    expect(calls).toHaveLength(2);
    expect(calls[1]!.body.query).toMatch(/codeDiscountNodeByCode\(code: \$code\)/);
    expect(calls[1]!.body.variables).toEqual({ code: 'LOYAL-ABC123' });
  });

  it('finds a code by its text, or null when there is none', async () => {
    const { fetchImpl } = scriptedFetch([
      json({
        data: {
          codeDiscountNodeByCode: { id: 'gid://shopify/DiscountCodeNode/3', codeDiscount: { codes: { nodes: [{ code: 'LOYAL-XYZ' }] } } },
        },
      }),
      json({ data: { codeDiscountNodeByCode: null } }),
    ]);
    const adapter = platform(fetchImpl);

    const found = await adapter.findDiscountCode('loyal-xyz');
    const missing = await adapter.findDiscountCode('NOPE');

    expect(found).toEqual({ id: 'gid://shopify/DiscountCodeNode/3', code: 'LOYAL-XYZ' });
    expect(missing).toBeNull();
  });

  it('deletes a code by its platform id', async () => {
    const { fetchImpl, calls } = scriptedFetch([
      json({ data: { discountCodeDelete: { deletedCodeDiscountId: 'gid://shopify/DiscountCodeNode/3', userErrors: [] } } }),
    ]);

    await platform(fetchImpl).deleteDiscountCode('gid://shopify/DiscountCodeNode/3');

    expect(calls[0]!.body.query).toMatch(/discountCodeDelete\(id: \$id\)/);
    expect(calls[0]!.body.variables).toEqual({ id: 'gid://shopify/DiscountCodeNode/3' });
  });
});

describe('Shopify adapter: documents against the Admin API 2026-10 schema subset', () => {
  const documents: Array<[string, string]> = [
    ['customer query', CUSTOMER_QUERY],
    ['discount code create mutation', DISCOUNT_CODE_CREATE_MUTATION],
    ['discount code lookup query', DISCOUNT_CODE_BY_CODE_QUERY],
    ['discount code delete mutation', DISCOUNT_CODE_DELETE_MUTATION],
    ['orders query', ORDERS_UPDATED_SINCE_QUERY],
  ];

  it.each(documents)('the %s is valid', (_label, document) => {
    const errors = validate(shopifyAdminSchema(), parse(document));

    expect(errors.map((error) => error.message)).toEqual([]);
  });

  it('would refuse a misspelt field or an argument the API does not take', () => {
    const misspelt = CUSTOMER_QUERY.replace('firstName', 'firstname');
    const wrongArgument = ORDERS_UPDATED_SINCE_QUERY.replace('sortKey: UPDATED_AT', 'sort: UPDATED_AT');
    const deprecatedInput =
      'mutation { discountCodeBasicCreate(basicCodeDiscount: { customerSelection: { all: true } }) { userErrors { message } } }';

    const messages = [misspelt, wrongArgument, deprecatedInput].map((document) =>
      validate(shopifyAdminSchema(), parse(document))
        .map((error) => error.message)
        .join('; '),
    );

    expect(messages[0]).toMatch(/Cannot query field "firstname" on type "Customer"/);
    expect(messages[1]).toMatch(/Unknown argument "sort" on field "QueryRoot.orders"/);
    expect(messages[2]).toMatch(/"customerSelection" is not defined by type "DiscountCodeBasicInput"/);
  });
});

describe('Shopify adapter: throttling', () => {
  beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] }));
  afterEach(() => jest.useRealTimers());

  it('waits until the bucket refills as the top-level cost extension says, then retries', async () => {
    // 150 points asked, 50 left, 100 restored a second: one second to wait.
    const throttledWithCost = json({
      errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED', documentation: 'https://shopify.dev/api/usage/rate-limits' } }],
      extensions: {
        cost: {
          requestedQueryCost: 150,
          actualQueryCost: null,
          throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 50, restoreRate: 100 },
        },
      },
    });
    const { fetchImpl, calls } = scriptedFetch([throttledWithCost, customerFound()]);
    const pending = platform(fetchImpl, { baseDelayMs: 60_000 }).getCustomer('1001');

    await jest.advanceTimersByTimeAsync(999);
    const callsBeforeTheBucketRefilled = calls.length;
    await jest.advanceTimersByTimeAsync(1);

    expect(callsBeforeTheBucketRefilled).toBe(1);
    expect((await pending)?.id).toBe('1001');
    expect(calls).toHaveLength(2);
  });
});

const moneyOf = (amount: string) => ({ shopMoney: { amount } });
const connection = <T>(nodes: T[], endCursor: string | null = null) => ({
  nodes,
  pageInfo: { hasNextPage: endCursor !== null, endCursor },
});
const lineNode = (price: string, fields: Partial<ShopifyLineNode> = {}): ShopifyLineNode => ({
  isGiftCard: false,
  quantity: 1,
  originalUnitPriceSet: moneyOf(price),
  discountAllocations: [],
  taxLines: [],
  ...fields,
});
const refundLineNode = (subtotal: string, tax = '0.00'): ShopifyRefundLineNode => ({
  subtotalSet: moneyOf(subtotal),
  totalTaxSet: moneyOf(tax),
  lineItem: { isGiftCard: false },
});

const orderNode = (overrides: Partial<ShopifyOrderNode> = {}): ShopifyOrderNode => ({
  id: 'gid://shopify/Order/5000000001',
  legacyResourceId: '5000000001',
  name: '#1001',
  createdAt: '2027-01-15T10:00:00Z',
  processedAt: '2027-01-15T10:00:00Z',
  updatedAt: '2027-01-16T09:30:00Z',
  cancelledAt: null,
  test: false,
  sourceName: 'pos',
  taxesIncluded: false,
  displayFinancialStatus: 'PARTIALLY_REFUNDED',
  discountCodes: ['LOYAL-ABC123'],
  customer: { id: 'gid://shopify/Customer/1001' },
  subtotalPriceSet: { shopMoney: { amount: '120.0', currencyCode: 'USD' } },
  currentSubtotalPriceSet: { shopMoney: { amount: '79.5', currencyCode: 'USD' } },
  customAttributes: [
    { key: 'referral_code', value: 'FRIEND1' },
    { key: 'gift', value: null },
  ],
  customerJourneySummary: {
    firstVisit: { landingPage: 'https://demo.myshopify.com/?ref=FRIEND1', referralCode: 'FRIEND1' },
    lastVisit: { landingPage: 'https://demo.myshopify.com/cart', referralCode: null },
  },
  lineItems: { nodes: [lineNode('100.00'), lineNode('20.00')], pageInfo: { hasNextPage: false, endCursor: null } },
  refunds: [{ id: 'gid://shopify/Refund/9' }],
  ...overrides,
});

/** A refund as the order's refunds follow-up gives it: its id and its order adjustments (amounts). */
const refundEntry = (id: number, adjustments: string[] = [], endCursor: string | null = null) => ({
  id: `gid://shopify/Refund/${id}`,
  orderAdjustments: connection(
    adjustments.map((amount) => ({ amountSet: moneyOf(amount) })),
    endCursor,
  ),
});

/** The follow-up answers for orderNode()'s refund: its id, then its one line of 40.50. */
const refundOf40_50 = () => [
  json({ data: { order: { refunds: [refundEntry(9)] } } }),
  json({ data: { refund: { refundLineItems: connection([refundLineNode('40.50')]) } } }),
];

const ordersPage = (nodes: ShopifyOrderNode[], endCursor: string | null, hasNextPage: boolean) =>
  json({
    data: { orders: { nodes, pageInfo: { hasNextPage, endCursor } } },
    extensions: {
      cost: {
        requestedQueryCost: 102,
        actualQueryCost: 12,
        throttleStatus: { maximumAvailable: 2000, currentlyAvailable: 1988, restoreRate: 100 },
      },
    },
  });

describe('Shopify adapter: orders updated since a watermark', () => {
  it('asks for orders updated at or after the watermark, by update time, and maps them to the neutral order', async () => {
    const { fetchImpl, calls } = scriptedFetch([ordersPage([orderNode()], 'cursor-1', true), ...refundOf40_50()]);

    const page = await platform(fetchImpl, { ordersPageSize: 25 }).listOrdersUpdatedSince('2027-01-15T00:00:00.000Z');

    expect(calls[0]!.body.query).toMatch(/orders\(first: \$first, after: \$after, query: \$query, sortKey: UPDATED_AT\)/);
    expect(calls[0]!.body.variables).toEqual({ first: 25, after: null, query: "updated_at:>='2027-01-15T00:00:00.000Z'" });
    expect(page).toEqual({
      orders: [
        {
          id: '5000000001',
          name: '#1001',
          customerId: '1001',
          eligibleSubtotal: '120.00',
          refundedEligible: '40.50',
          refunds: [{ id: '9', taken: '40.50' }],
          taxesIncluded: false,
          currency: 'USD',
          processedAt: '2027-01-15T10:00:00.000Z',
          updatedAt: '2027-01-16T09:30:00.000Z',
          cancelledAt: null,
          discountCodes: ['LOYAL-ABC123'],
          landingSite: '/?ref=FRIEND1',
          referralCode: 'FRIEND1',
          noteAttributes: [
            { name: 'referral_code', value: 'FRIEND1' },
            { name: 'gift', value: '' },
          ],
          financialStatus: 'partially_refunded',
          test: false,
          sourceName: 'pos',
        },
      ],
      nextCursor: 'cursor-1',
    });
  });

  it('passes the cursor back for the next page and reports the last page with a null cursor', async () => {
    const { fetchImpl, calls } = scriptedFetch([
      ordersPage(
        [
          orderNode({
            legacyResourceId: '5000000002',
            customer: null,
            customerJourneySummary: null,
            subtotalPriceSet: null,
            lineItems: connection([lineNode('79.50')]),
            refunds: [],
          }),
        ],
        'cursor-2',
        false,
      ),
    ]);

    const page = await platform(fetchImpl).listOrdersUpdatedSince('2027-01-15T00:00:00.000Z', 'cursor-1');

    expect(calls[0]!.body.variables).toMatchObject({ first: 10, after: 'cursor-1' });
    expect(page.nextCursor).toBeNull();
    expect(page.orders[0]).toMatchObject({
      id: '5000000002',
      customerId: null,
      landingSite: null,
      eligibleSubtotal: '79.50',
      refundedEligible: '0.00',
    });
  });

  it('reads the lines and refunds a page does not hold with follow-up queries before mapping the order', async () => {
    // Inline: one line (more follow) and the sign that the order has refunds. The order: 3 lines of 10.00
    // (one a gift card), 20 % tax included; two refunds, the first with two pages of lines.
    const taxed = (price: string) => lineNode(price, { taxLines: [{ priceSet: moneyOf('1.67') }] });
    const { fetchImpl, calls } = scriptedFetch([
      ordersPage(
        [
          orderNode({
            taxesIncluded: true,
            subtotalPriceSet: { shopMoney: { amount: '30.00', currencyCode: 'EUR' } },
            currentSubtotalPriceSet: { shopMoney: { amount: '10.00', currencyCode: 'EUR' } },
            lineItems: connection([taxed('10.00')], 'lines-1'),
            refunds: [{ id: 'gid://shopify/Refund/1' }],
          }),
        ],
        null,
        false,
      ),
      json({ data: { order: { lineItems: connection([taxed('10.00'), lineNode('10.00', { isGiftCard: true })]) } } }),
      json({
        data: {
          order: {
            refunds: [refundEntry(1), refundEntry(6)],
          },
        },
      }),
      json({ data: { refund: { refundLineItems: connection([refundLineNode('10.00', '1.67')], 'refund-lines-1') } } }),
      json({ data: { refund: { refundLineItems: connection([refundLineNode('10.00', '1.67')]) } } }),
      json({ data: { refund: { refundLineItems: connection([{ ...refundLineNode('10.00'), lineItem: { isGiftCard: true } }]) } } }),
    ]);

    const page = await platform(fetchImpl).listOrdersUpdatedSince('2027-01-15T00:00:00.000Z');

    expect(calls.map((call) => /^(query|mutation) (\w+)/.exec(call.body.query)?.[2])).toEqual([
      'OrdersUpdatedSince',
      'OrderLineItems',
      'OrderRefunds',
      'RefundLineItems',
      'RefundLineItems',
      'RefundLineItems',
    ]);
    expect(calls[1]!.body.variables).toEqual({ id: 'gid://shopify/Order/5000000001', first: 50, after: 'lines-1' });
    expect(calls[2]!.body.variables).toEqual({ id: 'gid://shopify/Order/5000000001' });
    expect(calls.slice(3).map((call) => call.body.variables)).toEqual([
      { id: 'gid://shopify/Refund/1', first: 50, after: null },
      { id: 'gid://shopify/Refund/1', first: 50, after: 'refund-lines-1' },
      { id: 'gid://shopify/Refund/6', first: 50, after: null },
    ]);
    // 30.00 - 2 × 1.67 tax - 10.00 gift card = 16.66; refunded: two taxed lines of 10.00 less 1.67 each, the gift card not.
    expect(page.orders[0]).toMatchObject({ eligibleSubtotal: '16.66', refundedEligible: '16.66', taxesIncluded: true, currency: 'EUR' });
  });

  it('counts a refund created after the order was last updated on the page: a refund is known by its id', async () => {
    // The page shows the order as it was at 09:30 (one refund); a second refund came between the page and the
    // follow-up read. It counts here; its own refunds/create, known by the same id, then changes nothing.
    const { fetchImpl, calls } = scriptedFetch([
      ordersPage([orderNode()], null, false),
      json({ data: { order: { refunds: [refundEntry(9), refundEntry(12)] } } }),
      json({ data: { refund: { refundLineItems: connection([refundLineNode('40.50')]) } } }),
      json({ data: { refund: { refundLineItems: connection([refundLineNode('20.00')]) } } }),
    ]);

    const page = await platform(fetchImpl).listOrdersUpdatedSince('2027-01-15T00:00:00.000Z');

    expect(calls.map((call) => call.body.variables.id)).toEqual([
      undefined,
      'gid://shopify/Order/5000000001',
      'gid://shopify/Refund/9',
      'gid://shopify/Refund/12',
    ]);
    expect(page.orders[0]).toMatchObject({
      refundedEligible: '60.50',
      refunds: [
        { id: '9', taken: '40.50' },
        { id: '12', taken: '20.00' },
      ],
    });
  });

  it("takes each refund's order adjustments off its lines, reading the adjustments a refund has beyond its first page", async () => {
    // Refund 9: its line of 40.50 returned 30.50 (a discrepancy of 10.00, then one of 5.00 on the next page):
    // it takes 25.50. Refund 12, no line: 5.85 went back, a discrepancy of -5.85.
    const { fetchImpl, calls } = scriptedFetch([
      ordersPage([orderNode()], null, false),
      json({ data: { order: { refunds: [refundEntry(9, ['10.00'], 'adjustments-1'), refundEntry(12, ['-5.85'])] } } }),
      json({ data: { refund: { orderAdjustments: connection([{ amountSet: moneyOf('5.00') }]) } } }),
      json({ data: { refund: { refundLineItems: connection([refundLineNode('40.50')]) } } }),
      json({ data: { refund: { refundLineItems: connection([]) } } }),
    ]);

    const page = await platform(fetchImpl).listOrdersUpdatedSince('2027-01-15T00:00:00.000Z');

    expect(calls.map((call) => /^(query|mutation) (\w+)/.exec(call.body.query)?.[2])).toEqual([
      'OrdersUpdatedSince',
      'OrderRefunds',
      'RefundAdjustments',
      'RefundLineItems',
      'RefundLineItems',
    ]);
    expect(calls[2]!.body.variables).toEqual({ id: 'gid://shopify/Refund/9', first: 10, after: 'adjustments-1' });
    expect(page.orders[0]).toMatchObject({
      refundedEligible: '31.35',
      refunds: [
        { id: '9', taken: '25.50' },
        { id: '12', taken: '5.85' },
      ],
    });
  });

  it('retries a throttled page and returns the page that follows', async () => {
    const { fetchImpl, calls } = scriptedFetch([throttled(), ordersPage([orderNode()], null, false), ...refundOf40_50()]);

    const page = await platform(fetchImpl).listOrdersUpdatedSince('2027-01-15T00:00:00.000Z');

    expect(calls).toHaveLength(4); // the throttled try, the page again, the refund follow-ups
    expect(page.orders).toHaveLength(1);
  });

  it('refuses a watermark that is not a timestamp before sending anything', async () => {
    const { fetchImpl, calls } = scriptedFetch([]);

    const error = await caught(platform(fetchImpl).listOrdersUpdatedSince("yesterday' OR 1=1"));

    expect(error.message).toMatch(/not an ISO 8601 timestamp/);
    expect(calls).toHaveLength(0);
  });
});
