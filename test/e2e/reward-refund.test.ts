// Undoing a redemption through HTTP on the twin (docs/program.md#undo-a-redemption): the code deleted on the
// platform first, then the points back, is_refunded, a reward_refund entry (a batch of its own in batch
// expiry mode) and reward.refunded, at once; the refusals; the Idempotency-Key; and a refund racing an order
// that uses the same code, which ends either used or refunded, never both.
import type { Twin } from '../../infra/local/twin';
import { dynamoDbFaults } from '../support/dynamodb-faults';
import { earningEntries, platformControls, profileOf } from '../support/orders';
import { apiClient, expectError, startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

const KEY = 'refund_full_key_01';
const READ_KEY = 'refund_read_key_01';
const created_at = '2025-01-01T00:00:00.000Z';
const ids = Array.from({ length: 15 }, (_, i) => String(5001 + i));
const loadedEntry = (id: string, code: string, overrides: Record<string, unknown> = {}) => ({
  id,
  reward_id: 'five-off',
  reward_name: '$5 off',
  reward_discount_type: 'fixed',
  points_spent: 500,
  discount_code: code,
  redeemed_at: '2026-01-01T00:00:00.000Z',
  ...overrides,
});

const config = {
  shops: [
    {
      id: 'refund',
      name: 'Refund Store',
      currency: 'USD',
      referral_base_url: 'https://refund.example/',
      earning_settings: { points_expiry: { mode: 'batch', days: 30 } },
      api_keys: [
        { name: 'Backend', scope: 'full', key: KEY },
        { name: 'Reader', scope: 'read', key: READ_KEY },
      ],
      rewards: [
        { id: 'five-off', name: '$5 off', points_cost: 500, discount_amount: 5, expiry_days: 30, created_at },
        { id: 'once', name: 'Once', points_cost: 100, discount_amount: 1, max_redemptions: 1, created_at },
      ],
      platform: { customers: ids.map((id) => ({ id, email: `refund${id}@example.com`, first_name: 'R', last_name: id, created_at })) },
      members: ids.map((id) => ({
        platform_customer_id: id,
        current_points: 10_000,
        lifetime_points: 10_000,
        redeemed_points: 0,
        excluded: id === '5012',
        enrolled_at: created_at,
        // 5011: entries loaded from a file, none with a platform discount id.
        reward_history:
          id === '5011'
            ? [
                loadedEntry('h-used', 'LOYAL-USED', { status: 'used', discount_code_redeemed_at: '2026-01-02T00:00:00.000Z' }),
                loadedEntry('h-expired', 'LOYAL-EXPIRED', { status: 'expired', expires_at: '2026-01-31T00:00:00.000Z' }),
                loadedEntry('h-lapsed', 'LOYAL-LAPSED', { expires_at: '2026-01-31T00:00:00.000Z' }),
                loadedEntry('h-loaded', 'LOYAL-LOADED'),
                loadedEntry('h-refunded', 'LOYAL-GONE', { is_refunded: true }),
              ]
            : [],
      })),
    },
  ],
};

let twin: Twin;
let api: ReturnType<typeof apiClient>;
let platform: ReturnType<typeof platformControls>;

beforeAll(async () => {
  // The `hold` fault keeps a platform call until the test lets it go: well within the adapter's timeout.
  twin = await startTestTwin(config, { throttling: false, environment: { PLATFORM_TIMEOUT_MS: '15000' } });
  api = apiClient(twin.url, KEY);
  platform = platformControls(twin);
});
afterAll(async () => {
  await twin?.stop();
});
afterEach(() => twin.simulator.setFaults({ discount_codes: 'ok' }));

const refundPath = (customer: string, entry: string) => `/v1/customers/${customer}/reward-history/${entry}/refund`;
const buy = async (customer: string, reward = 'five-off') => {
  const answer = await api.post(`/v1/rewards/${reward}/purchase`, { customer_identifier: customer });
  expect(answer.status).toBe(201);
  return answer.body.data as { id: string; attributes: { discount_code: string } };
};
const codesOnPlatform = () =>
  twin.simulator
    .discountCodes()
    .filter((code) => code.shop === 'refund')
    .map((code) => code.code);
const events = async () => ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<Record<string, unknown>> }).events;
const eventsOf = async (type: string, entryId: string) =>
  (await events()).filter((event) => event.type === type && event.reward_history_entry_id === entryId);

describe('POST /v1/customers/{identifier}/reward-history/{id}/refund', () => {
  it('deletes the code, gives the points back as an approved reward_refund batch and answers the entry as GET does', async () => {
    const bought = await buy('5001');
    expect(codesOnPlatform()).toContain(bought.attributes.discount_code);
    expect(await profileOf('refund', '5001')).toMatchObject({ current_points: 9500, redeemed_points: 500, lifetime_points: 10_000 });

    const refunded = await api.post(refundPath('5001', bought.id));

    expect(refunded.status).toBe(200);
    const read = await api.get(`/v1/customers/5001/reward-history/${bought.id}`);
    expect(refunded.body).toEqual(read.body);
    expect(refunded.body.data).toMatchObject({
      type: 'reward_history_entry',
      id: bought.id,
      attributes: { status: 'active', is_refunded: true, points_spent: 500, discount_code: bought.attributes.discount_code },
    });
    expect(refunded.body.meta).toEqual({ loyalty_mode: 'points', currency: 'USD' });
    expect(codesOnPlatform()).not.toContain(bought.attributes.discount_code);
    // Spending never lowered lifetime points, so the refund does not raise them.
    expect(await profileOf('refund', '5001')).toMatchObject({ current_points: 10_000, redeemed_points: 0, lifetime_points: 10_000 });
    const customer = (await api.get('/v1/customers/5001')).body.data.attributes;
    expect(customer).toMatchObject({ current_points: 10_000, redeemed_points: 0 });

    const [entry] = (await earningEntries('refund', '5001')).filter((e) => e.action === 'reward_refund');
    expect(entry).toMatchObject({ status: 'approved', points: 500, base_points: 500, points_multiplier: 1, earning_rule_id: null });
    // Batch expiry mode: a batch of its own, after every point given before, expiring `days` after it was given.
    expect(entry.batch_offset).toBe(10_000);
    expect(Date.parse(entry.points_expiry_at) - Date.parse(entry.points_given_at)).toBe(30 * 86_400_000);
    const listed = await api.get(`/v1/customers/5001/earning-history/${entry.id}`);
    expect(listed.body.data.attributes).toMatchObject({ action: 'reward_refund', points: 500, status: 'approved' });

    expect(await eventsOf('reward.refunded', bought.id)).toEqual([
      {
        type: 'reward.refunded',
        shop_id: 'refund',
        customer_id: '5001',
        occurred_at: expect.any(String),
        reward_history_entry_id: bought.id,
        reward_id: 'five-off',
        discount_code: bought.attributes.discount_code,
        points: 500,
        earning_history_entry_id: entry.id,
        current_points: 10_000,
        id: expect.any(String),
        notify: true,
        email: 'refund5001@example.com',
        first_name: 'R',
        points_balance: 10_000,
        tier: null,
      },
    ]);
  });

  it('replays a repeat with the same Idempotency-Key; without one a second refund is a 422', async () => {
    const bought = await buy('5002');
    const headers = { 'Idempotency-Key': `refund-${bought.id}` };

    const first = await api.post(refundPath('5002', bought.id), undefined, headers);
    const again = await api.post(refundPath('5002', bought.id), undefined, headers);
    const unkeyed = await api.post(refundPath('5002', bought.id));

    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('Idempotency-Replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expectError(unkeyed, 422, `Reward history entry '${bought.id}' has already been refunded`);
    expect(unkeyed.body.errors[0].title).toBe('Reward Already Refunded');
    expect((await profileOf('refund', '5002')).current_points).toBe(10_000);
    expect((await earningEntries('refund', '5002')).filter((e) => e.action === 'reward_refund')).toHaveLength(1);
    expect(await eventsOf('reward.refunded', bought.id)).toHaveLength(1);
  });

  it('answers 404 for an unknown entry, an unknown customer and another customer’s entry; 403 for a read-only key and an excluded member', async () => {
    const bought = await buy('5003');

    expectError(await api.post(refundPath('5003', 'nope')), 404, "Reward history entry 'nope' not found");
    expectError(await api.post(refundPath('9999', bought.id)), 404, "Customer '9999' not found");
    expectError(await api.post(refundPath('nobody@example.com', bought.id)), 404, "Customer 'nobody@example.com' not found");
    expectError(await api.post(refundPath('5004', bought.id)), 404, `Reward history entry '${bought.id}' not found`);
    expectError(await api.post(refundPath('5003', 'x'.repeat(2000))), 404);
    expectError(
      await apiClient(twin.url, READ_KEY).post(refundPath('5003', bought.id)),
      403,
      'This API key is read-only and cannot perform write operations',
    );
    expectError(await api.post(refundPath('5012', 'h-any')), 403, 'Customer is excluded from the loyalty program');
    // Nothing of it changed: the entry is still refundable, and is refunded by e-mail as well.
    expect((await api.post(refundPath('REFUND5003@example.com', bought.id))).status).toBe(200);
  });

  it.each([
    [
      'used',
      'h-used',
      'Reward Used',
      "Reward history entry 'h-used' cannot be refunded: its discount code was used on 2026-01-02T00:00:00.000Z",
    ],
    [
      'expired',
      'h-expired',
      'Reward Expired',
      "Reward history entry 'h-expired' cannot be refunded: it expired on 2026-01-31T00:00:00.000Z",
    ],
    [
      'past its end date (before the expiry job ran)',
      'h-lapsed',
      'Reward Expired',
      "Reward history entry 'h-lapsed' cannot be refunded: it expired on 2026-01-31T00:00:00.000Z",
    ],
    ['refunded already', 'h-refunded', 'Reward Already Refunded', "Reward history entry 'h-refunded' has already been refunded"],
  ])('refuses an entry %s with a 422 saying why, changing nothing', async (_case, entryId, title, detail) => {
    const before = await profileOf('refund', '5011');

    const answer = await api.post(refundPath('5011', entryId));

    expectError(answer, 422, detail);
    expect(answer.body.errors[0].title).toBe(title);
    expect((await profileOf('refund', '5011')).current_points).toBe(before.current_points);
  });

  it('refunds an entry loaded from a configuration file, whose code the platform does not have', async () => {
    const answer = await api.post(refundPath('5011', 'h-loaded'));

    expect(answer.status).toBe(200);
    expect(answer.body.data.attributes).toMatchObject({ is_refunded: true, status: 'active' });
    expect(await profileOf('refund', '5011')).toMatchObject({ current_points: 10_500 });
  });

  it.each(['unreachable', 'error'] as const)(
    'answers 503 and changes nothing when the platform is %s; refunds once it is back',
    async (fault) => {
      const customer = fault === 'unreachable' ? '5005' : '5006';
      const bought = await buy(customer);
      twin.simulator.setFaults({ discount_codes: fault });

      const refused = await api.post(refundPath(customer, bought.id));

      expectError(refused, 503, 'Unable to connect to the platform. Please try again.');
      expect(codesOnPlatform()).toContain(bought.attributes.discount_code);
      expect((await api.get(`/v1/customers/${customer}/reward-history/${bought.id}`)).body.data.attributes).toMatchObject({
        status: 'active',
        is_refunded: false,
      });
      expect(await profileOf('refund', customer)).toMatchObject({ current_points: 9500, redeemed_points: 500 });
      expect((await earningEntries('refund', customer)).filter((e) => e.action === 'reward_refund')).toEqual([]);

      twin.simulator.setFaults({ discount_codes: 'ok' });
      expect((await api.post(refundPath(customer, bought.id))).status).toBe(200);
      expect(codesOnPlatform()).not.toContain(bought.attributes.discount_code);
    },
  );

  describe('a refund whose commit fails after its code was deleted', () => {
    const faults = dynamoDbFaults({ seed: 7, rates: {} });
    beforeAll(() => faults.install());
    afterAll(() => faults.uninstall());

    it('issues the code again: the member keeps an active reward with a usable code, and a retry refunds it', async () => {
      const bought = await buy('5013');
      const code = bought.attributes.discount_code;
      faults.resume();
      // Every attempt of the refund's transaction fails (the SDK's own retries included): the code is already gone.
      faults.script('TransactWriteItems', ...Array.from({ length: 12 }, () => 'internal_error' as const));

      const failed = await api.post(refundPath('5013', bought.id));
      faults.pause();

      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(codesOnPlatform()).toContain(code);
      const entry = (await api.get(`/v1/customers/5013/reward-history/${bought.id}`)).body.data.attributes;
      expect(entry).toMatchObject({ status: 'active', is_refunded: false, discount_code: code });
      expect(await profileOf('refund', '5013')).toMatchObject({ current_points: 9500, redeemed_points: 500 });
      // A deletion that timed out could still be applied later: the reconciler looks once more, then settles it.
      const reconcile = async () =>
        ((await (await fetch(`${twin.url}/_reconcile`, { method: 'POST' })).json()) as Record<string, number>).codesRestored;
      expect(await reconcile()).toBe(1);
      expect(await reconcile()).toBe(0);
      expect(codesOnPlatform()).toContain(code);

      // The code issued again is the one the entry now names: the retry deletes it and refunds.
      expect((await api.post(refundPath('5013', bought.id))).status).toBe(200);
      expect(codesOnPlatform()).not.toContain(code);
      expect(await profileOf('refund', '5013')).toMatchObject({ current_points: 10_000, redeemed_points: 0 });
    });

    it('and cannot issue it again either: the purchase reconciler does, from the undo recorded before the deletion', async () => {
      const bought = await buy('5015');
      const code = bought.attributes.discount_code;
      faults.resume();
      // The refund's transaction fails, then so does its read of the entry before issuing the code again.
      faults.script('TransactWriteItems', ...Array.from({ length: 12 }, () => 'internal_error' as const));
      faults.script('GetItem', null, null, ...Array.from({ length: 12 }, () => 'internal_error' as const));

      const failed = await api.post(refundPath('5015', bought.id));
      faults.pause();

      expect(failed.status).toBeGreaterThanOrEqual(500);
      expect(codesOnPlatform()).not.toContain(code);
      const reconciled = (await (await fetch(`${twin.url}/_reconcile`, { method: 'POST' })).json()) as Record<string, number>;
      expect(reconciled.codesRestored).toBe(1);
      expect(codesOnPlatform()).toContain(code);
      expect((await api.get(`/v1/customers/5015/reward-history/${bought.id}`)).body.data.attributes).toMatchObject({
        status: 'active',
        is_refunded: false,
      });
      // Settled: the next run finds nothing to do, and the refund goes through.
      expect(((await (await fetch(`${twin.url}/_reconcile`, { method: 'POST' })).json()) as Record<string, number>).codesRestored).toBe(0);
      expect((await api.post(refundPath('5015', bought.id))).status).toBe(200);
      expect(codesOnPlatform()).not.toContain(code);
    });
  });

  it('gives the redemption back to a reward with max_redemptions', async () => {
    const bought = await buy('5007', 'once');
    expectError(await api.post('/v1/rewards/once/purchase', { customer_identifier: '5007' }), 422);

    expect((await api.post(refundPath('5007', bought.id))).status).toBe(200);

    expect((await api.post('/v1/rewards/once/purchase', { customer_identifier: '5007' })).status).toBe(201);
  });
});

describe('a refund and an order that uses the same code: used or refunded, never both', () => {
  const paidWith = (customer: string, code: string) =>
    platform.order({ shop: 'refund', customer_id: customer, subtotal_price: '40.00', discount_codes: [code.toLowerCase()] });

  it('an order first: the entry is used and the refund is a 422 naming the use', async () => {
    const bought = await buy('5008');
    const { order } = await paidWith('5008', bought.attributes.discount_code);

    const refused = await api.post(refundPath('5008', bought.id));

    expectError(refused, 422, new RegExp(`its discount code was used on ${order.processed_at}`));
    expect((await profileOf('refund', '5008')).current_points).toBe(9500);
    expect(await eventsOf('reward.refunded', bought.id)).toEqual([]);
    expect(await eventsOf('reward.used', bought.id)).toHaveLength(1);
  });

  it('the refund first: a later order with the code (paid before the deletion) leaves the entry refunded, unused', async () => {
    const bought = await buy('5009');
    expect((await api.post(refundPath('5009', bought.id))).status).toBe(200);

    const { webhook } = await paidWith('5009', bought.attributes.discount_code);

    expect(webhook?.status).toBe(200);
    expect((await api.get(`/v1/customers/5009/reward-history/${bought.id}`)).body.data.attributes).toMatchObject({
      status: 'active',
      is_refunded: true,
      discount_code_redeemed_at: null,
    });
    expect(await eventsOf('reward.used', bought.id)).toEqual([]);
    expect((await profileOf('refund', '5009')).current_points).toBe(10_000);
  });

  it("the refund's deletion held while the order is written: the refund is refused as used, no points back", async () => {
    const bought = await buy('5004');
    twin.simulator.setFaults({ discount_codes: 'hold' });
    const refunding = api.post(refundPath('5004', bought.id));
    await twin.simulator.whenHeld(1);

    const { order } = await paidWith('5004', bought.attributes.discount_code);
    twin.simulator.setFaults({ discount_codes: 'ok' });
    const refused = await refunding;

    // The code was deleted after the order had used it: the entry stays used, and the points stay spent.
    expectError(refused, 422, new RegExp(`its discount code was used on ${order.processed_at}`));
    expect(codesOnPlatform()).not.toContain(bought.attributes.discount_code);
    expect((await api.get(`/v1/customers/5004/reward-history/${bought.id}`)).body.data.attributes).toMatchObject({
      status: 'used',
      is_refunded: false,
    });
    expect(await eventsOf('reward.refunded', bought.id)).toEqual([]);
    expect((await earningEntries('refund', '5004')).filter((e) => e.action === 'reward_refund')).toEqual([]);
  });

  it('at once, round after round: every entry ends exactly one of used or refunded, and the points agree', async () => {
    const rounds = 18;
    const customer = '5010';
    const outcomes = { used: 0, refunded: 0 };
    const entryOutcome = (status: number) => (status === 200 ? 'refunded' : 'used');
    for (let round = 0; round < rounds; round += 1) {
      const before = (await profileOf('refund', customer)).current_points as number;
      const bought = await buy(customer);
      // The refund's deletion is held, then let go before the order starts, as it starts, or once it was written.
      twin.simulator.setFaults({ discount_codes: 'hold' });
      const refunding = api.post(refundPath(customer, bought.id));
      await twin.simulator.whenHeld(1);
      const release = () => twin.simulator.setFaults({ discount_codes: 'ok' });
      if (round % 3 === 0) release();
      const ordering = paidWith(customer, bought.attributes.discount_code);
      if (round % 3 === 1) release();
      if (round % 3 === 2) await ordering.then(release);
      const [refund] = await Promise.all([refunding, ordering]);
      outcomes[entryOutcome(refund.status)] += 1;

      const entry = (await api.get(`/v1/customers/${customer}/reward-history/${bought.id}`)).body.data.attributes;
      const used = entry.status === 'used';
      expect({ round, used, refunded: entry.is_refunded }).toEqual({ round, used: !entry.is_refunded, refunded: !used });
      if (used) expectError(refund, 422, /its discount code was used/);
      else expect(refund.status).toBe(200);
      expect(await eventsOf('reward.used', bought.id)).toHaveLength(used ? 1 : 0);
      expect(await eventsOf('reward.refunded', bought.id)).toHaveLength(used ? 0 : 1);
      expect((await profileOf('refund', customer)).current_points).toBe(used ? before - 500 : before);
    }
    console.info(`refund against order, ${rounds} rounds: ${JSON.stringify(outcomes)}`);
  });
});
