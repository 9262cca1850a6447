// Orders as Shopify writes them, through the twin: the simulator's line items (taxes included, gift cards,
// discounts), orders awaiting payment that are paid or voided later, test orders, and refunds of whole
// units, delivered by webhook or found by order reconciliation, earn what SHOPIFY-CONTRACT.md says.
import type { Twin } from '../../infra/local/twin';
import { platformControls, profileOf } from '../support/orders';
import { apiClient, startTestTwin } from '../support/twin';

jest.setTimeout(60_000);

const KEY = 'shapes_full_key_01';
const TEST_KEY = 'shapes_test_key_01';
const customers = Array.from({ length: 8 }, (_, i) => ({ id: String(4001 + i), email: `shape${i}@example.com`, created_at: null }));
const member = (id: string) => ({
  platform_customer_id: id,
  current_points: 0,
  lifetime_points: 0,
  redeemed_points: 0,
  enrolled_at: '2025-01-01T00:00:00.000Z',
});
const perDollar = {
  id: 'per-dollar',
  name: 'A point per dollar',
  action: 'purchase',
  category: 'purchase',
  points_to_give: 1,
  spend_unit: 1,
};
const config = {
  shops: [
    {
      id: 'shapes',
      name: 'Shapes',
      currency: 'USD',
      referral_base_url: 'https://shapes.example/',
      api_keys: [{ name: 'Full', scope: 'full', key: KEY }],
      earning_rules: [perDollar],
      platform: { customers },
      members: customers.map((customer) => member(customer.id)),
    },
    {
      id: 'shapes-test',
      name: 'Counts test orders',
      currency: 'USD',
      referral_base_url: 'https://shapes-test.example/',
      earning_settings: { count_test_orders: true },
      api_keys: [{ name: 'Full', scope: 'full', key: TEST_KEY }],
      earning_rules: [perDollar],
      platform: { customers: [{ id: '5001', email: 'tester@example.com', created_at: null }] },
      members: [member('5001')],
    },
  ],
};

let twin: Twin;
let platform: ReturnType<typeof platformControls>;

const points = async (customerId: string, key = KEY) =>
  (await apiClient(twin.url, key).get(`/v1/customers/${customerId}`)).body.data.attributes.current_points as number;

// 2 × 30.00 less 6.00 of discount, 10.00 of it tax (prices include tax), and a 25.00 gift card: eligible
// 79.00 − 10.00 − 25.00 = 44.00.
const TAXED_WITH_GIFT_CARD = {
  taxes_included: true,
  line_items: [
    { price: '30.00', quantity: 2, tax: '10.00', discount: '6.00' },
    { price: '25.00', quantity: 1, gift_card: true },
  ],
};

beforeAll(async () => {
  twin = await startTestTwin(config, { throttling: false });
  platform = platformControls(twin);
});
afterAll(async () => {
  await twin.stop();
});

describe('orders with line items', () => {
  it('earn on the subtotal less included tax and gift cards, and lose on unit refunds on the same basis', async () => {
    const { order } = await platform.order({ shop: 'shapes', customer_id: '4001', ...TAXED_WITH_GIFT_CARD });

    expect(await points('4001')).toBe(44);
    expect(await profileOf('shapes', '4001')).toMatchObject({ total_spend: 44, orders_count: 1 });

    // The gift card goes back: nothing of it was eligible.
    await platform.refundLines(order.id, [{ index: 1, quantity: 1 }]);
    expect(await points('4001')).toBe(44);

    // One unit: 30.00 − 3.00 of discount = 27.00, of which 5.00 tax: 22.00 less eligible.
    await platform.refundLines(order.id, [{ index: 0, quantity: 1 }]);
    expect(await points('4001')).toBe(22);
    expect(await profileOf('shapes', '4001')).toMatchObject({ total_spend: 22 });
  });

  it('found by order reconciliation earn what their webhook would have', async () => {
    await platform.order({ shop: 'shapes', customer_id: '4002', ...TAXED_WITH_GIFT_CARD, deliver: false });
    expect(await points('4002')).toBe(0);

    const run = await fetch(`${twin.url}/_jobs/run`, { method: 'POST' });

    expect(run.status).toBe(200);
    expect(await points('4002')).toBe(44);
  });
});

describe('orders awaiting payment', () => {
  it('earn nothing while pending and earn once paid', async () => {
    const { order, webhook } = await platform.order({
      shop: 'shapes',
      customer_id: '4003',
      subtotal_price: '40.00',
      financial_status: 'pending',
    });

    expect(webhook?.status).toBe(200);
    expect(await points('4003')).toBe(0);

    await platform.pay(order.id);
    expect(await points('4003')).toBe(40);
    expect(await profileOf('shapes', '4003')).toMatchObject({ total_spend: 40, orders_count: 1 });
  });

  it('earn nothing when the authorization is voided', async () => {
    const { order } = await platform.order({
      shop: 'shapes',
      customer_id: '4004',
      subtotal_price: '40.00',
      financial_status: 'authorized',
    });

    await platform.void(order.id);

    expect(await points('4004')).toBe(0);
    expect(await profileOf('shapes', '4004')).toMatchObject({ total_spend: 0, orders_count: 0 });
  });
});

describe('test orders', () => {
  it('earn only in a shop that counts them', async () => {
    await platform.order({ shop: 'shapes', customer_id: '4005', subtotal_price: '30.00', test: true });
    await platform.order({ shop: 'shapes-test', customer_id: '5001', subtotal_price: '30.00', test: true });

    expect(await points('4005')).toBe(0);
    expect(await points('5001', TEST_KEY)).toBe(30);
  });
});
