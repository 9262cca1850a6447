// Shopify's mandatory privacy webhooks on the twin, sent by the simulator: a redacted member is gone with its
// history and the shop's totals follow, a redacted shop leaves nothing in the table, a data request publishes
// what is held.
import type { Twin } from '../../infra/local/twin';
import { keys } from '../../shared/data/keys';
import { scanAll } from '../support/test-table';
import { apiClient, startTestTwin } from '../support/twin';
import { customerItems, platformControls } from '../support/orders';

jest.setTimeout(60_000);

const KEY = 'privacy_full_key_01';
const OTHER_KEY = 'privacy_other_key1';
const customers = Array.from({ length: 4 }, (_, i) => ({
  id: String(4001 + i),
  email: `person${4001 + i}@example.com`,
  first_name: 'P',
  last_name: String(i),
  created_at: null,
}));
const shop = (id: string, key: string) => ({
  id,
  name: id,
  currency: 'USD',
  referral_base_url: `https://${id}.example/`,
  api_keys: [{ name: 'Full', scope: 'full', key }],
  earning_rules: [
    { id: 'per-dollar', name: 'A point per dollar', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 },
    { id: 'refer', name: 'Refer a friend', action: 'referral', category: 'referral', points_to_give: 50 },
  ],
  rewards: [{ id: 'five-off', name: '$5 off', points_cost: 50, discount_amount: 5 }],
  platform: { customers },
  members: customers.map((c) => ({
    platform_customer_id: c.id,
    current_points: 100,
    lifetime_points: 100,
    redeemed_points: 0,
    enrolled_at: '2025-01-01T00:00:00.000Z',
  })),
});
const config = { shops: [shop('privacy', KEY), shop('privacy-other', OTHER_KEY)] };

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

let twin: Twin;
let platform: ReturnType<typeof platformControls>;

beforeAll(async () => {
  twin = await startTestTwin(config, { throttling: false });
  platform = platformControls(twin);
});
afterAll(async () => {
  await twin.stop();
});

async function send(shopId: string, topic: string, payload: unknown): Promise<{ status: number; body: Json }> {
  const response = await fetch(`${twin.platformUrl}/_webhooks/send`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shop: shopId, topic, payload }),
  });
  return { status: response.status, body: await response.json() };
}

const events = async (): Promise<Json[]> => ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Json[] }).events;

/** Every item that belongs to a shop, however its key is built. */
const itemsOfShop = (items: Json[], shopId: string) =>
  items.filter(
    (item) =>
      String(item.pk).startsWith(`SHOP#${shopId}#`) ||
      item.pk === `SHOP#${shopId}` ||
      item.shop_id === shopId ||
      item.sk === `SHOP#${shopId}`,
  );

/** A history for 4001: an order with a refund, a manual adjustment, a purchase, and a referral it earned 4002. */
async function giveHistory(api: ReturnType<typeof apiClient>, shopId: string) {
  const referrer = await api.get('/v1/customers/4002');
  const { order } = await platform.order({
    shop: shopId,
    customer_id: '4001',
    subtotal_price: '80.00',
    note_attributes: [{ name: 'referral_code', value: referrer.body.data.attributes.referral_code }],
  });
  await platform.refund(order.id, '10.00');
  expect((await api.post('/v1/customers/4001/points', { adjustment: 25 })).status).toBe(200);
  expect((await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '4001' })).status).toBe(201);
  return order;
}

describe('customers/redact', () => {
  it('erases the member and its history; the shop totals follow; others are untouched; a second delivery changes nothing', async () => {
    const api = apiClient(twin.url, KEY);
    const order = await giveHistory(api, 'privacy');
    const before = await api.get('/v1/customers');
    const otherBefore = await customerItems('privacy', '4003');
    const otherShopBefore = itemsOfShop(await scanAll(), 'privacy-other');
    expect(await customerItems('privacy', '4001')).toEqual(
      expect.arrayContaining([expect.objectContaining({ sk: expect.stringMatching(/^EARN#/) })]),
    );

    const payload = {
      shop_id: 954889,
      shop_domain: 'privacy.myshopify.com',
      customer: { id: 4001, email: 'person4001@example.com', phone: null },
      orders_to_redact: [order.id],
    };
    const delivered = await send('privacy', 'customers/redact', payload);

    expect(delivered.body.webhook.status).toBe(200);
    expect((await api.get('/v1/customers/4001')).status).toBe(404);
    expect((await api.get('/v1/customers/person4001@example.com')).status).toBe(404);
    expect((await api.get('/v1/customers/4001/earning-history')).status).toBe(404);
    expect(await customerItems('privacy', '4001')).toEqual([]);
    // The program's figures count the delivered events in the background: the table as it settled.
    await twin.eventStream.caughtUp();
    await twin.figures.idle();
    const table = await scanAll();
    expect(table.filter((item) => item.pk === keys.orderCustomer('privacy', String(order.id)).pk)).toEqual([]);
    expect(table.filter((item) => item.pk === keys.referralAward('privacy', '4001').pk)).toEqual([]);
    expect(table.filter((item) => String(item.pk).startsWith('SHOP#privacy#REF#') && item.customer_id === '4001')).toEqual([]);
    expect(itemsOfShop(table, 'privacy').filter((item) => JSON.stringify(item).includes('person4001@'))).toEqual([]);
    const after = await api.get('/v1/customers');
    expect(after.body.meta.total).toBe(before.body.meta.total - 1);
    expect(after.body.data.map((c: Json) => c.id)).not.toContain('4001');
    // The referrer keeps the points it earned; other members and the other shop are as they were.
    expect((await api.get('/v1/customers/4002')).body.data.attributes.current_points).toBe(150);
    expect(await customerItems('privacy', '4003')).toEqual(otherBefore);
    expect(itemsOfShop(table, 'privacy-other')).toEqual(otherShopBefore);

    const again = await platform.redeliver(delivered.body.webhook.id);
    expect(again.status).toBe(200);
    expect(await scanAll()).toEqual(table);
    expect((await api.get('/v1/customers')).body.meta.total).toBe(after.body.meta.total);
  });

  it('finds the member by e-mail when the request names no id, and acknowledges a customer who is no member', async () => {
    const api = apiClient(twin.url, KEY);
    const byEmail = await send('privacy', 'customers/redact', {
      shop_domain: 'privacy.myshopify.com',
      customer: { email: 'PERSON4004@example.com' },
      orders_to_redact: [],
    });
    expect(byEmail.body.webhook.status).toBe(200);
    expect((await api.get('/v1/customers/4004')).status).toBe(404);

    // The first erasure's events delivered and counted by the figures (their markers), before the snapshot.
    await twin.eventStream.caughtUp();
    await twin.figures.idle();
    const table = await scanAll();
    const unknown = await send('privacy', 'customers/redact', {
      shop_domain: 'privacy.myshopify.com',
      customer: { id: 999999, email: 'nobody@example.com', phone: null },
      orders_to_redact: [],
    });
    expect(unknown.body.webhook.status).toBe(200);
    // Only the record that the event was handled (its id and outcome) and the erasure tombstone that keeps
    // imports from bringing the customer in later (the platform's id and a time) are new: no personal data.
    const added = (await scanAll()).filter((item) => !table.some((before) => before.pk === item.pk && before.sk === item.sk));
    expect(added).toEqual([
      { pk: 'SHOP#privacy#ERASED', sk: 'CUSTOMER#999999', erased_at: expect.any(String) },
      expect.objectContaining({ pk: 'SHOP#privacy#EVENTS', outcome: 'nothing_held', status: 'done' }),
    ]);
    const bookkeeping = (item: Json) => item.pk === 'SHOP#privacy#EVENTS' || item.pk === 'SHOP#privacy#ERASED';
    expect((await scanAll()).filter((item) => !bookkeeping(item))).toEqual(table.filter((item) => !bookkeeping(item)));
  });
});

describe('customers/data_request', () => {
  it('publishes the profile, the earning and the reward history for the merchant', async () => {
    const otherApi = apiClient(twin.url, OTHER_KEY);
    await giveHistory(otherApi, 'privacy-other');
    const earning = (await otherApi.get('/v1/customers/4001/earning-history')).body.data;
    const rewards = (await otherApi.get('/v1/customers/4001/reward-history')).body.data;

    const payload = {
      shop_id: 1,
      shop_domain: 'privacy-other.myshopify.com',
      customer: { id: 4001, email: 'person4001@example.com', phone: '555-625-1199' },
      orders_requested: [1],
      data_request: { id: 9999 },
    };
    const delivered = await send('privacy-other', 'customers/data_request', payload);

    expect(delivered.body.webhook.status).toBe(200);
    const event = (await events()).find((e) => e.type === 'customer.data_requested' && e.shop_id === 'privacy-other');
    expect(event).toMatchObject({
      customer_id: '4001',
      data_request_id: '9999',
      orders_requested: ['1'],
      customer: expect.objectContaining({
        platform_customer_id: '4001',
        email: 'person4001@example.com',
        current_points: expect.any(Number),
      }),
    });
    expect(event.earning_history.map((e: Json) => e.id).sort()).toEqual(earning.map((e: Json) => e.id).sort());
    expect(event.reward_history.map((e: Json) => e.id).sort()).toEqual(rewards.map((e: Json) => e.id).sort());
    expect(event.earning_history.length).toBeGreaterThanOrEqual(3);
    expect(event.reward_history).toHaveLength(1);
    // A request only reads.
    expect((await otherApi.get('/v1/customers/4001')).status).toBe(200);
  });
});

describe('shop/redact', () => {
  it('erases everything of the shop: its key is refused, nothing of it is left, the other shop is untouched', async () => {
    // Every event counted in the program's figures first: their items are the shop's too, and go with it.
    await twin.eventStream.caughtUp();
    await twin.figures.idle();
    expect(itemsOfShop(await scanAll(), 'privacy').filter((item) => item.pk === 'SHOP#privacy#FIGURES').length).toBeGreaterThan(0);
    const otherBefore = itemsOfShop(await scanAll(), 'privacy-other');
    expect(itemsOfShop(await scanAll(), 'privacy').length).toBeGreaterThan(10);

    const delivered = await send('privacy', 'shop/redact', { shop_id: 954889, shop_domain: 'privacy.myshopify.com' });

    expect(delivered.body.webhook.status).toBe(200);
    expect((await apiClient(twin.url, KEY).get('/v1/customers')).status).toBe(401);
    const table = await scanAll();
    expect(itemsOfShop(table, 'privacy')).toEqual([]);
    expect(table.filter((item) => String(item.pk).startsWith('KEY#') && item.shop_id === 'privacy')).toEqual([]);
    expect(table.filter((item) => item.pk === keys.shopDomain('privacy.myshopify.com').pk)).toEqual([]);
    expect(itemsOfShop(table, 'privacy-other')).toEqual(otherBefore);
    expect((await apiClient(twin.url, OTHER_KEY).get('/v1/customers/4002')).status).toBe(200);
  });
});
