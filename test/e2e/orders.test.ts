// Orders earn through Shopify webhooks on the twin: the simulator creates, refunds and cancels orders and
// delivers signed webhooks; the API shows points, spend, orders and tiers move exactly once.
import type { Twin } from '../../infra/local/twin';
import { eventsLackingMemberFacts } from '../support/committed-events';
import { customerItems, earningEntries, orderItems, platformControls, postWebhook, profileOf, signedHeaders } from '../support/orders';
import { apiClient, startTestTwin } from '../support/twin';

jest.setTimeout(60_000);

const KEY = 'orders_full_key_01';
const PENDING_KEY = 'orders_pending_key';
const customers = Array.from({ length: 12 }, (_, i) => ({
  id: String(2001 + i),
  email: `buyer${2001 + i}@example.com`,
  first_name: 'B',
  last_name: String(i),
  created_at: null,
}));
const spendTiers = [{ id: 'silver', name: 'Silver', threshold_points: null, threshold_spend: 100, points_multiplier: 2, position: 1 }];
const config = {
  shops: [
    {
      id: 'orders',
      name: 'Orders',
      currency: 'USD',
      referral_base_url: 'https://orders.example/',
      vip_settings: { entry_method: 'spend', points_multiplier_mode: 'purchase' },
      api_keys: [{ name: 'Full', scope: 'full', key: KEY }],
      earning_rules: [
        { id: 'per-dollar', name: 'A point per dollar', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 },
        { id: 'join', name: 'Join', action: 'signup', category: 'signup', points_to_give: 100 },
        { id: 'refer', name: 'Refer a friend', action: 'referral', category: 'referral', points_to_give: 500 },
      ],
      vip_tiers: spendTiers,
      rewards: [{ id: 'five-off', name: '$5 off', points_cost: 500, discount_amount: 5 }],
      platform: { customers },
      // 2011 is excluded; 2012 exists only on the platform; 2009 holds an active reward code.
      members: customers.slice(0, 11).map((c, i) => ({
        platform_customer_id: c.id,
        current_points: 0,
        lifetime_points: 0,
        redeemed_points: 0,
        excluded: i === 10,
        enrolled_at: '2025-01-01T00:00:00.000Z',
        reward_history:
          c.id === '2009'
            ? [
                {
                  id: 'h-active',
                  reward_id: 'five-off',
                  reward_name: '$5 off',
                  reward_discount_type: 'fixed',
                  points_spent: 500,
                  discount_code: 'LOYAL-USE1',
                  status: 'active',
                },
              ]
            : [],
      })),
    },
    {
      id: 'orders-pending',
      name: 'Pending',
      currency: 'USD',
      referral_base_url: 'https://pending.example/',
      earning_settings: { pending_days: 14 },
      api_keys: [{ name: 'Full', scope: 'full', key: PENDING_KEY }],
      earning_rules: [{ id: 'per-order', name: 'Five per order', action: 'purchase', category: 'purchase', points_to_give: 5 }],
      platform: { customers: [{ id: '3001', email: 'p@example.com' }] },
      members: [
        {
          platform_customer_id: '3001',
          current_points: 10,
          lifetime_points: 10,
          redeemed_points: 0,
          enrolled_at: '2025-01-01T00:00:00.000Z',
        },
      ],
    },
  ],
};

let twin: Twin;
let platform: ReturnType<typeof platformControls>;
const api = () => apiClient(twin.url, KEY);

beforeAll(async () => {
  twin = await startTestTwin(config, { throttling: false });
  platform = platformControls(twin);
});
afterAll(async () => {
  await twin.stop();
});

describe('an order earns', () => {
  it('approves points per whole dollar at once, moves spend and order count, and the tier follows', async () => {
    const { order, webhook } = await platform.order({
      shop: 'orders',
      customer_id: '2001',
      subtotal_price: '120.75',
      total_price: '131.50',
    });

    expect(webhook).toEqual({ id: expect.any(String), status: 200 });
    const customer = await api().get('/v1/customers/2001');
    expect(customer.body.data.attributes).toMatchObject({ current_points: 120, lifetime_points: 120 });
    expect(customer.body.data.attributes.vip_tier).toMatchObject({ id: 'silver' });
    const history = await api().get('/v1/customers/2001/earning-history');
    expect(history.body.data).toEqual([
      expect.objectContaining({
        attributes: expect.objectContaining({
          action: 'purchase',
          earning_rule_id: 'per-dollar',
          order_id: String(order.id),
          order_number: order.name,
          points: 120,
          base_points: 120,
          points_multiplier: 1,
          status: 'approved',
          points_given_at: expect.any(String),
        }),
      }),
    ]);
    expect(await profileOf('orders', '2001')).toMatchObject({ total_spend: 120.75, orders_count: 1 });
    const events = ((await (await fetch(`${twin.url}/_events`)).json()) as { events: unknown[] }).events;
    expect(events).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ type: 'points.approved', shop_id: 'orders', customer_id: '2001', points: 120 }),
        expect.objectContaining({ type: 'tier.changed', shop_id: 'orders', customer_id: '2001', to_tier_id: 'silver' }),
      ]),
    );
  });

  it('earns with the multiplier the member held before the order counted', async () => {
    // 2001 reached silver (x2) with the previous order.
    await platform.order({ shop: 'orders', customer_id: '2001', subtotal_price: '10.00' });

    const entries = await earningEntries('orders', '2001');
    expect(entries.map((entry) => entry.points).sort((a, b) => a - b)).toEqual([20, 120]);
  });

  it('keeps points pending with points_due_at when the shop has a return window', async () => {
    const { order } = await platform.order({ shop: 'orders-pending', customer_id: '3001', subtotal_price: '50.00' });

    const client = apiClient(twin.url, PENDING_KEY);
    expect((await client.get('/v1/customers/3001')).body.data.attributes.current_points).toBe(10);
    const history = await client.get('/v1/customers/3001/earning-history');
    const dueAt = new Date(Date.parse(order.processed_at) + 14 * 24 * 3600 * 1000).toISOString();
    expect(history.body.data.map((e: { attributes: unknown }) => e.attributes)).toEqual([
      expect.objectContaining({ action: 'purchase', status: 'pending', points: 5, points_due_at: dueAt, points_given_at: null }),
    ]);
    expect(await profileOf('orders-pending', '3001')).toMatchObject({ total_spend: 50, orders_count: 1 });
  });

  it('gives nothing to guests, platform customers who are not members and excluded members, and enrols no one', async () => {
    for (const customer_id of [null, '2012', '2011']) {
      const { webhook } = await platform.order({ shop: 'orders', customer_id, subtotal_price: '80.00' });
      expect(webhook?.status).toBe(200);
    }

    expect(await customerItems('orders', '2012')).toEqual([]);
    expect(await orderItems('orders', '2011')).toEqual([]);
    expect(await earningEntries('orders', '2011')).toEqual([]);
    expect((await api().get('/v1/customers/2012')).status).toBe(404);
  });
});

describe('forged and malformed deliveries', () => {
  const body = JSON.stringify({
    id: 1,
    name: '#1',
    customer: { id: 2002 },
    subtotal_price: '500.00',
    currency: 'USD',
    updated_at: new Date().toISOString(),
    processed_at: new Date().toISOString(),
  });

  it('answer 401 in the envelope and write nothing: wrong HMAC, unknown domain, missing headers, empty body', async () => {
    const forged = [
      signedHeaders(body, 'not-the-secret', 'orders.myshopify.com', 'orders/paid'),
      signedHeaders(body, 'orders-webhook-secret', 'unknown.myshopify.com', 'orders/paid'),
      { ...signedHeaders(body, 'orders-webhook-secret', 'orders.myshopify.com', 'orders/paid'), 'X-Shopify-Hmac-Sha256': 'AAAA' },
      (({ 'X-Shopify-Topic': _topic, ...rest }) => rest)(
        signedHeaders(body, 'orders-webhook-secret', 'orders.myshopify.com', 'orders/paid'),
      ),
    ];
    for (const headers of forged) {
      const answer = await postWebhook(twin, body, headers);
      expect(answer).toEqual({ status: 401, body: { errors: [{ status: '401', title: 'Unauthorized', detail: expect.any(String) }] } });
    }
    const tampered = await postWebhook(
      twin,
      body.replace('500.00', '900.00'),
      signedHeaders(body, 'orders-webhook-secret', 'orders.myshopify.com', 'orders/paid'),
    );
    expect(tampered.status).toBe(401);
    const empty = await postWebhook(twin, '', signedHeaders('', 'orders-webhook-secret', 'orders.myshopify.com', 'orders/paid'));
    expect(empty.status).toBe(401);

    expect(await orderItems('orders', '2002')).toEqual([]);
    expect((await profileOf('orders', '2002')).current_points).toBe(0);
  });

  it('acknowledge a signed but malformed payload with 200 and write nothing, never a 5XX', async () => {
    const bad = JSON.stringify({ id: 'not-a-number', customer: { id: 2002 }, subtotal_price: 'lots' });
    for (const payload of [bad, '{not json']) {
      const answer = await postWebhook(
        twin,
        payload,
        signedHeaders(payload, 'orders-webhook-secret', 'orders.myshopify.com', 'orders/paid'),
      );
      expect(answer).toEqual({ status: 200, body: {} });
    }
    expect(await orderItems('orders', '2002')).toEqual([]);
    expect(twin.deliveryQueue.deadLetters()).toEqual([]);
  });

  it('answer 200 for a topic the engine ignores', async () => {
    const answer = await postWebhook(twin, '{}', signedHeaders('{}', 'orders-webhook-secret', 'orders.myshopify.com', 'products/update'));
    expect(answer).toEqual({ status: 200, body: {} });
  });
});

describe('refunds and cancellations', () => {
  it('shrink a pending entry on a partial refund and reject it on cancellation; spend and orders follow', async () => {
    const { order } = await platform.order({ shop: 'orders-pending', customer_id: '3001', subtotal_price: '20.00' });
    const client = apiClient(twin.url, PENDING_KEY);
    const entryOf = async () => (await earningEntries('orders-pending', '3001')).find((e) => e.order_id === String(order.id));

    await platform.refund(order.id, '20.00');
    expect(await entryOf()).toMatchObject({ status: 'rejected' });

    const second = (await platform.order({ shop: 'orders-pending', customer_id: '3001', subtotal_price: '30.00' })).order;
    await platform.cancel(second.id);
    const rejected = (await earningEntries('orders-pending', '3001')).find((e) => e.order_id === String(second.id));
    expect(rejected).toMatchObject({ status: 'rejected', action: 'purchase' });
    expect((await client.get('/v1/customers/3001')).body.data.attributes.current_points).toBe(10);
    // 50 from the first test's order; 20 refunded in full and 30 cancelled add nothing, the cancelled order does not count.
    expect(await profileOf('orders-pending', '3001')).toMatchObject({ total_spend: 50, orders_count: 2 });
  });

  it('take approved points back with a refund entry, never below a zero balance', async () => {
    const { order } = await platform.order({ shop: 'orders', customer_id: '2003', subtotal_price: '100.00' });
    await platform.refund(order.id, '40.00');
    expect((await api().get('/v1/customers/2003')).body.data.attributes.current_points).toBe(60);
    expect(await profileOf('orders', '2003')).toMatchObject({ total_spend: 60, orders_count: 1 });

    // The member spends 50 of the remaining 60, then the order is cancelled: only 10 can be taken back.
    await api().post('/v1/customers/2003/points', { adjustment: -50 });
    await platform.cancel(order.id);

    const takeBacks = (await earningEntries('orders', '2003')).filter((e) => e.action === 'refund').sort((a, b) => a.points - b.points);
    expect(takeBacks.map((e) => [e.points, e.status])).toEqual([
      [-40, 'approved'],
      [-10, 'approved'],
    ]);
    const profile = await profileOf('orders', '2003');
    expect(profile).toMatchObject({ current_points: 0, lifetime_points: 100, total_spend: 0, orders_count: 0 });
  });
});

describe('exactly once', () => {
  it('a duplicate or redelivered webhook changes nothing', async () => {
    const { order, webhook } = await platform.order({ shop: 'orders', customer_id: '2004', subtotal_price: '42.00' });
    const refund = await platform.refund(order.id, '2.00');
    const before = await customerItems('orders', '2004');

    expect(await platform.redeliver(webhook!.id)).toMatchObject({ status: 200 });
    expect(await platform.redeliver(refund.webhook!.id)).toMatchObject({ status: 200 });

    expect(await customerItems('orders', '2004')).toEqual(before);
    expect((await profileOf('orders', '2004')).current_points).toBe(40);
  });

  it('a late older delivery never overwrites a newer state', async () => {
    const { order, webhook } = await platform.order({ shop: 'orders', customer_id: '2005', subtotal_price: '70.00' });
    await platform.cancel(order.id);
    const before = await customerItems('orders', '2005');

    // The paid delivery arrives again after the cancellation (Shopify retries for hours).
    await platform.redeliver(webhook!.id);

    expect(await customerItems('orders', '2005')).toEqual(before);
    expect(await profileOf('orders', '2005')).toMatchObject({ current_points: 0, total_spend: 0, orders_count: 0 });
  });

  it('a refund of an order never seen is acknowledged and left to reconciliation', async () => {
    const { order } = await platform.order({ shop: 'orders', customer_id: '2006', subtotal_price: '90.00', deliver: false });

    const { webhook } = await platform.refund(order.id, '30.00');

    expect(webhook?.status).toBe(200);
    expect(await customerItems('orders', '2006')).toEqual([expect.objectContaining({ sk: 'PROFILE', current_points: 0 })]);
  });

  it('concurrent deliveries for one customer lose no update', async () => {
    const orders = await Promise.all(
      Array.from({ length: 12 }, (_, i) => platform.order({ shop: 'orders', customer_id: '2007', subtotal_price: `${10 + i}.00` })),
    );

    expect(orders.every((o) => o.webhook?.status === 200)).toBe(true);
    const expected = Array.from({ length: 12 }, (_, i) => 10 + i).reduce((a, b) => a + b, 0);
    const profile = await profileOf('orders', '2007');
    // Silver (x2) from 100 spent on: the exact points depend on the order in which orders counted, the sums do not.
    const approved = (await earningEntries('orders', '2007')).reduce((sum, e) => sum + e.points, 0);
    expect(profile).toMatchObject({ total_spend: expected, orders_count: 12, current_points: approved });
    expect(await orderItems('orders', '2007')).toHaveLength(12);
  });
});

describe('order reconciliation and the twin clock', () => {
  const jobs = async () => {
    const response = await fetch(`${twin.url}/_jobs/run`, { method: 'POST' });
    expect(response.status).toBe(200);
    return (await response.json()) as {
      order_reconciliation: { shops: number; orders: number; applied: number; failed: number };
      purchase_reconciler: unknown;
    };
  };

  it('catches up missed webhooks through POST /_jobs/run, and an order seen by webhook and by reconciliation counts once', async () => {
    const { order } = await platform.order({ shop: 'orders', customer_id: '2008', subtotal_price: '33.00', deliver: false });
    expect(await orderItems('orders', '2008')).toEqual([]);

    const first = await jobs();

    // The missed order, and 2006's order whose refund arrived before it (90 - 30 refunded); every order
    // already applied by its webhooks comes back from the platform unchanged.
    expect(first.order_reconciliation).toMatchObject({ shops: 2, failed: 0, applied: 2 });
    expect(first).toHaveProperty('purchase_reconciler');
    expect(await profileOf('orders', '2008')).toMatchObject({ current_points: 33, total_spend: 33, orders_count: 1 });
    expect(await profileOf('orders', '2006')).toMatchObject({ current_points: 60, total_spend: 60, orders_count: 1 });
    expect((await earningEntries('orders', '2008')).map((e) => e.order_id)).toEqual([String(order.id)]);

    const before = await customerItems('orders', '2008');
    const second = await jobs();
    expect(second.order_reconciliation).toMatchObject({ applied: 0, failed: 0 });
    expect(await customerItems('orders', '2008')).toEqual(before);
  });

  it('PUT /_clock holds the time the API, the jobs and the simulator use; null returns to real time', async () => {
    const set = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now: '2027-01-15T00:00:00.000Z' }) });
    expect(await set.json()).toEqual({ now: '2027-01-15T00:00:00.000Z' });
    expect(await (await fetch(`${twin.url}/_clock`)).json()).toEqual({ now: '2027-01-15T00:00:00.000Z' });

    const { order } = await platform.order({ shop: 'orders-pending', customer_id: '3001', subtotal_price: '5.00' });
    expect(order).toMatchObject({ processed_at: '2027-01-15T00:00:00.000Z', updated_at: '2027-01-15T00:00:00.000Z' });
    const entry = (await earningEntries('orders-pending', '3001')).find((e) => e.order_id === String(order.id));
    expect(entry).toMatchObject({ points_due_at: '2027-01-29T00:00:00.000Z', created_at: '2027-01-15T00:00:00.000Z' });

    for (const bad of ['{"now":"tomorrow"}', '{}', 'not json']) {
      const refused = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: bad });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toEqual({ error: expect.any(String) });
    }

    const reset = (await (await fetch(`${twin.url}/_clock`, { method: 'PUT', body: '{"now":null}' })).json()) as { now: string };
    expect(Math.abs(Date.parse(reset.now) - Date.now())).toBeLessThan(5000);
  });
});

describe('rewards used, signup and referral', () => {
  it('marks an active reward used when a paid order carries its code', async () => {
    const { order } = await platform.order({
      shop: 'orders',
      customer_id: '2009',
      subtotal_price: '25.00',
      discount_codes: ['LOYAL-USE1'],
    });

    const entry = await api().get('/v1/customers/2009/reward-history/h-active');
    expect(entry.body.data.attributes).toMatchObject({ status: 'used', discount_code_redeemed_at: order.processed_at });
    const events = ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<Record<string, unknown>> }).events;
    const used = events.filter((event) => event.type === 'reward.used' && event.customer_id === '2009');
    expect(used).toEqual([
      expect.objectContaining({ shop_id: 'orders', discount_code: 'LOYAL-USE1', reward_history_entry_id: 'h-active' }),
    ]);
    // With the member facts of the member as the order left them, as every event about a member.
    const member = (await api().get('/v1/customers/2009')).body.data.attributes;
    expect(eventsLackingMemberFacts(used)).toEqual([]);
    expect(used[0]).toMatchObject({
      email: member.email,
      first_name: member.first_name,
      points_balance: member.current_points,
      tier: member.vip_tier ? { id: member.vip_tier.id, name: member.vip_tier.name } : null,
    });
  });

  it('awards the signup rule on enrolment, approved at once', async () => {
    const enrolled = await api().post('/v1/customers', { platform_customer_id: '2012' });

    expect(enrolled.status).toBe(201);
    expect(enrolled.body.data.attributes).toMatchObject({ current_points: 100, lifetime_points: 100 });
    expect((await earningEntries('orders', '2012')).map((e) => [e.action, e.points, e.status])).toEqual([['signup', 100, 'approved']]);
  });

  it("awards the referrer on the referred member's first paid order only, never for a self-referral", async () => {
    const referrer = await profileOf('orders', '2009');
    const code = referrer.referral_code as string;
    const before = referrer.current_points as number;

    await platform.order({ shop: 'orders', customer_id: '2009', subtotal_price: '1.00', landing_site: `/?ref=${code}` });
    expect((await profileOf('orders', '2009')).current_points).toBe(before + 1);

    await platform.order({ shop: 'orders', customer_id: '2010', subtotal_price: '10.00', landing_site: `/?ref=${code}` });
    const { webhook } = await platform.order({
      shop: 'orders',
      customer_id: '2010',
      subtotal_price: '10.00',
      note_attributes: [{ name: 'referral_code', value: code }],
    });
    await platform.redeliver(webhook!.id);

    const referrals = (await earningEntries('orders', '2009')).filter((e) => e.action === 'referral');
    expect(referrals.map((e) => [e.points, e.status])).toEqual([[500, 'approved']]);
    expect((await profileOf('orders', '2009')).current_points).toBe(before + 1 + 500);
    const events = ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<{ type: string }> }).events;
    expect(events.filter((e) => e.type === 'referral.completed')).toEqual([
      expect.objectContaining({ shop_id: 'orders', customer_id: '2009', referred_customer_id: '2010' }),
    ]);
  });

  it('awards the referrer through the referral_code note attribute of a first order', async () => {
    const referrer = await profileOf('orders', '2003');
    const before = referrer.current_points as number;

    await platform.order({
      shop: 'orders',
      customer_id: '2002',
      subtotal_price: '4.00',
      note_attributes: [{ name: 'referral_code', value: referrer.referral_code as string }],
    });

    const referrals = (await earningEntries('orders', '2003')).filter((e) => e.action === 'referral');
    expect(referrals.map((e) => [e.points, e.status])).toEqual([[500, 'approved']]);
    expect((await profileOf('orders', '2003')).current_points).toBe(before + 500);
  });
});
