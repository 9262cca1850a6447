// Refunds that did not return the value of their lines, from stores' captures (test/fixtures/shopify-webhooks,
// sources in its README), through the signed webhook and through reconciliation (SHOPIFY-CONTRACT.md, "What an
// order earns": "Money refunded outside the lines", "A refund is known by its id"). Every shop gives 1 point per
// whole currency unit of the eligible amount, so points are floor(eligible).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Twin } from '../../infra/local/twin';
import { customerItems, platformControls, postWebhook, profileOf, signedHeaders } from '../support/orders';
import { apiClient, startTestTwin } from '../support/twin';
import { runJobs } from '../support/jobs';

jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const FIXTURES = join(__dirname, '..', 'fixtures', 'shopify-webhooks');
/** A fixture's bytes as they are stored: never parsed and re-serialized (that would round ids beyond 2^53). */
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

const IL_CUSTOMER = '3765495070875'; // the buyer of order #1006 of a development store in Israel (ILS), 2020
const DOCS_CUSTOMER = '207119551'; // the customer of Shopify's documented order 450789469
const CA_CUSTOMER = '4001'; // a simulator customer of the Canadian shop
const perUnit = { id: 'per-unit', name: 'A point per unit', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 };
const keyOf = (shopId: string) => `refunds_${shopId.replace(/-/g, '_')}_key`;
const member = (id: string, overrides: Record<string, unknown> = {}) => ({
  platform_customer_id: id,
  current_points: 0,
  lifetime_points: 0,
  redeemed_points: 0,
  // Before every fixture's processed_at (Shopify's documented order was placed in 2008).
  enrolled_at: '2007-01-01T00:00:00.000Z',
  ...overrides,
});
const shop = (id: string, currency: string, customerId: string) => ({
  id,
  name: id,
  currency,
  referral_base_url: `https://${id}.example/`,
  api_keys: [{ name: 'Full', scope: 'full', key: keyOf(id) }],
  earning_rules: [perUnit],
  platform: { customers: [{ id: customerId, email: `customer${customerId}@example.com`, first_name: 'C', last_name: customerId }] },
  members: [member(customerId)],
});

const config = {
  shops: [
    shop('il', 'ILS', IL_CUSTOMER),
    shop('il-late', 'ILS', IL_CUSTOMER),
    shop('il-spent', 'ILS', IL_CUSTOMER),
    shop('docs', 'USD', DOCS_CUSTOMER),
    shop('docs-late', 'USD', DOCS_CUSTOMER),
    shop('ca', 'CAD', CA_CUSTOMER),
    shop('il-sim', 'ILS', '4101'),
    shop('ca-sim', 'CAD', '4102'),
  ],
};

let twin: Twin;
let deliveries = 0;

beforeAll(async () => {
  twin = await startTestTwin(config, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

/** Signs `body` as Shopify signs a delivery of `topic` to `shopId`, with an event id of its own, and posts it. */
async function deliver(shopId: string, topic: string, body: string) {
  deliveries += 1;
  const headers = {
    ...signedHeaders(body, `${shopId}-webhook-secret`, `${shopId}.myshopify.com`, topic),
    'X-Shopify-Event-Id': `refunds-${deliveries}-${Math.random().toString(36).slice(2)}`,
    'X-Shopify-API-Version': '2026-10',
  };
  const answer = await postWebhook(twin, body, headers);
  expect(answer.status).toBe(200);
}

const api = (shopId: string) => apiClient(twin.url, keyOf(shopId));

/** Points through the API, spend and order count from the member's stored profile. */
async function balance(shopId: string, customerId: string) {
  const customer = await api(shopId).get(`/v1/customers/${customerId}`);
  expect(customer.status).toBe(200);
  const profile = await profileOf(shopId, customerId);
  return {
    points: customer.body.data.attributes.current_points as number,
    spend: Math.round(Number(profile.total_spend ?? 0) * 100) / 100,
    orders: Number(profile.orders_count ?? 0),
  };
}

async function earningHistory(shopId: string, customerId: string): Promise<Json[]> {
  const answer = await api(shopId).get(`/v1/customers/${customerId}/earning-history?page[size]=100`);
  expect(answer.status).toBe(200);
  return answer.body.data.map((entry: Json) => entry.attributes);
}

/**
 * What the member holds: every item of the partition but the orders' own state, which a newer snapshot of the
 * same order rewrites (its `updated_at`) without any effect on the member.
 */
const holdings = async (shopId: string, customerId: string) =>
  (await customerItems(shopId, customerId)).filter((item: Json) => !String(item.sk).startsWith('ORDER#'));

const takeBacks = async (shopId: string, customerId: string) =>
  (await earningHistory(shopId, customerId)).filter((entry) => entry.action === 'refund').map((entry) => entry.points);

// Order #1006 of a development store in Israel (ILS, prices without VAT): subtotal 5.00, 0.85 VAT, paid with
// PayPal, then refunded in full from PayPal without any refunded line. Shopify recorded the 5.85 as a
// refund_discrepancy of -5.85 (linoyco/Shopify-project src/Api/DemoApi.tsx, README).
describe('an order refunded in full without any refunded line (refund_discrepancy -5.85)', () => {
  const paid = () => fixture('orders-paid-refunded-without-lines-before.json');
  const refunded = () => fixture('orders-updated-refunded-without-lines.json');
  const refund = () => fixture('refunds-create-refunded-without-lines.json');

  it('takes back the points of the whole order, and the same refund again, or its order listing it, changes nothing', async () => {
    await deliver('il', 'orders/paid', paid());
    expect(await balance('il', IL_CUSTOMER)).toEqual({ points: 5, spend: 5, orders: 1 });

    await deliver('il', 'refunds/create', refund());
    // Lines 0.00 − (−5.85) = 5.85 taken, never more than the 5.00 still eligible: nothing is left to earn on.
    expect(await balance('il', IL_CUSTOMER)).toEqual({ points: 0, spend: 0, orders: 1 });
    const after = await holdings('il', IL_CUSTOMER);

    await deliver('il', 'refunds/create', refund());
    await deliver('il', 'orders/updated', refunded());
    // The paid snapshot again, older than everything since: timestamps out of order.
    await deliver('il', 'orders/paid', paid());

    expect(await holdings('il', IL_CUSTOMER)).toEqual(after);
    expect(await takeBacks('il', IL_CUSTOMER)).toEqual([-5]);
  });

  it('counts the refund once when it arrives before its order, then the order paid, then refunded', async () => {
    await deliver('il-late', 'refunds/create', refund());
    expect(await balance('il-late', IL_CUSTOMER)).toEqual({ points: 0, spend: 0, orders: 0 });

    await deliver('il-late', 'orders/paid', paid());
    expect(await balance('il-late', IL_CUSTOMER)).toEqual({ points: 5, spend: 5, orders: 1 });
    await deliver('il-late', 'orders/updated', refunded());
    expect(await balance('il-late', IL_CUSTOMER)).toEqual({ points: 0, spend: 0, orders: 1 });
    const after = await holdings('il-late', IL_CUSTOMER);

    await deliver('il-late', 'refunds/create', refund());
    await deliver('il-late', 'orders/paid', paid());

    expect(await holdings('il-late', IL_CUSTOMER)).toEqual(after);
    expect(await takeBacks('il-late', IL_CUSTOMER)).toEqual([-5]);
  });

  it('never takes the balance below zero when the member spent the points before the refund', async () => {
    await deliver('il-spent', 'orders/paid', paid());
    const spent = await api('il-spent').post(`/v1/customers/${IL_CUSTOMER}/points`, { adjustment: -4, note: 'spent elsewhere' });
    expect(spent.status).toBe(200);
    expect((await balance('il-spent', IL_CUSTOMER)).points).toBe(1);

    await deliver('il-spent', 'refunds/create', refund());

    expect(await balance('il-spent', IL_CUSTOMER)).toEqual({ points: 0, spend: 0, orders: 1 });
    expect(await earningHistory('il-spent', IL_CUSTOMER)).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'refund', points: -1, order_id: '2520704450715' })]),
    );
  });
});

// Shopify's documented order 450789469 (REST reference, via Shopify/shopify-api-js, README) was last updated in
// 2008 and lists refund 509562969 of two lines (195.66 + 195.67), created in 2024. Compared by timestamps, the
// refund looked newer than the order that already held it, and its refunds/create took it a second time.
describe("Shopify's documented order, older than the refund it lists", () => {
  it('takes the refund once when refunds/create follows the order that lists it', async () => {
    await deliver('docs', 'orders/updated', fixture('orders-updated-docs-sample-refunded.json'));
    // 597.00 − (195.66 + 195.67) = 205.67 eligible.
    expect(await balance('docs', DOCS_CUSTOMER)).toEqual({ points: 205, spend: 205.67, orders: 1 });
    const after = await holdings('docs', DOCS_CUSTOMER);

    await deliver('docs', 'refunds/create', fixture('refunds-create-docs-sample.json'));

    expect(await holdings('docs', DOCS_CUSTOMER)).toEqual(after);
    expect(await balance('docs', DOCS_CUSTOMER)).toEqual({ points: 205, spend: 205.67, orders: 1 });
  });

  it('takes the refund once when refunds/create comes first, and the order listing it after', async () => {
    await deliver('docs-late', 'refunds/create', fixture('refunds-create-docs-sample.json'));
    await deliver('docs-late', 'orders/updated', fixture('orders-updated-docs-sample-refunded.json'));
    await deliver('docs-late', 'refunds/create', fixture('refunds-create-docs-sample.json'));

    expect(await balance('docs-late', DOCS_CUSTOMER)).toEqual({ points: 205, spend: 205.67, orders: 1 });
  });
});

// refunds-create-refund-discrepancy-pending.json: a refunds/create of a Canadian test store (CAD, presentment
// USD) captured in topdev1228/Black-cart (README): two of three snowboards returned, 1240.71 + 125.31 tax, while
// the Shopify Payments refund of 1012.70 USD was still pending; Shopify recorded a refund_discrepancy of 1366.02
// CAD, the lines' whole value, so no shop money was refunded yet.
describe('a refund whose money has not gone back (refund_discrepancy 1366.02)', () => {
  it("takes nothing back while the refund's lines are worth no more than its discrepancy", async () => {
    const platform = platformControls(twin);
    // The captured refund's order: 3 × 689.28 less 206.78 of discount, 187.97 of tax on top (not included).
    const { order } = await platform.order({
      shop: 'ca',
      customer_id: CA_CUSTOMER,
      line_items: [{ price: '689.28', quantity: 3, discount: '206.78', tax: '187.97' }],
    });
    expect(await balance('ca', CA_CUSTOMER)).toEqual({ points: 1861, spend: 1861.06, orders: 1 });
    // The capture names its store's order; the simulator's order takes its place (the id only).
    const body = fixture('refunds-create-refund-discrepancy-pending.json').replace(
      '"order_id": 4182097789057,',
      `"order_id": ${order.id},`,
    );
    expect(body).toContain(`"order_id": ${order.id},`);

    await deliver('ca', 'refunds/create', body);
    await deliver('ca', 'refunds/create', body);

    // Lines 1240.71 (tax not included) − 1366.02 < 0: the refund takes nothing, the 1861 points stay.
    expect(await balance('ca', CA_CUSTOMER)).toEqual({ points: 1861, spend: 1861.06, orders: 1 });
    expect(await takeBacks('ca', CA_CUSTOMER)).toEqual([]);
  });
});

// The same two refunds made in the simulator, which writes them as Shopify does (an order adjustment of kind
// refund_discrepancy in the webhook, OrderAdjustment in GraphQL), read by reconciliation.
describe('reconciliation reaches the same figures', () => {
  it('a refund of money without lines, missed by the webhooks, is taken back once by reconciliation', async () => {
    const platform = platformControls(twin);
    const { order } = await platform.order({
      shop: 'il-sim',
      customer_id: '4101',
      line_items: [{ price: '5.00', quantity: 1, tax: '0.85' }],
    });
    expect(await balance('il-sim', '4101')).toEqual({ points: 5, spend: 5, orders: 1 });

    const { refund } = await platform.refundWith(order.id, { amount: '5.85', deliver: false });
    // Written as in the capture: no refunded line, a refund_discrepancy of -5.85.
    expect(refund.refund_line_items).toEqual([]);
    expect(refund.order_adjustments).toEqual([expect.objectContaining({ kind: 'refund_discrepancy', amount: '-5.85' })]);

    expect((await runJobs(twin)).order_reconciliation).toMatchObject({ failed: 0 });
    expect(await balance('il-sim', '4101')).toEqual({ points: 0, spend: 0, orders: 1 });
    const after = await holdings('il-sim', '4101');

    // Its refunds/create arrives late, after reconciliation took it: known by its id, it changes nothing.
    await deliver('il-sim', 'refunds/create', JSON.stringify(refund));
    expect((await runJobs(twin)).order_reconciliation).toMatchObject({ failed: 0 });
    expect(await holdings('il-sim', '4101')).toEqual(after);
  });

  it('a refund delivered by webhook and then read by reconciliation counts once, and its discrepancy counts in both', async () => {
    const platform = platformControls(twin);
    const { order } = await platform.order({
      shop: 'ca-sim',
      customer_id: '4102',
      line_items: [{ price: '689.28', quantity: 3, discount: '206.78', tax: '187.97' }],
    });
    // Two of the three units back, 400.00 of money returned: 1240.71 + 125.31 − 400.00 = 966.02 of discrepancy.
    const { refund, webhook } = await platform.refundWith(order.id, { line_items: [{ index: 0, quantity: 2 }], amount: '400.00' });
    expect(webhook?.status).toBe(200);
    expect(refund.order_adjustments).toEqual([expect.objectContaining({ kind: 'refund_discrepancy', amount: '966.02' })]);
    // 1240.71 − 966.02 = 274.69 taken: 1861.06 − 274.69 = 1586.37 left.
    expect(await balance('ca-sim', '4102')).toEqual({ points: 1586, spend: 1586.37, orders: 1 });
    const after = await holdings('ca-sim', '4102');

    expect((await runJobs(twin)).order_reconciliation).toMatchObject({ failed: 0 });

    expect(await holdings('ca-sim', '4102')).toEqual(after);
    expect(await takeBacks('ca-sim', '4102')).toEqual([-275]);
  });
});
