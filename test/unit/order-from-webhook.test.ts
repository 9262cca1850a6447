// Webhook REST payloads become the same platform-neutral orders and refunds as the GraphQL orders query
// gives, and a signed but malformed payload is refused with every problem named.
import { addAmounts, subtractAmounts } from '../../shared/domain/money';
import { refundedEligible, refundTakes } from '../../shared/platform/eligible-amount';
import { orderFromWebhook } from '../../shared/platform/order-from-webhook';
import { PlatformPayloadError } from '../../shared/platform/port';
import { refundFromWebhook } from '../../shared/platform/refund-from-webhook';
import { orderFromGraphql, type ShopifyOrderNode } from '../../shared/platform/shopify-orders';
import { parseWebhookJson } from '../../shared/platform/webhook-payload-fields';
import fc from 'fast-check';

type Fields = Record<string, unknown>;

/** An orders/paid body as Shopify sends it (the fields the mapper reads, and some it ignores). */
const restOrder = (fields: Fields = {}) => ({
  id: 5000000001,
  admin_graphql_api_id: 'gid://shopify/Order/5000000001',
  name: '#1001',
  order_number: 1001,
  email: 'ada@example.com',
  created_at: '2027-01-15T10:00:00-05:00',
  processed_at: '2027-01-15T10:00:00-05:00',
  updated_at: '2027-01-16T09:30:00-05:00',
  cancelled_at: null,
  currency: 'USD',
  financial_status: 'partially_refunded',
  subtotal_price: '120.00',
  current_subtotal_price: '79.50',
  total_price: '131.50',
  discount_codes: [{ code: 'LOYAL-ABC123', amount: '5.00', type: 'fixed_amount' }],
  landing_site: '/?ref=FRIEND1',
  note_attributes: [{ name: 'referral_code', value: 'FRIEND1' }],
  customer: { id: 1001, email: 'ada@example.com', first_name: 'Ada' },
  taxes_included: false,
  test: false,
  landing_site_ref: null,
  line_items: [
    { id: 7, price: '100.00', quantity: 1, gift_card: false, tax_lines: [], discount_allocations: [] },
    { id: 8, price: '20.00', quantity: 1, gift_card: false, tax_lines: [], discount_allocations: [] },
  ],
  refunds: [
    {
      id: 9,
      created_at: '2027-01-16T09:00:00-05:00',
      refund_line_items: [{ id: 10, line_item_id: 7, quantity: 1, subtotal: 40.5, total_tax: 0, line_item: { id: 7, gift_card: false } }],
    },
  ],
  ...fields,
});

function problemsOf(payload: unknown, mapper: (payload: unknown) => unknown = orderFromWebhook): string[] {
  try {
    mapper(payload);
  } catch (error) {
    if (error instanceof PlatformPayloadError) return error.problems;
    throw error;
  }
  throw new Error('expected the payload to be refused');
}

describe('orderFromWebhook', () => {
  it('maps an orders/paid payload to the neutral order: ids as strings, times in UTC, refunds from the refunds list', () => {
    const order = orderFromWebhook(restOrder());

    expect(order).toEqual({
      id: '5000000001',
      name: '#1001',
      customerId: '1001',
      eligibleSubtotal: '120.00',
      refundedEligible: '40.50',
      refunds: [{ id: '9', taken: '40.50' }],
      taxesIncluded: false,
      currency: 'USD',
      processedAt: '2027-01-15T15:00:00.000Z',
      updatedAt: '2027-01-16T14:30:00.000Z',
      cancelledAt: null,
      discountCodes: ['LOYAL-ABC123'],
      landingSite: '/?ref=FRIEND1',
      referralCode: null,
      noteAttributes: [{ name: 'referral_code', value: 'FRIEND1' }],
      financialStatus: 'partially_refunded',
      test: false,
      sourceName: null,
    });
  });

  it("reads the channel (source_name): a POS order's pos, trimmed; none given is null", () => {
    expect(orderFromWebhook(restOrder({ source_name: 'pos', location_id: 71540850911, device_id: 3, user_id: 42 })).sourceName).toBe('pos');
    expect(orderFromWebhook(restOrder({ source_name: ' web ' })).sourceName).toBe('web');
    expect(orderFromWebhook(restOrder({ source_name: '' })).sourceName).toBeNull();
    expect(orderFromWebhook(restOrder({ source_name: null })).sourceName).toBeNull();
  });

  it('keeps ids beyond 2^53 exactly and reads money written as JSON numbers (parseWebhookJson)', () => {
    const body =
      '{"id":820982911946154508,"name":"#9999","customer":{"id":115310627314723954},"subtotal_price":"398.00",' +
      '"currency":"USD","created_at":"2021-12-31T19:00:00-05:00","processed_at":null,"updated_at":"2021-12-31T19:00:00-05:00",' +
      '"landing_site":"http:\\/\\/www.example.com?source=abc","line_items":[{"id":866550311766439020,"price":"199.00","quantity":2,' +
      '"gift_card":false,"tax_lines":[],"discount_allocations":[]}],"refunds":[{"id":890088186047892319,"refund_line_items":' +
      '[{"subtotal":195.67,"total_tax":3.98,"line_item":{"gift_card":false}}]}],"some_new_field":{"nested":[1,2,3]}}';
    const order = orderFromWebhook(parseWebhookJson(body));

    expect(order).toMatchObject({
      id: '820982911946154508',
      customerId: '115310627314723954',
      eligibleSubtotal: '398.00',
      refundedEligible: '195.67',
      processedAt: '2022-01-01T00:00:00.000Z',
      landingSite: '/?source=abc',
    });
    expect(parseWebhookJson('{"a":9007199254740993,"b":12,"c":1.5}')).toEqual({ a: '9007199254740993', b: 12, c: 1.5 });
  });

  it('takes the line taxes out of a tax-inclusive subtotal, and the refunded lines tax out of the refund', () => {
    // A German shop: prices include 19 % VAT. 119.00 + 59.50 = 178.50 with 19.00 + 9.50 tax; the refund of
    // the first line gave back 119.00, 19.00 of it tax.
    const order = orderFromWebhook(
      restOrder({
        taxes_included: true,
        currency: 'EUR',
        subtotal_price: '178.50',
        line_items: [
          { price: '119.00', quantity: 1, tax_lines: [{ price: '19.00', rate: 0.19, title: 'MwSt' }] },
          { price: '29.75', quantity: 2, tax_lines: [{ price: '9.50', rate: 0.19, title: 'MwSt' }] },
        ],
        refunds: [{ id: 9, refund_line_items: [{ subtotal: 119, total_tax: 19, line_item: { gift_card: false } }] }],
      }),
    );

    expect(order).toMatchObject({ taxesIncluded: true, eligibleSubtotal: '150.00', refundedEligible: '100.00' });
  });

  it('leaves gift-card lines out of the eligible amount and out of refunds', () => {
    // 50.00 of goods less a 5.00 discount, and a 25.00 gift card with 2.50 of the order discount: 67.50 subtotal.
    const order = orderFromWebhook(
      restOrder({
        subtotal_price: '67.50',
        line_items: [
          { price: '50.00', quantity: 1, gift_card: false, discount_allocations: [{ amount: '5.00' }] },
          { price: '25.00', quantity: 1, gift_card: true, discount_allocations: [{ amount: '2.50' }] },
        ],
        refunds: [{ id: 9, refund_line_items: [{ subtotal: '22.50', total_tax: '0.00', line_item: { gift_card: true } }] }],
      }),
    );

    expect(order).toMatchObject({ eligibleSubtotal: '45.00', refundedEligible: '0.00' });
  });

  it('falls back to the current subtotal when a payload has no refunds list, never below zero', () => {
    expect(orderFromWebhook(restOrder({ refunds: undefined })).refundedEligible).toBe('40.50');
    expect(orderFromWebhook(restOrder({ refunds: undefined, current_subtotal_price: '130.00' })).refundedEligible).toBe('0.00');
    expect(orderFromWebhook(restOrder({ refunds: undefined, current_subtotal_price: undefined })).refundedEligible).toBe('0.00');
  });

  it('reads the test flag, the financial status and the referral code Shopify recorded', () => {
    const order = orderFromWebhook(restOrder({ test: true, financial_status: 'pending', landing_site_ref: ' FRIEND2 ' }));

    expect(order).toMatchObject({ test: true, financialStatus: 'pending', referralCode: 'FRIEND2' });
  });

  it('treats a guest checkout and missing optional lists as nothing to read', () => {
    const order = orderFromWebhook(
      restOrder({
        customer: null,
        discount_codes: undefined,
        note_attributes: null,
        landing_site: null,
        line_items: null,
        refunds: [],
      }),
    );

    expect(order).toMatchObject({
      customerId: null,
      refundedEligible: '0.00',
      eligibleSubtotal: '120.00',
      discountCodes: [],
      noteAttributes: [],
      landingSite: null,
    });
  });

  it('keeps a cancellation time, and uses created_at when processed_at is null', () => {
    const order = orderFromWebhook(restOrder({ processed_at: null, cancelled_at: '2027-01-17T08:00:00-05:00' }));

    expect(order.processedAt).toBe('2027-01-15T15:00:00.000Z');
    expect(order.cancelledAt).toBe('2027-01-17T13:00:00.000Z');
  });

  it('names every problem of a malformed payload', () => {
    const problems = problemsOf(restOrder({ id: 'abc', subtotal_price: 'twelve', updated_at: 'soon', currency: 'usd' }));

    expect(problems).toEqual([
      expect.stringMatching(/^id: /),
      expect.stringMatching(/^subtotal_price: /),
      expect.stringMatching(/^currency: must be an ISO 4217 currency code/),
      expect.stringMatching(/^updated_at: must be an ISO 8601 timestamp/),
    ]);
  });

  it('refuses a payload that is not an object or not JSON, and an order with no time at all', () => {
    expect(problemsOf('not an order')).toEqual([expect.stringMatching(/^\(payload\): /)]);
    expect(problemsOf('{"id":', (text) => orderFromWebhook(parseWebhookJson(text as string)))).toEqual(['(payload): is not valid JSON']);
    expect(problemsOf(restOrder({ processed_at: null, created_at: null }))).toEqual([
      'processed_at: is required when created_at is absent',
    ]);
  });
});

describe('the worked tax-inclusive example of docs/earning-engine.md', () => {
  it('earns on 135.00 of 185.65, and the returned jacket takes 90.00 of it back', () => {
    const line = (price: string, quantity: number, tax: string, discount: string | null, giftCard = false) => ({
      price,
      quantity,
      gift_card: giftCard,
      tax_lines: tax === '0.00' ? [] : [{ price: tax, rate: 0.19, title: 'MwSt' }],
      discount_allocations: discount ? [{ amount: discount }] : [],
    });
    const jacketRefund = { subtotal: 107.1, total_tax: 17.1, line_item: { gift_card: false } };
    const payload = restOrder({
      currency: 'EUR',
      taxes_included: true,
      subtotal_price: '185.65',
      line_items: [line('119.00', 1, '17.10', '11.90'), line('29.75', 2, '8.55', '5.95'), line('25.00', 1, '0.00', null, true)],
      refunds: [],
    });

    expect(orderFromWebhook(payload)).toMatchObject({ eligibleSubtotal: '135.00', refundedEligible: '0.00' });
    expect(orderFromWebhook({ ...(payload as object), refunds: [{ id: 9, refund_line_items: [jacketRefund] }] }).refundedEligible).toBe(
      '90.00',
    );
    expect(
      refundedEligible(
        refundFromWebhook({ id: 1, order_id: 5000000001, created_at: '2027-01-20T10:00:00+01:00', refund_line_items: [jacketRefund] })
          .lines,
        true,
      ),
    ).toBe('90.00');
  });
});

describe('refundFromWebhook', () => {
  const restRefund = (fields: Fields = {}) => ({
    id: 9000000002,
    order_id: 5000000001,
    created_at: '2027-01-16T09:30:00-05:00',
    note: null,
    refund_line_items: [
      { id: 1, line_item_id: 7, quantity: 1, subtotal: 30, total_tax: 2.4, subtotal_set: { shop_money: { amount: '30.00' } } },
      { id: 2, line_item_id: 8, quantity: 1, subtotal: '10.50', total_tax: '0.84', line_item: { gift_card: true } },
    ],
    order_adjustments: [{ id: 3, amount: '-5.00', kind: 'shipping_refund' }],
    transactions: [{ id: 4, kind: 'refund', amount: '48.74' }],
    ...fields,
  });

  it('lists the refunded lines with their tax and gift-card flag, money as number or string', () => {
    const refund = refundFromWebhook(restRefund());

    expect(refund).toEqual({
      id: '9000000002',
      orderId: '5000000001',
      lines: [
        { giftCard: false, subtotal: '30', tax: '2.4' },
        { giftCard: true, subtotal: '10.50', tax: '0.84' },
      ],
      discrepancies: [],
      createdAt: '2027-01-16T14:30:00.000Z',
    });
  });

  it('reports a refund without line items (shipping only) as no lines', () => {
    expect(refundFromWebhook(restRefund({ refund_line_items: [] })).lines).toEqual([]);
  });

  it('reads refund discrepancies written as strings, JSON numbers or only in amount_set, and leaves shipping refunds out', () => {
    const refund = refundFromWebhook(
      restRefund({
        order_adjustments: [
          { id: 3, amount: '-5.00', tax_amount: '0.00', kind: 'shipping_refund', reason: 'Shipping refund' },
          { id: 4, amount: '1366.02', tax_amount: '0.00', kind: 'refund_discrepancy', reason: 'Refund discrepancy' },
          { id: 5, amount: -5.85, kind: 'refund_discrepancy' },
          { id: 6, kind: 'refund_discrepancy', amount_set: { shop_money: { amount: '2.37', currency_code: 'CAD' } } },
        ],
      }),
    );

    expect(refund.discrepancies).toEqual(['1366.02', '-5.85', '2.37']);
  });

  it('refuses a refund discrepancy without an amount, or with one that is no amount', () => {
    expect(problemsOf(restRefund({ order_adjustments: [{ id: 4, kind: 'refund_discrepancy' }] }), refundFromWebhook)).toEqual([
      expect.stringMatching(/^order_adjustments\.0: a refund_discrepancy needs its amount/),
    ]);
    expect(problemsOf(restRefund({ order_adjustments: [{ kind: 'refund_discrepancy', amount: 'lots' }] }), refundFromWebhook)).toEqual([
      expect.stringMatching(/^order_adjustments\.0\.amount: /),
    ]);
  });

  it('takes what the refunded lines were worth less the refund discrepancy, never below zero', () => {
    const lines = [{ giftCard: false, subtotal: '1240.71', tax: '125.31' }];
    expect(refundTakes({ lines, discrepancies: ['1000.00'] }, false)).toBe('240.71');
    expect(refundTakes({ lines, discrepancies: ['1366.02'] }, false)).toBe('0.00');
    expect(refundTakes({ lines: [], discrepancies: ['-5.85'] }, false)).toBe('5.85');
    // The contract's example: lines worth 2 378.72 that returned 1 012.70 carry 1366.02.
    expect(refundTakes({ lines: [{ giftCard: false, subtotal: '2378.72', tax: '0.00' }], discrepancies: ['1366.02'] }, false)).toBe(
      '1012.70',
    );
    expect(refundTakes({ lines, discrepancies: ['-10.00', '5.00'] }, true)).toBe('1120.40');
  });

  it('refuses a refund without its order', () => {
    expect(problemsOf(restRefund({ order_id: undefined }), refundFromWebhook)).toEqual([expect.stringMatching(/^order_id: /)]);
  });
});

/** An order as a generator sees it, in minor units, rendered below as a webhook payload and as GraphQL. */
interface ModelLine {
  giftCard: boolean;
  unitMinor: number;
  quantity: number;
  discountMinor: number;
  taxMinor: number;
}
interface ModelOrder {
  taxesIncluded: boolean;
  lines: ModelLine[];
  /** Each refund: which lines (by index) went back, and its refund discrepancy as Shopify writes it. */
  refunds: ModelRefund[];
}
interface ModelRefund {
  lines: number[];
  /** The lines' value minus the money refunded, minor units (0: no adjustment). */
  discrepancyMinor: number;
  /** How the REST payload writes the amount: a string, a JSON number, or only in `amount_set`. */
  form: 'string' | 'number' | 'set';
  /** A `shipping_refund` adjustment beside it, which never counts. */
  shipping: boolean;
}

const decimal = (minor: number) => (minor / 100).toFixed(2);
const lineTotal = (line: ModelLine) => line.unitMinor * line.quantity - line.discountMinor;
const money = (minor: number) => ({ shopMoney: { amount: decimal(minor) } });
const subtotalMinor = (model: ModelOrder) => model.lines.reduce((sum, line) => sum + lineTotal(line), 0);

/**
 * The contract's figure, computed in integers without the mappers' code: each refund takes its lines on the
 * eligible basis minus its refund discrepancy, never below zero; all of them never more than the eligible amount.
 */
function contractEligible(model: ModelOrder): { eligible: number; refunded: number; taken: number[] } {
  const tax = model.taxesIncluded ? model.lines.reduce((sum, line) => sum + line.taxMinor, 0) : 0;
  const giftCards = model.lines.filter((line) => line.giftCard).reduce((sum, line) => sum + lineTotal(line), 0);
  const eligible = Math.max(0, subtotalMinor(model) - tax - giftCards);
  const taken = model.refunds.map((refund) => {
    const lines = refund.lines
      .map((index) => model.lines[index]!)
      .filter((line) => !line.giftCard)
      .reduce((sum, line) => sum + lineTotal(line) - (model.taxesIncluded ? line.taxMinor : 0), 0);
    return Math.max(0, Math.max(0, lines) - refund.discrepancyMinor);
  });
  return {
    eligible,
    refunded: Math.min(
      eligible,
      taken.reduce((sum, minor) => sum + minor, 0),
    ),
    taken,
  };
}

const refundId = (index: number) => String(890088186047892319n + BigInt(index));

/** A refund's order adjustments as Shopify's REST payloads write them. */
function restAdjustments(refund: ModelRefund) {
  const adjustments: Array<Record<string, unknown>> = [];
  if (refund.shipping) adjustments.push({ kind: 'shipping_refund', amount: '-5.00', tax_amount: '0.00', reason: 'Shipping refund' });
  if (refund.discrepancyMinor !== 0) {
    const text = decimal(refund.discrepancyMinor);
    const set = { shop_money: { amount: text, currency_code: 'USD' }, presentment_money: { amount: text, currency_code: 'USD' } };
    adjustments.push({
      kind: 'refund_discrepancy',
      reason: 'Refund discrepancy',
      ...(refund.form === 'string' ? { amount: text } : refund.form === 'number' ? { amount: refund.discrepancyMinor / 100 } : {}),
      amount_set: set,
    });
  }
  return adjustments;
}

function asWebhook(model: ModelOrder): unknown {
  return restOrder({
    taxes_included: model.taxesIncluded,
    subtotal_price: decimal(subtotalMinor(model)),
    line_items: model.lines.map((line) => ({
      price: decimal(line.unitMinor),
      quantity: line.quantity,
      gift_card: line.giftCard,
      tax_lines: line.taxMinor ? [{ price: decimal(line.taxMinor), rate: 0.2, title: 'VAT' }] : [],
      discount_allocations: line.discountMinor ? [{ amount: decimal(line.discountMinor) }] : [],
    })),
    // Shopify writes refund line amounts as JSON numbers.
    refunds: model.refunds.map((refund, refundIndex) => ({
      id: refundId(refundIndex),
      refund_line_items: refund.lines.map((index) => {
        const line = model.lines[index]!;
        return { subtotal: lineTotal(line) / 100, total_tax: line.taxMinor / 100, line_item: { gift_card: line.giftCard } };
      }),
      order_adjustments: restAdjustments(refund),
    })),
  });
}

function asGraphql(model: ModelOrder) {
  const subtotal = subtotalMinor(model);
  const node: ShopifyOrderNode = {
    id: 'gid://shopify/Order/5000000001',
    legacyResourceId: '5000000001',
    name: '#1001',
    createdAt: '2027-01-15T15:00:00Z',
    processedAt: '2027-01-15T15:00:00Z',
    updatedAt: '2027-01-16T14:30:00Z',
    cancelledAt: null,
    test: false,
    taxesIncluded: model.taxesIncluded,
    displayFinancialStatus: 'PARTIALLY_REFUNDED',
    discountCodes: ['LOYAL-ABC123'],
    customer: { id: 'gid://shopify/Customer/1001' },
    subtotalPriceSet: { shopMoney: { amount: decimal(subtotal), currencyCode: 'USD' } },
    currentSubtotalPriceSet: { shopMoney: { amount: decimal(subtotal), currencyCode: 'USD' } },
    customAttributes: [{ key: 'referral_code', value: 'FRIEND1' }],
    customerJourneySummary: { firstVisit: { landingPage: 'https://demo.myshopify.com/?ref=FRIEND1', referralCode: null }, lastVisit: null },
    lineItems: { nodes: [], pageInfo: { hasNextPage: false, endCursor: null } },
    refunds: [],
  };
  return orderFromGraphql({
    node,
    lines: model.lines.map((line) => ({
      isGiftCard: line.giftCard,
      quantity: line.quantity,
      originalUnitPriceSet: money(line.unitMinor),
      discountAllocations: line.discountMinor ? [{ allocatedAmountSet: money(line.discountMinor) }] : [],
      taxLines: line.taxMinor ? [{ priceSet: money(line.taxMinor) }] : [],
    })),
    refunds: model.refunds.map((refund, refundIndex) => ({
      id: `gid://shopify/Refund/${refundId(refundIndex)}`,
      lines: refund.lines.map((index) => {
        const line = model.lines[index]!;
        return { subtotalSet: money(lineTotal(line)), totalTaxSet: money(line.taxMinor), lineItem: { isGiftCard: line.giftCard } };
      }),
      // The Admin API has no shipping refund among a refund's order adjustments: only the discrepancy.
      adjustments: refund.discrepancyMinor !== 0 ? [{ amountSet: money(refund.discrepancyMinor) }] : [],
    })),
  });
}

const modelLine = fc
  .record({
    giftCard: fc.boolean(),
    unitMinor: fc.integer({ min: 1, max: 50_000 }),
    quantity: fc.integer({ min: 1, max: 5 }),
    discountShare: fc.integer({ min: 0, max: 50 }),
    taxShare: fc.integer({ min: 0, max: 25 }),
  })
  .map(({ giftCard, unitMinor, quantity, discountShare, taxShare }): ModelLine => {
    const discountMinor = Math.floor((unitMinor * quantity * discountShare) / 100);
    // Gift cards carry no tax, as in Shopify.
    const taxMinor = giftCard ? 0 : Math.floor(((unitMinor * quantity - discountMinor) * taxShare) / 125);
    return { giftCard, unitMinor, quantity, discountMinor, taxMinor };
  });
const modelOrder = fc
  .record({
    taxesIncluded: fc.boolean(),
    lines: fc.array(modelLine, { minLength: 1, maxLength: 6 }),
    refundPicks: fc.array(fc.nat(), { maxLength: 4 }),
    // Per refund: its discrepancy (negative: more money than the lines, e.g. a refund without lines), how it is written.
    discrepancies: fc.array(
      fc.record({
        discrepancyMinor: fc.oneof(fc.constant(0), fc.integer({ min: -20_000, max: 60_000 })),
        form: fc.constantFrom('string' as const, 'number' as const, 'set' as const),
        shipping: fc.boolean(),
      }),
      { minLength: 3, maxLength: 3 },
    ),
    moneyOnlyRefund: fc.boolean(),
  })
  .map(({ taxesIncluded, lines, refundPicks, discrepancies, moneyOnlyRefund }): ModelOrder => {
    // Each line goes back at most once, in refunds of one or two lines; maybe one refund of money without lines.
    const indexes = [...new Set(refundPicks.map((pick) => pick % lines.length))];
    const picked: number[][] = [];
    for (let i = 0; i < indexes.length; i += 2) picked.push(indexes.slice(i, i + 2));
    if (moneyOnlyRefund) picked.push([]);
    return { taxesIncluded, lines, refunds: picked.map((refundLines, index) => ({ lines: refundLines, ...discrepancies[index % 3]! })) };
  });

describe('both order sources reach the same eligible amount (property)', () => {
  it('the webhook and the GraphQL order agree with each other and with the contract, for any lines, refunds and refund discrepancies', () => {
    fc.assert(
      fc.property(modelOrder, (model) => {
        const fromWebhook = orderFromWebhook(parseWebhookJson(JSON.stringify(asWebhook(model))));
        const fromGraphql = asGraphql(model);
        const expected = contractEligible(model);

        expect(fromWebhook).toEqual(fromGraphql);
        expect(fromWebhook.eligibleSubtotal).toBe(decimal(expected.eligible));
        expect(fromWebhook.refundedEligible).toBe(decimal(expected.refunded));
        expect(fromWebhook.refunds).toEqual(expected.taken.map((minor, index) => ({ id: refundId(index), taken: decimal(minor) })));
      }),
      { numRuns: 300 },
    );
  });
});

describe('decimal amounts', () => {
  it('add and subtract exactly where floating point would not', () => {
    expect(addAmounts('0.1', '0.2')).toBe('0.30');
    expect(subtractAmounts('120', '79.505')).toBe('40.495');
    expect(subtractAmounts('1.00', '2.5')).toBe('-1.50');
  });
});
