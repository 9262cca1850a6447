import type { Twin } from '../../infra/local/twin';
import { PURCHASE_KEYS, purchaseConfig } from '../fixtures/purchase-config';
import { apiClient, expectError, startTestTwin } from '../support/twin';

let twin: Twin;
let api: ReturnType<typeof apiClient>;
let credit: ReturnType<typeof apiClient>;

beforeAll(async () => {
  twin = await startTestTwin(purchaseConfig(), { throttling: false });
  api = apiClient(twin.url, PURCHASE_KEYS.points);
  credit = apiClient(twin.url, PURCHASE_KEYS.credit);
});
afterAll(async () => {
  await twin.stop();
});
afterEach(() => twin.simulator.setFaults({ customers: 'ok', discount_codes: 'ok' }));

const points = async (client: ReturnType<typeof apiClient>, id: string) =>
  (await client.get(`/v1/customers/${id}`)).body.data.attributes.current_points;

describe('POST /v1/rewards/{id}/purchase', () => {
  it('answers 201 with the purchase form of the entry and creates the code', async () => {
    const response = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '3001' });

    expect(response.status).toBe(201);
    expect(response.body.data.type).toBe('reward_history_entry');
    expect(typeof response.body.data.id).toBe('string');
    const attributes = response.body.data.attributes;
    expect(Object.keys(attributes).sort()).toEqual(
      [
        'currency',
        'discount_code',
        'expires_at',
        'loyalty_mode',
        'points_spent',
        'reward_discount_type',
        'reward_id',
        'reward_name',
        'status',
      ].sort(),
    );
    expect(attributes).toMatchObject({
      reward_id: 'five-off',
      reward_name: '$5 off',
      reward_discount_type: 'fixed',
      points_spent: 500,
      loyalty_mode: 'points',
      currency: 'USD',
      status: 'active',
    });
    const days = (Date.parse(attributes.expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThanOrEqual(30);
    const codes = (await (await fetch(`${twin.platformUrl}/_discount_codes`)).json()) as { discount_codes: unknown[] };
    expect(codes.discount_codes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: attributes.discount_code, customer_id: '3001', amount: 5, type: 'fixed', minimum_spend: 25 }),
      ]),
    );
    expect(await points(api, '3001')).toBe(9500);
    const history = await api.get(`/v1/customers/3001/reward-history/${response.body.data.id}`);
    expect(history.body.data.attributes).toMatchObject({ status: 'active', discount_code: attributes.discount_code, is_refunded: false });
  });

  it('accepts an e-mail as customer_identifier and gives expires_at null for a reward without expiry', async () => {
    const response = await api.post('/v1/rewards/ten-percent/purchase', { customer_identifier: 'BUYER3005@example.com' });

    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ reward_discount_type: 'percentage', expires_at: null, points_spent: 1000 });
  });

  it('spends the chosen points of a flexible reward and names the resolved discount', async () => {
    const response = await api.post('/v1/rewards/flex/purchase', { customer_identifier: '3006', points: 300 });
    const legacy = await api.post('/v1/rewards/flex/purchase', { customer_identifier: '3006', points_to_redeem: 250 });

    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({ points_spent: 300, reward_name: '$3.00 off' });
    expect(legacy.body.data.attributes).toMatchObject({ points_spent: 250, reward_name: '$2.50 off' });
    expect(await points(api, '3006')).toBe(10_000 - 550);
  });

  it('lets a customer on the required tier buy a VIP reward', async () => {
    expect((await api.post('/v1/rewards/gold-only/purchase', { customer_identifier: '3003' })).status).toBe(201);
  });

  it('adds credit_spent in store-credit shops', async () => {
    const response = await credit.post('/v1/rewards/credit-flex/purchase', { customer_identifier: '4001', points: 1250 });

    expect(response.status).toBe(201);
    expect(response.body.data.attributes).toMatchObject({
      points_spent: 1250,
      credit_spent: '12.50',
      loyalty_mode: 'store_credit',
      currency: 'EUR',
      reward_name: '€12.50 off',
    });
  });

  describe('errors, in the spec order', () => {
    it.each([
      ['a missing customer_identifier', 'five-off', {}, 400, 'customer_identifier is required'],
      ['a non-integer points', 'flex', { customer_identifier: '3001', points: 1.5 }, 400, 'points must be an integer'],
      ['an unknown customer', 'five-off', { customer_identifier: '9999' }, 404, "Customer '9999' not found"],
      ['an excluded customer', 'five-off', { customer_identifier: '3004' }, 403, 'Customer is excluded from the loyalty program'],
      ['an unknown reward', 'nope', { customer_identifier: '3001' }, 404, "Reward 'nope' not found"],
      ['an inactive reward', 'retired', { customer_identifier: '3001' }, 404, "Reward 'retired' not found"],
      ['a deleted reward', 'gone', { customer_identifier: '3001' }, 404, "Reward 'gone' not found"],
      ['an entry reward', 'welcome', { customer_identifier: '3001' }, 400, 'Entry rewards cannot be purchased'],
      ['a VIP reward for another tier', 'gold-only', { customer_identifier: '3002' }, 403, 'Customer is not eligible for this reward'],
      ['too few points', 'five-off', { customer_identifier: '3002' }, 422, 'Customer has 50 points but this reward costs 500'],
      ['a flexible reward without points', 'flex', { customer_identifier: '3001' }, 400, 'points is required for flexible rewards'],
      ['points under the minimum', 'flex', { customer_identifier: '3001', points: 99 }, 422, 'Minimum redemption is 100 points'],
      ['points over the maximum', 'flex', { customer_identifier: '3001', points: 2001 }, 422, 'Maximum redemption is 2000 points'],
    ])('answers for %s', async (_case, rewardId, body, status, detail) => {
      const response = await api.post(`/v1/rewards/${rewardId}/purchase`, body);

      expectError(response, status, detail);
    });

    it('uses the spec titles for the 422s', async () => {
      expect((await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '3002' })).body.errors[0].title).toBe(
        'Insufficient Points',
      );
      expect((await api.post('/v1/rewards/flex/purchase', { customer_identifier: '3001', points: 5 })).body.errors[0].title).toBe(
        'Invalid Points',
      );
    });

    it('formats the flexible range as money in store-credit shops', async () => {
      expectError(
        await credit.post('/v1/rewards/credit-flex/purchase', { customer_identifier: '4001', points: 100 }),
        422,
        'Minimum redemption is €5.00',
      );
      expectError(
        await credit.post('/v1/rewards/credit-flex/purchase', { customer_identifier: '4001', points: 9000 }),
        422,
        'Maximum redemption is €50.00',
      );
    });

    it('refuses fixed rewards in store-credit shops', async () => {
      expectError(
        await credit.post('/v1/rewards/credit-fixed/purchase', { customer_identifier: '4001' }),
        403,
        'This reward cannot be redeemed in store credit mode',
      );
    });

    it('answers 422 past max_redemptions', async () => {
      expect((await api.post('/v1/rewards/once/purchase', { customer_identifier: '3005' })).status).toBe(201);

      const second = await api.post('/v1/rewards/once/purchase', { customer_identifier: '3005' });

      expectError(second, 422, 'Customer has already redeemed this reward the maximum of 1 times');
    });

    it('answers 500 and refunds when the platform answers with an error', async () => {
      twin.simulator.setFaults({ discount_codes: 'error' });

      const response = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '3007' });

      expectError(response, 500, 'Failed to create discount code. Points have not been deducted.');
      expect(await points(api, '3007')).toBe(600);
      expect((await api.get('/v1/customers/3007/reward-history')).body.data).toEqual([]);
    });

    it('answers 503 and refunds when the platform cannot be reached', async () => {
      twin.simulator.setFaults({ discount_codes: 'unreachable' });

      const response = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '3008' });

      expectError(response, 503, 'Unable to connect to the platform. Please try again.');
      expect(await points(api, '3008')).toBe(600);
    });

    it('answers 503 and refunds when the platform takes the request and never answers, after the adapter gave up', async () => {
      twin.simulator.setFaults({ discount_codes: 'hang' });

      const started = Date.now();
      const response = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '3009' });
      const took = Date.now() - started;

      expectError(response, 503, 'Unable to connect to the platform. Please try again.');
      // Every attempt (3) waited the test twin's PLATFORM_TIMEOUT_MS (1 s) before the adapter gave up.
      expect(took).toBeGreaterThanOrEqual(2_900);
      expect(await points(api, '3009')).toBe(600);
      expect((await api.get('/v1/customers/3009/reward-history')).body.data).toEqual([]);
      expect(twin.simulator.discountCodes().filter((code) => code.customer_id === '3009')).toEqual([]);
    });

    it('answers 403 to a read-only key and 401 without one', async () => {
      expectError(
        await apiClient(twin.url, PURCHASE_KEYS.pointsRead).post('/v1/rewards/five-off/purchase', { customer_identifier: '3001' }),
        403,
      );
      expectError(await apiClient(twin.url).post('/v1/rewards/five-off/purchase', { customer_identifier: '3001' }), 401);
    });

    it('answers 400 to invalid JSON', async () => {
      expectError(await api.post('/v1/rewards/five-off/purchase', '{"customer_identifier":'), 400, 'Request body is not valid JSON');
    });
  });
});
