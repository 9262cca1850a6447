// Order reconciliation's DynamoDB work follows the orders it has to apply, not every order the platform changed
// in its window: orders whose stored item already reflects the platform's state are checked by one batch read
// per page and left alone. Figures (calls counted by the twin's DYNAMODB_STATS), not timings.
import { startTestTwin, apiClient, type TestTwin } from '../support/twin';
import { runJobs } from '../support/jobs';
import { platformControls } from '../support/orders';
import { LOAD_CONFIG, LOAD_KEY } from '../support/invariants-load';
import type { DynamoDbStats } from '../../shared/data/dynamodb-stats';
import type { OrderReconcileSummary } from '../../shared/orders/order-reconciliation';

const ORDERS = 24;
let twin: TestTwin;
beforeAll(async () => {
  twin = await startTestTwin(LOAD_CONFIG, { environment: { DYNAMODB_STATS: 'true' } });
});
afterAll(async () => {
  await twin?.stop();
});

const stats = async (action?: 'reset'): Promise<DynamoDbStats> =>
  (await (
    await fetch(`${twin.url}/_dynamodb-stats${action ? `/${action}` : ''}`, { method: action ? 'POST' : 'GET' })
  ).json()) as DynamoDbStats;

async function reconcileCounted(): Promise<{ summary: OrderReconcileSummary; calls: Record<string, number> }> {
  await stats('reset');
  const { order_reconciliation } = await runJobs(twin);
  return { summary: order_reconciliation, calls: (await stats()).calls };
}

describe('order reconciliation cost', () => {
  it('reads nothing per order for orders already applied, and applies only those changed without their webhook', async () => {
    const api = apiClient(twin.url, LOAD_KEY);
    for (const customer of ['9001', '9002']) expect((await api.post('/v1/customers', { platform_customer_id: customer })).status).toBe(201);
    const platform = platformControls(twin);
    const orders: string[] = [];
    for (let i = 0; i < ORDERS; i += 1) {
      const { order, webhook } = await platform.order({ shop: 'load', customer_id: i % 2 ? '9001' : '9002', subtotal_price: '20.00' });
      expect(webhook?.status).toBe(200);
      orders.push(String(order.id));
    }

    // Every order was applied by its webhook: the run reads them all from the platform (no watermark yet: a day
    // back) and finds each current from one batch read per page; no member is read.
    const first = await reconcileCounted();
    expect(first.summary).toMatchObject({ orders: ORDERS, current: ORDERS, applied: 0, failed: 0 });
    expect(first.calls.GetItemCommand ?? 0).toBeLessThan(ORDERS / 4);

    // Three refunds whose webhooks never came: those three orders are applied, the others are not read again.
    for (const id of orders.slice(0, 3)) await platform.refund(id, '5.00', false);
    const second = await reconcileCounted();
    expect(second.summary).toMatchObject({ orders: 3, current: 0, applied: 3, failed: 0 });
    expect((await api.get('/v1/customers/9002')).body.data.attributes.current_points).toBe(50 + 12 * 20 - 2 * 5);
  });

  it('works a backlog longer than one run through run by run: a run stopped at its budget goes on from its last order', async () => {
    // The scheduled function's run, in this process against the twin's table and simulator.
    const { run } = await import('../../functions/jobs/order-reconciliation');
    const api = apiClient(twin.url, LOAD_KEY);
    expect((await api.post('/v1/customers', { platform_customer_id: '9003' })).status).toBe(201);
    const platform = platformControls(twin);
    // Seven paid orders whose webhooks never came.
    for (let i = 0; i < 7; i += 1) {
      const { webhook } = await platform.order({ shop: 'load', customer_id: '9003', subtotal_price: '10.00', deliver: false });
      expect(webhook).toBeNull();
    }
    // A run that may read three orders applies the three oldest and says more are left; the next goes on from
    // the last one it finished (read again, now current), and a run to the end applies the rest.
    await expect(run({ maxOrders: 3 })).resolves.toMatchObject({ orders: 3, applied: 3, more: true, failed: 0 });
    expect((await api.get('/v1/customers/9003')).body.data.attributes.current_points).toBe(50 + 3 * 10);
    await expect(run({ maxOrders: 3 })).resolves.toMatchObject({ orders: 3, current: 1, applied: 2, more: true });
    await expect(run()).resolves.toMatchObject({ applied: 2, more: false, failed: 0 });
    expect((await api.get('/v1/customers/9003')).body.data.attributes.current_points).toBe(50 + 7 * 10);
    // Once worked through, a run reads only what changed since it started.
    await expect(run()).resolves.toMatchObject({ orders: 0, applied: 0, more: false });
  });
});
