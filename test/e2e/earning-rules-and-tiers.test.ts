import type { Twin } from '../../infra/local/twin';
import { RULES_KEYS, rulesConfig } from '../support/rules-config';
import { apiClient, expectError, startTestTwin } from '../support/twin';

let twin: Twin;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  twin = await startTestTwin(rulesConfig());
  api = apiClient(twin.url, RULES_KEYS.points);
});
afterAll(async () => {
  await twin.stop();
});

const byId = (data: Array<{ id: string; attributes: Record<string, unknown> }>) => Object.fromEntries(data.map((r) => [r.id, r.attributes]));

describe('GET /v1/earning-rules', () => {
  it('lists the rules newest first with the campaign applied and every field of the spec', async () => {
    const response = await api.get('/v1/earning-rules');

    expect(response.status).toBe(200);
    expect(response.body.data.map((r: { id: string }) => r.id)).toEqual(['review', 'follow_on_instagram', 'signup', 'purchase']);
    expect(response.body.data[2]).toEqual({
      type: 'earning_rule',
      id: 'signup',
      attributes: {
        name: 'Create an account', description: 'Welcome bonus', action: 'signup', category: 'signup', is_active: true,
        points_to_give: 200, customer_facing_label: '200 points', call_to_action_url: null, created_at: '2025-01-02T00:00:00.000Z',
        points: 400, base_points: 200, tier_boost: null, campaign_boost: 2,
      },
    });
    expect(response.body.meta).toEqual({
      total: 4, page: 1, per_page: 20, total_pages: 1, loyalty_mode: 'points', currency: 'USD',
      tier_info: null, campaign_info: { name: 'Double points week' },
    });
  });

  it('applies the customer tier to purchase rules only in purchase mode, and fills tier_info', async () => {
    const response = await api.get('/v1/earning-rules?filter[customer_identifier]=6001');

    const rules = byId(response.body.data);
    expect(rules.purchase).toMatchObject({ points: 15, base_points: 5, tier_boost: 1.5, campaign_boost: 2 });
    expect(rules.follow_on_instagram).toMatchObject({ points: 100, tier_boost: null, campaign_boost: 2 });
    expect(response.body.meta.tier_info).toEqual({ multiplier: 1.5, name: 'Silver', mode: 'purchase' });
  });

  it('resolves the customer by e-mail too, and by an extra entry method (orders, OR)', async () => {
    const response = await api.get('/v1/earning-rules?filter[customer_identifier]=RULES6004@example.com');

    expect(response.body.meta.tier_info).toEqual({ multiplier: 2, name: 'Gold', mode: 'purchase' });
  });

  it('gives no tier boost to a customer below the lowest tier or excluded', async () => {
    for (const id of ['6002', '6003']) {
      const response = await api.get(`/v1/earning-rules?filter[customer_identifier]=${id}`);
      expect(response.body.meta.tier_info).toBeNull();
      expect(byId(response.body.data).purchase!.tier_boost).toBeNull();
    }
  });

  it('filters by is_active', async () => {
    const active = await api.get('/v1/earning-rules?filter[is_active]=true');
    const inactive = await api.get('/v1/earning-rules?filter[is_active]=false');

    expect(active.body.meta.total).toBe(3);
    expect(inactive.body.data.map((r: { id: string }) => r.id)).toEqual(['review']);
  });

  it.each([
    ['name', ['Create an account', 'Follow us', 'Place an order', 'Write a review']],
    ['-name', ['Write a review', 'Place an order', 'Follow us', 'Create an account']],
    ['created_at', ['Place an order', 'Create an account', 'Follow us', 'Write a review']],
  ])('sorts by %s', async (sort, names) => {
    const response = await api.get(`/v1/earning-rules?sort=${sort}`);

    expect(response.body.data.map((r: { attributes: { name: string } }) => r.attributes.name)).toEqual(names);
  });

  it('pages with totals', async () => {
    const response = await api.get('/v1/earning-rules?page[size]=3&page[number]=2&sort=created_at');

    expect(response.body.data.map((r: { id: string }) => r.id)).toEqual(['review']);
    expect(response.body.meta).toMatchObject({ total: 4, page: 2, per_page: 3, total_pages: 2 });
  });

  it('applies the tier to every rule in store-credit shops in all mode', async () => {
    const response = await apiClient(twin.url, RULES_KEYS.credit).get('/v1/earning-rules?filter[customer_identifier]=8001');

    expect(byId(response.body.data)).toMatchObject({ 'credit-order': { points: 220, tier_boost: 1.1 }, 'credit-social': { points: 110, tier_boost: 1.1 } });
    expect(response.body.meta).toMatchObject({ loyalty_mode: 'store_credit', currency: 'EUR', tier_info: { multiplier: 1.1, name: 'Insider', mode: 'all' }, campaign_info: null });
  });

  it.each([
    ['filter[is_active]=yes', 400, /filter\[is_active\]/],
    ['filter[name]=x', 400, /Unknown filter/],
    ['sort=points', 400, /Invalid sort/],
    ['page[size]=0', 400, /page\[size\]/],
    ['filter[customer_identifier]=9999', 404, "Customer '9999' not found"],
  ])('answers %s with %i', async (query, status, detail) => {
    expectError(await api.get(`/v1/earning-rules?${query}`), status, detail);
  });

  it('needs a key, and a read-only key is enough', async () => {
    expectError(await apiClient(twin.url).get('/v1/earning-rules'), 401, 'Missing Authorization header');
    expect((await apiClient(twin.url, RULES_KEYS.read).get('/v1/earning-rules')).status).toBe(200);
  });
});

describe('GET /v1/vip-tiers', () => {
  it('returns every tier by threshold with its rewards and the entry settings in meta', async () => {
    const response = await api.get('/v1/vip-tiers');

    expect(response.status).toBe(200);
    expect(response.body.data.map((t: { id: string }) => t.id)).toEqual(['bronze', 'silver', 'gold']);
    expect(response.body.data[2]).toEqual({
      type: 'vip_tier',
      id: 'gold',
      attributes: {
        name: 'Gold', description: '', threshold: 2500, threshold_points: 2500, threshold_spend: null, threshold_orders: 20,
        points_multiplier: 2, position: 3, badge_image_url: 'https://cdn.example/gold.png', badge_color: '#123456',
        rewards: [{
          id: 'gold-gift', name: 'Gold gift', description: null, discount_type: 'fixed', reward_type: 'vip', points_cost: 100,
          discount_amount: 10, minimum_spend: 50, is_active: true, max_redemptions: 1, expiry_days: null, created_at: '2025-01-02T00:00:00.000Z',
        }],
        created_at: '2025-01-03T00:00:00.000Z',
      },
    });
    expect(response.body.meta).toEqual({
      total: 3, page: 1, per_page: 3, total_pages: 1, entry_method: 'points', entry_methods_extra: ['orders'], entry_logic: 'OR',
      points_multiplier_mode: 'purchase', loyalty_mode: 'points', currency: 'USD',
    });
  });

  it('measures threshold in the primary entry method (spend, minor units in store-credit shops)', async () => {
    const response = await apiClient(twin.url, RULES_KEYS.credit).get('/v1/vip-tiers');

    expect(response.body.data[0].attributes).toMatchObject({ threshold: 5000, threshold_points: null, threshold_spend: 5000, rewards: [] });
    expect(response.body.meta).toMatchObject({ entry_method: 'spend', entry_logic: 'AND', points_multiplier_mode: 'all', loyalty_mode: 'store_credit', currency: 'EUR' });
  });

  it('ignores pagination parameters and needs a key', async () => {
    expect((await api.get('/v1/vip-tiers?page[size]=1')).body.data).toHaveLength(3);
    expectError(await apiClient(twin.url, 'wrong-key-0000').get('/v1/vip-tiers'), 401, 'Invalid or revoked API key');
  });
});
