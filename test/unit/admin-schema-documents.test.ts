// Every GraphQL document the Shopify adapter sends, validated against Shopify's real Admin API schema for the
// adapter's version (not the simulator's subset). The documents are found, not listed: each string exported
// by a module of shared/platform/ whose name ends in _QUERY or _MUTATION, so a new one is checked too.
import {
  DISCOUNT_CODE_CREATE_MUTATION,
  discountCodeBasicInput,
  discountCodeFreeShippingInput,
  FREE_SHIPPING_CODE_CREATE_MUTATION,
} from '../../shared/platform/shopify-discount-codes';
import { SHOPIFY_API_VERSION } from '../../shared/platform/shopify-api-version';
import {
  STORE_CREDIT_CREDIT_MUTATION,
  STORE_CREDIT_DEBIT_MUTATION,
  STORE_CREDIT_TRANSACTIONS_QUERY,
} from '../../shared/platform/shopify-store-credit';
import { discountCodeInput } from '../fixtures/discount-code-input';
import {
  adapterDocuments,
  assertValidRequest,
  deprecatedUses,
  deprecatedVariableUses,
  validateDocument,
  validateRequest,
} from '../support/real-admin-schema';

/**
 * Deprecated parts of the API a document may still use, by the document's export name, as schema
 * coordinates (`Type.field`, `Type.field(argument:)`, `InputType.field`, `Enum.VALUE`). A use not listed
 * here fails the test, and so does a listed one no longer used. Give each entry the reason it stays, e.g.
 *   // <why the adapter still needs it, and what would let it stop>
 *   ORDERS_UPDATED_SINCE_QUERY: ['Order.referralCode'],
 */
const ALLOWED_DEPRECATED: Record<string, string[]> = {};

/** The documents the adapter currently sends; more may exist, none of these may vanish unnoticed. */
const KNOWN_DOCUMENTS = [
  'CUSTOMER_QUERY',
  'CUSTOMERS_BY_EMAIL_QUERY',
  'CUSTOMERS_BY_IDS_QUERY',
  'DISCOUNT_CODE_BY_CODE_QUERY',
  'DISCOUNT_CODE_CREATE_MUTATION',
  'DISCOUNT_CODE_DELETE_MUTATION',
  'FREE_SHIPPING_CODE_CREATE_MUTATION',
  'ORDER_LINE_ITEMS_QUERY',
  'ORDER_REFUNDS_QUERY',
  'ORDERS_UPDATED_SINCE_QUERY',
  'REFUND_LINE_ITEMS_QUERY',
  'STORE_CREDIT_CREDIT_MUTATION',
  'STORE_CREDIT_DEBIT_MUTATION',
  'STORE_CREDIT_TRANSACTIONS_QUERY',
];

const documents = adapterDocuments();

describe(`the adapter's GraphQL documents against Shopify's Admin API ${SHOPIFY_API_VERSION} schema`, () => {
  it('are found in shared/platform/, the current ones among them', () => {
    expect(documents.map(([name]) => name)).toEqual(expect.arrayContaining(KNOWN_DOCUMENTS));
  });

  it.each(documents)('%s is valid', (_name, document) => {
    expect(validateDocument(document)).toEqual([]);
  });

  it('use only the deprecated fields the allow-list names', () => {
    const used = Object.fromEntries(
      documents.map(([name, document]) => [name, deprecatedUses(document)] as const).filter(([, coordinates]) => coordinates.length > 0),
    );

    expect(used).toEqual(ALLOWED_DEPRECATED);
  });
});

describe('the real-schema validator', () => {
  it('refuses a misspelt field, an unknown argument and a syntax error', () => {
    expect(validateDocument('query { customer(id: "gid://shopify/Customer/1") { id firstname } }')).toEqual([
      expect.stringMatching(/^Cannot query field "firstname" on type "Customer"/),
    ]);
    expect(validateDocument('query { orders(first: 1, sort: UPDATED_AT) { nodes { id } } }')).toEqual([
      expect.stringMatching(/^Unknown argument "sort" on field "QueryRoot.orders"/),
    ]);
    expect(validateDocument('query {')).toEqual([expect.stringMatching(/^Syntax Error/)]);
  });

  it('coerces the variables: a Decimal sent as a number, a missing required input field, an unknown enum value', () => {
    const pay = `mutation Pay($id: ID!, $amount: MoneyInput) {
      orderCreateManualPayment(id: $id, amount: $amount) { userErrors { message } }
    }`;
    const order = 'gid://shopify/Order/1';

    expect(validateRequest(pay, { id: order, amount: { amount: '29.99', currencyCode: 'EUR' } })).toEqual([]);
    expect(validateRequest(pay, { id: order, amount: { amount: 29.99, currencyCode: 'EUR' } })).toEqual([
      expect.stringMatching(
        /^Variable "\$amount" got invalid value 29.99 at "amount.amount"; Decimal must be a decimal written as a string/,
      ),
    ]);
    expect(validateRequest(pay, { id: order, amount: { amount: '29.99' } })).toEqual([
      expect.stringMatching(/Field "currencyCode" of required type "CurrencyCode!" was not provided/),
    ]);
    expect(validateRequest(pay, { id: order, amount: { amount: '29.99', currencyCode: 'EURO' } })).toEqual([
      expect.stringMatching(/Value "EURO" does not exist in "CurrencyCode" enum/),
    ]);
    expect(validateRequest(pay, { id: order, amount: { amount: '29.99', currencyCode: 'EUR', rate: 1 } })).toEqual([
      expect.stringMatching(/Field "rate" is not defined by type "MoneyInput"/),
    ]);
    expect(validateRequest(pay, { amount: null })).toEqual(['Variable "$id" of required type "ID!" was not provided.']);
  });

  it('names the deprecated parts a document or its variables use', () => {
    const deprecatedOrderFields = 'query { orders(first: 1) { nodes { referralCode customer { email } } } }';
    const create =
      'mutation Create($input: DiscountCodeBasicInput!) { discountCodeBasicCreate(basicCodeDiscount: $input) { userErrors { message } } }';

    expect(deprecatedUses(deprecatedOrderFields)).toEqual(['Customer.email', 'Order.referralCode']);
    expect(deprecatedVariableUses(create, { input: { customerSelection: { all: true } } })).toEqual([
      'DiscountCodeBasicInput.customerSelection',
    ]);
  });

  it('refuses a request body, naming the operation, for invalid variables or deprecated input unless allowed', () => {
    const create =
      'mutation Create($input: DiscountCodeBasicInput!) { discountCodeBasicCreate(basicCodeDiscount: $input) { userErrors { message } } }';
    const fixedAmount = (amount: unknown) => ({ input: { customerGets: { value: { discountAmount: { amount } } } } });
    const oldSelection = { input: { customerSelection: { all: true } } };

    expect(() => assertValidRequest({ query: create, variables: fixedAmount('5') })).not.toThrow();
    expect(() => assertValidRequest({ query: create, variables: fixedAmount(5) })).toThrow(/refuses Create:\n.*Decimal must be/);
    expect(() => assertValidRequest({ query: create, variables: oldSelection })).toThrow(
      /the variables send DiscountCodeBasicInput.customerSelection, which is deprecated/,
    );
    expect(() =>
      assertValidRequest({ query: create, variables: oldSelection }, ['DiscountCodeBasicInput.customerSelection']),
    ).not.toThrow();
  });

  it('accept the variables the adapter builds for a code: for one customer, for any buyer (a referred friend), by percentage', () => {
    const requests = [
      discountCodeInput(),
      discountCodeInput({ customerId: null }),
      discountCodeInput({ customerId: null, discountType: 'percentage', amount: 15, minimumSpend: 50 }),
    ].map((input) => ({ query: DISCOUNT_CODE_CREATE_MUTATION, variables: { input: discountCodeBasicInput(input) } }));

    for (const request of requests) expect(() => assertValidRequest(request)).not.toThrow();
    expect(requests[1]!.variables.input.context).toEqual({ all: 'ALL' });
  });

  it('accept the variables the adapter builds for the other kinds: free shipping (capped or not), one variant free', () => {
    const requests = [
      {
        query: FREE_SHIPPING_CODE_CREATE_MUTATION,
        variables: { input: discountCodeFreeShippingInput(discountCodeInput({ discountType: 'free_shipping', amount: 0 })) },
      },
      {
        query: FREE_SHIPPING_CODE_CREATE_MUTATION,
        variables: {
          input: discountCodeFreeShippingInput(discountCodeInput({ discountType: 'free_shipping', amount: 12.5, minimumSpend: 30 })),
        },
      },
      {
        query: DISCOUNT_CODE_CREATE_MUTATION,
        variables: {
          input: discountCodeBasicInput(discountCodeInput({ discountType: 'free_product', amount: 35, productVariantId: '4401' })),
        },
      },
    ];

    for (const request of requests) expect(() => assertValidRequest(request)).not.toThrow();
    expect(requests[0]!.variables.input).not.toHaveProperty('maximumShippingPrice');
    expect(requests[1]!.variables.input).toMatchObject({ maximumShippingPrice: '12.5', usageLimit: 1, appliesOncePerCustomer: true });
    expect(requests[2]!.variables.input).toMatchObject({
      context: { customers: { add: ['gid://shopify/Customer/1001'] } },
      customerGets: {
        value: { discountAmount: { amount: '35', appliesOnEachItem: false } },
        items: { products: { productVariantsToAdd: ['gid://shopify/ProductVariant/4401'] } },
      },
      usageLimit: 1,
      appliesOncePerCustomer: true,
    });
  });

  it('accept the variables the adapter sends for a store credit credit and debit', () => {
    const credit = {
      id: 'gid://shopify/Customer/1001',
      creditInput: { creditAmount: { amount: '5', currencyCode: 'USD' }, expiresAt: '2030-01-01T00:00:00.000Z' },
    };
    const debit = { id: 'gid://shopify/Customer/1001', debitInput: { debitAmount: { amount: '5', currencyCode: 'USD' } } };

    expect(() => assertValidRequest({ query: STORE_CREDIT_CREDIT_MUTATION, variables: credit })).not.toThrow();
    expect(() => assertValidRequest({ query: STORE_CREDIT_DEBIT_MUTATION, variables: debit })).not.toThrow();
    expect(() =>
      assertValidRequest({ query: STORE_CREDIT_TRANSACTIONS_QUERY, variables: { id: 'gid://shopify/Customer/1001' } }),
    ).not.toThrow();
  });
});
