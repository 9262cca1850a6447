// Time through HTTP on the twin: the clock moves (PUT /_clock), the jobs run (POST /_jobs/run), nothing
// sleeps. Pending points are approved, batches and inactive balances expire, reminders go out once,
// reward codes expire, birthdays award once a year, and every job run twice changes nothing the second time.
import type { Twin } from '../../infra/local/twin';
import { apiClient, startTestTwin } from '../support/twin';
import { earningEntries, platformControls, profileOf } from '../support/orders';
import { member, shopConfig } from '../fixtures/shop-config';
import { jobRunAnswer } from '../support/jobs';

jest.setTimeout(90_000);

const DAY = 24 * 3600 * 1000;
const T0 = '2027-01-10T12:00:00.000Z';
const at = (days: number, hours = 0) => new Date(Date.parse(T0) + days * DAY + hours * 3600 * 1000).toISOString();

const shop = shopConfig;

const KEYS = {
  pending: 'cal_pending_key_01',
  batch: 'cal_batch_key_0001',
  idle: 'cal_idle_key_00001',
  codes: 'cal_codes_key_0001',
  bday: 'cal_bday_key_00001',
};
const config = {
  shops: [
    shop(
      'cal-pending',
      KEYS.pending,
      {
        earning_settings: { pending_days: 14 },
        vip_settings: { entry_method: 'points' },
        vip_tiers: [{ id: 'gold', name: 'Gold', threshold_points: 100, points_multiplier: 1, position: 1 }],
        earning_rules: [
          { id: 'per-dollar', name: 'Per dollar', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 },
        ],
      },
      ['4001'],
    ),
    shop('cal-batch', KEYS.batch, { earning_settings: { points_expiry: { mode: 'batch', days: 30 }, expiry_reminder_days: 7 } }, [
      '4101',
      '4102',
      '4103',
      '4104',
    ]),
    shop(
      'cal-idle',
      KEYS.idle,
      {
        earning_settings: { points_expiry: { mode: 'inactivity', days: 60 }, expiry_reminder_days: 10 },
        rewards: [{ id: 'five-off', name: '$5 off', points_cost: 500, discount_amount: 5 }],
      },
      ['4201'],
    ),
    shop(
      'cal-codes',
      KEYS.codes,
      { rewards: [{ id: 'ten-day', name: '$5 off, 10 days', points_cost: 100, discount_amount: 5, expiry_days: 10 }] },
      ['4301'],
      [member('4301', { current_points: 300, lifetime_points: 300 })],
    ),
    shop(
      'cal-bday',
      KEYS.bday,
      { earning_rules: [{ id: 'bday', name: 'Birthday', action: 'birthday', category: 'birthday', points_to_give: 250 }] },
      ['4401', '4402', '4403', '4404'],
      [member('4401'), member('4402'), member('4403'), member('4404', { date_of_birth: '1970-06-05' })],
    ),
  ],
};

let twin: Twin;
let platform: ReturnType<typeof platformControls>;

async function setClock(now: string | null): Promise<void> {
  const answer = await fetch(`${twin.url}/_clock`, {
    method: 'PUT',
    body: JSON.stringify({ now }),
    headers: { 'content-type': 'application/json' },
  });
  expect(answer.status).toBe(200);
}

type Counts = Record<string, { due: number; changed: number; failed: number }>;
async function runJobs(): Promise<Counts> {
  const { status, body, timing } = await jobRunAnswer(twin);
  expect(status).toBe(200);
  const counts = body as Counts;
  // The run's time split in its Server-Timing: every job's own, in order.
  expect(Object.keys(timing)).toEqual(Object.keys(counts));
  expect(Object.values(timing).every((ms) => Number.isFinite(ms) && ms >= 0)).toBe(true);
  return counts;
}

async function events(type: string, shopId: string): Promise<Array<Record<string, unknown>>> {
  const all = ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<Record<string, unknown>> }).events;
  return all.filter((event) => event.type === type && event.shop_id === shopId);
}

const CALENDAR = ['points_approval', 'points_expiry', 'expiry_reminders', 'reward_code_expiry', 'birthdays'];

/** Runs every job again and expects the second run to change nothing. */
async function expectSecondRunChangesNothing(): Promise<void> {
  const again = await runJobs();
  for (const job of CALENDAR)
    expect({ job, changed: again[job]!.changed, failed: again[job]!.failed }).toEqual({ job, changed: 0, failed: 0 });
}

beforeAll(async () => {
  twin = await startTestTwin(config, { throttling: false });
  platform = platformControls(twin);
});
afterAll(async () => {
  await setClock(null);
  await twin.stop();
});

describe('approval', () => {
  it('keeps order points pending until points_due_at, then approves them at the run: balance, lifetime, tier, event', async () => {
    await setClock(T0);
    const api = apiClient(twin.url, KEYS.pending);
    await platform.order({ shop: 'cal-pending', customer_id: '4001', subtotal_price: '120.00' });
    await runJobs();
    expect((await api.get('/v1/customers/4001')).body.data.attributes).toMatchObject({
      current_points: 0,
      lifetime_points: 0,
      vip_tier: null,
    });

    await setClock(at(13, 23));
    expect((await runJobs()).points_approval!.changed).toBe(0);

    const runAt = at(14, 3);
    await setClock(runAt);
    // In the twin, clock-driven work happens only on POST /_jobs/run: past the due date, still pending.
    expect((await api.get('/v1/customers/4001')).body.data.attributes.current_points).toBe(0);
    expect((await api.get('/v1/customers/4001/earning-history')).body.data[0].attributes.status).toBe('pending');
    expect((await runJobs()).points_approval!.changed).toBe(1);
    const customer = (await api.get('/v1/customers/4001')).body.data.attributes;
    expect(customer).toMatchObject({ current_points: 120, lifetime_points: 120, vip_tier: expect.objectContaining({ id: 'gold' }) });
    const history = (await api.get('/v1/customers/4001/earning-history')).body.data;
    expect(history.map((entry: { attributes: unknown }) => entry.attributes)).toEqual([
      expect.objectContaining({ status: 'approved', points: 120, points_due_at: at(14), points_given_at: runAt, points_expiry_at: null }),
    ]);
    expect(await events('points.approved', 'cal-pending')).toEqual([expect.objectContaining({ customer_id: '4001', points: 120 })]);
    expect(await events('tier.changed', 'cal-pending')).toEqual([expect.objectContaining({ customer_id: '4001', to_tier_id: 'gold' })]);
    await expectSecondRunChangesNothing();
    expect((await api.get('/v1/customers/4001')).body.data.attributes.current_points).toBe(120);
  });
});

describe('batch expiry', () => {
  it('expires only what is left of a batch after part of it was spent (oldest first), each batch on its own date', async () => {
    const api = apiClient(twin.url, KEYS.batch);
    await setClock(T0);
    await api.post('/v1/customers/4101/points', { adjustment: 100 });
    await setClock(at(1));
    await api.post('/v1/customers/4101/points', { adjustment: 50 });
    await setClock(at(2));
    // Spending takes the oldest points first: 30 of the first batch's 100.
    await api.post('/v1/customers/4101/points', { adjustment: -30 });
    const batches = (await api.get('/v1/customers/4101/earning-history?sort=created_at')).body.data.map(
      (entry: { attributes: Record<string, unknown> }) => entry.attributes,
    );
    expect(batches.map((entry: Record<string, unknown>) => entry.points_expiry_at)).toEqual([at(30), at(31), null]);

    await setClock(at(30, 1));
    expect((await runJobs()).points_expiry!.changed).toBe(1);
    expect((await api.get('/v1/customers/4101')).body.data.attributes.current_points).toBe(50);
    await expectSecondRunChangesNothing();

    await setClock(at(31, 1));
    await runJobs();
    expect((await api.get('/v1/customers/4101')).body.data.attributes.current_points).toBe(0);
    const expiries = (await earningEntries('cal-batch', '4101')).filter((entry) => entry.action === 'expiry');
    expect(expiries.map((entry) => entry.points).sort((a, b) => a - b)).toEqual([-70, -50]);
    expect(expiries.every((entry) => entry.status === 'approved')).toBe(true);
    expect((await events('points.expired', 'cal-batch')).map((event) => event.points)).toEqual([70, 50]);
  });

  it('sends points.expiring_soon once per batch, from the first run inside the reminder window, with what is left', async () => {
    const api = apiClient(twin.url, KEYS.batch);
    await setClock(T0);
    await api.post('/v1/customers/4102/points', { adjustment: 80 });
    await api.post('/v1/customers/4102/points', { adjustment: -20 });
    // 4104's batch is spent whole before its window: it holds no points, so it gets no reminder.
    expect((await api.post('/v1/customers/4104/points', { adjustment: 30 })).status).toBe(200);
    expect((await api.post('/v1/customers/4104/points', { adjustment: -30 })).status).toBe(200);

    await setClock(at(22, 23));
    await runJobs();
    const reminders = async () => (await events('points.expiring_soon', 'cal-batch')).filter((event) => event.customer_id === '4102');
    expect(await reminders()).toEqual([]);

    await setClock(at(23, 1));
    expect((await runJobs()).expiry_reminders!.changed).toBe(1);
    await expectSecondRunChangesNothing();
    await setClock(at(25));
    await runJobs();
    expect(await reminders()).toEqual([expect.objectContaining({ customer_id: '4102', points: 60, points_expiry_at: at(30) })]);
    expect((await events('points.expiring_soon', 'cal-batch')).filter((event) => event.customer_id === '4104')).toEqual([]);
  });

  it('freezes an excluded member’s points: nothing expires while excluded', async () => {
    const api = apiClient(twin.url, KEYS.batch);
    await setClock(T0);
    await api.post('/v1/customers/4103/points', { adjustment: 40 });
    expect((await api.put('/v1/customers/4103', { is_excluded: true })).status).toBe(200);
    await setClock(at(45));
    await runJobs();
    expect((await profileOf('cal-batch', '4103')).current_points).toBe(40);
    expect((await earningEntries('cal-batch', '4103')).filter((entry) => entry.action === 'expiry')).toEqual([]);
    // Exclusion suspends expiry, it does not move the date: back in the program, the passed date applies.
    expect((await api.put('/v1/customers/4103', { is_excluded: false })).status).toBe(200);
    await runJobs();
    await setClock(at(47));
    await runJobs();
    expect((await profileOf('cal-batch', '4103')).current_points).toBe(0);
  });
});

describe('inactivity expiry', () => {
  it('restarts the period with every spending: a purchase keeps the balance, then it expires whole days after the last activity', async () => {
    const api = apiClient(twin.url, KEYS.idle);
    await setClock(T0);
    await api.post('/v1/customers/4201/points', { adjustment: 600 });

    await setClock(at(50));
    const purchase = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '4201' });
    expect(purchase.status).toBe(201);

    await setClock(at(61));
    await runJobs();
    expect((await api.get('/v1/customers/4201')).body.data.attributes.current_points).toBe(100);
    // Reminded once for the period that ends 60 days after the purchase, not for the old one.
    await setClock(at(101));
    await runJobs();
    await runJobs();
    expect(await events('points.expiring_soon', 'cal-idle')).toEqual([
      expect.objectContaining({ customer_id: '4201', points: 100, points_expiry_at: at(110) }),
    ]);

    await setClock(at(110, 1));
    expect((await runJobs()).points_expiry!.changed).toBe(1);
    expect((await api.get('/v1/customers/4201')).body.data.attributes.current_points).toBe(0);
    expect((await events('points.expired', 'cal-idle')).map((event) => [event.customer_id, event.points])).toEqual([['4201', 100]]);
    await expectSecondRunChangesNothing();
  });
});

describe('reward codes', () => {
  it('expire after expires_at: the entry becomes expired and reward.expired goes out once', async () => {
    const api = apiClient(twin.url, KEYS.codes);
    await setClock(T0);
    const purchase = await api.post('/v1/rewards/ten-day/purchase', { customer_identifier: '4301' });
    expect(purchase.body.data.attributes.expires_at).toBe(at(10));

    await setClock(at(9, 23));
    await runJobs();
    const entryId = (await api.get('/v1/customers/4301/reward-history')).body.data[0].id;
    expect((await api.get(`/v1/customers/4301/reward-history/${entryId}`)).body.data.attributes.status).toBe('active');

    await setClock(at(10));
    expect((await runJobs()).reward_code_expiry!.changed).toBe(1);
    expect((await api.get(`/v1/customers/4301/reward-history/${entryId}`)).body.data.attributes.status).toBe('expired');
    // A shop without points_expiry: the points never expire, however many runs pass.
    await setClock(at(140));
    await runJobs();
    expect((await api.get('/v1/customers/4301')).body.data.attributes.current_points).toBe(200);
    expect((await earningEntries('cal-codes', '4301')).filter((entry) => entry.action === 'expiry')).toEqual([]);
    await expectSecondRunChangesNothing();
    expect(await events('reward.expired', 'cal-codes')).toEqual([
      expect.objectContaining({ customer_id: '4301', reward_history_entry_id: entryId }),
    ]);
  });
});

describe('birthdays', () => {
  it('award once a calendar year, 29 February on 28 February in other years, up to 7 days late and not 8', async () => {
    const api = apiClient(twin.url, KEYS.bday);
    // Dates of birth written through the API (4404's came with the import): each gets its birthday timer.
    await setClock('2027-06-01T12:00:00.000Z');
    for (const [id, date] of [
      ['4401', '2000-02-29'],
      ['4402', '1990-01-02'],
      ['4403', '1985-01-03'],
    ]) {
      expect((await api.put(`/v1/customers/${id}`, { date_of_birth: date })).status).toBe(200);
    }
    await setClock('2027-06-06T01:00:00.000Z');
    await runJobs();
    expect((await profileOf('cal-bday', '4404')).current_points).toBe(250);

    // A first run on 10 January is 8 days after 2 January and 7 days after 3 January.
    await setClock('2028-01-10T12:00:00.000Z');
    await runJobs();
    expect((await profileOf('cal-bday', '4402')).current_points).toBe(0);
    expect((await profileOf('cal-bday', '4403')).current_points).toBe(250);

    await setClock('2028-02-28T06:00:00.000Z');
    await runJobs();
    expect((await profileOf('cal-bday', '4401')).current_points).toBe(0);
    await setClock('2028-02-29T06:00:00.000Z');
    expect((await runJobs()).birthdays!.changed).toBe(1);
    await expectSecondRunChangesNothing();

    await setClock('2029-02-28T06:00:00.000Z');
    await runJobs();
    await setClock('2029-03-03T06:00:00.000Z');
    await runJobs();
    expect((await api.get('/v1/customers/4401')).body.data.attributes.current_points).toBe(500);
    const entries = (await earningEntries('cal-bday', '4401')).filter((entry) => entry.action === 'birthday');
    expect(entries.map((entry) => [entry.points, entry.status, entry.points_given_at]).sort()).toEqual([
      [250, 'approved', '2028-02-29T06:00:00.000Z'],
      [250, 'approved', '2029-02-28T06:00:00.000Z'],
    ]);
    expect((await events('points.earned', 'cal-bday')).filter((event) => event.action === 'birthday')).toHaveLength(4);
  });
});
