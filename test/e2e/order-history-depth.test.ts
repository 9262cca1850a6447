// Order reconciliation reads no further back than Shopify lets the app see (SHOPIFY-CONTRACT.md, "Order history
// depth"): after a gap of more than 60 days, an order whose webhook was lost in the unreadable part is never
// seen, unless the shop says its app holds read_all_orders.
import type { Twin } from '../../infra/local/twin';
import { platformControls, profileOf } from '../support/orders';
import { apiClient, startTestTwin } from '../support/twin';
import { runJobs } from '../support/jobs';

jest.setTimeout(60_000);

const shop = (id: string, key: string, readAllOrders: boolean) => ({
  id,
  name: id,
  currency: 'USD',
  referral_base_url: `https://${id}.example/`,
  api_keys: [{ name: 'Full', scope: 'full', key }],
  earning_rules: [
    { id: 'per-dollar', name: 'A point per dollar', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 },
  ],
  platform: { customers: [{ id: '7001', email: `a@${id}.example` }], read_all_orders: readAllOrders },
  members: [{ platform_customer_id: '7001', current_points: 0, enrolled_at: '2026-06-01T00:00:00.000Z' }],
});
const config = { shops: [shop('depth', 'depth_full_key_0001', false), shop('depth-all', 'depth_all_key_00001', true)] };

let twin: Twin;
beforeAll(async () => {
  twin = await startTestTwin(config);
});
afterAll(async () => {
  await twin?.stop();
});

async function at(now: string): Promise<void> {
  const answer = await fetch(`${twin.url}/_clock`, {
    method: 'PUT',
    body: JSON.stringify({ now }),
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status).toBe(200);
}

it('reconciles from 60 days back after a longer gap, and from the watermark where the app holds read_all_orders', async () => {
  const platform = platformControls(twin);
  await at('2027-01-01T00:00:00.000Z');
  await runJobs(twin); // the watermark of both shops: 2027-01-01
  for (const id of ['depth', 'depth-all']) {
    // Lost deliveries: one order 72 days before the next run, one 42 days before it.
    await at('2027-01-02T00:00:00.000Z');
    await platform.order({ shop: id, customer_id: '7001', subtotal_price: '50.00', deliver: false });
    await at('2027-02-01T00:00:00.000Z');
    await platform.order({ shop: id, customer_id: '7001', subtotal_price: '20.00', deliver: false });
  }

  await at('2027-03-15T00:00:00.000Z');
  await runJobs(twin);

  // 60 days before 2027-03-15 is 2027-01-14: the January 2 order is out of sight.
  const limited = await apiClient(twin.url, 'depth_full_key_0001').get('/v1/customers/7001');
  expect(limited.body.data.attributes.current_points).toBe(20);
  expect(await profileOf('depth', '7001')).toMatchObject({ orders_count: 1, total_spend: 20 });
  const all = await apiClient(twin.url, 'depth_all_key_00001').get('/v1/customers/7001');
  expect(all.body.data.attributes.current_points).toBe(70);
  expect(await profileOf('depth-all', '7001')).toMatchObject({ orders_count: 2, total_spend: 70 });
});
