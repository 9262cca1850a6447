// The platform simulator's other reward kinds over its HTTP GraphQL endpoint: free-shipping and free-product
// codes, store credit accounts with their credits and debits, the store_credit fault, and --persist. Every request
// is checked against Shopify's real Admin schema (document and variables) before it is sent.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { assertValidRequest } from '../support/real-admin-schema';

const SHOPS = {
  demo: {
    customers: [
      { id: '1001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: null },
      { id: '1002', email: 'grace@example.com', first_name: 'Grace', last_name: 'Hopper', created_at: null },
    ],
  },
  other: { customers: [{ id: '1001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: null }] },
};

let simulator: PlatformSimulator;

beforeAll(async () => {
  simulator = await startPlatformSimulator({ port: 0, shops: SHOPS });
});

afterAll(async () => {
  await simulator.stop();
});

afterEach(() => {
  simulator.setFaults({ discount_codes: 'ok', store_credit: 'ok' });
});

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- raw JSON answers
type Json = any;
type Answer = { data?: Record<string, Json>; errors?: Array<{ message: string; extensions: { code: string } }> };

async function gql(query: string, variables: Record<string, unknown>, shop = 'demo', target = simulator): Promise<Answer> {
  assertValidRequest({ query, variables });
  const response = await fetch(target.graphqlEndpoint(shop), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'local-token' },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as Answer;
}

/** The request's fate when the connection may drop: the answer, or 'dropped'. */
async function gqlOrDropped(query: string, variables: Record<string, unknown>): Promise<Answer | 'dropped'> {
  try {
    return await gql(query, variables);
  } catch (error) {
    // fetch's TypeError comes from Node's realm, not the test's: compared by name and message.
    if ((error as Error).name === 'TypeError' && (error as Error).message === 'fetch failed') return 'dropped';
    throw error;
  }
}

async function listed(code: string, target = simulator): Promise<Record<string, unknown> | undefined> {
  const body = (await (await fetch(`${target.url}/_discount_codes`)).json()) as { discount_codes: Array<Record<string, unknown>> };
  return body.discount_codes.find((entry) => entry.code === code);
}

async function storeCredit(customerId: string, shop = 'demo', target = simulator) {
  const response = await fetch(`${target.url}/_store_credit?shop=${shop}&customer_id=${customerId}`);
  return { status: response.status, body: (await response.json()) as Record<string, Json> };
}

const FREE_SHIPPING = `mutation FreeShipping($discount: DiscountCodeFreeShippingInput!) {
  discountCodeFreeShippingCreate(freeShippingCodeDiscount: $discount) {
    codeDiscountNode {
      id
      codeDiscount {
        __typename
        ... on DiscountCodeFreeShipping { title usageLimit appliesOncePerCustomer maximumShippingPrice { amount currencyCode } codes(first: 1) { nodes { code } } }
      }
    }
    userErrors { field message code }
  }
}`;

const BASIC = `mutation Basic($discount: DiscountCodeBasicInput!) {
  discountCodeBasicCreate(basicCodeDiscount: $discount) {
    codeDiscountNode { id codeDiscount { __typename ... on DiscountCodeBasic { usageLimit appliesOncePerCustomer } } }
    userErrors { field message code }
  }
}`;

const CREDIT = `mutation Credit($id: ID!, $creditInput: StoreCreditAccountCreditInput!) {
  storeCreditAccountCredit(id: $id, creditInput: $creditInput) {
    storeCreditAccountTransaction {
      id
      amount { amount currencyCode }
      balanceAfterTransaction { amount currencyCode }
      createdAt
      expiresAt
      account { id balance { amount currencyCode } }
    }
    userErrors { field message code }
  }
}`;

const DEBIT = `mutation Debit($id: ID!, $debitInput: StoreCreditAccountDebitInput!) {
  storeCreditAccountDebit(id: $id, debitInput: $debitInput) {
    storeCreditAccountTransaction { id amount { amount currencyCode } balanceAfterTransaction { amount } account { id } }
    userErrors { field message code }
  }
}`;

const ACCOUNTS = `query Accounts($id: ID!) {
  customer(id: $id) {
    storeCreditAccounts(first: 5) {
      nodes {
        id
        balance { amount currencyCode }
        transactions(first: 50, reverse: true) {
          nodes {
            amount { amount }
            createdAt
            ... on StoreCreditAccountCreditTransaction { id expiresAt }
            ... on StoreCreditAccountDebitTransaction { id }
          }
        }
      }
    }
  }
}`;

const usd = (amount: string) => ({ amount, currencyCode: 'USD' });

describe('platform simulator: free-shipping codes', () => {
  it('creates a capped free-shipping code for one customer and lists it with its kind and cap', async () => {
    const answer = await gql(FREE_SHIPPING, {
      discount: {
        code: 'SHIP-1',
        title: 'Free shipping',
        context: { customers: { add: ['gid://shopify/Customer/1001'] } },
        destination: { all: true },
        maximumShippingPrice: '12.50',
        minimumRequirement: { subtotal: { greaterThanOrEqualToSubtotal: '30.00' } },
        appliesOncePerCustomer: true,
        usageLimit: 1,
        startsAt: '2026-06-01T00:00:00Z',
      },
    });

    const payload = answer.data!.discountCodeFreeShippingCreate;
    expect(payload.userErrors).toEqual([]);
    expect(payload.codeDiscountNode.codeDiscount).toEqual({
      __typename: 'DiscountCodeFreeShipping',
      title: 'Free shipping',
      usageLimit: 1,
      appliesOncePerCustomer: true,
      maximumShippingPrice: { amount: '12.50', currencyCode: 'USD' },
      codes: { nodes: [{ code: 'SHIP-1' }] },
    });
    expect(await listed('SHIP-1')).toMatchObject({
      id: payload.codeDiscountNode.id,
      kind: 'free_shipping',
      cap: 12.5,
      product_variant_id: null,
      customer_id: '1001',
      minimum_spend: 30,
      usage_limit: 1,
      applies_once_per_customer: true,
    });
  });

  it("takes the shipping line's price off an order's total, up to the cap, with the allocation as Shopify writes it", async () => {
    const code = (name: string, cap: string | null) =>
      gql(FREE_SHIPPING, {
        discount: {
          code: name,
          title: 'Free shipping',
          context: { customers: { add: ['gid://shopify/Customer/1001'] } },
          destination: { all: true },
          ...(cap === null ? {} : { maximumShippingPrice: cap }),
          appliesOncePerCustomer: true,
          usageLimit: 1,
        },
      });
    const order = async (codes: string[]) => {
      const created = await fetch(`${simulator.url}/_orders`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        // 40.00 of goods and 15.00 of shipping, before any code.
        body: JSON.stringify({
          shop: 'demo',
          customer_id: '1001',
          deliver: false,
          discount_codes: codes,
          subtotal_price: '40.00',
          total_price: '55.00',
        }),
      });
      expect(created.status).toBe(201);
      return ((await created.json()) as { order: Json }).order;
    };
    await code('SHIP-ALL', null);
    await code('SHIP-CAP', '10.00');

    const free = await order(['ship-all']);
    expect(free).toMatchObject({ subtotal_price: '40.00', total_price: '40.00', total_discounts: '15.00' });
    expect(free.total_shipping_price_set.shop_money.amount).toBe('15.00');
    expect(free.shipping_lines[0]).toMatchObject({
      price: '15.00',
      discounted_price: '0.00',
      discount_allocations: [{ amount: '15.00', discount_application_index: 0 }],
    });
    expect(free.discount_applications).toEqual([
      expect.objectContaining({ target_type: 'shipping_line', code: 'ship-all', value_type: 'percentage' }),
    ]);
    expect(free.discount_codes).toEqual([{ code: 'ship-all', amount: '15.00', type: 'shipping' }]);

    // A cap covers that much of the shipping price; the goods and their subtotal are untouched either way.
    const capped = await order(['ship-cap']);
    expect(capped).toMatchObject({ subtotal_price: '40.00', total_price: '45.00', total_discounts: '10.00' });
    expect(capped.shipping_lines[0]).toMatchObject({ price: '15.00', discounted_price: '5.00' });

    // Without a code the shipping is paid in full.
    const paid = await order([]);
    expect(paid).toMatchObject({ total_price: '55.00', total_discounts: '0.00' });
    expect(paid.shipping_lines[0]).toMatchObject({ price: '15.00', discounted_price: '15.00', discount_allocations: [] });
  });

  it('lists an uncapped code with cap null, and refuses a taken code, a missing customer and a cap of 0', async () => {
    const base = { context: { customers: { add: ['gid://shopify/Customer/1001'] } }, startsAt: '2026-06-01T00:00:00Z' };
    await gql(FREE_SHIPPING, { discount: { ...base, code: 'SHIP-ANY' } });
    const taken = await gql(FREE_SHIPPING, { discount: { ...base, code: 'ship-any' } });
    const nobody = await gql(FREE_SHIPPING, { discount: { code: 'SHIP-NOBODY' } });
    const zero = await gql(FREE_SHIPPING, { discount: { ...base, code: 'SHIP-ZERO', maximumShippingPrice: '0' } });

    expect(await listed('SHIP-ANY')).toMatchObject({ kind: 'free_shipping', cap: null });
    expect(taken.data!.discountCodeFreeShippingCreate.userErrors).toEqual([
      { field: ['freeShippingCodeDiscount', 'code'], message: 'Code must be unique. Please try a different code.', code: 'TAKEN' },
    ]);
    expect(nobody.data!.discountCodeFreeShippingCreate.userErrors.map((error: { code: string }) => error.code)).toEqual(['INVALID']);
    expect(zero.data!.discountCodeFreeShippingCreate.userErrors.map((error: { code: string }) => error.code)).toEqual([
      'VALUE_OUTSIDE_RANGE',
    ]);
    expect(await listed('SHIP-NOBODY')).toBeUndefined();
    expect(await listed('SHIP-ZERO')).toBeUndefined();
  });

  it('creates nothing in the discount codes error mode', async () => {
    simulator.setFaults({ discount_codes: 'error' });
    const answer = await gql(FREE_SHIPPING, {
      discount: { code: 'SHIP-ERR', context: { customers: { add: ['gid://shopify/Customer/1001'] } } },
    });

    expect(answer.data!.discountCodeFreeShippingCreate).toEqual({
      codeDiscountNode: null,
      userErrors: [{ field: null, message: 'Internal error', code: 'INTERNAL_ERROR' }],
    });
    expect(await listed('SHIP-ERR')).toBeUndefined();
  });
});

describe('platform simulator: free-product codes', () => {
  const variantCode = (code: string, value: Record<string, unknown>, variants = ['gid://shopify/ProductVariant/4401']) => ({
    discount: {
      code,
      title: 'Free Merino scarf',
      context: { customers: { add: ['gid://shopify/Customer/1001'] } },
      customerGets: { items: { products: { productVariantsToAdd: variants } }, value },
      appliesOncePerCustomer: true,
      usageLimit: 1,
    },
  });

  it('creates an amount off one variant, once per order, and lists it as free_product with the variant', async () => {
    const answer = await gql(BASIC, variantCode('SCARF-1', { discountAmount: { amount: '35.00', appliesOnEachItem: false } }));

    expect(answer.data!.discountCodeBasicCreate.userErrors).toEqual([]);
    expect(answer.data!.discountCodeBasicCreate.codeDiscountNode.codeDiscount).toEqual({
      __typename: 'DiscountCodeBasic',
      usageLimit: 1,
      appliesOncePerCustomer: true,
    });
    expect(await listed('SCARF-1')).toMatchObject({
      kind: 'free_product',
      type: 'fixed',
      amount: 35,
      product_variant_id: '4401',
      cap: null,
    });
  });

  it('refuses a variant code that would free every unit (a percentage, or an amount on each item) or names several variants', async () => {
    const percentage = await gql(BASIC, variantCode('SCARF-PCT', { percentage: 1 }));
    const eachItem = await gql(BASIC, variantCode('SCARF-EACH', { discountAmount: { amount: '35.00', appliesOnEachItem: true } }));
    const two = await gql(
      BASIC,
      variantCode('SCARF-TWO', { discountAmount: { amount: '35.00' } }, [
        'gid://shopify/ProductVariant/1',
        'gid://shopify/ProductVariant/2',
      ]),
    );

    for (const answer of [percentage, eachItem, two]) {
      expect(answer.data!.discountCodeBasicCreate.userErrors).toEqual([
        expect.objectContaining({ code: 'INVALID', field: expect.arrayContaining(['basicCodeDiscount', 'customerGets']) }),
      ]);
    }
    expect(await listed('SCARF-PCT')).toBeUndefined();
    expect(await listed('SCARF-EACH')).toBeUndefined();
    expect(await listed('SCARF-TWO')).toBeUndefined();
  });
});

describe('platform simulator: orders with a free-product code', () => {
  const ORDER = `query Order($id: ID!) {
  order(id: $id) {
    discountCodes
    subtotalPriceSet { shopMoney { amount } }
    lineItems(first: 10) { nodes { quantity originalUnitPriceSet { shopMoney { amount } } discountAllocations { allocatedAmountSet { shopMoney { amount } } } } }
  }
}`;

  it("takes one unit's price off the code's variant, however many units the order holds, and leaves other lines alone", async () => {
    await gql(BASIC, {
      discount: {
        code: 'SCARF-ORDER',
        context: { customers: { add: ['gid://shopify/Customer/1001'] } },
        customerGets: {
          items: { products: { productVariantsToAdd: ['gid://shopify/ProductVariant/4401'] } },
          value: { discountAmount: { amount: '35.00' } },
        },
      },
    });
    const created = await fetch(`${simulator.url}/_orders`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({
        shop: 'demo',
        customer_id: '1001',
        deliver: false,
        discount_codes: ['scarf-order'],
        line_items: [
          { price: '10.00', quantity: 1, variant_id: '5500' },
          { price: '35.00', quantity: 3, variant_id: '4401' },
        ],
      }),
    });
    const body = (await created.json()) as { order: Json };

    expect(created.status).toBe(201);
    expect(body.order.subtotal_price).toBe('80.00');
    expect(body.order.line_items.map((line: Json) => line.variant_id)).toEqual([5500, 4401]);
    const answer = await gql(ORDER, { id: `gid://shopify/Order/${body.order.id}` });
    expect(answer.data!.order.subtotalPriceSet.shopMoney.amount).toBe('80.00');
    expect(answer.data!.order.lineItems.nodes.map((line: Json) => line.discountAllocations)).toEqual([
      [],
      [{ allocatedAmountSet: { shopMoney: { amount: '35.00' } } }],
    ]);
  });
});

describe('platform simulator: store credit', () => {
  it("creates the customer's account on the first credit, with the transaction's expiry, and shows it on GET /_store_credit", async () => {
    const answer = await gql(CREDIT, {
      id: 'gid://shopify/Customer/1001',
      creditInput: { creditAmount: usd('5.00'), expiresAt: '2030-01-01T00:00:00Z' },
    });

    const transaction = answer.data!.storeCreditAccountCredit.storeCreditAccountTransaction;
    expect(answer.data!.storeCreditAccountCredit.userErrors).toEqual([]);
    expect(transaction).toEqual({
      id: expect.stringMatching(/^gid:\/\/shopify\/StoreCreditCreditTransaction\/\d+$/),
      amount: usd('5.00'),
      balanceAfterTransaction: usd('5.00'),
      createdAt: expect.any(String),
      expiresAt: '2030-01-01T00:00:00Z',
      account: { id: expect.stringMatching(/^gid:\/\/shopify\/StoreCreditAccount\/\d+$/), balance: usd('5.00') },
    });
    expect(await storeCredit('1001')).toEqual({
      status: 200,
      body: {
        balance: '5.00',
        currency: 'USD',
        transactions: [{ id: transaction.id, amount: '5.00', created_at: transaction.createdAt, expires_at: '2030-01-01T00:00:00Z' }],
      },
    });
    // Another shop's customer with the same id has no account.
    expect((await storeCredit('1001', 'other')).body).toEqual({ balance: '0.00', currency: 'USD', transactions: [] });
  });

  it('debits the account, negative in the list, lets a client find its transactions, and refuses more than the balance', async () => {
    await gql(CREDIT, { id: 'gid://shopify/Customer/1002', creditInput: { creditAmount: usd('10.00') } });
    const debit = await gql(DEBIT, { id: 'gid://shopify/Customer/1002', debitInput: { debitAmount: usd('4.00') } });
    const tooMuch = await gql(DEBIT, { id: 'gid://shopify/Customer/1002', debitInput: { debitAmount: usd('6.01') } });

    const debited = debit.data!.storeCreditAccountDebit.storeCreditAccountTransaction;
    expect(debit.data!.storeCreditAccountDebit.userErrors).toEqual([]);
    expect(debited).toMatchObject({ amount: usd('-4.00'), balanceAfterTransaction: { amount: '6.00' } });
    expect(tooMuch.data!.storeCreditAccountDebit).toEqual({
      storeCreditAccountTransaction: null,
      userErrors: [
        {
          field: ['debitInput', 'debitAmount', 'amount'],
          message: 'The store credit account does not have sufficient funds.',
          code: 'INSUFFICIENT_FUNDS',
        },
      ],
    });
    const accounts = await gql(ACCOUNTS, { id: 'gid://shopify/Customer/1002' });
    const [account] = accounts.data!.customer.storeCreditAccounts.nodes;
    expect(account.balance).toEqual(usd('6.00'));
    expect(account.transactions.nodes.map((entry: { id: string; amount: { amount: string } }) => [entry.id, entry.amount.amount])).toEqual([
      [debited.id, '-4.00'],
      [expect.stringMatching(/CreditTransaction/), '10.00'],
    ]);
    expect((await storeCredit('1002')).body).toMatchObject({
      balance: '6.00',
      transactions: [{ amount: '10.00' }, { id: debited.id, amount: '-4.00', expires_at: null }],
    });
  });

  it("gives Shopify's user errors for an unknown owner, a debit without an account, a zero amount and a past expiry", async () => {
    const unknown = await gql(CREDIT, { id: 'gid://shopify/Customer/9999', creditInput: { creditAmount: usd('1.00') } });
    const noAccount = await gql(DEBIT, {
      id: 'gid://shopify/Customer/1001',
      debitInput: { debitAmount: { amount: '1.00', currencyCode: 'EUR' } },
    });
    const zero = await gql(CREDIT, { id: 'gid://shopify/Customer/1001', creditInput: { creditAmount: usd('0') } });
    const past = await gql(CREDIT, {
      id: 'gid://shopify/Customer/1001',
      creditInput: { creditAmount: usd('1.00'), expiresAt: '2001-01-01T00:00:00Z' },
    });

    expect(unknown.data!.storeCreditAccountCredit.userErrors.map((error: { code: string }) => error.code)).toEqual(['OWNER_NOT_FOUND']);
    expect(noAccount.data!.storeCreditAccountDebit.userErrors.map((error: { code: string }) => error.code)).toEqual(['ACCOUNT_NOT_FOUND']);
    expect(zero.data!.storeCreditAccountCredit.userErrors.map((error: { code: string }) => error.code)).toEqual([
      'NEGATIVE_OR_ZERO_AMOUNT',
    ]);
    expect(past.data!.storeCreditAccountCredit.userErrors.map((error: { code: string }) => error.code)).toEqual(['EXPIRES_AT_IN_PAST']);
    expect(zero.data!.storeCreditAccountCredit.storeCreditAccountTransaction).toBeNull();
  });

  it('keeps one account per currency: crediting another currency makes a second one', async () => {
    simulator.addCustomer('other', { id: '3001', email: 'kat@example.com', first_name: 'Kat', last_name: 'J', created_at: null });
    await gql(CREDIT, { id: 'gid://shopify/Customer/3001', creditInput: { creditAmount: usd('2.00') } }, 'other');
    await gql(
      CREDIT,
      { id: 'gid://shopify/Customer/3001', creditInput: { creditAmount: { amount: '3.00', currencyCode: 'EUR' } } },
      'other',
    );

    const accounts = await gql(ACCOUNTS, { id: 'gid://shopify/Customer/3001' }, 'other');
    expect(accounts.data!.customer.storeCreditAccounts.nodes.map((account: { balance: unknown }) => account.balance)).toEqual([
      usd('2.00'),
      { amount: '3.00', currencyCode: 'EUR' },
    ]);
  });
});

describe('platform simulator: the store_credit fault', () => {
  const customer = 'gid://shopify/Customer/1002';
  const balance = async () => (await storeCredit('1002')).body.balance as string;

  it('fails a credit and a debit with a top-level error in error mode, doing nothing', async () => {
    const before = await storeCredit('1002');
    simulator.setFaults({ store_credit: 'error' });

    const credit = await gql(CREDIT, { id: customer, creditInput: { creditAmount: usd('1.00') } });
    const debit = await gql(DEBIT, { id: customer, debitInput: { debitAmount: usd('1.00') } });

    for (const answer of [credit, debit]) {
      expect(answer).toEqual({ errors: [{ message: 'Internal error', extensions: { code: 'INTERNAL_SERVER_ERROR' } }] });
    }
    expect(await storeCredit('1002')).toEqual(before);
  });

  it('drops the connection in unreachable mode, doing nothing', async () => {
    const before = await storeCredit('1002');
    simulator.setFaults({ store_credit: 'unreachable' });

    expect(await gqlOrDropped(CREDIT, { id: customer, creditInput: { creditAmount: usd('1.00') } })).toBe('dropped');
    expect(await storeCredit('1002')).toEqual(before);
  });

  it('makes the credit and the debit in lost_answer mode and drops the answer; the client finds its transaction afterwards', async () => {
    const start = Number(await balance());
    simulator.setFaults({ store_credit: 'lost_answer' });

    expect(await gqlOrDropped(CREDIT, { id: customer, creditInput: { creditAmount: usd('2.50') } })).toBe('dropped');
    expect(Number(await balance())).toBeCloseTo(start + 2.5);
    expect(await gqlOrDropped(DEBIT, { id: customer, debitInput: { debitAmount: usd('1.25') } })).toBe('dropped');
    expect(Number(await balance())).toBeCloseTo(start + 1.25);

    // The customer query is another area: still answered, with both transactions, newest first.
    const accounts = await gql(ACCOUNTS, { id: customer });
    const amounts = accounts.data!.customer.storeCreditAccounts.nodes[0].transactions.nodes.map(
      (entry: { amount: { amount: string } }) => entry.amount.amount,
    );
    expect(amounts.slice(0, 2)).toEqual(['-1.25', '2.50']);
  });

  it('takes the store_credit modes on PUT /_faults and refuses a mode it does not have', async () => {
    const put = (body: unknown) =>
      fetch(`${simulator.url}/_faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    const set = await put({ store_credit: 'lost_answer' });
    const refused = await put({ store_credit: 'hang' });

    expect(set.status).toBe(200);
    expect(await set.json()).toMatchObject({ store_credit: 'lost_answer' });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(await refused.json())).toContain('store_credit is one of ok, error, unreachable, lost_answer');
    expect(simulator.faults().store_credit).toBe('lost_answer');
  });
});

describe('platform simulator: rewards across --persist', () => {
  it('keeps the new code kinds and the store credit accounts across a restart', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'simulator-rewards-'));
    const files = { codesFile: join(dir, 'codes.json'), storeCreditFile: join(dir, 'store-credit.json') };
    try {
      const first = await startPlatformSimulator({ port: 0, shops: SHOPS, ...files });
      const credited = await gql(CREDIT, { id: 'gid://shopify/Customer/1001', creditInput: { creditAmount: usd('5.00') } }, 'demo', first);
      await gql(DEBIT, { id: 'gid://shopify/Customer/1001', debitInput: { debitAmount: usd('1.00') } }, 'demo', first);
      await gql(
        FREE_SHIPPING,
        { discount: { code: 'KEPT-SHIP', context: { customers: { add: ['gid://shopify/Customer/1001'] } }, maximumShippingPrice: '9.00' } },
        'demo',
        first,
      );
      const before = await storeCredit('1001', 'demo', first);
      await first.stop();

      const second = await startPlatformSimulator({ port: 0, shops: SHOPS, ...files });
      try {
        expect(await storeCredit('1001', 'demo', second)).toEqual(before);
        expect(before.body.balance).toBe('4.00');
        expect(await listed('KEPT-SHIP', second)).toMatchObject({ kind: 'free_shipping', cap: 9 });
        // New transactions and accounts take ids the old ones do not have.
        const again = await gql(CREDIT, { id: 'gid://shopify/Customer/1001', creditInput: { creditAmount: usd('1.00') } }, 'demo', second);
        const id = again.data!.storeCreditAccountCredit.storeCreditAccountTransaction.id as string;
        expect(before.body.transactions.map((entry: { id: string }) => entry.id)).not.toContain(id);
        expect(again.data!.storeCreditAccountCredit.storeCreditAccountTransaction.account.id).toBe(
          credited.data!.storeCreditAccountCredit.storeCreditAccountTransaction.account.id,
        );
        expect((await storeCredit('1001', 'demo', second)).body.balance).toBe('5.00');
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
