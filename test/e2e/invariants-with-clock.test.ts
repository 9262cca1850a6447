// The invariants audit with the clock: phases of random orders (pending for a return window), refunds,
// cancellations, redeliveries, adjustments and purchases in parallel, with job runs among them; between
// phases the clock moves on by hours or days and the jobs run. After every phase no member holds a point
// that has expired (its balance fits in the batches not yet past their date), and at the end every
// balance equals the sum of its entries less its purchases, never negative.
import type { Twin } from '../../infra/local/twin';
import { runJobs } from '../support/jobs';
import { scanAll } from '../support/test-table';
import { apiClient, startTestTwin } from '../support/twin';
import { platformControls } from '../support/orders';
import { random } from '../support/random';

const PHASES = Number(process.env.CLOCK_PHASES ?? 8);
const PER_PHASE = Number(process.env.CLOCK_OPERATIONS ?? 30);
jest.setTimeout(300_000);
const KEY = 'clock_load_key_001';
const ids = Array.from({ length: 8 }, (_, i) => String(9501 + i));
const HOUR = 3600 * 1000;
const START = Date.parse('2027-03-01T09:00:00.000Z');

const config = {
  shops: [
    {
      id: 'clock',
      name: 'Clock',
      currency: 'USD',
      referral_base_url: 'https://clock.example/',
      api_keys: [{ name: 'Load', scope: 'full', key: KEY }],
      earning_settings: { pending_days: 2, points_expiry: { mode: 'batch', days: 6 }, expiry_reminder_days: 2 },
      earning_rules: [
        { id: 'per-dollar', name: 'A point per dollar', action: 'purchase', category: 'purchase', points_to_give: 1, spend_unit: 1 },
        { id: 'bday', name: 'Birthday', action: 'birthday', category: 'birthday', points_to_give: 75 },
      ],
      rewards: [
        { id: 'fixed', name: '$1 off', points_cost: 60, discount_amount: 1, expiry_days: 3, created_at: '2025-01-01T00:00:00.000Z' },
      ],
      platform: { customers: ids.map((id) => ({ id, email: `clock${id}@example.com`, first_name: 'C', last_name: id, created_at: null })) },
      members: ids.map((id, i) => ({
        platform_customer_id: id,
        current_points: 40 * i,
        lifetime_points: 40 * i,
        redeemed_points: 0,
        enrolled_at: '2025-01-01T00:00:00.000Z',
        // Birthdays spread over the days the phases cover.
        date_of_birth: `1990-03-0${1 + (i % 9)}`,
      })),
    },
  ],
};

let twin: Twin;
beforeAll(async () => {
  twin = await startTestTwin(config, { throttling: false });
});
afterAll(async () => {
  await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now: null }) });
  await twin.stop();
});

type Item = Record<string, unknown>;
const ofMember = (items: Item[], id: string, prefix: string) =>
  items.filter((item) => String(item.pk).endsWith(`#C#${id}`) && String(item.sk).startsWith(prefix));

describe('invariants with the clock', () => {
  it('no expired point is ever held or spent, and every balance is the sum of its entries less its purchases', async () => {
    const api = apiClient(twin.url, KEY);
    const platform = platformControls(twin);
    const next = random(Number(process.env.LOAD_SEED ?? 7));
    const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)]!;
    const orders: Array<{ id: string; left: number; cancelled: boolean }> = [];
    const deliveries: string[] = [];
    const unexpected: unknown[] = [];
    const jobRuns: unknown[] = [];
    let clock = START;
    const setClock = async (at: number) => {
      clock = at;
      const answer = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now: new Date(at).toISOString() }) });
      expect(answer.status).toBe(200);
    };
    const jobs = async () => {
      jobRuns.push(await runJobs(twin));
    };

    const operation = async () => {
      const customer = pick(ids);
      const roll = next();
      const open = orders.filter((order) => !order.cancelled && order.left > 0);
      if (roll < 0.3 || (roll < 0.5 && open.length === 0)) {
        const subtotal = (1 + Math.floor(next() * 15000) / 100).toFixed(2);
        const { order, webhook } = await platform.order({ shop: 'clock', customer_id: customer, subtotal_price: subtotal });
        orders.push({ id: String(order.id), left: Math.round(Number(subtotal) * 100), cancelled: false });
        if (webhook) deliveries.push(webhook.id);
      } else if (roll < 0.4) {
        const order = pick(open);
        const amount = 1 + Math.floor(next() * Math.min(order.left, 8000));
        order.left -= amount;
        await platform.refund(order.id, (amount / 100).toFixed(2));
      } else if (roll < 0.45) {
        const order = pick(open);
        order.cancelled = true;
        await platform.cancel(order.id);
      } else if (roll < 0.5 && deliveries.length > 0) {
        await platform.redeliver(pick(deliveries));
      } else if (roll < 0.55) {
        // A job run among the writes: jobs and requests race for the same members.
        await jobs();
      } else {
        let response;
        if (roll < 0.7) response = await api.post(`/v1/customers/${customer}/points`, { adjustment: Math.floor(next() * 120) + 1 });
        else if (roll < 0.82) response = await api.post(`/v1/customers/${customer}/points`, { adjustment: -(Math.floor(next() * 80) + 1) });
        else response = await api.post('/v1/rewards/fixed/purchase', { customer_identifier: customer });
        if (response.status >= 500) unexpected.push(response.body);
      }
    };

    /** After a quiet job run at `now`: a member's balance fits in its batches not yet past their date. */
    const auditExpiry = async (now: string) => {
      const items = await scanAll();
      for (const id of ids) {
        const profile = items.find((item) => item.pk === `SHOP#clock#C#${id}` && item.sk === 'PROFILE')!;
        const batches = [...ofMember(items, id, 'EARN#'), ...ofMember(items, id, 'BATCH#')].filter(
          (entry) => entry.status === 'approved' && Number(entry.points) > 0,
        );
        const unexpired = batches
          .filter((entry) => entry.points_expiry_at === null || String(entry.points_expiry_at) > now)
          .reduce((sum, entry) => sum + Number(entry.points), 0);
        expect({ id, now, fits: Number(profile.current_points) <= unexpired }).toEqual({ id, now, fits: true });
        // Every batch past its date is closed, and nothing past its date is still due anywhere.
        for (const entry of batches.filter((batch) => batch.points_expiry_at !== null && String(batch.points_expiry_at) <= now)) {
          expect({ id, batch: entry.id, closed: entry.batch_closed === true, due: entry.due_pk ?? null }).toEqual({
            id,
            batch: entry.id,
            closed: true,
            due: null,
          });
        }
        const pendingDue = ofMember(items, id, 'EARN#').filter((entry) => entry.status === 'pending' && String(entry.points_due_at) <= now);
        expect({ id, pendingDue }).toEqual({ id, pendingDue: [] });
      }
    };

    await setClock(START);
    for (let phase = 0; phase < PHASES; phase += 1) {
      await Promise.all(
        Array.from({ length: 6 }, async (_, worker) => {
          for (let i = worker; i < PER_PHASE; i += 6) await operation();
        }),
      );
      // Hours to days later: return windows close, batches and codes pass their dates, birthdays come.
      await setClock(clock + Math.floor(6 + next() * 60) * HOUR);
      await jobs();
      await auditExpiry(new Date(clock).toISOString());
    }
    // Past every date: everything pending is approved (given at that run), then every batch has expired.
    for (let month = 0; month < 2; month += 1) {
      await setClock(clock + 30 * 24 * HOUR);
      await jobs();
      await auditExpiry(new Date(clock).toISOString());
    }

    const items = await scanAll();
    for (const id of ids) {
      const profile = items.find((item) => item.pk === `SHOP#clock#C#${id}` && item.sk === 'PROFILE')!;
      const earned = ofMember(items, id, 'EARN#');
      const kept = ofMember(items, id, 'REDEEM#').filter((purchase) => purchase.status !== 'refunded');
      const approved = earned.filter((entry) => entry.status === 'approved').reduce((sum, entry) => sum + Number(entry.points), 0);
      const spent = kept.reduce((sum, purchase) => sum + Number(purchase.points_spent), 0);
      const imported = 40 * ids.indexOf(id);
      expect({ id, balance: profile.current_points }).toEqual({ id, balance: imported + approved - spent });
      expect(Number(profile.current_points)).toBeGreaterThanOrEqual(0);
      // Two months after the last phase nothing can be left: every point given has expired or been spent.
      expect({ id, balance: profile.current_points }).toEqual({ id, balance: 0 });
      expect(kept.filter((purchase) => purchase.status === 'active')).toEqual([]);
      expect(earned.filter((entry) => entry.status === 'pending')).toEqual([]);
    }
    const expiries = items.filter((item) => String(item.sk).startsWith('EARN#') && item.action === 'expiry');
    expect(expiries.length).toBeGreaterThan(0);
    expect(unexpected).toEqual([]);
  });
});
