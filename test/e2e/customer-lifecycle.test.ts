// The customer's and the app's lifecycle through signed webhooks on the twin (SHOPIFY-CONTRACT.md, "Topics"):
// automatic enrolment from customers/create and from an order that comes first, the e-mail lookup following
// customers/update, customers/delete erasing, app/uninstalled disconnecting the shop until the
// configuration is applied again, and one X-Shopify-Event-Id having its effects once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Twin } from '../../infra/local/twin';
import { parseConfig } from '../../shared/config/schema';
import { main } from '../../infra/cli/main';
import { applyConfig } from '../../shared/shops/apply-config';
import { platformControls, postWebhook, signedHeaders } from '../support/orders';
import { scanAll } from '../support/test-table';
import { apiClient, expectError, startTestTwin } from '../support/twin';

jest.setTimeout(60_000);

const KEY = 'lifecycle_full_key';
const OFF_KEY = 'lifecycle_off_key_1';
const FIXTURES = join(__dirname, '..', 'fixtures', 'shopify-webhooks');
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

const platformCustomers = ['5001', '5002', '5003', '5004', '5005', '5006'].map((id) => ({
  id,
  email: `person${id}@example.com`,
  first_name: 'P',
  last_name: id,
  created_at: '2026-01-10T00:00:00.000Z',
}));
const rules = [
  { id: 'per-dollar', name: 'A point per dollar', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 },
  { id: 'join', name: 'Join', action: 'signup', category: 'signup', points_to_give: 50 },
];
const config = {
  shops: [
    {
      id: 'life',
      name: 'Lifecycle',
      currency: 'USD',
      referral_base_url: 'https://life.example/',
      earning_settings: { auto_enroll: true },
      api_keys: [{ name: 'Full', scope: 'full', key: KEY }],
      earning_rules: rules,
      rewards: [{ id: 'five-off', name: '$5 off', points_cost: 10, discount_amount: 5 }],
      platform: { customers: platformCustomers },
      members: [{ platform_customer_id: '5005', current_points: 40, enrolled_at: '2026-01-01T00:00:00.000Z' }],
    },
    {
      id: 'life-off',
      name: 'No auto enrolment',
      currency: 'USD',
      referral_base_url: 'https://off.example/',
      api_keys: [{ name: 'Full', scope: 'full', key: OFF_KEY }],
      earning_rules: rules,
      platform: { customers: [{ id: '6001', email: 'six@example.com' }] },
    },
  ],
};

let twin: Twin;
const api = () => apiClient(twin.url, KEY);

beforeAll(async () => {
  twin = await startTestTwin(config);
});
afterAll(async () => {
  await twin?.stop();
});

/** A delivery signed as Shopify signs it, with the event id given (Shopify's redeliveries keep theirs). */
async function deliver(shop: 'life' | 'life-off', topic: string, body: string, eventId = `evt-${Math.random()}`) {
  const headers = { ...signedHeaders(body, `${shop}-webhook-secret`, `${shop}.myshopify.com`, topic), 'X-Shopify-Event-Id': eventId };
  return postWebhook(twin, body, headers);
}

async function events(type: string, customerId: string) {
  const answer = await fetch(`${twin.url}/_events`);
  const all = ((await answer.json()) as { events: Array<Record<string, unknown>> }).events;
  return all.filter((event) => event.type === type && event.customer_id === customerId);
}

describe('customers/create with auto_enroll', () => {
  it("enrols Shopify's sample customer (id beyond 2^53) once, with the signup award, however often it arrives", async () => {
    const body = fixture('customers-create.json');

    expect((await deliver('life', 'customers/create', body, 'evt-create-1')).status).toBe(200);
    expect((await deliver('life', 'customers/create', body, 'evt-create-1')).status).toBe(200); // the same event again
    expect((await deliver('life', 'customers/create', body, 'evt-create-2')).status).toBe(200); // another event

    const member = await api().get('/v1/customers/706405506930370084');
    expect(member.status).toBe(200);
    expect(member.body.data.attributes).toMatchObject({ email: 'bob@biller.com', first_name: 'Bob', current_points: 50 });
    expect((await api().get('/v1/customers/bob@biller.com')).body.data.id).toBe(member.body.data.id);
    expect(await events('customer.enrolled', '706405506930370084')).toEqual([expect.objectContaining({ source: 'signup' })]);
    expect(await events('points.earned', '706405506930370084')).toEqual([expect.objectContaining({ action: 'signup', points: 50 })]);
    expect(await events('points.approved', '706405506930370084')).toEqual([]);
  });

  it('leaves the program alone when the shop does not enrol automatically, and its orders enrol no one', async () => {
    const body = JSON.stringify({ id: 6001, admin_graphql_api_id: 'gid://shopify/Customer/6001', email: 'six@example.com' });

    expect((await deliver('life-off', 'customers/create', body)).status).toBe(200);
    await platformControls(twin).order({ shop: 'life-off', customer_id: '6001', subtotal_price: '30.00' });

    expectError(await apiClient(twin.url, OFF_KEY).get('/v1/customers/6001'), 404);
  });
});

describe('an order that arrives before customers/create', () => {
  it('enrols the customer first, then the order earns; the later customers/create changes nothing', async () => {
    const { webhook } = await platformControls(twin).order({ shop: 'life', customer_id: '5002', subtotal_price: '120.00' });
    expect(webhook?.status).toBe(200);

    const member = (await api().get('/v1/customers/5002')).body.data.attributes;
    expect(member).toMatchObject({ current_points: 170, lifetime_points: 170 });

    const created = JSON.stringify({ ...platformCustomers[1], admin_graphql_api_id: 'gid://shopify/Customer/5002' });
    expect((await deliver('life', 'customers/create', created)).status).toBe(200);

    expect((await api().get('/v1/customers/5002')).body.data.attributes.current_points).toBe(170);
    // Enrolled by its order: once, as an automatic enrolment, a member since the order was paid.
    expect(await events('customer.enrolled', '5002')).toEqual([
      expect.objectContaining({ source: 'auto_enrolment', enrolled_at: expect.any(String), email: 'person5002@example.com', notify: true }),
    ]);
    expect(await events('points.earned', '5002')).toEqual([expect.objectContaining({ action: 'signup', points: 50 })]);
    expect(await events('points.approved', '5002')).toEqual([expect.objectContaining({ action: 'purchase', points: 120 })]);
  });

  it('reconciliation enrols too, when the order webhook never came', async () => {
    await platformControls(twin).order({ shop: 'life', customer_id: '5003', subtotal_price: '10.00', deliver: false });

    const run = await fetch(`${twin.url}/_jobs/run`, { method: 'POST' });
    expect(run.status).toBe(200);

    expect((await api().get('/v1/customers/5003')).body.data.attributes).toMatchObject({ current_points: 60, lifetime_points: 60 });
  });
});

describe('customers/update', () => {
  it('moves the e-mail lookup at once and follows the names; an older delivery changes nothing', async () => {
    const update = (email: string, updatedAt: string) =>
      JSON.stringify({
        id: 5005,
        admin_graphql_api_id: 'gid://shopify/Customer/5005',
        email,
        first_name: 'Renamed',
        last_name: 'Person',
        created_at: '2026-01-10T00:00:00-05:00',
        updated_at: updatedAt,
      });

    expect((await deliver('life', 'customers/update', update('new5005@example.com', '2026-11-20T10:00:00+01:00'))).status).toBe(200);

    const byNew = await api().get('/v1/customers/new5005@example.com');
    expect(byNew.status).toBe(200);
    expect(byNew.body.data.attributes).toMatchObject({ first_name: 'Renamed', last_name: 'Person', current_points: 40 });
    expectError(await api().get('/v1/customers/person5005@example.com'), 404);
    // The name search postings follow the names in the same write: the old names' words go, the new ones' come.
    const namePostings = (await scanAll())
      .filter((item) => String(item.pk).startsWith('SHOP#life#NAME#') && String(item.sk).endsWith('#5005'))
      .map((item) => item.sk);
    expect(namePostings.sort()).toEqual(['person#5005', 'renamed#5005']);

    expect((await deliver('life', 'customers/update', update('stale@example.com', '2026-11-19T10:00:00+01:00'))).status).toBe(200);
    expect((await api().get('/v1/customers/5005')).body.data.attributes.email).toBe('new5005@example.com');
    expectError(await api().get('/v1/customers/stale@example.com'), 404);
  });
});

describe('customers/delete', () => {
  it("erases the member as customers/redact does (Shopify's sample payload)", async () => {
    expect((await api().get('/v1/customers/706405506930370084')).status).toBe(200);

    expect((await deliver('life', 'customers/delete', fixture('customers-delete.json'))).status).toBe(200);

    expectError(await api().get('/v1/customers/706405506930370084'), 404);
    expectError(await api().get('/v1/customers/bob@biller.com'), 404);
  });
});

describe('the same X-Shopify-Event-Id', () => {
  it('has its effects once even when the delivery differs (another webhook id, another subscription)', async () => {
    const body = JSON.stringify({
      shop_id: 1,
      shop_domain: 'life.myshopify.com',
      orders_requested: [],
      customer: { id: 5002, email: 'person5002@example.com', phone: null },
      data_request: { id: 9999 },
    });

    await deliver('life', 'customers/data_request', body, 'evt-data-1');
    await deliver('life', 'customers/data_request', body, 'evt-data-1');

    expect(await events('customer.data_requested', '5002')).toHaveLength(1);
  });
});

describe('customers/merge', () => {
  const merge = (kept: string, deleted: string, status = 'completed') =>
    JSON.stringify({
      admin_graphql_api_customer_kept_id: `gid://shopify/Customer/${kept}`,
      admin_graphql_api_customer_deleted_id: `gid://shopify/Customer/${deleted}`,
      admin_graphql_api_job_id: null,
      status,
      errors: [],
    });

  it("changes nothing for Shopify's sample (a failed merge)", async () => {
    const before = (await api().get('/v1/customers/5002')).body.data.attributes;

    expect((await deliver('life', 'customers/merge', fixture('customers-merge.json'))).status).toBe(200);

    expect((await api().get('/v1/customers/5002')).body.data.attributes).toEqual(before);
  });

  it('folds one member into another once, delivered twice (as a redelivery and as another event)', async () => {
    const kept = (await api().get('/v1/customers/5002')).body.data.attributes;
    const deleted = (await api().get('/v1/customers/5003')).body.data.attributes;

    expect((await deliver('life', 'customers/merge', merge('5002', '5003'), 'evt-merge-1')).status).toBe(200);
    expect((await deliver('life', 'customers/merge', merge('5002', '5003'), 'evt-merge-1')).status).toBe(200);
    expect((await deliver('life', 'customers/merge', merge('5002', '5003'), 'evt-merge-2')).status).toBe(200);

    const merged = (await api().get('/v1/customers/5002')).body.data.attributes;
    expect(merged).toMatchObject({
      current_points: kept.current_points + deleted.current_points,
      lifetime_points: kept.lifetime_points + deleted.lifetime_points,
      referral_code: kept.referral_code,
    });
    expectError(await api().get('/v1/customers/5003'), 404);
    expect(await events('customer.merged', '5002')).toHaveLength(1);
    const history = (await api().get('/v1/customers/5002/earning-history')).body.data;
    expect(history.filter((entry: { attributes: { action: string } }) => entry.attributes.action === 'purchase')).toHaveLength(2);
  });

  it('makes a non-member the member the deleted customer was, with no signup award, once', async () => {
    const before = (await api().get('/v1/customers/5002')).body.data.attributes;
    expectError(await api().get('/v1/customers/5004'), 404);

    expect((await deliver('life', 'customers/merge', merge('5004', '5002'))).status).toBe(200);
    expect((await deliver('life', 'customers/merge', merge('5004', '5002'))).status).toBe(200);

    const moved = (await api().get('/v1/customers/5004')).body.data.attributes;
    expect(moved).toMatchObject({
      current_points: before.current_points,
      email: 'person5004@example.com',
      referral_code: before.referral_code,
    });
    expectError(await api().get('/v1/customers/5002'), 404);
    expect(await events('points.approved', '5004')).toEqual([]);
    expect(await events('points.earned', '5004')).toEqual([]);
    expect(await events('customer.enrolled', '5004')).toEqual([
      expect.objectContaining({ source: 'merge', enrolled_at: before.enrolled_at ?? expect.any(String) }),
    ]);
  });

  it("leaves the program's figures equal to a full read after the erasure and both merges above", async () => {
    await twin.eventStream.caughtUp();
    await twin.figures.idle();
    const out: string[] = [];
    const code = await main(['stats', 'verify', '--shop', 'life', '--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName], {
      out: (line: string) => out.push(line),
      err: (line: string) => out.push(line),
    } as never);
    expect(out.join('\n')).toMatch(/the figures agree with a full read/);
    expect(code).toBe(0);
  });
});

describe('app/uninstalled', () => {
  it('disconnects the shop: reads go on, platform work answers 503 naming the uninstall, jobs skip it; applying the configuration reconnects', async () => {
    expect((await deliver('life', 'app/uninstalled', fixture('app-uninstalled.json'))).status).toBe(200);

    expect((await api().get('/v1/customers/5005')).status).toBe(200);
    expectError(await api().post('/v1/customers', { platform_customer_id: '5006' }), 503, /uninstalled from the store/);
    expectError(await api().post('/v1/rewards/five-off/purchase', { customer_identifier: '5005' }), 503, /uninstalled from the store/);
    const run = (await (await fetch(`${twin.url}/_jobs/run`, { method: 'POST' })).json()) as Record<string, Record<string, number>>;
    expect(run.order_reconciliation).toMatchObject({ disconnected: 1, failed: 0 });

    // What `npx loyalty config apply` (or restarting the twin) does.
    await applyConfig(parseConfig(config));

    expect((await api().post('/v1/customers', { platform_customer_id: '5006' })).status).toBe(201);
    expect((await api().post('/v1/rewards/five-off/purchase', { customer_identifier: '5005' })).status).toBe(201);
  });
});
