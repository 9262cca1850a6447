// Joining, the activity and redeeming through HTTP on the twin (SURFACES-CONTRACT.md, "Shopper routes"):
// a join is POST /v1/customers' enrolment (the signup award once); the activity's kinds and labels, never an
// adjustment's note; a redemption is exactly POST /v1/rewards/{id}/purchase for the signed-in member (its
// statuses and error details, its Idempotency-Key, scoped to the shopper), and 20 at once never overspend.
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { sessionToken, viaProxy, withToken } from '../support/shopper';
import { apiClient, expectError, startTestTwin } from '../support/twin';

let twin: Twin;
const api = () => apiClient(twin.url, 'demo_full_key');
const tokenFor = (customerId?: string) => sessionToken(twin.platformUrl, 'demo', customerId);
const points = async (customerId: string) => (await api().get(`/v1/customers/${customerId}`)).body.data.attributes.current_points as number;

beforeAll(async () => {
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

describe('POST /shopper/member (join)', () => {
  it('enrols the signed-in customer once: 201 with the signup points, then 200, as POST /v1/customers', async () => {
    const token = await tokenFor('1010');
    // The signup rule's points as the program shows them (the demo's running campaign doubles them).
    const program = (await withToken(twin.url, token, 'GET', '/program')).body.data.attributes;
    const signup = program.earning_rules.find((rule: { action: string }) => rule.action === 'signup').points as number;
    const joined = await withToken(twin.url, token, 'POST', '/member');
    const again = await viaProxy(twin.url, 'POST', '/member', { customerId: '1010' });

    expect(joined.status).toBe(201);
    expect(joined.headers.get('access-control-allow-origin')).toBe('*');
    expect(joined.body.meta).toEqual({ logged_in: true, member: true });
    expect(joined.body.data).toMatchObject({
      type: 'shopper_member',
      id: '1010',
      attributes: { current_points: signup, loyalty_status: 'member' },
    });
    // The signup points are a batch of the shop's 365-day expiry: the member sees when they expire.
    expect(joined.body.data.attributes.points_expiring).toEqual({ points: signup, at: expect.any(String) });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(joined.body);
    expect(await points('1010')).toBe(signup);
    const v1 = await api().post('/v1/customers', { platform_customer_id: '1009' });
    expect(v1.body.data.attributes.current_points).toBe(signup);
    const signups = (await api().get('/v1/customers/1010/earning-history')).body.data.filter(
      (entry: { attributes: { action: string } }) => entry.attributes.action === 'signup',
    );
    expect(signups).toHaveLength(1);
  });

  it('refuses a guest with a detail asking to sign in', async () => {
    expectError(await withToken(twin.url, await tokenFor(), 'POST', '/member'), 401, /Sign in/);
    expectError(await viaProxy(twin.url, 'POST', '/member', { body: {} }), 401, /Sign in/);
  });

  it('answers a customer the platform does not know as POST /v1/customers does', async () => {
    const shopper = await withToken(twin.url, await tokenFor('99999'), 'POST', '/member');
    const v1 = await api().post('/v1/customers', { platform_customer_id: '99999' });
    expect({ status: shopper.status, body: shopper.body }).toEqual({ status: v1.status, body: v1.body });
  });
});

describe('GET /shopper/member figures', () => {
  it('shows the pending points and the next tier', async () => {
    const response = await viaProxy(twin.url, 'GET', '/member', { customerId: '1008' });
    const attributes = response.body.data.attributes;
    expect(attributes.pending_points).toBe(240);
    // 1008 is silver (1 000 lifetime points and up); gold is at 2 500.
    expect(attributes.vip_tier.id).toBe('silver');
    expect(attributes.next_tier).toEqual({
      id: 'gold',
      name: expect.any(String),
      threshold: 2500,
      remaining: 2500 - attributes.lifetime_points,
    });
  });
});

describe('GET /shopper/member/activity', () => {
  it('merges earning and reward history newest first, with kinds and customer-facing labels, never a note', async () => {
    const token = await tokenFor('1002');
    await api().post('/v1/customers/1002/points', { adjustment: -30, note: 'INTERNAL-NOTE do not show the shopper' });
    const redeemed = await withToken(twin.url, token, 'POST', '/rewards/five-off/redeem', {});
    expect(redeemed.status).toBe(201);
    const refundable = await withToken(twin.url, token, 'POST', '/rewards/dollar-off-flex/redeem', { points: 100 });
    expect((await api().post(`/v1/customers/1002/reward-history/${refundable.body.data.id}/refund`)).status).toBe(200);

    const response = await withToken(twin.url, token, 'GET', '/member/activity?page[size]=50');

    expect(response.status).toBe(200);
    expect(JSON.stringify(response.body)).not.toContain('INTERNAL-NOTE');
    const lines = response.body.data.map((line: { attributes: Record<string, unknown> }) => line.attributes);
    const created = lines.map((line: { created_at: string }) => line.created_at);
    expect(created).toEqual([...created].sort().reverse());
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ kind: 'earned', label: 'Joined the program', points: 200 }),
        expect.objectContaining({ kind: 'earned', label: 'Follow us on Instagram', points: 50 }),
        expect.objectContaining({ kind: 'earned', label: 'Order #1150', points: 300 }),
        expect.objectContaining({ kind: 'adjusted', label: 'Points adjustment', points: -30 }),
        expect.objectContaining({ kind: 'spent', points: -500 }),
        expect.objectContaining({ kind: 'spent', label: '$1.00 off', points: -100 }),
        expect.objectContaining({ kind: 'refunded', label: 'Reward refunded', points: 100 }),
      ]),
    );
    const fiveOff = lines.find((line: { kind: string; points: number }) => line.kind === 'spent' && line.points === -500);
    expect(fiveOff.label).toBe(redeemed.body.data.attributes.reward_name);
    // A spent code stays in the activity; no other line carries one.
    expect(fiveOff.discount_code).toBe(redeemed.body.data.attributes.discount_code);
    expect(
      lines.filter((line: { kind: string }) => line.kind !== 'spent').map((line: { discount_code: unknown }) => line.discount_code),
    ).toEqual(lines.filter((line: { kind: string }) => line.kind !== 'spent').map(() => null));
    expect(response.body.meta).toMatchObject({ total: lines.length, page: 1, per_page: 50 });
  });

  it('pages 10 by default, reads page[size] above 50 as 50', async () => {
    const token = await tokenFor('1001');
    expect((await withToken(twin.url, token, 'GET', '/member/activity')).body.meta.per_page).toBe(10);
    const big = await withToken(twin.url, token, 'GET', '/member/activity?page[size]=500');
    expect(big.status).toBe(200);
    expect(big.body.meta.per_page).toBe(50);
    const second = await withToken(twin.url, token, 'GET', '/member/activity?page[size]=2&page[number]=2');
    const all = await withToken(twin.url, token, 'GET', '/member/activity?page[size]=50');
    expect(second.body.data).toEqual(all.body.data.slice(2, 4));
  });

  it('refuses a guest (401) and answers a customer who is not a member 404', async () => {
    expectError(await withToken(twin.url, await tokenFor(), 'GET', '/member/activity'), 401, /Sign in/);
    expectError(await viaProxy(twin.url, 'GET', '/member/activity', { customerId: '1011' }), 404);
  });
});

describe('POST /shopper/rewards/{id}/redeem', () => {
  it('is the /v1 purchase: a discount code, the points spent, the entry in the reward history', async () => {
    const before = await points('1003');
    const response = await viaProxy(twin.url, 'POST', '/rewards/five-off/redeem', { customerId: '1003', body: {} });

    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      type: 'redemption',
      attributes: { reward_id: 'five-off', points_spent: 500, status: 'active', discount_code: expect.any(String) },
    });
    expect(await points('1003')).toBe(before - 500);
    const entry = (await api().get(`/v1/customers/1003/reward-history/${response.body.data.id}`)).body.data.attributes;
    expect(entry).toMatchObject({ discount_code: response.body.data.attributes.discount_code, points_spent: 500 });
    expect(twin.simulator.discountCodes().map((code) => code.code)).toContain(response.body.data.attributes.discount_code);
  });

  it('refuses what the /v1 purchase refuses, with the same statuses and details', async () => {
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['1004', 'ten-percent', {}], // insufficient points (422)
      ['1004', 'no-such-reward', {}], // 404
      ['1004', 'welcome-5', {}], // inactive: 404
      ['1004', 'welcome-gift', {}], // entry reward: 400
      ['1004', 'free-ship', {}], // gold only: 403
      ['1004', 'dollar-off-flex', {}], // flexible without points: 400
      ['1004', 'dollar-off-flex', { points: 50 }], // below the minimum: 422
      ['1004', 'dollar-off-flex', { points: 'many' }], // not an integer: 400
      ['1006', 'five-off', {}], // excluded: 403
      ['1011', 'five-off', {}], // not a member: 404
    ];
    for (const [customer, reward, body] of cases) {
      const shopper = await withToken(twin.url, await tokenFor(customer), 'POST', `/rewards/${reward}/redeem`, body);
      const v1 = await api().post(`/v1/rewards/${reward}/purchase`, { customer_identifier: customer, ...body });
      expect({ case: [customer, reward], status: shopper.status, body: shopper.body }).toEqual({
        case: [customer, reward],
        status: v1.status,
        body: v1.body,
      });
      expect(shopper.status).toBeGreaterThanOrEqual(400);
    }
  });

  it('refuses a guest', async () => {
    expectError(await withToken(twin.url, await tokenFor(), 'POST', '/rewards/five-off/redeem', {}), 401, /Sign in/);
  });

  it('replays an Idempotency-Key: the same answer, the points spent once, whichever proxy parameters come with it', async () => {
    const before = await points('1005');
    const headers = { 'Idempotency-Key': 'storefront-redeem-1' };
    const first = await viaProxy(twin.url, 'POST', '/rewards/five-off/redeem', { customerId: '1005', body: {}, headers });
    // A retry a second later: a new timestamp and signature, the same request.
    const retry = await viaProxy(twin.url, 'POST', '/rewards/five-off/redeem', {
      customerId: '1005',
      body: {},
      headers,
      timestamp: Math.floor(Date.now() / 1000) + 1,
    });
    const viaToken = await withToken(twin.url, await tokenFor('1005'), 'POST', '/rewards/five-off/redeem', {}, headers);

    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(viaToken.body).toEqual(first.body);
    expect(await points('1005')).toBe(before - 500);

    const otherBody = await viaProxy(twin.url, 'POST', '/rewards/ten-percent/redeem', { customerId: '1005', body: {}, headers });
    expectError(otherBody, 422, /already used with a different request/);
  });

  it('scopes the Idempotency-Key to the shopper: the same value from another shopper is another request', async () => {
    const headers = { 'Idempotency-Key': 'same-value-for-two-shoppers' };
    const mine = await withToken(twin.url, await tokenFor('1008'), 'POST', '/rewards/five-off/redeem', {}, headers);
    const theirs = await withToken(twin.url, await tokenFor('1001'), 'POST', '/rewards/five-off/redeem', {}, headers);

    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.data.id).not.toBe(mine.body.data.id);
  });

  it('never overspends: 20 redemptions at once by one shopper', async () => {
    const balance = await points('1005');
    const token = await tokenFor('1005');
    const answers = await Promise.all(Array.from({ length: 20 }, () => withToken(twin.url, token, 'POST', '/rewards/five-off/redeem', {})));
    const bought = answers.filter((answer) => answer.status === 201);
    const refused = answers.filter((answer) => answer.status !== 201);

    expect(bought).toHaveLength(Math.floor(balance / 500));
    for (const answer of refused) expectError(answer, 422, /Customer has \d+ points but this reward costs 500/);
    expect(await points('1005')).toBe(balance - 500 * bought.length);
    const codes = new Set(bought.map((answer) => answer.body.data.attributes.discount_code));
    expect(codes.size).toBe(bought.length);
  });
});
