// GET /shopper/program and GET /shopper/member through the twin, reached both ways Shopify reaches them:
// the app proxy's signed query and a customer session token from the simulator's POST /_session_tokens.
// The figures are the /v1 API's for the same customer.
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { sessionToken, viaProxy, withToken } from '../support/shopper';
import { apiClient, startTestTwin } from '../support/twin';

let twin: Twin;
const api = () => apiClient(twin.url, 'demo_full_key');

beforeAll(async () => {
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

describe('GET /shopper/program', () => {
  it('answers a guest the active rules, the purchasable rewards (tier rewards with their tier) and the tiers', async () => {
    const response = await viaProxy(twin.url, 'GET', '/program');

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    const { data } = response.body;
    expect(data).toMatchObject({ type: 'program', id: 'demo', attributes: { loyalty_mode: 'points', currency: 'USD' } });
    const rewardIds = data.attributes.rewards.map((reward: { id: string }) => reward.id);
    // Inactive (welcome-5, fifteen-off), deleted (free-mug) and entry (welcome-gift) rewards are not offered; gold's is, with its tier.
    expect(rewardIds.sort()).toEqual(['dollar-off-flex', 'five-off', 'free-ship', 'merino-scarf', 'store-credit-5', 'ten-percent']);
    expect(data.attributes.rewards.find((reward: { id: string }) => reward.id === 'free-ship')).toMatchObject({ vip_tier_id: 'gold' });
    expect(data.attributes.rewards.find((reward: { id: string }) => reward.id === 'dollar-off-flex').flexible).toEqual({
      min_points: expect.any(Number),
      max_points: expect.any(Number),
      points_per_unit: expect.any(Number),
    });
    expect(data.attributes.vip_tiers.map((tier: { id: string }) => tier.id)).toEqual(['bronze', 'silver', 'gold']);
    const active = (await api().get('/v1/earning-rules?filter[is_active]=true&page[size]=100')).body.data;
    expect(data.attributes.earning_rules.map((rule: { id: string }) => rule.id).sort()).toEqual(
      active.map((rule: { id: string }) => rule.id).sort(),
    );
  });

  it("prices the rules for a member as GET /v1/earning-rules does for them (the tier's multiplier)", async () => {
    const token = await sessionToken(twin.platformUrl, 'demo', '1005');
    const mine = (await withToken(twin.url, token, 'GET', '/program')).body.data.attributes.earning_rules;
    const priced = (await api().get('/v1/earning-rules?filter[customer_identifier]=1005&page[size]=100')).body.data;

    for (const rule of mine) {
      expect(rule.points).toBe(priced.find((other: { id: string }) => other.id === rule.id).attributes.points);
    }
    const guest = (await viaProxy(twin.url, 'GET', '/program')).body.data.attributes.earning_rules;
    expect(mine).not.toEqual(guest);
  });
});

describe('GET /shopper/member', () => {
  it('answers a guest data: null, logged out', async () => {
    for (const response of [
      await viaProxy(twin.url, 'GET', '/member'),
      await withToken(twin.url, await sessionToken(twin.platformUrl, 'demo'), 'GET', '/member'),
    ]) {
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: null, meta: { logged_in: false, member: false } });
    }
  });

  it('answers a signed-in customer who has not joined data: null, logged in', async () => {
    const response = await viaProxy(twin.url, 'GET', '/member', { customerId: '1010' });

    expect(response.body).toEqual({ data: null, meta: { logged_in: true, member: false } });
  });

  it("answers a member their own figures, the API's, the same through the proxy and with a token", async () => {
    const customer = (await api().get('/v1/customers/1001')).body.data.attributes;
    const proxied = await viaProxy(twin.url, 'GET', '/member', { customerId: '1001' });
    const tokened = await withToken(twin.url, await sessionToken(twin.platformUrl, 'demo', '1001'), 'GET', '/member');

    expect(proxied.status).toBe(200);
    expect(tokened.body).toEqual(proxied.body);
    expect(proxied.body.meta).toEqual({ logged_in: true, member: true });
    expect(proxied.body.data).toMatchObject({
      type: 'shopper_member',
      id: '1001',
      attributes: {
        first_name: customer.first_name,
        current_points: customer.current_points,
        lifetime_points: customer.lifetime_points,
        loyalty_status: 'member',
        vip_tier: customer.vip_tier,
        referral_url: customer.referral_url,
        referral_code: customer.referral_code,
      },
    });
    const attributes = proxied.body.data.attributes;
    expect(attributes).not.toHaveProperty('email');
    expect(attributes.redeemable_reward_ids).toEqual(expect.arrayContaining(['five-off', 'ten-percent']));
    expect(attributes.redeemable_reward_ids).not.toContain('welcome-gift');
    // Order #1342's points are pending.
    expect(attributes.pending_points).toBe(400);
  });

  it('answers an excluded customer as a member with loyalty_status excluded and nothing redeemable', async () => {
    const response = await viaProxy(twin.url, 'GET', '/member', { customerId: '1006' });

    expect(response.body.meta).toEqual({ logged_in: true, member: true });
    expect(response.body.data.attributes).toMatchObject({ loyalty_status: 'excluded', redeemable_reward_ids: [], next_tier: null });
  });
});
