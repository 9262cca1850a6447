// The Shopify adapter's side of the reward kinds peers give, over a scripted fetch whose every request is checked
// against Shopify's real Admin schema (variables included): free-shipping and one-variant codes, and store
// credit sent once: a credit or debit is never sent again after an attempt that may have reached Shopify (no
// idempotency key exists for it), only after answers that prove nothing was done, while reads retry as usual.
import { PlatformUnavailableError, StoreCreditRefusedError } from '../../shared/platform/port';
import { createShopifyPlatform } from '../../shared/platform/shopify';
import { discountCodeInput } from '../fixtures/discount-code-input';
import { checkRequestsAgainstRealSchema } from '../support/real-admin-schema';

const ENDPOINT = 'https://demo.myshopify.com/admin/api/2026-10/graphql.json';
const checkRequest = checkRequestsAgainstRealSchema();

type Step = Response | Error;

function scriptedFetch(steps: Step[]) {
  const bodies: Array<{ query: string; variables: Record<string, unknown> }> = [];
  const fetchImpl = (async (_input: string | URL | Request, init?: RequestInit) => {
    checkRequest(init?.body);
    bodies.push(JSON.parse(String(init?.body)) as { query: string; variables: Record<string, unknown> });
    const step = steps.shift();
    if (step === undefined) throw new Error('the script ran out of steps');
    if (step instanceof Error) throw step;
    return step;
  }) as typeof fetch;
  return { fetchImpl, bodies };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
const platform = (fetchImpl: typeof fetch) =>
  createShopifyPlatform({ endpoint: ENDPOINT, accessToken: 'shpat_token', baseDelayMs: 1, maxAttempts: 3, fetchImpl });

const credited = (id = 'gid://shopify/StoreCreditAccountCreditTransaction/7') =>
  json({
    data: {
      storeCreditAccountCredit: {
        storeCreditAccountTransaction: {
          id,
          amount: { amount: '5.0', currencyCode: 'USD' },
          createdAt: '2026-11-24T12:00:01Z',
          expiresAt: '2026-12-24T12:00:00Z',
        },
        userErrors: [],
      },
    },
  });
const throttled = () => json({ errors: [{ message: 'Throttled', extensions: { code: 'THROTTLED' } }] });
const credit = { customerId: '1001', amount: 5, currency: 'USD', expiresAt: '2026-12-24T12:00:00.000Z' };

describe('the Shopify adapter: free-shipping and free-product codes', () => {
  it('creates a free-shipping code with the cap as maximumShippingPrice, for the member alone, once', async () => {
    const { fetchImpl, bodies } = scriptedFetch([
      json({ data: { discountCodeFreeShippingCreate: { codeDiscountNode: { id: 'gid://shopify/DiscountCodeNode/1' }, userErrors: [] } } }),
    ]);

    const code = await platform(fetchImpl).createDiscountCode(discountCodeInput({ discountType: 'free_shipping', amount: 12.5 }));

    expect(code).toEqual({ id: 'gid://shopify/DiscountCodeNode/1', code: 'LOYAL-ABC123' });
    expect(bodies[0]!.query).toContain('discountCodeFreeShippingCreate(freeShippingCodeDiscount: $input)');
    expect(bodies[0]!.variables.input).toMatchObject({
      maximumShippingPrice: '12.5',
      destination: { all: true },
      context: { customers: { add: ['gid://shopify/Customer/1001'] } },
      usageLimit: 1,
      appliesOncePerCustomer: true,
    });
  });

  it("creates a free-product code: the variant alone, one unit's price, not on each item", async () => {
    const { fetchImpl, bodies } = scriptedFetch([
      json({ data: { discountCodeBasicCreate: { codeDiscountNode: { id: 'gid://shopify/DiscountCodeNode/2' }, userErrors: [] } } }),
    ]);

    await platform(fetchImpl).createDiscountCode(discountCodeInput({ discountType: 'free_product', amount: 35, productVariantId: '4401' }));

    expect(bodies[0]!.variables.input).toMatchObject({
      customerGets: {
        value: { discountAmount: { amount: '35', appliesOnEachItem: false } },
        items: { products: { productVariantsToAdd: ['gid://shopify/ProductVariant/4401'] } },
      },
    });
  });
});

describe('the Shopify adapter: store credit sent once', () => {
  it('credits the customer in the currency with the expiry, and answers the transaction', async () => {
    const { fetchImpl, bodies } = scriptedFetch([credited()]);

    const transaction = await platform(fetchImpl).creditStoreCredit(credit);

    expect(transaction).toEqual({
      id: 'gid://shopify/StoreCreditAccountCreditTransaction/7',
      kind: 'credit',
      amount: '5.0',
      currency: 'USD',
      createdAt: '2026-11-24T12:00:01Z',
      expiresAt: '2026-12-24T12:00:00Z',
    });
    expect(bodies[0]!.variables).toEqual({
      id: 'gid://shopify/Customer/1001',
      creditInput: { creditAmount: { amount: '5', currencyCode: 'USD' }, expiresAt: '2026-12-24T12:00:00.000Z' },
    });
  });

  it.each([
    ['a lost connection', () => new TypeError('fetch failed')],
    ['an HTTP 503', () => json({}, 503)],
  ])('does not send a credit again after %s: one attempt, and the outcome is unknown', async (_what, failure) => {
    const { fetchImpl, bodies } = scriptedFetch([failure(), credited()]);

    const error = await platform(fetchImpl)
      .creditStoreCredit(credit)
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(PlatformUnavailableError);
    expect((error as Error).message).toMatch(/may or may not have been applied/);
    expect(bodies).toHaveLength(1);
  });

  it('sends it again after a throttled answer, which proves nothing was done', async () => {
    const { fetchImpl, bodies } = scriptedFetch([throttled(), credited()]);

    expect((await platform(fetchImpl).creditStoreCredit(credit)).id).toMatch(/CreditTransaction\/7$/);
    expect(bodies).toHaveLength(2);
  });

  it("reports Shopify's refusal of a debit with its code: nothing was done", async () => {
    const { fetchImpl } = scriptedFetch([
      json({
        data: {
          storeCreditAccountDebit: {
            storeCreditAccountTransaction: null,
            userErrors: [
              {
                field: ['debitInput', 'debitAmount', 'amount'],
                message: 'The store credit account does not have sufficient funds.',
                code: 'INSUFFICIENT_FUNDS',
              },
            ],
          },
        },
      }),
    ]);

    const error = await platform(fetchImpl)
      .debitStoreCredit({ customerId: '1001', amount: 5, currency: 'USD' })
      .catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(StoreCreditRefusedError);
    expect(error).toMatchObject({ code: 'INSUFFICIENT_FUNDS' });
  });

  it("lists the transactions of the account in the shop's currency, newest first, and retries that read", async () => {
    const node = (typename: string, id: string, amount: string, extra: Record<string, unknown> = {}) => ({
      __typename: typename,
      id,
      amount: { amount, currencyCode: 'USD' },
      createdAt: '2026-11-24T12:00:00Z',
      ...extra,
    });
    const { fetchImpl, bodies } = scriptedFetch([
      new TypeError('fetch failed'),
      json({
        data: {
          customer: {
            storeCreditAccounts: {
              nodes: [
                { balance: { currencyCode: 'EUR' }, transactions: { nodes: [] } },
                {
                  balance: { currencyCode: 'USD' },
                  transactions: {
                    nodes: [
                      node('StoreCreditAccountDebitTransaction', 'gid://shopify/StoreCreditAccountDebitTransaction/9', '-5.0'),
                      node('StoreCreditAccountCreditTransaction', 'gid://shopify/StoreCreditAccountCreditTransaction/7', '5.0', {
                        expiresAt: null,
                      }),
                      {
                        __typename: 'StoreCreditAccountExpirationTransaction',
                        amount: { amount: '-1.0', currencyCode: 'USD' },
                        createdAt: 'x',
                      },
                    ],
                  },
                },
              ],
            },
          },
        },
      }),
    ]);

    const transactions = await platform(fetchImpl).listStoreCreditTransactions('1001', 'USD');

    expect(bodies).toHaveLength(2);
    expect(transactions.map((transaction) => [transaction.kind, transaction.amount])).toEqual([
      ['debit', '-5.0'],
      ['credit', '5.0'],
      ['other', '-1.0'],
    ]);
  });
});
