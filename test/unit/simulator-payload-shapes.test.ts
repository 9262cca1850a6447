// The simulator's webhook bodies against Shopify's example payloads, field by field: for every field both
// have, the simulator writes the JSON type Shopify writes (number, string, boolean, null, object, array),
// recursively, array items against the sample's first item. A field Shopify's sample leaves null says
// nothing about its type and accepts anything. The sample fields the simulator does not write, and those it
// writes null where the sample has a value, are listed explicitly so that a change on either side is seen.
//
// The samples (test/fixtures/shopify-webhooks/, sources in its README) are Shopify's example payloads of the order topics
// (orders/paid, orders/updated and orders/cancelled share one Order example) and of refunds/create. The
// simulator sends no customer topic of its own (POST /_webhooks/send passes the caller's body through), so
// there is no customer payload to compare.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { restOrderPayload, restRefundPayload } from '../../infra/local/simulator/rest-order-payloads';
import { createSimulatedOrders, type SimulatedOrder } from '../../infra/local/simulator/simulated-orders';

type JsonType = 'number' | 'string' | 'boolean' | 'null' | 'object' | 'array';

function jsonType(value: unknown): JsonType {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value as JsonType;
}

interface Comparison {
  /** `path: simulator type, Shopify type` for every field whose types differ. */
  mismatches: string[];
  /** Sample fields the simulator does not write. */
  missing: string[];
  /** Fields the simulator writes null where the sample has a value. */
  nullWhereSampleHasValue: string[];
  /** Arrays the simulator writes empty where the sample has items, so their items go unchecked. */
  emptyWhereSampleHasItems: string[];
}

function compare(simulated: unknown, sample: unknown): Comparison {
  const found: Record<keyof Comparison, Set<string>> = {
    mismatches: new Set(),
    missing: new Set(),
    nullWhereSampleHasValue: new Set(),
    emptyWhereSampleHasItems: new Set(),
  };
  const walk = (ours: unknown, theirs: unknown, path: string) => {
    const oursType = jsonType(ours);
    const theirsType = jsonType(theirs);
    if (theirsType === 'null') return;
    if (oursType === 'null') {
      found.nullWhereSampleHasValue.add(path);
      return;
    }
    if (oursType !== theirsType) {
      found.mismatches.add(`${path}: simulator ${oursType}, Shopify ${theirsType}`);
      return;
    }
    if (theirsType === 'array') {
      const [first] = theirs as unknown[];
      if (first === undefined) return;
      if ((ours as unknown[]).length === 0) found.emptyWhereSampleHasItems.add(path);
      for (const item of ours as unknown[]) walk(item, first, `${path}[]`);
      return;
    }
    if (theirsType === 'object') {
      const oursObject = ours as Record<string, unknown>;
      for (const [key, value] of Object.entries(theirs as Record<string, unknown>)) {
        const at = path ? `${path}.${key}` : key;
        if (key in oursObject) walk(oursObject[key], value, at);
        else found.missing.add(at);
      }
    }
  };
  walk(simulated, sample, '');
  const sorted = (set: Set<string>) => [...set].sort();
  return {
    mismatches: sorted(found.mismatches),
    missing: sorted(found.missing),
    nullWhereSampleHasValue: sorted(found.nullWhereSampleHasValue),
    emptyWhereSampleHasItems: sorted(found.emptyWhereSampleHasItems),
  };
}

const SAMPLES = join(__dirname, '..', 'fixtures', 'shopify-webhooks');
/** Only JSON types are compared, so a plain parse (which rounds ids beyond 2^53) is enough here. */
const sample = (file: string): unknown => JSON.parse(readFileSync(join(SAMPLES, file), 'utf8'));
/** What the simulator sends, as the receiver parses it. */
const asJson = (payload: unknown): unknown => JSON.parse(JSON.stringify(payload));

/** An order using every feature the payload has: a customer, taxed and discounted lines, a gift card, shipping. */
function richOrder(): { order: SimulatedOrder; orders: ReturnType<typeof createSimulatedOrders> } {
  const orders = createSimulatedOrders(() => new Date('2027-01-15T10:00:00.000Z'));
  const order = orders.create({
    shop: 'demo',
    currency: 'USD',
    customer: { id: '1001', email: 'ada@example.com', first_name: 'Ada', last_name: 'Lovelace', created_at: '2024-03-01T10:00:00.000Z' },
    line_items: [
      { price: '89.99', quantity: 2, tax: '10.80', discount: '5.00' },
      { price: '25.00', quantity: 1, gift_card: true },
    ],
    total_price: '225.78',
    discount_codes: ['LOYAL-1'],
    landing_site: '/?ref=FRIEND1',
    landing_site_ref: 'FRIEND1',
    note_attributes: [{ name: 'referral_code', value: 'FRIEND1' }],
  });
  return { order, orders };
}

// Sample fields the simulator does not write: what it does not model (addresses, fulfilment, staff, the
// storefront session) or has no value for.
const ORDER_FIELDS_NOT_WRITTEN = [
  'billing_address',
  'client_details',
  'customer.default_address',
  'merchant_business_entity_id',
  'order_status_url',
  'shipping_address',
  'token',
];

// The simulator sells custom items (no product, variant or SKU, as Shopify writes a custom item), and an
// order it has not cancelled has no cancellation.
const ORDER_FIELDS_NULL = ['cancel_reason', 'cancelled_at', 'line_items[].product_id', 'line_items[].sku'];

describe('simulator webhook payloads against Shopify example payloads', () => {
  const orderSample = sample('orders-shopify-sample.json');
  const refundSample = sample('refunds-create-shopify-sample.json');

  it.each([
    ['orders/paid', (order: SimulatedOrder) => order],
    [
      'orders/updated',
      (order: SimulatedOrder, orders: ReturnType<typeof createSimulatedOrders>) =>
        orders.refund(String(order.id), { lines: [{ index: 0, quantity: 1 }] }).order,
    ],
  ])('%s: every field Shopify writes has its type', (_topic, change) => {
    const { order, orders } = richOrder();

    const comparison = compare(asJson(restOrderPayload(change(order, orders))), orderSample);

    expect(comparison.mismatches).toEqual([]);
    expect(comparison.missing).toEqual(ORDER_FIELDS_NOT_WRITTEN);
    expect(comparison.nullWhereSampleHasValue).toEqual(ORDER_FIELDS_NULL);
    // Shopify's example credits a staff member with the first line; the simulator has no staff.
    expect(comparison.emptyWhereSampleHasItems).toEqual(['line_items[].attributed_staffs']);
  });

  it('orders/cancelled: every field Shopify writes has its type, the cancellation included', () => {
    const { order, orders } = richOrder();

    const comparison = compare(asJson(restOrderPayload(orders.cancel(String(order.id)))), orderSample);

    expect(comparison.mismatches).toEqual([]);
    expect(comparison.missing).toEqual(ORDER_FIELDS_NOT_WRITTEN);
    expect(comparison.nullWhereSampleHasValue).toEqual(['line_items[].product_id', 'line_items[].sku']);
  });

  it('refunds/create: every field Shopify writes has its type, the refund line amounts as JSON numbers', () => {
    const { order, orders } = richOrder();
    const { refund } = orders.refund(String(order.id), {
      lines: [
        { index: 0, quantity: 1 },
        { index: 1, quantity: 1 },
      ],
    });
    const payload = asJson(restRefundPayload(order, refund)) as { refund_line_items: Array<{ subtotal: unknown; total_tax: unknown }> };

    const comparison = compare(payload, refundSample);

    expect(comparison.mismatches).toEqual([]);
    expect(comparison.missing).toEqual([]);
    // A refund made through the API by an app has no staff member, and this one no note; the simulator's
    // items are custom items.
    expect(comparison.nullWhereSampleHasValue).toEqual([
      'note',
      'refund_line_items[].line_item.product_id',
      'refund_line_items[].line_item.sku',
      'user_id',
    ]);
    expect(comparison.emptyWhereSampleHasItems).toEqual([]);
    expect(payload.refund_line_items.map((line) => [line.subtotal, line.total_tax])).toEqual([
      [87.49, 5.4],
      [25, 0],
    ]);
  });

  it("refunds/create of money returned apart from the lines: its order_adjustments have a store's refund_discrepancy shape", () => {
    // A Canadian test store's refunds/create with a refund_discrepancy (README: topdev1228/Black-cart).
    const captured = sample('refunds-create-refund-discrepancy-pending.json') as { order_adjustments: unknown[] };
    const { order, orders } = richOrder();
    const { refund } = orders.refund(String(order.id), { lines: [{ index: 0, quantity: 1 }], amount: '1.00' });
    const payload = asJson(restRefundPayload(order, refund)) as { order_adjustments: Array<Record<string, unknown>> };

    const comparison = compare(payload.order_adjustments, captured.order_adjustments);

    expect(comparison).toEqual({ mismatches: [], missing: [], nullWhereSampleHasValue: [], emptyWhereSampleHasItems: [] });
    expect(payload.order_adjustments).toEqual([
      expect.objectContaining({ kind: 'refund_discrepancy', refund_id: refund.id, order_id: order.id, amount: expect.any(String) }),
    ]);
  });

  it('an order refunded in the simulator carries its refunds with the shape of refunds/create', () => {
    const { order, orders } = richOrder();
    orders.refund(String(order.id), { subtotal: '10.00' });

    const [embedded] = (asJson(restOrderPayload(order)) as { refunds: unknown[] }).refunds;

    expect(compare(embedded, refundSample).mismatches).toEqual([]);
  });

  it('names the path of a type that differs, and a field the simulator leaves out', () => {
    const comparison = compare(
      { id: '1', line_items: [{ price: 1, tax_lines: [{ rate: '0.2' }] }], note: 'x' },
      { id: 1, line_items: [{ price: '1.00', tax_lines: [{ rate: 0.2, title: 'Tax' }] }], note: null, test: true },
    );

    expect(comparison.mismatches).toEqual([
      'id: simulator string, Shopify number',
      'line_items[].price: simulator number, Shopify string',
      'line_items[].tax_lines[].rate: simulator string, Shopify number',
    ]);
    expect(comparison.missing).toEqual(['line_items[].tax_lines[].title', 'test']);
  });
});
