// Real responses of every route, success and errors, validated against the OpenAPI document.
import type { Twin } from '../../infra/local/twin';
import { ROUTES } from '../../shared/runtime/entry-points';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { openApiValidator } from '../support/openapi-validator';
import { PURCHASE_KEYS, purchaseConfig } from '../fixtures/purchase-config';
import { apiClient, startTestTwin } from '../support/twin';

interface Sample {
  twin: 'e2e' | 'purchase';
  key?: string;
  method: string;
  /** The path, or how to make it (a refund needs a purchase made just before). */
  path: string | ((api: ReturnType<typeof apiClient>) => Promise<string>);
  /** The body, or how to make it (a referral needs a member's referral code). */
  body?: unknown;
  status: number;
}

/** The purchase the refund samples undo: bought by the first of them. */
let refundable = '';
const refundPath = (id: string) => `/v1/customers/3001/reward-history/${id}/refund`;

/** A referral of a friend by member 1001, whose referral code the twin made at start. */
const referralBody = async (api: ReturnType<typeof apiClient>) => ({
  referral_code: (await api.get('/v1/customers/1001')).body.data.attributes.referral_code,
  email: 'openapi.friend@example.com',
});

/** Requests per route: the success case and the main errors. A route missing here fails the test. */
const SAMPLES: Record<string, Sample[]> = {
  listCustomers: [
    { twin: 'e2e', method: 'GET', path: '/v1/customers?page[size]=3', status: 200 },
    { twin: 'purchase', key: PURCHASE_KEYS.credit, method: 'GET', path: '/v1/customers', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers?sort=bad', status: 400 },
    { twin: 'e2e', key: '', method: 'GET', path: '/v1/customers', status: 401 },
  ],
  enrollCustomer: [
    { twin: 'e2e', method: 'POST', path: '/v1/customers', body: { platform_customer_id: '1030' }, status: 201 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers', body: { platform_customer_id: '1030' }, status: 200 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers', body: {}, status: 400 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers', body: { platform_customer_id: '77777' }, status: 404 },
    { twin: 'e2e', key: KEYS.read, method: 'POST', path: '/v1/customers', body: { platform_customer_id: '1030' }, status: 403 },
  ],
  getCustomer: [
    { twin: 'e2e', method: 'GET', path: '/v1/customers/1001', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/1001?exclude_vip=true', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/9999', status: 404 },
  ],
  updateCustomer: [
    { twin: 'e2e', method: 'PUT', path: '/v1/customers/1002', body: { date_of_birth: '1990-01-01' }, status: 200 },
    { twin: 'e2e', method: 'PUT', path: '/v1/customers/1002', body: {}, status: 400 },
    { twin: 'e2e', method: 'PUT', path: '/v1/customers/9999', body: { is_excluded: true }, status: 404 },
  ],
  getCustomerBirthday: [
    { twin: 'e2e', method: 'GET', path: '/v1/customers/1001/birthday', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/9999/birthday', status: 404 },
  ],
  getCustomerAnniversary: [
    { twin: 'e2e', method: 'GET', path: '/v1/customers/1001/anniversary', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/9999/anniversary', status: 404 },
  ],
  adjustPoints: [
    { twin: 'e2e', method: 'POST', path: '/v1/customers/1003/points', body: { adjustment: 5 }, status: 200 },
    {
      twin: 'purchase',
      key: PURCHASE_KEYS.credit,
      method: 'POST',
      path: '/v1/customers/4001/points',
      body: { adjustment: -5 },
      status: 200,
    },
    { twin: 'e2e', method: 'POST', path: '/v1/customers/1003/points', body: { adjustment: 0 }, status: 400 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers/1025/points', body: { adjustment: 5 }, status: 403 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers/9999/points', body: { adjustment: 5 }, status: 404 },
  ],
  earnAction: [
    { twin: 'e2e', method: 'POST', path: '/v1/customers/1003/actions', body: { action: 'follow_on_instagram' }, status: 201 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers/1003/actions', body: {}, status: 400 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers/1025/actions', body: { action: 'follow_on_instagram' }, status: 403 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers/9999/actions', body: { action: 'follow_on_instagram' }, status: 404 },
    { twin: 'e2e', method: 'POST', path: '/v1/customers/1003/actions', body: { action: 'follow_on_instagram' }, status: 422 },
  ],
  listEarningHistory: [
    { twin: 'e2e', method: 'GET', path: '/v1/customers/1003/earning-history', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/1003/earning-history?filter[status]=x', status: 400 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/9999/earning-history', status: 404 },
  ],
  getEarningHistoryEntry: [{ twin: 'e2e', method: 'GET', path: '/v1/customers/1003/earning-history/nope', status: 404 }],
  listRewardHistory: [
    { twin: 'purchase', method: 'GET', path: '/v1/customers/3001/reward-history', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/9999/reward-history', status: 404 },
  ],
  getRewardHistoryEntry: [{ twin: 'e2e', method: 'GET', path: '/v1/customers/1003/reward-history/nope', status: 404 }],
  createReferral: [
    { twin: 'e2e', method: 'POST', path: '/v1/referrals', body: referralBody, status: 201 },
    { twin: 'e2e', method: 'POST', path: '/v1/referrals', body: referralBody, status: 422 },
    { twin: 'e2e', method: 'POST', path: '/v1/referrals', body: { email: 'x@example.com' }, status: 400 },
    {
      twin: 'e2e',
      key: KEYS.read,
      method: 'POST',
      path: '/v1/referrals',
      body: { referral_code: 'X', email: 'x@example.com' },
      status: 403,
    },
  ],
  listReferrals: [
    { twin: 'e2e', method: 'GET', path: '/v1/customers/1001/referrals', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/1001/referrals?page[size]=0', status: 400 },
    { twin: 'e2e', method: 'GET', path: '/v1/customers/9999/referrals', status: 404 },
  ],
  listEarningRules: [
    { twin: 'e2e', method: 'GET', path: '/v1/earning-rules?filter[customer_identifier]=1001', status: 200 },
    { twin: 'e2e', method: 'GET', path: '/v1/earning-rules?filter[is_active]=maybe', status: 400 },
  ],
  listVipTiers: [
    { twin: 'e2e', method: 'GET', path: '/v1/vip-tiers', status: 200 },
    { twin: 'purchase', key: PURCHASE_KEYS.credit, method: 'GET', path: '/v1/vip-tiers', status: 200 },
  ],
  refundReward: [
    {
      twin: 'purchase',
      method: 'POST',
      path: async (api) => {
        refundable = (await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '3001' })).body.data.id;
        return refundPath(refundable);
      },
      status: 200,
    },
    { twin: 'purchase', method: 'POST', path: async () => refundPath(refundable), status: 422 },
    // A store credit reward's undo: its credit debited first, the entry carrying its transaction.
    {
      twin: 'purchase',
      method: 'POST',
      path: async (api) => {
        const bought = await api.post('/v1/rewards/store-credit/purchase', { customer_identifier: '3006' });
        return `/v1/customers/3006/reward-history/${bought.body.data.id}/refund`;
      },
      status: 200,
    },
    { twin: 'purchase', method: 'POST', path: refundPath('nope'), status: 404 },
    { twin: 'purchase', key: PURCHASE_KEYS.pointsRead, method: 'POST', path: refundPath('nope'), status: 403 },
  ],
  purchaseReward: [
    { twin: 'purchase', method: 'POST', path: '/v1/rewards/five-off/purchase', body: { customer_identifier: '3001' }, status: 201 },
    {
      twin: 'purchase',
      key: PURCHASE_KEYS.credit,
      method: 'POST',
      path: '/v1/rewards/credit-flex/purchase',
      body: { customer_identifier: '4001', points: 600 },
      status: 201,
    },
    // The other reward kinds: a free-shipping code, a free product's code, store credit (no code, used at once).
    { twin: 'purchase', method: 'POST', path: '/v1/rewards/free-ship/purchase', body: { customer_identifier: '3005' }, status: 201 },
    { twin: 'purchase', method: 'POST', path: '/v1/rewards/scarf/purchase', body: { customer_identifier: '3005' }, status: 201 },
    { twin: 'purchase', method: 'POST', path: '/v1/rewards/store-credit/purchase', body: { customer_identifier: '3005' }, status: 201 },
    { twin: 'purchase', method: 'POST', path: '/v1/rewards/welcome/purchase', body: { customer_identifier: '3001' }, status: 400 },
    { twin: 'purchase', method: 'POST', path: '/v1/rewards/gold-only/purchase', body: { customer_identifier: '3002' }, status: 403 },
    { twin: 'purchase', method: 'POST', path: '/v1/rewards/nope/purchase', body: { customer_identifier: '3001' }, status: 404 },
    { twin: 'purchase', method: 'POST', path: '/v1/rewards/five-off/purchase', body: { customer_identifier: '3002' }, status: 422 },
  ],
};

// One twin with both configurations' shops: handlers run in this process, so a second twin would
// repoint them at its own table.
let twin: Twin;
const DEFAULT_KEY = { e2e: KEYS.full, purchase: PURCHASE_KEYS.points };
const validator = openApiValidator();

beforeAll(async () => {
  const [e2eShop, ...otherShops] = e2eConfig().shops;
  // An action rule, for POST .../actions (once per lifetime: its second request is the 422).
  const actionRule = { id: 'follow', name: 'Follow us', action: 'follow_on_instagram', category: 'social', points_to_give: 5 };
  // A friend's reward, for POST /v1/referrals (the same friend's second request is the 422).
  const friendReward = { id: 'welcome', name: 'Welcome', points_cost: 0, discount_amount: 5, created_at: '2025-01-01T00:00:00.000Z' };
  const referralSettings = { friend_reward_id: 'welcome', max_friends_per_day: 20 };
  const shops = [
    { ...e2eShop!, earning_rules: [actionRule], rewards: [...(e2eShop!.rewards ?? []), friendReward], referral_settings: referralSettings },
    ...otherShops,
    ...purchaseConfig().shops,
  ];
  twin = await startTestTwin({ shops }, { throttling: false });
});
afterAll(async () => {
  await twin.stop();
});

describe('real responses match the OpenAPI document', () => {
  it.each(ROUTES.map((route) => [route.name, route] as const))('%s', async (name, route) => {
    const samples = SAMPLES[name];
    if (!samples) throw new Error(`No sample requests for route ${name}: add them to this test`);

    for (const sample of samples) {
      const key = sample.key ?? DEFAULT_KEY[sample.twin];
      const api = apiClient(twin.url, key === '' ? undefined : key);
      const path = typeof sample.path === 'string' ? sample.path : await sample.path(api);
      const body = typeof sample.body === 'function' ? await (sample.body as typeof referralBody)(api) : sample.body;
      const response = await api.request(sample.method, path, body);

      expect({ request: `${sample.method} ${path}`, status: response.status }).toEqual({
        request: `${sample.method} ${path}`,
        status: sample.status,
      });
      expect(validator.check(route.path, route.method, response.status, response.body)).toBeNull();
    }
  });

  it('serves the document on the twin', async () => {
    const document = await (await fetch(`${twin.url}/openapi.json`)).json();

    expect(document).toMatchObject({ openapi: '3.1.0', paths: expect.objectContaining({ '/v1/customers': expect.anything() }) });
  });
});
