// Earning by action through HTTP on the twin (PROGRAM-CONTRACT.md, "Earn by action"): the active rule of an
// action awards what GET /v1/earning-rules shows for the customer at that moment, as an approved entry, within
// the rule's limit (once per lifetime by default, or N per UTC day, ISO week, month or year), with the balance,
// lifetime points, tier, batch and events of any award; refusals in the spec's envelope, nothing written.
import type { Twin } from '../../infra/local/twin';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { scanAll } from '../support/test-table';
import { apiClient, expectError, startTestTwin, type ApiResponse } from '../support/twin';

let twin: Twin;
let api: ReturnType<typeof apiClient>;

const rule = (id: string, action: string, points: number, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  action,
  category: 'social',
  points_to_give: points,
  created_at: '2025-01-01T00:00:00.000Z',
  ...extra,
});

function actionsConfig() {
  const config = e2eConfig();
  const shop = config.shops[0]! as Record<string, unknown>;
  Object.assign(shop, {
    // Tier multipliers apply to every rule, so an action's price shows the tier and the campaign.
    vip_settings: { entry_method: 'points', entry_methods_extra: [], entry_logic: 'OR', points_multiplier_mode: 'all' },
    earning_settings: { points_expiry: { mode: 'batch', days: 365 } },
    campaigns: [
      { id: 'boost', name: 'Boost', multiplier: 1.5, starts_at: '2025-01-01T00:00:00.000Z', ends_at: '2099-01-01T00:00:00.000Z' },
    ],
    earning_rules: [
      rule('order', 'purchase', 1, { category: 'purchase' }),
      rule('follow', 'follow_on_instagram', 50),
      rule('review', 'leave_a_review', 10, { limit: { times: 2, per: 'day' } }),
      rule('quiz', 'weekly_quiz', 4, { limit: { times: 1, per: 'week' } }),
      rule('survey', 'monthly_survey', 4, { limit: { times: 1, per: 'month' } }),
      rule('checkup', 'annual_checkup', 4, { limit: { times: 1, per: 'year' } }),
      rule('ambassador', 'become_ambassador', 2000),
      rule('paused', 'paused_action', 5, { is_active: false }),
      rule('race', 'race_action', 7),
    ],
  });
  return config;
}

beforeAll(async () => {
  twin = await startTestTwin(actionsConfig(), { throttling: false });
  api = apiClient(twin.url, KEYS.full);
});
afterAll(async () => {
  await setClock(null);
  await twin?.stop();
});

async function setClock(now: string | null): Promise<void> {
  const answer = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now }) });
  expect(answer.status).toBe(200);
}

const events = async () => ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<Record<string, unknown>> }).events;
const earn = (customer: string, action: string, headers?: Record<string, string>) =>
  api.post(`/v1/customers/${customer}/actions`, { action }, headers);
const customer = async (id: string) => (await api.get(`/v1/customers/${id}`)).body.data.attributes;
const actionEntries = async (id: string) =>
  (await scanAll()).filter((item) => item.pk === `SHOP#e2e#C#${id}` && String(item.sk).startsWith('EARN#') && item.earning_rule_id);
const rulePrice = async (id: string, ruleId: string) =>
  (await api.get(`/v1/earning-rules?filter%5Bcustomer_identifier%5D=${id}&page%5Bsize%5D=100`)).body.data.find(
    (r: { id: string }) => r.id === ruleId,
  ).attributes;

describe('POST /v1/customers/{identifier}/actions', () => {
  it('awards the points GET /v1/earning-rules shows for the customer (tier and campaign), as an approved entry', async () => {
    // 1001 holds 1200 lifetime points: Gold (x2), and the campaign (x1.5): 50 x 2 x 1.5 = 150.
    const before = await customer('1001');
    const price = await rulePrice('1001', 'follow');

    const response = await earn('1001', 'follow_on_instagram');

    expect(price).toMatchObject({ points: 150, base_points: 50, tier_boost: 2, campaign_boost: 1.5 });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      data: {
        type: 'earning_history_entry',
        id: expect.any(String),
        attributes: {
          earning_rule_id: 'follow',
          action: 'follow_on_instagram',
          points: price.points,
          base_points: price.base_points,
          points_multiplier: 3,
          status: 'approved',
          order_id: null,
          order_number: null,
          points_due_at: null,
          points_given_at: expect.any(String),
          // Batch expiry mode: the award is a batch of its own, expiring 365 days after it was given.
          points_expiry_at: expect.any(String),
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      },
      meta: { loyalty_mode: 'points', currency: 'USD' },
    });
    const attributes = response.body.data.attributes;
    expect(Date.parse(attributes.points_expiry_at) - Date.parse(attributes.points_given_at)).toBe(365 * 86_400_000);
    // Served as the earning-history GET serves it.
    const read = await api.get(`/v1/customers/1001/earning-history/${response.body.data.id}`);
    expect(read.body).toEqual(response.body);
    const after = await customer('1001');
    expect({ current: after.current_points, lifetime: after.lifetime_points }).toEqual({
      current: before.current_points + 150,
      lifetime: before.lifetime_points + 150,
    });
    const published = (await events()).filter((e) => e.earning_history_entry_id === response.body.data.id);
    expect(published).toEqual([
      expect.objectContaining({
        type: 'points.earned',
        shop_id: 'e2e',
        customer_id: '1001',
        action: 'follow_on_instagram',
        points: 150,
      }),
    ]);
  });

  it('finds the customer by e-mail too, and prices without a tier below the lowest one', async () => {
    // 1002: 97 lifetime points, under Bronze (100): the campaign alone, 50 x 1.5 = 75.
    const response = await earn('customer1002@example.com', 'follow_on_instagram');

    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ points: 75, base_points: 50, points_multiplier: 1.5 });
    expect((await rulePrice('1002', 'follow')).tier_boost).toBe(1.25); // the award itself took 1002 into Bronze
  });

  it('keeps on the entry which API key recorded the action, never on the /v1 answer', async () => {
    const response = await earn('1003', 'follow_on_instagram');

    expect(response.status).toBe(201);
    expect(response.body.data.attributes).not.toHaveProperty('actor');
    const [entry] = await actionEntries('1003');
    expect(entry).toMatchObject({ action: 'follow_on_instagram', actor: { type: 'api_key', id: expect.any(String), name: 'Backend' } });
  });

  it('moves the tier through the one points move, and publishes tier.changed', async () => {
    expect((await customer('1017')).vip_tier).toBeNull();

    const response = await earn('1017', 'become_ambassador');

    expect(response.status).toBe(201);
    expect((await customer('1017')).vip_tier.id).toBe('gold');
    const tierEvents = (await events()).filter((e) => e.type === 'tier.changed' && e.customer_id === '1017');
    expect(tierEvents).toEqual([expect.objectContaining({ from_tier_id: null, to_tier_id: 'gold', send_email: true })]);
  });

  it('is once per lifetime without a limit: a second request is a 422 naming the limit, and writes nothing', async () => {
    expect((await earn('1004', 'follow_on_instagram')).status).toBe(201);
    const before = await customer('1004');
    const entries = (await actionEntries('1004')).length;

    const again = await earn('1004', 'follow_on_instagram');

    expectError(again, 422, "Customer has reached the limit of 'follow_on_instagram': once per lifetime");
    expect(again.body.errors[0].title).toBe('Action Limit Reached');
    expect(await customer('1004')).toEqual(before);
    expect(await actionEntries('1004')).toHaveLength(entries);
  });

  it('counts N per UTC day: the limit resets at midnight UTC', async () => {
    await setClock('2026-03-10T23:58:00.000Z');
    expect((await earn('1005', 'leave_a_review')).status).toBe(201);
    expect((await earn('1005', 'leave_a_review')).status).toBe(201);
    expectError(await earn('1005', 'leave_a_review'), 422, "Customer has reached the limit of 'leave_a_review': twice per day (UTC)");

    await setClock('2026-03-11T00:00:00.000Z');
    expect((await earn('1005', 'leave_a_review')).status).toBe(201);
    await setClock(null);
    expect(await actionEntries('1005')).toHaveLength(3);
  });

  it('counts per ISO week from Monday (UTC), across a year end', async () => {
    // Sunday 2026-01-04 ends ISO week 2026-W01 (which began Monday 2025-12-29).
    await setClock('2025-12-29T00:00:00.000Z');
    expect((await earn('1006', 'weekly_quiz')).status).toBe(201);
    await setClock('2026-01-04T23:59:59.999Z');
    expectError(await earn('1006', 'weekly_quiz'), 422, /once per week \(ISO week from Monday, UTC\)$/);
    await setClock('2026-01-05T00:00:00.000Z');
    expect((await earn('1006', 'weekly_quiz')).status).toBe(201);
    await setClock(null);
  });

  it('counts per UTC calendar month and year', async () => {
    await setClock('2026-01-31T23:59:00.000Z');
    expect((await earn('1007', 'monthly_survey')).status).toBe(201);
    expect((await earn('1007', 'annual_checkup')).status).toBe(201);
    expectError(await earn('1007', 'monthly_survey'), 422, /once per month \(UTC\)$/);
    await setClock('2026-02-01T00:00:00.000Z');
    expect((await earn('1007', 'monthly_survey')).status).toBe(201);
    expectError(await earn('1007', 'annual_checkup'), 422, /once per year \(UTC\)$/);
    await setClock('2027-01-01T00:00:00.000Z');
    expect((await earn('1007', 'annual_checkup')).status).toBe(201);
    await setClock(null);
  });

  it('awards exactly once of 20 concurrent requests against a once-per-lifetime rule', async () => {
    const before = await customer('1008');

    const answers = await Promise.all(Array.from({ length: 20 }, () => earn('1008', 'race_action')));

    const statuses = answers.map((answer) => answer.status).sort();
    expect(statuses).toEqual([201, ...Array<number>(19).fill(422)]);
    for (const refused of answers.filter((answer) => answer.status === 422)) {
      expectError(refused, 422, "Customer has reached the limit of 'race_action': once per lifetime");
    }
    const entries = await actionEntries('1008');
    expect(entries.map((entry) => entry.earning_rule_id)).toEqual(['race']);
    expect((await customer('1008')).current_points).toBe(before.current_points + entries[0]!.points);
    const counters = (await scanAll()).filter((item) => item.pk === 'SHOP#e2e#C#1008' && String(item.sk).startsWith('ACTIONCOUNT#'));
    expect(counters.map((item) => [item.sk, item.awards])).toEqual([['ACTIONCOUNT#race#lifetime', 1]]);
  });

  it('replays a repeat with the same Idempotency-Key, awarding nothing more', async () => {
    const first = await earn('1009', 'leave_a_review', { 'Idempotency-Key': 'review-1009' });
    const repeat = await earn('1009', 'leave_a_review', { 'Idempotency-Key': 'review-1009' });

    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get('idempotency-replayed')).toBe('true');
    expect(repeat.body).toEqual(first.body);
    expect(await actionEntries('1009')).toHaveLength(1);
  });

  it.each<[string, string, string]>([
    ['an unknown action', 'dance_on_tiktok', "Unknown action 'dance_on_tiktok'"],
    ['an inactive action', 'paused_action', "Action 'paused_action' is not active"],
    ...['purchase', 'signup', 'birthday', 'referral'].map((action): [string, string, string] => [
      `the engine's ${action}`,
      action,
      `'${action}' points are awarded by the earning engine, not through actions`,
    ]),
  ])('refuses %s with 422 Invalid Action, writing nothing', async (_what, action, detail) => {
    const before = await customer('1010');

    const response = await earn('1010', action);

    expectError(response, 422, detail);
    expect(response.body.errors[0].title).toBe('Invalid Action');
    expect(await customer('1010')).toEqual(before);
    expect(await actionEntries('1010')).toHaveLength(0);
  });

  it('answers 404 for an unknown customer and 403 for an excluded member', async () => {
    expectError(await earn('999999', 'follow_on_instagram'), 404, "Customer '999999' not found");
    expectError(await earn('1026', 'follow_on_instagram'), 404, "Customer '1026' not found"); // on the platform only
    expectError(await earn('1025', 'follow_on_instagram'), 403, 'Customer is excluded from the loyalty program');
    expect(await actionEntries('1025')).toHaveLength(0);
  });

  it.each<[string, unknown, string]>([
    ['no action', {}, 'action is required'],
    ['an empty action', { action: '  ' }, 'action is required'],
    ['a number', { action: 7 }, 'action must be a string'],
    ['a long action', { action: 'x'.repeat(129) }, 'action must be at most 128 characters'],
    ['an array body', [], 'Request body must be a JSON object'],
  ])('refuses %s with 400 in the spec envelope', async (_what, body, detail) => {
    expectError(await api.post('/v1/customers/1011/actions', body), 400, detail);
  });

  it('refuses malformed JSON and a read-only key', async () => {
    const malformed: ApiResponse = await api.post('/v1/customers/1011/actions', '{"action":');
    expectError(malformed, 400);
    expectError(await apiClient(twin.url, KEYS.read).post('/v1/customers/1011/actions', { action: 'follow_on_instagram' }), 403);
    expect(await actionEntries('1011')).toHaveLength(0);
  });
});
