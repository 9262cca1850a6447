// The Klaviyo consumer against the simulator's Klaviyo, with the member on DynamoDB Local: each mapped type's
// metric by the contract's name and the profile-only types, the profile's figures at real values (pending,
// expiring and when, the tier, an excluded member), no request for a member without an address,
// `notify: false`, a redelivery recorded once, and Klaviyo's limits (a 429 waited
// out, a 503 and a dropped connection retried, a 400 parked with its error body and counted, never holding up
// the rest of a batch). The client waits on a test clock that moves instead of sleeping; the key is never in
// a log line.
import type { SQSEvent } from 'aws-lambda';
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { createCustomer } from '../../shared/data/customer-repository';
import { putShopCatalog } from '../../shared/data/shop-repository';
import type { EarningEntry } from '../../shared/domain/history';
import { DEFAULT_EARNING_SETTINGS } from '../../shared/domain/shop';
import { accountRateLimiter, klaviyoClient, KlaviyoUnavailable, type Waiter } from '../../shared/outbound/klaviyo-client';
import type { KlaviyoRefusal } from '../../shared/klaviyo/klaviyo-delivery';
import { klaviyoDeliveryDeps, processKlaviyoMessage, setKlaviyoRefusals } from '../../shared/klaviyo/klaviyo-consumer';
import { readQueuedEvent, type LoyaltyEvent } from '../../shared/klaviyo/loyalty-event';
import { registerLocalShopSecrets } from '../../shared/platform/shop-secrets';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { captured, fakeContext } from '../support/lambda-fakes';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'kshop';
const KEY = 'pk_test_kshop_0123456789abcdef';
/** A shop with a tier and points that expire by batch, in a Klaviyo account of its own. */
const TIERED = 'ktiered';
const TIERED_KEY = 'pk_test_ktiered_0123456789abcdef';
let simulator: PlatformSimulator;
let table: Awaited<ReturnType<typeof createTestTable>>;
let refused: KlaviyoRefusal[];

const secrets = {
  [SHOP]: { webhook_secret: 'whsec', klaviyo_private_key: KEY },
  [TIERED]: { webhook_secret: 'whsec3', klaviyo_private_key: TIERED_KEY },
  nokey: { webhook_secret: 'whsec2' },
};

beforeAll(async () => {
  simulator = await startPlatformSimulator({ shops: {}, klaviyoKeys: [KEY, TIERED_KEY] });
  table = await createTestTable({ environment: { KLAVIYO_BASE_URL: simulator.klaviyoUrl } });
  await putShopCatalog(shopCatalog(SHOP));
  await putShopCatalog(shopCatalog('nokey'));
  for (const [id, email, name] of [
    ['1001', 'ada@example.com', 'Ada'],
    ['1002', 'grace@example.com', 'Grace'],
    ['1003', 'alan@example.com', 'Alan'],
  ] as const) {
    await createCustomer(
      customerRecord({ shop_id: SHOP, platform_customer_id: id, email, first_name: name, current_points: 1240, lifetime_points: 2000 }),
    );
  }
  await createCustomer(customerRecord({ shop_id: 'nokey', platform_customer_id: '2001', email: 'bob@example.com' }));
  // An address Klaviyo refuses (no top-level domain).
  await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '1004', email: 'ada@example' }));
  // A member the store has no address for.
  await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '1005', email: '' }));
  await putShopCatalog(
    shopCatalog(TIERED, {
      settings: { earning_settings: { ...DEFAULT_EARNING_SETTINGS, pending_days: 30, points_expiry: { mode: 'batch', days: 365 } } },
      tiers: [vipTier('gold', { name: 'Gold', threshold_points: 500 })],
    }),
  );
  // Members in the Gold tier by their lifetime points, 80 purchase points pending, and two batches on the line:
  // 50 of the 300 given spent, so 150 of the first batch expire on 1 February 2027, the rest in May.
  for (const [id, status] of [
    ['3001', 'member'],
    ['3002', 'excluded'],
  ] as const) {
    await createCustomer(
      customerRecord({
        shop_id: TIERED,
        platform_customer_id: id,
        email: `m${id}@example.com`,
        first_name: 'Mary',
        status,
        current_points: 250,
        lifetime_points: 900,
        redeemed_points: 50,
        points_batch_total: 300,
        referral_code: `GOLD${id}`,
      }),
      { entries: [pendingEntry('p-1', 80), batchEntry('b-1', 200, 0, '2026-02-01'), batchEntry('b-2', 100, 200, '2026-05-01')] },
    );
  }
});

function pendingEntry(id: string, points: number): EarningEntry {
  return {
    id,
    earning_rule_id: 'purchase',
    action: 'purchase',
    points,
    base_points: points,
    points_multiplier: 1,
    status: 'pending',
    order_id: '7001',
    order_number: '#7001',
    points_due_at: '2026-12-27T10:00:00.000Z',
    points_given_at: null,
    points_expiry_at: null,
    created_at: '2026-11-27T10:00:00.000Z',
    updated_at: '2026-11-27T10:00:00.000Z',
  };
}

/** An approved entry that is a batch of the line: `offset` points given before it, expiring a year after it was given. */
function batchEntry(id: string, points: number, offset: number, givenOn: string): EarningEntry {
  const given = `${givenOn}T00:00:00.000Z`;
  const entry = {
    ...pendingEntry(id, points),
    earning_rule_id: null,
    action: 'manual',
    order_id: null,
    order_number: null,
    status: 'approved' as const,
    points_due_at: null,
    points_given_at: given,
    points_expiry_at: `${String(Number(givenOn.slice(0, 4)) + 1)}${givenOn.slice(4)}T00:00:00.000Z`,
    created_at: given,
    updated_at: given,
  };
  return { ...entry, batch_offset: offset, batch_points: points } as EarningEntry;
}
afterAll(async () => {
  registerLocalShopSecrets(null);
  setKlaviyoRefusals(undefined);
  await simulator.stop();
  await table.drop();
});
beforeEach(() => {
  registerLocalShopSecrets(secrets);
  refused = [];
  setKlaviyoRefusals({ send: async (message) => void refused.push(message) });
  simulator.setFaults({ klaviyo: 'ok' });
});

/** A clock that moves only when the client waits; `onSleep` hears each wait with the time waited so far. */
function testClock(onSleep: (waitedMs: number, sleeps: number) => void = () => undefined): Waiter & { waited(): number; sleeps(): number } {
  const start = Date.parse('2026-11-27T10:00:00.000Z');
  let now = start;
  let sleeps = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      sleeps += 1;
      onSleep(now - start, sleeps);
    },
    waited: () => now - start,
    sleeps: () => sleeps,
  };
}

function depsOn(waiter: Waiter) {
  const client = klaviyoClient({
    baseUrl: simulator.klaviyoUrl,
    waiter,
    limiter: accountRateLimiter({ waiter, share: 0.5 }),
    backoff: { baseMs: 250, capMs: 8000, jitter: 'none' },
  });
  return klaviyoDeliveryDeps({ waiter, client });
}

let sequence = 0;
function event(overrides: Partial<LoyaltyEvent> & Record<string, unknown> = {}): LoyaltyEvent {
  sequence += 1;
  return {
    id: `evt-${sequence}-${Date.now()}`,
    type: 'points.approved',
    shop_id: SHOP,
    customer_id: '1001',
    occurred_at: '2026-11-27T10:00:00.000Z',
    notify: true,
    email: 'ada@example.com',
    first_name: 'Ada',
    points_balance: 1240,
    tier: null,
    earning_history_entry_id: 'entry-1',
    points: 40,
    ...overrides,
  };
}

const message = (detail: unknown) => JSON.stringify({ version: '0', id: 'eb-1', 'detail-type': 'x', source: 'loyalty-api', detail });
const eventsOf = (id: string) => simulator.klaviyo().events.filter((recorded) => recorded.unique_id === id);

describe('the Klaviyo consumer against the simulator', () => {
  it('sends an approved-points event as one Klaviyo event and the profile with its balance', async () => {
    const approved = event();

    const outcome = await processKlaviyoMessage(message(approved), depsOn(testClock()));

    expect(outcome).toEqual({ sent: 'profile and event' });
    expect(eventsOf(approved.id)).toEqual([
      {
        metric: { name: 'Loyalty Points Earned' },
        profile: { email: 'ada@example.com', external_id: '1001' },
        properties: expect.objectContaining({ points: 40, earning_history_entry_id: 'entry-1', event_id: approved.id }),
        time: approved.occurred_at,
        unique_id: approved.id,
      },
    ]);
    const profile = simulator.klaviyo().profiles.find((candidate) => candidate.email === 'ada@example.com');
    expect(profile).toEqual({
      email: 'ada@example.com',
      external_id: '1001',
      first_name: 'Ada',
      properties: {
        'Loyalty Points Balance': 1240,
        'Loyalty Lifetime Points': 2000,
        'Loyalty Pending Points': 0,
        'Loyalty Tier': null,
        'Loyalty Status': 'member',
        'Loyalty Referral URL': 'https://kshop.example/?ref=REF1001',
        'Loyalty Points Expiring': 0,
        'Loyalty Points Expiring At': null,
      },
    });
  });

  it('with notify false updates the profile and sends no Klaviyo event', async () => {
    const quiet = event({ notify: false, customer_id: '1002', email: 'grace@example.com' });
    const before = simulator.klaviyo().requests;

    const outcome = await processKlaviyoMessage(message(quiet), depsOn(testClock()));

    expect(outcome).toEqual({ sent: 'profile' });
    expect(simulator.klaviyo().requests - before).toBe(1);
    expect(eventsOf(quiet.id)).toEqual([]);
    expect(simulator.klaviyo().profiles.find((profile) => profile.external_id === '1002')?.properties['Loyalty Points Balance']).toBe(1240);
  });

  it('records an event delivered twice once, as Klaviyo does for one unique_id', async () => {
    const twice = event();
    const before = simulator.klaviyo().requests;

    await processKlaviyoMessage(message(twice), depsOn(testClock()));
    await processKlaviyoMessage(message(twice), depsOn(testClock()));

    expect(simulator.klaviyo().requests - before).toBe(4);
    expect(eventsOf(twice.id)).toHaveLength(1);
  });

  it("names the member's profile by the member's own address, whatever address the event carries", async () => {
    const other = event({ customer_id: '1003', email: 'friend@example.com', first_name: 'Friend' });

    await processKlaviyoMessage(message(other), depsOn(testClock()));

    expect(eventsOf(other.id).map((recorded) => recorded.profile)).toEqual([{ email: 'alan@example.com', external_id: '1003' }]);
    expect(simulator.klaviyo().profiles.filter((profile) => profile.external_id === '1003')).toEqual([
      expect.objectContaining({ email: 'alan@example.com', first_name: 'Alan' }),
    ]);
    expect(simulator.klaviyo().profiles.some((profile) => profile.email === 'friend@example.com')).toBe(false);
  });

  it('sends nothing for a shop without a key, nor for an event that names no member', async () => {
    const before = simulator.klaviyo().requests;

    const noKey = await processKlaviyoMessage(message(event({ shop_id: 'nokey', customer_id: '2001' })), depsOn(testClock()));
    const noMember = await processKlaviyoMessage(message(event({ customer_id: '9999' })), depsOn(testClock()));

    expect([noKey, noMember]).toEqual([{ skipped: 'no key' }, { skipped: 'no member' }]);
    expect(simulator.klaviyo().requests).toBe(before);
  });

  it('waits out 10 s of throttling as Retry-After says and loses nothing', async () => {
    simulator.setFaults({ klaviyo: 'throttled' });
    const clock = testClock((waited) => {
      if (waited >= 10_000) simulator.setFaults({ klaviyo: 'ok' });
    });
    const throttled = event();
    const before = simulator.klaviyo().requests;

    const outcome = await processKlaviyoMessage(message(throttled), depsOn(clock));

    expect(outcome).toEqual({ sent: 'profile and event' });
    expect(eventsOf(throttled.id)).toHaveLength(1);
    // Ten 429s, each waited out for its Retry-After of 1 s, then the two requests taken.
    expect(clock.waited()).toBe(10_000);
    expect(simulator.klaviyo().requests - before).toBe(12);
  });

  it('retries a 503 with backoff, and leaves the event to the queue when Klaviyo stays down', async () => {
    simulator.setFaults({ klaviyo: 'error' });
    const recovering = testClock((_waited, sleeps) => {
      if (sleeps === 2) simulator.setFaults({ klaviyo: 'ok' });
    });
    const retried = event();

    expect(await processKlaviyoMessage(message(retried), depsOn(recovering))).toEqual({ sent: 'profile and event' });
    expect(eventsOf(retried.id)).toHaveLength(1);
    // Backoff 500 ms then 1 s (no jitter here).
    expect(recovering.waited()).toBe(1500);

    simulator.setFaults({ klaviyo: 'error' });
    const down = event();
    await expect(processKlaviyoMessage(message(down), depsOn(testClock()))).rejects.toThrow(KlaviyoUnavailable);
    expect(eventsOf(down.id)).toEqual([]);
    expect(refused).toEqual([]);
  });

  it('retries a dropped connection', async () => {
    simulator.setFaults({ klaviyo: 'unreachable' });
    const clock = testClock((_waited, sleeps) => {
      if (sleeps === 1) simulator.setFaults({ klaviyo: 'ok' });
    });
    const dropped = event();

    expect(await processKlaviyoMessage(message(dropped), depsOn(clock))).toEqual({ sent: 'profile and event' });
    expect(eventsOf(dropped.id)).toHaveLength(1);
  });

  it('parks what Klaviyo refuses with its error body and counts it, and the rest of the batch goes through, the key in no log line', async () => {
    const good = event({ customer_id: '1003', email: 'alan@example.com' });
    // Klaviyo refuses an address that is not one.
    const bad = event({ customer_id: '1004', email: 'ada@example' });
    const unreadable = { type: 'points.approved' };
    const batch: SQSEvent = {
      Records: [bad, good, unreadable].map((detail, index) => ({
        messageId: `m-${index}`,
        receiptHandle: `r-${index}`,
        body: message(detail),
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:klaviyo',
        awsRegion: 'local',
      })),
    };

    const { result, logs, metrics } = await captured(async () => {
      // A fresh module registry: the function's own modules, with this file's secrets and refusals list.
      (await import('../../shared/platform/shop-secrets')).registerLocalShopSecrets(secrets);
      (await import('../../shared/klaviyo/klaviyo-consumer')).setKlaviyoRefusals({ send: async (message) => void refused.push(message) });
      const { handler } = await import('../../functions/klaviyo/deliver-klaviyo-events');
      return handler(batch, fakeContext(30_000));
    });

    expect(result).toEqual({ batchItemFailures: [] });
    expect(eventsOf(good.id)).toHaveLength(1);
    expect(eventsOf(bad.id)).toEqual([]);
    expect(refused).toEqual([
      {
        event_id: bad.id,
        type: 'points.approved',
        shop_id: SHOP,
        customer_id: '1004',
        request: '/api/profile-import',
        status: 400,
        errors: [
          expect.objectContaining({
            status: 400,
            code: 'invalid',
            detail: 'Invalid email address',
            source: { pointer: '/data/attributes/email' },
          }),
        ],
        refused_at: expect.any(String),
        detail: bad,
      },
    ]);
    // Moved back to the Klaviyo queue (once the cause is fixed), a refusal is read as its event again.
    expect(readQueuedEvent(JSON.stringify(refused[0]))).toEqual(bad);
    expect(metrics.some((record) => record.KlaviyoRefused === 1)).toBe(true);
    expect(logs.find((line) => line.message === 'Klaviyo refused an event')).toMatchObject({ level: 'WARN', status: 400 });
    expect(JSON.stringify({ logs, metrics, refused })).not.toContain(KEY);
    expect(JSON.stringify(logs)).not.toContain('pk_');
  });

  it('never logs the key, also when Klaviyo stays down or refuses the key', async () => {
    simulator.setFaults({ klaviyo: 'unreachable' });
    const { result, logs } = await captured(async () => {
      (await import('../../shared/platform/shop-secrets')).registerLocalShopSecrets({
        ...secrets,
        nokey: { webhook_secret: 'whsec2', klaviyo_private_key: 'pk_unknown_to_klaviyo_123' },
      });
      (await import('../../shared/klaviyo/klaviyo-consumer')).setKlaviyoRefusals({ send: async (message) => void refused.push(message) });
      const { handler } = await import('../../functions/klaviyo/deliver-klaviyo-events');
      const record = (detail: unknown, id: string) => ({
        messageId: id,
        receiptHandle: id,
        body: message(detail),
        attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'x', ApproximateFirstReceiveTimestamp: '0' },
        messageAttributes: {},
        md5OfBody: '',
        eventSource: 'aws:sqs',
        eventSourceARN: 'arn:aws:sqs:local:000000000000:klaviyo',
        awsRegion: 'local',
      });
      // Real time here: the invocation's deadline (6 s, less the 5 s margin) ends the retries after a second; a
      // batch whose every record failed is thrown whole, and SQS delivers it again.
      const down = await handler({ Records: [record(event(), 'down')] }, fakeContext(6_000)).catch((error: Error) => error.name);
      simulator.setFaults({ klaviyo: 'ok' });
      const wrongKey = await handler(
        { Records: [record(event({ shop_id: 'nokey', customer_id: '2001', email: 'bob@example.com' }), 'key')] },
        fakeContext(30_000),
      );
      return { down, wrongKey };
    });

    expect(result).toEqual({ down: 'FullBatchFailureError', wrongKey: { batchItemFailures: [] } });
    expect(refused.map((refusal) => refusal.status)).toEqual([401]);
    expect(logs.find((line) => line.message === 'Klaviyo event not delivered')).toMatchObject({ level: 'ERROR' });
    expect(JSON.stringify(logs)).not.toContain(KEY);
    expect(JSON.stringify([logs, refused])).not.toContain('pk_unknown_to_klaviyo_123');
  });
});

describe('what each event sends to Klaviyo', () => {
  // The contract's names (EVENTS-CONTRACT.md, "Klaviyo"), written out here: flows are built on them.
  const METRICS: Array<[type: string, metric: string]> = [
    ['points.approved', 'Loyalty Points Earned'],
    ['points.earned', 'Loyalty Points Earned'],
    ['points.adjusted', 'Loyalty Points Adjusted'],
    ['reward.purchased', 'Loyalty Reward Redeemed'],
    ['reward.refunded', 'Loyalty Reward Refunded'],
    ['points.expiring_soon', 'Loyalty Points Expiring'],
    ['points.expired', 'Loyalty Points Expired'],
    ['tier.changed', 'Loyalty Tier Changed'],
    ['customer.enrolled', 'Loyalty Joined'],
    ['referral.completed', 'Loyalty Referral Completed'],
  ];

  it.each(METRICS)('%s: the profile, then one Klaviyo event of the metric %s', async (type, metric) => {
    const sent = event({ type });
    const before = simulator.klaviyo().requests;

    const outcome = await processKlaviyoMessage(message(sent), depsOn(testClock()));

    expect(outcome).toEqual({ sent: 'profile and event' });
    expect(simulator.klaviyo().requests - before).toBe(2);
    expect(eventsOf(sent.id)).toEqual([
      expect.objectContaining({
        metric: { name: metric },
        profile: { email: 'ada@example.com', external_id: '1001' },
        time: sent.occurred_at,
      }),
    ]);
  });

  it.each(['points.pending', 'points.removed', 'reward.used', 'reward.expired', 'customer.merged'])(
    '%s: the profile only, no Klaviyo event',
    async (type) => {
      const sent = event({ type, customer_id: '1002', email: 'grace@example.com', points_balance: 1240 });
      const before = simulator.klaviyo().requests;

      const outcome = await processKlaviyoMessage(message(sent), depsOn(testClock()));

      expect(outcome).toEqual({ sent: 'profile' });
      expect(simulator.klaviyo().requests - before).toBe(1);
      expect(eventsOf(sent.id)).toEqual([]);
      expect(simulator.klaviyo().profiles.filter((profile) => profile.external_id === '1002')).toEqual([
        expect.objectContaining({ email: 'grace@example.com', properties: expect.objectContaining({ 'Loyalty Points Balance': 1240 }) }),
      ]);
    },
  );

  it("puts the member's pending points, the next points to expire and when, the tier and the lifetime points on the profile", async () => {
    const sent = event({ shop_id: TIERED, customer_id: '3001', email: 'm3001@example.com', first_name: 'Mary', points_balance: 250 });

    expect(await processKlaviyoMessage(message(sent), depsOn(testClock()))).toEqual({ sent: 'profile and event' });

    expect(simulator.klaviyo().profiles.filter((profile) => profile.external_id === '3001')).toEqual([
      {
        email: 'm3001@example.com',
        external_id: '3001',
        first_name: 'Mary',
        properties: {
          'Loyalty Points Balance': 250,
          'Loyalty Lifetime Points': 900,
          'Loyalty Pending Points': 80,
          'Loyalty Tier': 'Gold',
          'Loyalty Status': 'member',
          'Loyalty Referral URL': `https://${TIERED}.example/?ref=GOLD3001`,
          'Loyalty Points Expiring': 150,
          'Loyalty Points Expiring At': '2027-02-01T00:00:00.000Z',
        },
      },
    ]);
    expect(eventsOf(sent.id)).toEqual([expect.objectContaining({ profile: { email: 'm3001@example.com', external_id: '3001' } })]);
  });

  it('an excluded member with the same figures: status excluded, no tier, the rest as they are', async () => {
    const sent = event({ type: 'points.adjusted', shop_id: TIERED, customer_id: '3002', email: 'm3002@example.com', first_name: 'Mary' });

    expect(await processKlaviyoMessage(message(sent), depsOn(testClock()))).toEqual({ sent: 'profile and event' });

    expect(simulator.klaviyo().profiles.find((profile) => profile.external_id === '3002')?.properties).toEqual({
      'Loyalty Points Balance': 250,
      'Loyalty Lifetime Points': 900,
      'Loyalty Pending Points': 80,
      'Loyalty Tier': null,
      'Loyalty Status': 'excluded',
      'Loyalty Referral URL': `https://${TIERED}.example/?ref=GOLD3002`,
      'Loyalty Points Expiring': 150,
      'Loyalty Points Expiring At': '2027-02-01T00:00:00.000Z',
    });
  });

  it('sends no request at all for a member without an e-mail address, whatever address the event carries', async () => {
    const before = simulator.klaviyo().requests;

    const outcome = await processKlaviyoMessage(message(event({ customer_id: '1005', email: 'someone@example.com' })), depsOn(testClock()));

    expect(outcome).toEqual({ skipped: 'no e-mail' });
    expect(simulator.klaviyo().requests).toBe(before);
    expect(simulator.klaviyo().profiles.some((profile) => profile.external_id === '1005')).toBe(false);
  });
});
