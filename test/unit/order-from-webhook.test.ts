// Webhook REST payloads become the same platform-neutral orders and refunds as the GraphQL orders query
// gives, and a signed but malformed payload is refused with every problem named.
import { addAmounts, subtractAmounts } from '../../shared/platform/decimal-amounts';
import { orderFromWebhook } from '../../shared/platform/order-from-webhook';
import { PlatformPayloadError } from '../../shared/platform/port';
import { refundFromWebhook } from '../../shared/platform/refund-from-webhook';
import { orderFromGraphql } from '../../shared/platform/shopify-orders';

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
  line_items: [],
  refunds: [],
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
  it('maps an orders/paid payload to the neutral order, ids as strings and the refunded part as a difference', () => {
    const order = orderFromWebhook(restOrder());

    expect(order).toEqual({
      id: '5000000001',
      name: '#1001',
      customerId: '1001',
      subtotal: '120.00',
      refundedSubtotal: '40.50',
      currency: 'USD',
      processedAt: '2027-01-15T10:00:00-05:00',
      updatedAt: '2027-01-16T09:30:00-05:00',
      cancelledAt: null,
      discountCodes: ['LOYAL-ABC123'],
      landingSite: '/?ref=FRIEND1',
      noteAttributes: [{ name: 'referral_code', value: 'FRIEND1' }],
      financialStatus: 'partially_refunded',
    });
  });

  it('gives the same order as the GraphQL query for the same platform state', () => {
    const fromWebhook = orderFromWebhook(restOrder({ landing_site: 'https://demo.myshopify.com/?ref=FRIEND1' }));
    const fromGraphql = orderFromGraphql({
      id: 'gid://shopify/Order/5000000001',
      legacyResourceId: '5000000001',
      name: '#1001',
      processedAt: '2027-01-15T10:00:00-05:00',
      updatedAt: '2027-01-16T09:30:00-05:00',
      cancelledAt: null,
      displayFinancialStatus: 'PARTIALLY_REFUNDED',
      discountCodes: ['LOYAL-ABC123'],
      customer: { id: 'gid://shopify/Customer/1001' },
      subtotalPriceSet: { shopMoney: { amount: '120.0', currencyCode: 'USD' } },
      currentSubtotalPriceSet: { shopMoney: { amount: '79.5', currencyCode: 'USD' } },
      customAttributes: [{ key: 'referral_code', value: 'FRIEND1' }],
      customerJourneySummary: { firstVisit: { landingPage: 'https://demo.myshopify.com/?ref=FRIEND1' }, lastVisit: null },
    });

    expect(fromWebhook).toEqual(fromGraphql);
  });

  it('treats a guest checkout, missing optional lists and a missing current subtotal as nothing refunded', () => {
    const order = orderFromWebhook(
      restOrder({
        customer: null,
        current_subtotal_price: undefined,
        discount_codes: undefined,
        note_attributes: null,
        landing_site: null,
      }),
    );

    expect(order).toMatchObject({ customerId: null, refundedSubtotal: '0.00', discountCodes: [], noteAttributes: [], landingSite: null });
  });

  it('keeps a cancellation time, and uses created_at when processed_at is absent', () => {
    const order = orderFromWebhook(restOrder({ processed_at: null, cancelled_at: '2027-01-17T08:00:00-05:00' }));

    expect(order.processedAt).toBe('2027-01-15T10:00:00-05:00');
    expect(order.cancelledAt).toBe('2027-01-17T08:00:00-05:00');
  });

  it('never reports more refunded than the subtotal went down, nor less than zero', () => {
    const order = orderFromWebhook(restOrder({ subtotal_price: '10.00', current_subtotal_price: '12.00' }));

    expect(order.refundedSubtotal).toBe('0.00');
  });

  it('names every problem of a malformed payload', () => {
    const problems = problemsOf(restOrder({ id: 'abc', subtotal_price: 12.5, updated_at: 'soon', currency: 'usd' }));

    expect(problems).toEqual([
      expect.stringMatching(/^id: /),
      expect.stringMatching(/^subtotal_price: /),
      expect.stringMatching(/^currency: must be an ISO 4217 currency code/),
      expect.stringMatching(/^updated_at: must be an ISO 8601 timestamp/),
    ]);
  });

  it('refuses a payload that is not an object, and an order with no time at all', () => {
    expect(problemsOf('not an order')).toEqual([expect.stringMatching(/^\(payload\): /)]);
    expect(problemsOf(restOrder({ processed_at: null, created_at: null }))).toEqual([
      'processed_at: is required when created_at is absent',
    ]);
  });
});

describe('refundFromWebhook', () => {
  const restRefund = (fields: Fields = {}) => ({
    id: 9000000002,
    order_id: 5000000001,
    created_at: '2027-01-16T09:30:00-05:00',
    note: null,
    refund_line_items: [
      { id: 1, line_item_id: 7, quantity: 1, subtotal: '30.00', total_tax: '2.40' },
      { id: 2, line_item_id: 8, quantity: 1, subtotal: '10.50', total_tax: '0.84' },
    ],
    order_adjustments: [{ id: 3, amount: '-5.00', kind: 'shipping_refund' }],
    transactions: [{ id: 4, kind: 'refund', amount: '48.74' }],
    ...fields,
  });

  it('sums the refunded line items subtotals, leaving shipping and tax out', () => {
    const refund = refundFromWebhook(restRefund());

    expect(refund).toEqual({ id: '9000000002', orderId: '5000000001', subtotal: '40.50', createdAt: '2027-01-16T09:30:00-05:00' });
  });

  it('reports a refund without line items (shipping only) as zero subtotal', () => {
    expect(refundFromWebhook(restRefund({ refund_line_items: [] })).subtotal).toBe('0.00');
  });

  it('refuses a refund without its order', () => {
    expect(problemsOf(restRefund({ order_id: undefined }), refundFromWebhook)).toEqual([expect.stringMatching(/^order_id: /)]);
  });
});

describe('decimal amounts', () => {
  it('add and subtract exactly where floating point would not', () => {
    expect(addAmounts('0.1', '0.2')).toBe('0.30');
    expect(subtractAmounts('120', '79.505')).toBe('40.495');
    expect(subtractAmounts('1.00', '2.5')).toBe('-1.50');
  });
});
