// Lines of EARNING-CONTRACT.md held through HTTP on one twin (throttling on, as deployed): inactive rules,
// awards priced as GET /v1/earning-rules shows them, what waits and what does not, the events, pending
// entries under refunds, the first reconciliation window and its watermark, the clock against rate limits,
// and reward expiry under a held clock. Nothing sleeps: the clock moves.
import { member, shopConfig } from '../fixtures/shop-config';
import { apiClient, expectError, startTestTwin, type TestTwin } from '../support/twin';
import { earningEntries, orderItems, orderWatermarkItem, platformControls, profileOf } from '../support/orders';
import { runJobs } from '../support/jobs';

jest.setTimeout(60_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const HOUR = 3600 * 1000;
const DAY = 24 * HOUR;
const T0 = '2027-05-10T12:00:00.000Z';
const at = (hours: number) => new Date(Date.parse(T0) + hours * HOUR).toISOString();

const shop = shopConfig;
const rule = (id: string, action: string, points: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  action,
  category: action,
  points_to_give: points,
  ...extra,
});

const KEYS = {
  recon: 'gaps_recon_key_001',
  inactive: 'gaps_inactive_key1',
  priced: 'gaps_priced_key_01',
  pricedAll: 'gaps_priced_all_k1',
  pending: 'gaps_pending_key_1',
  events: 'gaps_events_key_01',
  throttle: 'gaps_throttle_key1',
  rewards: 'gaps_rewards_key_1',
};
const perDollar = rule('per-dollar', 'purchase', 1, { spend_unit: 1 });
const goldBySpend = { id: 'gold', name: 'Gold', threshold_points: null, threshold_spend: 100, points_multiplier: 1.5, position: 1 };
// Runs from T0 + 24 h to T0 + 48 h.
const boost = { id: 'boost', name: 'Boost', multiplier: 1.5, starts_at: at(24), ends_at: at(48) };

const config = {
  shops: [
    shop('gap-recon', KEYS.recon, { earning_rules: [perDollar] }, ['5001', '5002']),
    shop(
      'gap-inactive',
      KEYS.inactive,
      {
        earning_rules: [
          perDollar,
          rule('order-bonus', 'purchase', 100, { is_active: false }),
          rule('join', 'signup', 10),
          rule('join-off', 'signup', 1000, { is_active: false }),
          rule('refer', 'referral', 50),
          rule('refer-off', 'referral', 5000, { is_active: false }),
        ],
      },
      ['5101', '5102', '5103'],
      [member('5101'), member('5102')],
    ),
    shop(
      'gap-priced',
      KEYS.priced,
      {
        vip_settings: { entry_method: 'spend', points_multiplier_mode: 'purchase' },
        vip_tiers: [goldBySpend],
        campaigns: [boost],
        earning_rules: [rule('order', 'purchase', 3), rule('join', 'signup', 5), rule('refer', 'referral', 7)],
      },
      ['5201', '5202', '5203', '5204'],
      [member('5201', { total_spend: 150, orders_count: 3 }), member('5202', { total_spend: 95, orders_count: 2 }), member('5203')],
    ),
    shop(
      'gap-priced-all',
      KEYS.pricedAll,
      {
        vip_settings: { entry_method: 'spend', points_multiplier_mode: 'all' },
        vip_tiers: [goldBySpend],
        campaigns: [boost],
        earning_rules: [rule('order', 'purchase', 3), rule('refer', 'referral', 7)],
      },
      ['5301', '5302'],
      [member('5301', { total_spend: 150, orders_count: 3 }), member('5302')],
    ),
    shop(
      'gap-pending',
      KEYS.pending,
      { earning_settings: { pending_days: 7 }, earning_rules: [perDollar, rule('join', 'signup', 20), rule('refer', 'referral', 30)] },
      ['5401', '5402', '5403', '5404', '5405'],
      [member('5401'), member('5402'), member('5404'), member('5405')],
    ),
    shop('gap-events', KEYS.events, { earning_rules: [perDollar] }, ['5501', '5502', '5503', '5504', '5505']),
    shop('gap-throttle', KEYS.throttle, {}, ['5601']),
    shop(
      'gap-rewards',
      KEYS.rewards,
      { rewards: [{ id: 'three-day', name: '$5 off, 3 days', points_cost: 100, discount_amount: 5, expiry_days: 3 }] },
      ['5701'],
      [member('5701', { current_points: 300, lifetime_points: 300 })],
    ),
  ],
};
const SHOP_IDS = config.shops.map((s) => s.id);
const ADJUSTED = ['5502', '5503', '5504', '5505'];

let twin: TestTwin;
let platform: ReturnType<typeof platformControls>;

beforeAll(async () => {
  // Throttling stays on: the rate-limit lines need it, and every other test keeps under the limits.
  twin = await startTestTwin(config);
  platform = platformControls(twin);
});
afterAll(async () => {
  await twin.stop();
});

async function setClock(now: string | null): Promise<void> {
  const answer = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now }) });
  expect(answer.status).toBe(200);
}
async function allEvents(): Promise<Json[]> {
  const answer = await fetch(`${twin.url}/_events`);
  expect(answer.status).toBe(200);
  const body = (await answer.json()) as Json;
  expect(Object.keys(body)).toEqual(['events']);
  return body.events;
}
/** The points `GET /v1/earning-rules` shows this customer for each rule, right now. */
async function figures(key: string, customerId: string): Promise<Record<string, Json>> {
  const answer = await apiClient(twin.url, key).get(`/v1/earning-rules?filter[customer_identifier]=${customerId}`);
  expect(answer.status).toBe(200);
  return Object.fromEntries(answer.body.data.map((r: Json) => [r.id, r.attributes]));
}
const entryOfOrder = async (shopId: string, customerId: string, orderId: string | number, action = 'purchase') =>
  (await earningEntries(shopId, customerId)).find((e) => e.order_id === String(orderId) && e.action === action);

// First in the file: no job has run yet, so no shop has a watermark.
describe('order reconciliation, first run', () => {
  it('reads the orders updated in the 24 hours before the clock, and only a job run sets the watermark', async () => {
    await setClock(at(-25));
    const old = await platform.order({ shop: 'gap-recon', customer_id: '5001', subtotal_price: '40.00', deliver: false });
    await setClock(at(-23));
    const recent = await platform.order({ shop: 'gap-recon', customer_id: '5002', subtotal_price: '30.00', deliver: false });
    expect([old.order.updated_at, recent.order.updated_at]).toEqual([at(-25), at(-23)]);
    await setClock(T0);

    // Start-up loaded every shop and wrote no watermark.
    for (const id of SHOP_IDS) expect({ id, item: await orderWatermarkItem(id) }).toEqual({ id, item: undefined });

    const counts = await runJobs(twin);

    expect(counts.order_reconciliation).toMatchObject({ shops: SHOP_IDS.length, orders: 1, applied: 1, failed: 0 });
    expect(await profileOf('gap-recon', '5002')).toMatchObject({ current_points: 30, total_spend: 30, orders_count: 1 });
    expect(await orderItems('gap-recon', '5001')).toEqual([]);
    expect(await profileOf('gap-recon', '5001')).toMatchObject({ current_points: 0, orders_count: 0 });
    for (const id of SHOP_IDS) expect({ id, watermark: (await orderWatermarkItem(id))?.watermark }).toEqual({ id, watermark: T0 });

    // From the watermark on, the order of 25 hours before stays out.
    await setClock(at(1));
    expect((await runJobs(twin)).order_reconciliation).toMatchObject({ orders: 0, applied: 0 });
    expect(await orderItems('gap-recon', '5001')).toEqual([]);
    expect((await orderWatermarkItem('gap-recon')).watermark).toBe(at(1));
  });
});

describe('only is_active rules award', () => {
  it('an inactive purchase, signup or referral rule gives nothing beside the active one of its action', async () => {
    await setClock(at(2));
    const api = apiClient(twin.url, KEYS.inactive);
    const inactive = await api.get('/v1/earning-rules?filter[is_active]=false');
    expect(inactive.body.data.map((r: Json) => r.id).sort()).toEqual(['join-off', 'order-bonus', 'refer-off']);

    const enrolled = await api.post('/v1/customers', { platform_customer_id: '5103' });
    expect(enrolled.status).toBe(201);
    expect(enrolled.body.data.attributes.current_points).toBe(10);
    expect((await earningEntries('gap-inactive', '5103')).map((e) => [e.earning_rule_id, e.points])).toEqual([['join', 10]]);

    // 5102's first order, referred by 5101.
    const code = (await profileOf('gap-inactive', '5101')).referral_code as string;
    await platform.order({ shop: 'gap-inactive', customer_id: '5102', subtotal_price: '20.00', landing_site: `/?ref=${code}` });

    expect((await earningEntries('gap-inactive', '5102')).map((e) => [e.earning_rule_id, e.points])).toEqual([['per-dollar', 20]]);
    expect((await earningEntries('gap-inactive', '5101')).map((e) => [e.earning_rule_id, e.points])).toEqual([['refer', 50]]);
    expect((await profileOf('gap-inactive', '5102')).current_points).toBe(20);
    expect((await profileOf('gap-inactive', '5101')).current_points).toBe(50);
  });
});

describe('an award is the figure GET /v1/earning-rules shows for that customer at that moment', () => {
  it('tier and running campaign multiplied, rounded once; the purchase tier mode boosts purchase rules only', async () => {
    await setClock(at(30)); // inside the campaign
    const order = async (customerId: string, referralCode?: string) =>
      (
        await platform.order({
          shop: 'gap-priced',
          customer_id: customerId,
          subtotal_price: '10.00',
          ...(referralCode ? { landing_site: `/?ref=${referralCode}` } : {}),
        })
      ).order;

    // Gold 1.5 x campaign 1.5: 3 x 2.25 = 6.75 -> 7 (rounding per multiplier would give 8).
    const gold = await figures(KEYS.priced, '5201');
    expect(gold.order).toMatchObject({ points: 7, tier_boost: 1.5, campaign_boost: 1.5 });
    const goldOrder = await order('5201');
    expect((await entryOfOrder('gap-priced', '5201', goldOrder.id))?.points).toBe(gold.order.points);

    // 5202 is below Gold until this order counts: it earns with the campaign only, 4.5 -> 5.
    const before = await figures(KEYS.priced, '5202');
    expect(before.order).toMatchObject({ points: 5, tier_boost: null, campaign_boost: 1.5 });
    const climbing = await order('5202');
    expect((await entryOfOrder('gap-priced', '5202', climbing.id))?.points).toBe(before.order.points);
    expect((await figures(KEYS.priced, '5202')).order.points).toBe(7);

    // A referral is not a purchase rule: no tier boost for the Gold referrer, 7 x 1.5 = 10.5 -> 11.
    expect(gold.refer).toMatchObject({ points: 11, tier_boost: null, campaign_boost: 1.5 });
    const referred = await order('5203', (await profileOf('gap-priced', '5201')).referral_code as string);
    expect((await entryOfOrder('gap-priced', '5201', referred.id, 'referral'))?.points).toBe(gold.refer.points);

    // Signup: 5 x 1.5 = 7.5 -> 8, half away from zero.
    const enrolled = await apiClient(twin.url, KEYS.priced).post('/v1/customers', { platform_customer_id: '5204' });
    expect(enrolled.status).toBe(201);
    const joined = await figures(KEYS.priced, '5204');
    expect(joined.join).toMatchObject({ points: 8 });
    expect((await earningEntries('gap-priced', '5204')).map((e) => [e.action, e.points])).toEqual([['signup', joined.join.points]]);

    // After the campaign: Gold only, 4.5 -> 5.
    await setClock(at(50));
    const after = await figures(KEYS.priced, '5201');
    expect(after.order).toMatchObject({ points: 5, tier_boost: 1.5, campaign_boost: null });
    const late = await order('5201');
    expect((await entryOfOrder('gap-priced', '5201', late.id))?.points).toBe(after.order.points);
  });

  it('tier mode all boosts the referral too', async () => {
    await setClock(at(30));
    const gold = await figures(KEYS.pricedAll, '5301');
    // 7 x 1.5 x 1.5 = 15.75 -> 16
    expect(gold.refer).toMatchObject({ points: 16, tier_boost: 1.5, campaign_boost: 1.5 });
    const code = (await profileOf('gap-priced-all', '5301')).referral_code as string;
    const { order } = await platform.order({
      shop: 'gap-priced-all',
      customer_id: '5302',
      subtotal_price: '10.00',
      landing_site: `/?ref=${code}`,
    });
    expect((await entryOfOrder('gap-priced-all', '5301', order.id, 'referral'))?.points).toBe(gold.refer.points);
  });
});

describe('a shop with pending_days', () => {
  it('approves signup and referral points at once; only the purchase entry waits', async () => {
    await setClock(at(60));
    const api = apiClient(twin.url, KEYS.pending);
    const enrolled = await api.post('/v1/customers', { platform_customer_id: '5403' });
    expect(enrolled.body.data.attributes).toMatchObject({ current_points: 20, lifetime_points: 20 });
    expect(await earningEntries('gap-pending', '5403')).toEqual([
      expect.objectContaining({ action: 'signup', status: 'approved', points: 20, points_given_at: at(60), points_due_at: null }),
    ]);

    const code = (await profileOf('gap-pending', '5401')).referral_code as string;
    const { order } = await platform.order({
      shop: 'gap-pending',
      customer_id: '5402',
      subtotal_price: '25.00',
      landing_site: `/?ref=${code}`,
    });

    expect(await entryOfOrder('gap-pending', '5402', order.id)).toMatchObject({
      status: 'pending',
      points: 25,
      points_due_at: new Date(Date.parse(at(60)) + 7 * DAY).toISOString(),
    });
    expect(await entryOfOrder('gap-pending', '5401', order.id, 'referral')).toMatchObject({
      status: 'approved',
      points: 30,
      points_given_at: at(60),
    });
    expect((await api.get('/v1/customers/5401')).body.data.attributes).toMatchObject({ current_points: 30, lifetime_points: 30 });
    expect((await api.get('/v1/customers/5402')).body.data.attributes).toMatchObject({ current_points: 0, lifetime_points: 0 });

    const pendingEvents = (await allEvents()).filter((e) => e.type === 'points.pending' && e.shop_id === 'gap-pending');
    expect(pendingEvents).toEqual([expect.objectContaining({ customer_id: '5402', points: 25, order_id: String(order.id) })]);
  });
});

describe('pending entries under refunds and cancellations', () => {
  it('a partial refund shrinks the same pending entry, a refund to zero rejects it, a cancellation rejects', async () => {
    await setClock(at(70));
    const { order } = await platform.order({ shop: 'gap-pending', customer_id: '5404', subtotal_price: '40.00' });
    const awarded = await entryOfOrder('gap-pending', '5404', order.id);
    expect(awarded).toMatchObject({ status: 'pending', points: 40 });

    await setClock(at(71));
    await platform.refund(order.id, '15.00');
    const shrunk = await earningEntries('gap-pending', '5404');
    expect(shrunk).toEqual([
      expect.objectContaining({ id: awarded.id, status: 'pending', points: 25, points_due_at: awarded.points_due_at }),
    ]);

    await setClock(at(72));
    await platform.refund(order.id, '25.00');
    expect(await earningEntries('gap-pending', '5404')).toEqual([expect.objectContaining({ id: awarded.id, status: 'rejected' })]);

    const cancelled = (await platform.order({ shop: 'gap-pending', customer_id: '5405', subtotal_price: '12.00' })).order;
    const before = await entryOfOrder('gap-pending', '5405', cancelled.id);
    expect(before).toMatchObject({ status: 'pending', points: 12 });
    await platform.cancel(cancelled.id);
    expect(await earningEntries('gap-pending', '5405')).toEqual([expect.objectContaining({ id: before.id, status: 'rejected' })]);

    for (const id of ['5404', '5405']) expect(await profileOf('gap-pending', id)).toMatchObject({ current_points: 0, lifetime_points: 0 });
    const removed = (await allEvents()).filter((e) => e.type === 'points.removed' && e.shop_id === 'gap-pending');
    expect(removed.map((e) => [e.customer_id, e.earning_history_entry_id])).toEqual([
      ['5404', awarded.id],
      ['5405', before.id],
    ]);
  });
});

describe('events', () => {
  it('points.removed on a claw-back of approved points, with type, shop and customer', async () => {
    await setClock(at(80));
    const { order } = await platform.order({ shop: 'gap-events', customer_id: '5501', subtotal_price: '30.00' });
    await platform.refund(order.id, '10.00');

    const takeBack = await entryOfOrder('gap-events', '5501', order.id, 'refund');
    expect(takeBack).toMatchObject({ points: -10, status: 'approved' });
    const events = (await allEvents()).filter((e) => e.shop_id === 'gap-events' && e.customer_id === '5501' && e.type !== 'order.counted');
    expect(events.map((e) => e.type)).toEqual(['points.approved', 'points.removed']);
    expect(events[1]).toMatchObject({ earning_history_entry_id: takeBack.id, points: -10, order_id: String(order.id) });
  });

  it('GET /_events answers every event, oldest first and unpaged, each with type, shop_id and customer_id', async () => {
    const api = apiClient(twin.url, KEYS.events);
    // More than the API's largest page (100): four members adjusted at once, each one's adjustments in turn.
    const perMember = 27;
    await Promise.all(
      ADJUSTED.map(async (id) => {
        for (let i = 1; i <= perMember; i += 1) expect((await api.post(`/v1/customers/${id}/points`, { adjustment: i })).status).toBe(200);
      }),
    );

    const events = await allEvents();

    for (const id of ADJUSTED) {
      const adjustments = events.filter((e) => e.type === 'points.adjusted' && e.customer_id === id);
      expect({ id, order: adjustments.map((e) => e.requested_adjustment) }).toEqual({
        id,
        order: Array.from({ length: perMember }, (_, i) => i + 1),
      });
      expect(adjustments.map((e) => e.points_after)).toEqual(Array.from({ length: perMember }, (_, i) => ((i + 1) * (i + 2)) / 2));
    }
    expect(events.filter((e) => e.type === 'points.adjusted').length).toBe(ADJUSTED.length * perMember);
    // Oldest first across the file: the first test's award comes first, the pending shop's events before these.
    expect(events[0]).toMatchObject({ type: 'points.approved', shop_id: 'gap-recon', customer_id: '5002' });
    const firstAdjustment = events.findIndex((e) => e.type === 'points.adjusted');
    expect(firstAdjustment).toBeGreaterThan(events.findIndex((e) => e.shop_id === 'gap-pending'));
    expect(events.slice(0, firstAdjustment).some((e) => e.type === 'points.adjusted')).toBe(false);
    for (const event of events) {
      expect({ type: typeof event.type, shop_id: typeof event.shop_id, customer_id: typeof event.customer_id }).toEqual({
        type: 'string',
        shop_id: 'string',
        customer_id: 'string',
      });
    }
  });
});

describe('the clock is the domain’s time only', () => {
  const strictRoute = '/v1/customers/5601/earning-history';
  const burst = async (size: number) =>
    Promise.all(Array.from({ length: size }, () => apiClient(twin.url, KEYS.throttle).get(strictRoute)));
  const statuses = (responses: Array<{ status: number }>) => responses.map((r) => r.status);

  it('rate limits keep real time: a spent bucket stays spent when the clock jumps a day forward or moves back', async () => {
    await setClock(at(90));
    const spentFrom = Date.now();
    const first = await burst(24);
    expect(statuses(first)).toContain(429);
    expect(statuses(first).every((s) => s === 200 || s === 429)).toBe(true);
    expectError(
      first.find((r) => r.status === 429)!,
      429,
      'Rate limit exceeded',
    );

    // A bucket refilled by the domain's clock would be full a day later and, the clock held, gain nothing more:
    // exactly 6 served. On real time the bucket held under 1 token at a 429 of the first burst, and has gained
    // 6 tokens a second since (also while this burst ran), so it serves at most 1 + 6 per elapsed second:
    // fewer than 6 whenever the two bursts take under 0.8 s, as on a quiet machine.
    await setClock(at(90 + 24));
    const forward = statuses(await burst(24));
    const elapsedSeconds = (Date.now() - spentFrom) / 1000;
    expect(forward).toContain(429);
    expect(forward.filter((s) => s === 200).length).toBeLessThanOrEqual(1 + 6 * elapsedSeconds);

    // Moved back, a bucket on the domain's clock would never refill while the clock is held there (it would be
    // owed two days of time); on real time it serves again within a fraction of a second.
    await setClock(at(90 - 48));
    expect(statuses(await burst(24))).toContain(429);
    let served = false;
    for (let attempt = 0; attempt < 500 && !served; attempt += 1) {
      const status = (await apiClient(twin.url, KEYS.throttle).get(strictRoute)).status;
      expect([200, 429]).toContain(status);
      served = status === 200;
    }
    expect(served).toBe(true);
  });

  it('GET /_clock reads what PUT /_clock set; null returns to real time; a bad body is 400 in a JSON error', async () => {
    const instant = '2031-07-04T03:02:01.999Z';
    const put = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now: instant }) });
    expect({ status: put.status, body: await put.json() }).toEqual({ status: 200, body: { now: instant } });
    expect(await (await fetch(`${twin.url}/_clock`)).json()).toEqual({ now: instant });

    for (const bad of ['{"now":12}', '{"now":"2031-13-45T00:00:00Z"}', '{"now":"07/04/2031"}', '[]', '', '{"now":']) {
      const refused = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: bad });
      expect({ bad, status: refused.status, type: refused.headers.get('content-type') }).toEqual({
        bad,
        status: 400,
        type: expect.stringContaining('application/json'),
      });
      expect(await refused.json()).toEqual({ error: expect.any(String) });
    }
    // A refused body leaves the clock where it was.
    expect(await (await fetch(`${twin.url}/_clock`)).json()).toEqual({ now: instant });

    const reset = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: '{"now":null}' });
    expect(reset.status).toBe(200);
    const real = Date.parse(((await (await fetch(`${twin.url}/_clock`)).json()) as { now: string }).now);
    expect(Math.abs(real - Date.now())).toBeLessThan(5000);
  });
});

describe('reward codes under a held clock', () => {
  it('expires_at is redeemed_at + expiry_days x 24 h exactly', async () => {
    const held = '2028-02-27T21:13:07.481Z'; // across 29 February
    await setClock(held);
    const api = apiClient(twin.url, KEYS.rewards);
    const purchase = await api.post('/v1/rewards/three-day/purchase', { customer_identifier: '5701' });
    expect(purchase.status).toBe(201);
    expect(purchase.body.data.attributes.expires_at).toBe('2028-03-01T21:13:07.481Z');

    const entry = (await api.get('/v1/customers/5701/reward-history')).body.data[0].attributes;
    expect(entry.redeemed_at).toBe(held);
    expect(Date.parse(entry.expires_at) - Date.parse(entry.redeemed_at)).toBe(3 * DAY);
  });
});

// Last: it stops the file's twin and starts another on the same table.
describe('the reconciliation watermark across a restart', () => {
  it('a twin started again on the same table leaves the watermark where the last job run put it', async () => {
    const before = (await orderWatermarkItem('gap-recon')).watermark;
    expect(before).toBe(at(1));
    const { tableName } = twin;
    await twin.stop({ keepTable: true });

    twin = await startTestTwin(config, { tableName });

    for (const id of SHOP_IDS) expect({ id, watermark: (await orderWatermarkItem(id))?.watermark }).toEqual({ id, watermark: before });
    await setClock(at(200));
    await runJobs(twin);
    expect((await orderWatermarkItem('gap-recon')).watermark).toBe(at(200));
  });
});
