// A key of one shop never reads or writes another shop's data, on every route.
import type { Twin } from '../../infra/local/twin';
import { ROUTES } from '../../shared/runtime/entry-points';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { apiClient, expectError, startTestTwin, type ApiResponse } from '../support/twin';

let twin: Twin;
let owner: ReturnType<typeof apiClient>;
let other: ReturnType<typeof apiClient>;
let earningEntryId: string;
let rewardEntryId: string;
let rewardCode: string;
let before: unknown;

/** Both shops give referred friends a reward, so a referral is refused for the code, not the settings. */
function isolationConfig() {
  const config = e2eConfig();
  const welcome = { id: 'welcome', name: 'Welcome', points_cost: 0, discount_amount: 5, created_at: '2025-01-01T00:00:00.000Z' };
  for (const shop of config.shops as Array<Record<string, unknown>>) {
    Object.assign(shop, {
      rewards: [...((shop.rewards as unknown[] | undefined) ?? []), welcome],
      referral_settings: { friend_reward_id: 'welcome', max_friends_per_day: 20 },
    });
  }
  return config;
}

beforeAll(async () => {
  twin = await startTestTwin(isolationConfig(), { throttling: false });
  owner = apiClient(twin.url, KEYS.full);
  other = apiClient(twin.url, KEYS.otherShop);
  await owner.post('/v1/customers/1001/points', { adjustment: 1 });
  earningEntryId = (await owner.get('/v1/customers/1001/earning-history')).body.data[0].id;
  const purchase = (await owner.post('/v1/rewards/five-off/purchase', { customer_identifier: '1001' })).body.data;
  rewardEntryId = purchase.id;
  rewardCode = purchase.attributes.discount_code;
  before = (await owner.get('/v1/customers/1001')).body;
});
afterAll(async () => {
  await twin.stop();
});

const notFound = (response: ApiResponse) => expectError(response, 404);

/** For each route, what the other shop's key tries against shop `e2e`'s data. */
const ATTEMPTS: Record<string, () => Promise<void>> = {
  listCustomers: async () => {
    const response = await other.get('/v1/customers?page[size]=100');
    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual(['5001']);
    expect((await other.get('/v1/customers?filter[email]=example.com')).body.data.map((c: { id: string }) => c.id)).toEqual(['5001']);
  },
  enrollCustomer: async () => notFound(await other.post('/v1/customers', { platform_customer_id: '1030' })),
  getCustomer: async () => {
    notFound(await other.get('/v1/customers/1001'));
    notFound(await other.get('/v1/customers/ada.lovelace@example.com'));
  },
  updateCustomer: async () => notFound(await other.put('/v1/customers/1001', { is_excluded: true })),
  getCustomerBirthday: async () => notFound(await other.get('/v1/customers/1001/birthday')),
  getCustomerAnniversary: async () => notFound(await other.get('/v1/customers/1001/anniversary')),
  adjustPoints: async () => notFound(await other.post('/v1/customers/1001/points', { adjustment: 1000 })),
  earnAction: async () => {
    notFound(await other.post('/v1/customers/1001/actions', { action: 'follow_on_instagram' }));
    notFound(await other.post('/v1/customers/ada.lovelace@example.com/actions', { action: 'follow_on_instagram' }));
  },
  listEarningHistory: async () => notFound(await other.get('/v1/customers/1001/earning-history')),
  getEarningHistoryEntry: async () => {
    notFound(await other.get(`/v1/customers/1001/earning-history/${earningEntryId}`));
    notFound(await other.get(`/v1/customers/5001/earning-history/${earningEntryId}`));
  },
  listRewardHistory: async () => notFound(await other.get('/v1/customers/1001/reward-history')),
  getRewardHistoryEntry: async () => {
    notFound(await other.get(`/v1/customers/1001/reward-history/${rewardEntryId}`));
    notFound(await other.get(`/v1/customers/5001/reward-history/${rewardEntryId}`));
  },
  listEarningRules: async () => notFound(await other.get('/v1/earning-rules?filter[customer_identifier]=1001')),
  listVipTiers: async () => {
    expect((await other.get('/v1/vip-tiers')).body.data).toEqual([]);
  },
  refundReward: async () => {
    notFound(await other.post(`/v1/customers/1001/reward-history/${rewardEntryId}/refund`));
    notFound(await other.post(`/v1/customers/5001/reward-history/${rewardEntryId}/refund`));
    // The entry is untouched, and its code still on the platform.
    expect((await owner.get(`/v1/customers/1001/reward-history/${rewardEntryId}`)).body.data.attributes.is_refunded).toBe(false);
    expect(twin.simulator.discountCodes().some((code) => code.code === rewardCode)).toBe(true);
  },
  createReferral: async () => {
    // Shop e2e's member's code names no member of the other shop: nothing is created anywhere.
    const code = (await owner.get('/v1/customers/1001')).body.data.attributes.referral_code;
    const codes = twin.simulator.discountCodes().length;
    expectError(
      await other.post('/v1/referrals', { referral_code: code, email: 'isolated.friend@example.com' }),
      422,
      `Unknown referral code '${code}'`,
    );
    expect(twin.simulator.discountCodes()).toHaveLength(codes);
  },
  listReferrals: async () => {
    expect(
      (
        await owner.post('/v1/referrals', {
          referral_code: (await owner.get('/v1/customers/1001')).body.data.attributes.referral_code,
          email: 'owned.friend@example.com',
        })
      ).status,
    ).toBe(201);
    notFound(await other.get('/v1/customers/1001/referrals'));
    notFound(await other.get('/v1/customers/ada.lovelace@example.com/referrals'));
    expect((await other.get('/v1/customers/5001/referrals')).body.meta.total).toBe(0);
  },
  purchaseReward: async () => {
    notFound(await other.post('/v1/rewards/five-off/purchase', { customer_identifier: '1001' }));
    notFound(await other.post('/v1/rewards/five-off/purchase', { customer_identifier: '5001' }));
  },
};

describe('tenant isolation', () => {
  it.each(ROUTES.map((route) => [route.name] as const))("%s: another shop's key sees and changes nothing of this shop", async (name) => {
    const attempt = ATTEMPTS[name];
    if (!attempt) throw new Error(`No isolation check for route ${name}: add one to this test`);

    await attempt();

    expect((await owner.get('/v1/customers/1001')).body).toEqual(before);
  });
});
