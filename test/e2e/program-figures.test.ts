// The program's figures through HTTP on the twin (SURFACES-CONTRACT.md, "The program's figures"):
// GET /admin/api/overview with a staff member's ID token, after adjustments, an enrolment, a purchase and its
// refund, each change counted once from its delivered events; `npx loyalty stats verify` agreeing with a full
// read; events delivered again and out of order counted once; the range's refusals; the liability's point value.
import type { Twin } from '../../infra/local/twin';
import { main } from '../../infra/cli/main';
import type { CommittedEvent, OrderCountedEvent } from '../../shared/domain/events';
import { batchDelete } from '../../shared/data/item-reads';
import { countDeliveredEvents } from '../../shared/figures/program-figures';
import { platformControls } from '../support/orders';
import { scanAll } from '../support/test-table';
import { e2eConfig, KEYS } from '../fixtures/e2e-config';
import { apiClient, type ApiResponse, expectError, sendJson, startTestTwin } from '../support/twin';

jest.setTimeout(180_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const APP = { clientId: 'figures-app-client-id', clientSecret: 'figures-app-client-secret', domain: 'e2e.myshopify.com' };
const OTHER = { clientId: 'figures-other-client-id', clientSecret: 'figures-other-client-secret', domain: 'e2e-other.myshopify.com' };

let twin: Twin;

beforeAll(async () => {
  const config: Json = e2eConfig();
  const [e2e, other] = config.shops;
  e2e.platform = { ...e2e.platform, shop_domain: APP.domain, client_id: APP.clientId, client_secret: APP.clientSecret };
  other.platform = { ...other.platform, shop_domain: OTHER.domain, client_id: OTHER.clientId, client_secret: OTHER.clientSecret };
  other.analytics = { point_value: '0.0125' };
  twin = await startTestTwin(config, { throttling: false });
  await settled();
});
afterAll(async () => {
  await twin?.stop();
});

/** Delivery is asynchronous: every committed event handed to the bus, and the figures queue has counted them. */
async function settled(): Promise<void> {
  await twin.eventStream.caughtUp();
  await twin.figures.idle();
}

async function idToken(shop = 'e2e'): Promise<string> {
  const response = await fetch(`${twin.platformUrl}/_id_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shop, user_id: '42' }),
  });
  return ((await response.json()) as { token: string }).token;
}

async function overview(query = '', shop = 'e2e'): Promise<ApiResponse> {
  return sendJson(`${twin.url}/admin/api/overview${query}`, 'GET', { Authorization: `Bearer ${await idToken(shop)}` });
}

async function figures(query = ''): Promise<Json> {
  const answer = await overview(query);
  expect(answer.status).toBe(200);
  return answer.body.data.attributes;
}

async function statsVerify(shop = 'e2e'): Promise<{ code: number; out: string[] }> {
  const out: string[] = [];
  const code = await main(['stats', 'verify', '--shop', shop, '--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName], {
    out: (line: string) => out.push(line),
    err: (line: string) => out.push(line),
  } as never);
  return { code, out };
}

/** Removes the shop's figures items, as a table from before the figures has none. */
async function deleteFigures(shop: string): Promise<void> {
  const items = (await scanAll()).filter((item) => item.pk === `SHOP#${shop}#FIGURES`);
  expect(items.length).toBeGreaterThan(1);
  await batchDelete(items.map((item) => ({ pk: String(item.pk), sk: String(item.sk) })));
}

const today = () => new Date().toISOString().slice(0, 10);
const api = () => apiClient(twin.url, KEYS.full);

describe('GET /admin/api/overview', () => {
  it('answers the figures of the configuration, which stats verify finds equal to a full read', async () => {
    const body = (await overview()).body;
    expect(body.data).toMatchObject({ type: 'program_overview', id: 'e2e' });
    const attributes = body.data.attributes;
    // 25 members configured, one of them excluded; every balance counted, excluded ones included.
    expect(attributes.members).toMatchObject({ total: 25, excluded: 1 });
    expect(attributes.daily).toHaveLength(30);
    expect(attributes.daily.at(-1).date).toBe(today());
    expect(attributes.liability).toEqual({
      // The best fixed reward: $5 for 500 points.
      point_value: '0.01',
      currency: 'USD',
      amount: (attributes.points_outstanding / 100).toFixed(2),
    });
    const verify = await statsVerify();
    expect(verify.out.join('\n')).toMatch(/the figures agree with a full read/);
    expect(verify.code).toBe(0);
  });

  it('changes with an adjustment, an enrolment, a purchase and its refund, each counted once', async () => {
    const before = await figures();
    expect((await api().post('/v1/customers/1003/points', { adjustment: 40, note: 'goodwill' })).status).toBe(200);
    expect((await api().post('/v1/customers/1004/points', { adjustment: -7, note: 'correction' })).status).toBe(200);
    expect((await api().post('/v1/customers', { platform_customer_id: '1027' })).status).toBe(201);
    const bought = await api().post('/v1/rewards/five-off/purchase', { customer_identifier: '1001' });
    expect(bought.status).toBe(201);
    expect((await api().post(`/v1/customers/1001/reward-history/${bought.body.data.id}/refund`)).status).toBe(200);
    await settled();

    const after = await figures();
    const enrolled = (await api().get('/v1/customers/1027')).body.data.attributes.current_points;
    expect(after.members.total).toBe(before.members.total + 1);
    expect(after.members.new).toBe(before.members.new + 1);
    expect(after.points_outstanding).toBe(before.points_outstanding + 40 - 7 + enrolled);
    expect(after.in_range.issued.manual).toBe(before.in_range.issued.manual + 40);
    expect(after.in_range.issued.signup).toBe(before.in_range.issued.signup + enrolled);
    expect(after.in_range.issued.refund).toBe(before.in_range.issued.refund + 500);
    expect(after.in_range.clawed_back).toBe(before.in_range.clawed_back + 7);
    expect(after.in_range.redeemed).toBe(before.in_range.redeemed + 500);
    expect(after.in_range.redemptions).toBe(before.in_range.redemptions + 1);
    const day = after.daily.at(-1);
    expect(day.redeemed).toBe(before.daily.at(-1).redeemed + 500);
    expect(day.issued).toBe(before.daily.at(-1).issued + 40 + enrolled + 500);
    expect(after.redemption_rate).toBeGreaterThan(0);

    const verify = await statsVerify();
    expect(verify.out.join('\n')).toMatch(/the figures agree with a full read/);
    expect(verify.code).toBe(0);
  });

  it("counts members' orders on their paid day, those paid with a reward code, refunds and cancellations, and repeat purchasers", async () => {
    const platform = platformControls(twin);
    const before = await figures();
    expect(before.repeat_purchase_rate).toBe(0);
    const bought = await api().post('/v1/rewards/five-off/purchase', { customer_identifier: '1001' });
    expect(bought.status).toBe(201);
    const code = bought.body.data.attributes.discount_code as string;

    // 1001: an order with the reward's code (typed in lower case), 15.00 of it refunded, then a second order.
    const loyalty = await platform.order({
      shop: 'e2e',
      customer_id: '1001',
      subtotal_price: '80.00',
      discount_codes: [code.toLowerCase()],
    });
    await platform.refund(loyalty.order.id, '15.00');
    await platform.order({ shop: 'e2e', customer_id: '1001', subtotal_price: '12.34' });
    // 1006: one order, and one cancelled; a referred friend's or a shop's own code is not a reward code.
    await platform.order({ shop: 'e2e', customer_id: '1006', subtotal_price: '30.00', discount_codes: ['SUMMER10'] });
    const cancelled = await platform.order({ shop: 'e2e', customer_id: '1006', subtotal_price: '20.00' });
    await platform.cancel(cancelled.order.id);
    // Neither a platform customer who is not a member, nor an excluded member, nor a test order counts.
    await platform.order({ shop: 'e2e', customer_id: '1026', subtotal_price: '99.00' });
    await platform.order({ shop: 'e2e', customer_id: '1025', subtotal_price: '99.00' });
    await platform.order({ shop: 'e2e', customer_id: '1007', subtotal_price: '99.00', test: true });
    await settled();

    const after = await figures();
    expect(after.in_range.member_orders).toBe(before.in_range.member_orders + 3);
    // 80.00 − 15.00 + 12.34 + 30.00
    expect(after.in_range.member_revenue).toBe((Number(before.in_range.member_revenue) + 107.34).toFixed(2));
    expect(after.in_range.loyalty_orders).toBe(before.in_range.loyalty_orders + 1);
    expect(after.in_range.loyalty_revenue).toBe((Number(before.in_range.loyalty_revenue) + 65).toFixed(2));
    expect(after.in_range.codes_used).toBe(before.in_range.codes_used + 1);
    expect(after.daily.at(-1).member_revenue).toBe((Number(before.daily.at(-1).member_revenue) + 107.34).toFixed(2));
    // Members with 2+ counted orders (1001) ÷ members with 1+ (1001, 1006).
    expect(after.repeat_purchase_rate).toBe(0.5);

    const delivered = ((await (await fetch(`${twin.url}/_events`)).json()) as { events: CommittedEvent[] }).events;
    const counted = delivered.filter(
      (event): event is OrderCountedEvent & CommittedEvent => event.type === 'order.counted' && event.order_id === String(loyalty.order.id),
    );
    expect(counted.map((event) => [event.counted_before, event.eligible_amount_before, event.counted, event.eligible_amount])).toEqual([
      [false, '0.00', true, '80.00'],
      [true, '80.00', true, '65.00'],
    ]);
    expect(counted[0]).toMatchObject({ reward_code_used: true, orders_count_before: 0, orders_count: 1, currency: 'USD' });
    expect((await statsVerify()).code).toBe(0);
  });

  it('counts events delivered twice and out of order once', async () => {
    const before = await figures();
    const delivered = ((await (await fetch(`${twin.url}/_events`)).json()) as { events: CommittedEvent[] }).events.filter(
      (event) => event.shop_id === 'e2e',
    );
    expect(delivered.length).toBeGreaterThanOrEqual(5);
    // Every event again, newest first, and each twice in the same batch.
    const again = await countDeliveredEvents([...delivered].reverse().flatMap((event) => [event, event]));
    expect(again.counted).toBe(0);
    expect(again.duplicates).toBe(delivered.length * 2);
    expect(await figures()).toEqual(before);
    expect((await statsVerify()).code).toBe(0);
  });

  it('stats verify prints each figure that differs and exits 1', async () => {
    const extra: CommittedEvent = {
      id: 'figures-test-stray-event',
      type: 'points.adjusted',
      shop_id: 'e2e',
      customer_id: '1002',
      requested_adjustment: 3,
      adjustment: 3,
      points_before: 0,
      points_after: 3,
      lifetime_points: 3,
      earning_history_entry_id: 'none',
      send_email: false,
      occurred_at: new Date().toISOString(),
      notify: false,
    };
    // An event no change committed: the kept figures now say 3 points more than the members hold.
    expect((await countDeliveredEvents([extra])).counted).toBe(1);
    const verify = await statsVerify();
    expect(verify.code).toBe(1);
    expect(verify.out.join('\n')).toMatch(/differs: now\.points_outstanding kept \d+, full read \d+/);
    expect(verify.out.join('\n')).toMatch(new RegExp(`differs: ${today()}\\.issued_manual`));
    // Taken back the same way: the figures agree again.
    await countDeliveredEvents([{ ...extra, id: 'figures-test-stray-event-undone', adjustment: -3 } as CommittedEvent]);
    const again = await statsVerify();
    expect(again.out.join('\n')).toMatch(new RegExp(`differs: ${today()}\\.clawed_back kept 10, full read 7`));
  });

  it('stats backfill writes the figures a full read gives over a table whose figures are missing or wrong', async () => {
    // The figures the stray events above left wrong, and a day item of a table that existed before, all gone.
    await deleteFigures('e2e');
    expect((await statsVerify()).code).toBe(1);
    const out: string[] = [];
    const code = await main(['stats', 'backfill', '--shop', 'e2e', '--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName], {
      out: (line: string) => out.push(line),
      err: (line: string) => out.push(line),
    } as never);
    expect(code).toBe(0);
    expect(out.join('\n')).toMatch(/shop e2e: figures of 26 members written/);
    expect((await statsVerify()).code).toBe(0);
    // Live events after the backfill count once, on top of it.
    expect((await api().post('/v1/customers/1005/points', { adjustment: 11, note: 'after the backfill' })).status).toBe(200);
    await settled();
    expect((await statsVerify()).code).toBe(0);
  });

  it('answers one row per day of a range of up to 366 days, and 400 for a longer range, a reversed one or a bad date', async () => {
    const year = await figures('?from=2025-01-01&to=2026-01-01');
    expect(year.daily).toHaveLength(366);
    expect(year.daily[0].date).toBe('2025-01-01');
    // The configured members enrolled on 1..25 January 2025.
    expect(year.members.new).toBe(25);
    expect(year.daily[0].new_members).toBe(1);
    expectError(await overview('?from=2025-01-01&to=2026-01-02'), 400, /367 days; at most 366/);
    expectError(await overview('?from=2025-02-01&to=2025-01-01'), 400, /'from' must not be after 'to'/);
    expectError(await overview('?from=2025-02-30'), 400, /'from' must be a date/);
    expectError(await overview('?to=yesterday'), 400, /'to' must be a date/);
  });

  it('is for staff only, each shop seeing its own figures with its own point value', async () => {
    expectError(await sendJson(`${twin.url}/admin/api/overview`, 'GET', {}), 401);
    expectError(await sendJson(`${twin.url}/admin/api/overview`, 'GET', { Authorization: KEYS.full }), 401);
    const other = await overview('', 'e2e-other');
    expect(other.status).toBe(200);
    expect(other.body.data.id).toBe('e2e-other');
    expect(other.body.data.attributes.members.total).toBe(1);
    // analytics.point_value 0.0125 × 10 points = 0.125, half-up: 0.13.
    expect(other.body.data.attributes.liability).toEqual({ amount: '0.13', currency: 'USD', point_value: '0.0125' });
  });
});
