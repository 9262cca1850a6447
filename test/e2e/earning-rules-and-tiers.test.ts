import type { Twin } from '../../infra/local/twin';
import { RULES_KEYS, RULES_MEMBERS, rulesConfig } from '../fixtures/rules-config';
import { apiClient, expectError, startTestTwin, type ApiResponse } from '../support/twin';

let twin: Twin;
let api: ReturnType<typeof apiClient>;
let credit: ReturnType<typeof apiClient>;
let bare: ReturnType<typeof apiClient>;

beforeAll(async () => {
  twin = await startTestTwin(rulesConfig());
  api = apiClient(twin.url, RULES_KEYS.points);
  credit = apiClient(twin.url, RULES_KEYS.credit);
  bare = apiClient(twin.url, RULES_KEYS.bare);
});
afterAll(async () => {
  await twin.stop();
});

type Resource = { type: string; id: string; attributes: Record<string, unknown> };
const ids = (response: ApiResponse): string[] => response.body.data.map((r: Resource) => r.id);
const names = (response: ApiResponse): string[] => response.body.data.map((r: Resource) => r.attributes.name);
const byId = (response: ApiResponse): Record<string, Record<string, unknown>> =>
  Object.fromEntries(response.body.data.map((r: Resource) => [r.id, r.attributes]));
const pointsById = (response: ApiResponse): Record<string, unknown> =>
  Object.fromEntries(response.body.data.map((r: Resource) => [r.id, r.attributes.points]));

/** Every rule with only the running x2 campaign applied (the expired x3 one never counts). */
const CAMPAIGN_ONLY_POINTS = { review: 50, follow_on_instagram: 100, birthday: 500, signup: 400, purchase: 10 };

describe('GET /v1/earning-rules', () => {
  it('lists every rule newest first (ties by id) with every field of the spec and the running campaign applied', async () => {
    const response = await api.get('/v1/earning-rules');

    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(['review', 'follow_on_instagram', 'birthday', 'signup', 'purchase']);
    expect(pointsById(response)).toEqual(CAMPAIGN_ONLY_POINTS);
    expect(response.body.data[1]).toEqual({
      type: 'earning_rule',
      id: 'follow_on_instagram',
      attributes: {
        name: 'Follow us',
        description: null,
        action: 'follow_on_instagram',
        category: 'social',
        is_active: true,
        points_to_give: 50,
        customer_facing_label: '50 points',
        call_to_action_url: 'https://instagram.example/rules',
        created_at: '2025-01-03T00:00:00.000Z',
        points: 100,
        base_points: 50,
        tier_boost: null,
        campaign_boost: 2,
      },
    });
    expect(response.body.data[3].attributes).toMatchObject({ description: 'Welcome bonus', call_to_action_url: null });
    expect(response.body.meta).toEqual({
      total: 5,
      page: 1,
      per_page: 20,
      total_pages: 1,
      loyalty_mode: 'points',
      currency: 'USD',
      tier_info: null,
      campaign_info: { name: 'Double points week' },
    });
  });

  it('boosts only purchase rules with the customer tier in purchase mode, and fills tier_info', async () => {
    const response = await api.get(`/v1/earning-rules?filter[customer_identifier]=${RULES_MEMBERS.silver}`);

    expect(response.status).toBe(200);
    const rules = byId(response);
    expect(rules.purchase).toMatchObject({ points: 15, base_points: 5, tier_boost: 1.5, campaign_boost: 2 });
    expect(rules.follow_on_instagram).toMatchObject({ points: 100, base_points: 50, tier_boost: null, campaign_boost: 2 });
    expect(rules.signup).toMatchObject({ points: 400, tier_boost: null });
    expect(response.body.meta).toEqual({
      total: 5,
      page: 1,
      per_page: 20,
      total_pages: 1,
      loyalty_mode: 'points',
      currency: 'USD',
      tier_info: { multiplier: 1.5, name: 'Silver', mode: 'purchase' },
      campaign_info: { name: 'Double points week' },
    });
  });

  it('finds the customer by e-mail in any letter case and rounds the boosted half up (5 x 1.25 x 2 = 12.5)', async () => {
    const response = await api.get(`/v1/earning-rules?filter[customer_identifier]=RULES${RULES_MEMBERS.bronze}@EXAMPLE.com`);

    expect(byId(response).purchase).toMatchObject({ points: 13, tier_boost: 1.25, campaign_boost: 2 });
    expect(response.body.meta.tier_info).toEqual({ multiplier: 1.25, name: 'Bronze', mode: 'purchase' });
  });

  it('gives the tier a customer reaches through an extra entry method (orders, OR)', async () => {
    const response = await api.get(`/v1/earning-rules?filter[customer_identifier]=${RULES_MEMBERS.goldByOrders}`);

    expect(byId(response).purchase).toMatchObject({ points: 20, tier_boost: 2 });
    expect(response.body.meta.tier_info).toEqual({ multiplier: 2, name: 'Gold', mode: 'purchase' });
  });

  it.each([
    ['below the lowest tier', RULES_MEMBERS.none],
    ['excluded from the program', RULES_MEMBERS.excluded],
  ])('gives no tier boost to a customer %s', async (_situation, identifier) => {
    const response = await api.get(`/v1/earning-rules?filter[customer_identifier]=${identifier}`);

    expect(response.status).toBe(200);
    expect(response.body.meta.tier_info).toBeNull();
    expect(byId(response).purchase).toMatchObject({ points: 10, tier_boost: null, campaign_boost: 2 });
    expect(pointsById(response)).toEqual(CAMPAIGN_ONLY_POINTS);
  });

  it('filters by is_active', async () => {
    const active = await api.get('/v1/earning-rules?filter[is_active]=true');
    const inactive = await api.get('/v1/earning-rules?filter[is_active]=false');

    expect(ids(active)).toEqual(['follow_on_instagram', 'birthday', 'signup', 'purchase']);
    expect(active.body.meta).toMatchObject({ total: 4, total_pages: 1 });
    expect(ids(inactive)).toEqual(['review']);
    expect(inactive.body.meta).toMatchObject({ total: 1, total_pages: 1 });
  });

  it('combines the is_active and customer filters', async () => {
    const response = await api.get(`/v1/earning-rules?filter[is_active]=true&filter[customer_identifier]=${RULES_MEMBERS.silver}`);

    expect(ids(response)).toEqual(['follow_on_instagram', 'birthday', 'signup', 'purchase']);
    expect(byId(response).purchase).toMatchObject({ points: 15, tier_boost: 1.5 });
  });

  it.each([
    ['name', ['Celebrate your birthday', 'Create an account', 'Follow us', 'Place an order', 'Write a review']],
    ['-name', ['Write a review', 'Place an order', 'Follow us', 'Create an account', 'Celebrate your birthday']],
    ['created_at', ['Place an order', 'Celebrate your birthday', 'Create an account', 'Follow us', 'Write a review']],
    ['-created_at', ['Write a review', 'Follow us', 'Celebrate your birthday', 'Create an account', 'Place an order']],
  ])('sorts by %s', async (sort, expected) => {
    const response = await api.get(`/v1/earning-rules?sort=${sort}`);

    expect(names(response)).toEqual(expected);
  });

  it('pages through the rules with totals for the whole list', async () => {
    const first = await api.get('/v1/earning-rules?page[size]=2&sort=created_at');
    const last = await api.get('/v1/earning-rules?page[size]=2&page[number]=3&sort=created_at');

    expect(ids(first)).toEqual(['purchase', 'birthday']);
    expect(first.body.meta).toMatchObject({ total: 5, page: 1, per_page: 2, total_pages: 3 });
    expect(ids(last)).toEqual(['review']);
    expect(last.body.meta).toMatchObject({ total: 5, page: 3, per_page: 2, total_pages: 3 });
  });

  it('answers a page beyond the last with no rules and the same totals', async () => {
    const response = await api.get('/v1/earning-rules?page[size]=2&page[number]=4');

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toMatchObject({ total: 5, page: 4, per_page: 2, total_pages: 3 });
  });

  it('serves a page size above the maximum at the maximum', async () => {
    const response = await api.get('/v1/earning-rules?page[size]=500');

    expect(response.body.meta).toMatchObject({ total: 5, per_page: 100, total_pages: 1 });
  });

  it.each([
    ['filter[is_active]=yes', 400, "filter[is_active] must be 'true' or 'false'"],
    ['filter[is_active]=TRUE', 400, "filter[is_active] must be 'true' or 'false'"],
    ['filter[name]=x', 400, /^Unknown filter 'filter\[name\]'/],
    ['sort=points', 400, /^Invalid sort 'points'/],
    ['sort=-', 400, /^Invalid sort/],
    ['page[size]=0', 400, 'page[size] must be a positive integer'],
    ['page[number]=abc', 400, 'page[number] must be a positive integer'],
    ['filter[customer_identifier]=9999', 404, "Customer '9999' not found"],
    ['filter[customer_identifier]=nobody@example.com', 404, "Customer 'nobody@example.com' not found"],
  ])('answers %s with %i', async (query, status, detail) => {
    const response = await api.get(`/v1/earning-rules?${query}`);

    expectError(response, status, detail);
  });

  it('needs a key, and a read-only key is enough', async () => {
    const anonymous = await apiClient(twin.url).get('/v1/earning-rules');
    const reader = await apiClient(twin.url, RULES_KEYS.read).get('/v1/earning-rules');

    expectError(anonymous, 401, 'Missing Authorization header');
    expect(reader.status).toBe(200);
    expect(reader.body.meta.total).toBe(5);
  });

  it('boosts every rule in all mode and reports minor units in a store-credit shop', async () => {
    const response = await credit.get('/v1/earning-rules?filter[customer_identifier]=8001');

    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(['credit-social', 'credit-order']);
    expect(response.body.data[1]).toEqual({
      type: 'earning_rule',
      id: 'credit-order',
      attributes: {
        name: 'Order',
        description: null,
        action: 'credit-order',
        category: 'purchase',
        is_active: true,
        points_to_give: 200,
        customer_facing_label: '200 points',
        call_to_action_url: null,
        created_at: '2025-01-01T00:00:00.000Z',
        points: 220,
        base_points: 200,
        tier_boost: 1.1,
        campaign_boost: null,
      },
    });
    expect(byId(response)['credit-social']).toMatchObject({ points: 110, base_points: 100, tier_boost: 1.1, campaign_boost: null });
    expect(response.body.meta).toEqual({
      total: 2,
      page: 1,
      per_page: 20,
      total_pages: 1,
      loyalty_mode: 'store_credit',
      currency: 'EUR',
      tier_info: { multiplier: 1.1, name: 'Insider', mode: 'all' },
      campaign_info: null,
    });
  });

  it('gives no tier in a store-credit shop to a customer one unit below the spend threshold', async () => {
    const response = await credit.get('/v1/earning-rules?filter[customer_identifier]=8002');

    expect(pointsById(response)).toEqual({ 'credit-social': 100, 'credit-order': 200 });
    expect(response.body.meta).toMatchObject({ tier_info: null, campaign_info: null });
  });

  it('answers an empty list for a shop without rules', async () => {
    const response = await bare.get('/v1/earning-rules');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [],
      meta: {
        total: 0,
        page: 1,
        per_page: 20,
        total_pages: 0,
        loyalty_mode: 'points',
        currency: 'GBP',
        tier_info: null,
        campaign_info: null,
      },
    });
  });
});

describe('GET /v1/vip-tiers', () => {
  it('returns every tier by threshold with every field, its rewards in configured order and deleted ones left out', async () => {
    const response = await api.get('/v1/vip-tiers');

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        type: 'vip_tier',
        id: 'bronze',
        attributes: {
          name: 'Bronze',
          description: 'First steps',
          threshold: 500,
          threshold_points: 500,
          threshold_spend: null,
          threshold_orders: null,
          points_multiplier: 1.25,
          position: 1,
          badge_image_url: null,
          badge_color: '#123456',
          rewards: [],
          created_at: '2025-01-01T00:00:00.000Z',
        },
      },
      {
        type: 'vip_tier',
        id: 'silver',
        attributes: {
          name: 'Silver',
          description: '',
          threshold: 1000,
          threshold_points: 1000,
          threshold_spend: null,
          threshold_orders: 10,
          points_multiplier: 1.5,
          position: 2,
          badge_image_url: null,
          badge_color: '#123456',
          rewards: [
            {
              id: 'paused-gift',
              name: 'Paused gift',
              description: 'Back soon',
              discount_type: 'percentage',
              reward_type: 'standard',
              points_cost: 300,
              discount_amount: 15,
              minimum_spend: 0,
              is_active: false,
              max_redemptions: null,
              product_variant_id: null,
              expiry_days: null,
              created_at: '2025-01-04T00:00:00.000Z',
            },
            {
              id: 'five-off',
              name: '$5 off',
              description: null,
              discount_type: 'fixed',
              reward_type: 'standard',
              points_cost: 500,
              discount_amount: 5,
              minimum_spend: 0,
              is_active: true,
              max_redemptions: null,
              product_variant_id: null,
              expiry_days: 30,
              created_at: '2025-01-01T00:00:00.000Z',
            },
          ],
          created_at: '2025-01-02T00:00:00.000Z',
        },
      },
      {
        type: 'vip_tier',
        id: 'gold',
        attributes: {
          name: 'Gold',
          description: '',
          threshold: 2500,
          threshold_points: 2500,
          threshold_spend: null,
          threshold_orders: 20,
          points_multiplier: 2,
          position: 3,
          badge_image_url: 'https://cdn.example/gold.png',
          badge_color: '#123456',
          rewards: [
            {
              id: 'gold-gift',
              name: 'Gold gift',
              description: null,
              discount_type: 'fixed',
              reward_type: 'vip',
              points_cost: 100,
              discount_amount: 10,
              minimum_spend: 50,
              is_active: true,
              max_redemptions: 1,
              product_variant_id: null,
              expiry_days: null,
              created_at: '2025-01-02T00:00:00.000Z',
            },
          ],
          created_at: '2025-01-03T00:00:00.000Z',
        },
      },
    ]);
    expect(response.body.meta).toEqual({
      total: 3,
      page: 1,
      per_page: 3,
      total_pages: 1,
      entry_method: 'points',
      entry_methods_extra: ['orders'],
      entry_logic: 'OR',
      points_multiplier_mode: 'purchase',
      loyalty_mode: 'points',
      currency: 'USD',
    });
  });

  it('measures threshold in the primary entry method, minor units of spend in a store-credit shop', async () => {
    const response = await credit.get('/v1/vip-tiers');

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([
      {
        type: 'vip_tier',
        id: 'insider',
        attributes: {
          name: 'Insider',
          description: '',
          threshold: 5000,
          threshold_points: null,
          threshold_spend: 5000,
          threshold_orders: null,
          points_multiplier: 1.1,
          position: 1,
          badge_image_url: null,
          badge_color: '#123456',
          rewards: [
            {
              id: 'credit-flex',
              name: 'Store credit',
              description: null,
              discount_type: 'fixed',
              reward_type: 'vip',
              points_cost: 100,
              discount_amount: 1,
              minimum_spend: 0,
              is_active: true,
              max_redemptions: null,
              product_variant_id: null,
              expiry_days: 90,
              created_at: '2025-01-05T00:00:00.000Z',
            },
          ],
          created_at: '2025-01-01T00:00:00.000Z',
        },
      },
    ]);
    expect(response.body.meta).toEqual({
      total: 1,
      page: 1,
      per_page: 1,
      total_pages: 1,
      entry_method: 'spend',
      entry_methods_extra: [],
      entry_logic: 'AND',
      points_multiplier_mode: 'all',
      loyalty_mode: 'store_credit',
      currency: 'EUR',
    });
  });

  it('answers a shop without tiers with an empty list, zero pages and the default entry settings', async () => {
    const response = await bare.get('/v1/vip-tiers');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: [],
      meta: {
        total: 0,
        page: 1,
        per_page: 0,
        total_pages: 0,
        entry_method: 'points',
        entry_methods_extra: [],
        entry_logic: 'OR',
        points_multiplier_mode: null,
        loyalty_mode: 'points',
        currency: 'GBP',
      },
    });
  });

  it('ignores pagination, sort and filter parameters', async () => {
    const response = await api.get('/v1/vip-tiers?page[size]=1&page[number]=2&sort=-name&filter[name]=Gold');

    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(['bronze', 'silver', 'gold']);
    expect(response.body.meta).toMatchObject({ total: 3, page: 1, per_page: 3, total_pages: 1 });
  });

  it('needs a valid key, and a read-only key is enough', async () => {
    const anonymous = await apiClient(twin.url).get('/v1/vip-tiers');
    const unknown = await apiClient(twin.url, 'rules_unknown_key').get('/v1/vip-tiers');
    const reader = await apiClient(twin.url, RULES_KEYS.read).get('/v1/vip-tiers');

    expectError(anonymous, 401, 'Missing Authorization header');
    expectError(unknown, 401, 'Invalid or revoked API key');
    expect(reader.status).toBe(200);
    expect(ids(reader)).toEqual(['bronze', 'silver', 'gold']);
  });
});
