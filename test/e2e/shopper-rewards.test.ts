// GET /shopper/member/rewards through the twin: the member's own codes still to use, newest first and paged,
// each with its reward's name, discount and end date; never a used, expired or refunded code, never another
// member's; a guest 401, a customer who has not joined 404.
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { RESPONSE_SCHEMAS } from '../../shared/openapi/response-schemas';
import { sessionToken, viaProxy, withToken } from '../support/shopper';
import { apiClient, startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

interface Listed {
  id: string;
  attributes: {
    discount_code: string;
    reward_name: string;
    discount_type: string;
    discount_value: number | null;
    expires_at: string | null;
  };
}
const rewardsOf = async (customerId: string, params: Array<[string, string]> = []) => {
  const response = await viaProxy(twin.url, 'GET', '/member/rewards', { customerId, params });
  expect(response.status).toBe(200);
  expect(RESPONSE_SCHEMAS.ShopperRewardList.safeParse(response.body).success).toBe(true);
  return response.body as { data: Listed[]; meta: { total: number; page: number; per_page: number; total_pages: number } };
};
const redeem = async (customerId: string, reward: string, body: Record<string, unknown> = {}) => {
  const response = await viaProxy(twin.url, 'POST', `/rewards/${reward}/redeem`, { customerId, body });
  expect(response.status).toBe(201);
  return response.body.data as { id: string; attributes: { discount_code: string; expires_at: string | null } };
};

describe('GET /shopper/member/rewards', () => {
  it('asks a guest to sign in (401) both ways, and answers a customer who has not joined 404', async () => {
    const guestProxy = await viaProxy(twin.url, 'GET', '/member/rewards');
    const guestToken = await withToken(twin.url, await sessionToken(twin.platformUrl, 'demo'), 'GET', '/member/rewards');
    for (const response of [guestProxy, guestToken]) {
      expect(response.status).toBe(401);
      expect(response.body.errors[0].detail).toMatch(/sign in/i);
    }
    expect((await viaProxy(twin.url, 'GET', '/member/rewards', { customerId: '1011' })).status).toBe(404);
  });

  it('lists an active code with its discount, never a used or an expired one', async () => {
    // 1001: one code used by an order, one still to use (10 % off, no end date); 1002: one expired code only.
    const mine = await rewardsOf('1001');
    expect(mine.data.map((code) => code.id)).toEqual(['r-1001-2']);
    expect(mine.data[0]!.attributes).toMatchObject({
      discount_code: 'LOYAL-P4WN8D',
      discount_type: 'percentage',
      discount_value: 10,
      expires_at: null,
    });
    expect(mine.meta).toMatchObject({ total: 1, page: 1 });
    expect((await rewardsOf('1002')).data).toEqual([]);
    // 1005's flexible code brought over from another app: its value comes from the points it cost.
    const flexible = (await rewardsOf('1005')).data;
    expect(flexible.map((code) => code.id)).toEqual(['r-1005-3']);
    expect(flexible[0]!.attributes.discount_value).toBeGreaterThan(0);
  });

  it('lists a new code at once with its end date, pages newest first, drops a refunded code, and shows no other member its codes', async () => {
    const bought = [
      await redeem('1001', 'five-off'),
      await redeem('1001', 'five-off'),
      await redeem('1001', 'dollar-off-flex', { points: 300 }),
    ];
    const first = await rewardsOf('1001', [['page[size]', '2']]);
    const second = await rewardsOf('1001', [
      ['page[size]', '2'],
      ['page[number]', '2'],
    ]);
    expect(first.meta).toEqual({ total: 4, page: 1, per_page: 2, total_pages: 2 });
    expect(first.data.map((code) => code.id)).toEqual([bought[2]!.id, bought[1]!.id]);
    expect(second.data.map((code) => code.id)).toEqual([bought[0]!.id, 'r-1001-2']);
    expect(first.data[0]!.attributes).toMatchObject({
      discount_code: bought[2]!.attributes.discount_code,
      discount_type: 'fixed',
      discount_value: 3,
      expires_at: bought[2]!.attributes.expires_at,
    });

    // Not the other members' (nor the other way round), whichever way they ask.
    const theirs = (await rewardsOf('1005')).data.map((code) => code.attributes.discount_code);
    const token = await sessionToken(twin.platformUrl, 'demo', '1005');
    const viaToken = await withToken(twin.url, token, 'GET', '/member/rewards');
    expect(viaToken.body.data.map((code: Listed) => code.attributes.discount_code)).toEqual(theirs);
    for (const code of bought) expect(theirs).not.toContain(code.attributes.discount_code);

    // A code refunded by staff is no longer the member's to use.
    const refunded = await apiClient(twin.url, 'demo_full_key').post(`/v1/customers/1001/reward-history/${bought[1]!.id}/refund`, {});
    expect(refunded.status).toBe(200);
    const after = await rewardsOf('1001', [['page[size]', '50']]);
    expect(after.data.map((code) => code.id)).toEqual([bought[2]!.id, bought[0]!.id, 'r-1001-2']);
    expect(after.meta.total).toBe(3);
  });

  it("refuses a page that is no number with the envelope's 400, and reads a size above 50 as 50", async () => {
    const bad = await viaProxy(twin.url, 'GET', '/member/rewards', { customerId: '1001', params: [['page[size]', 'x']] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].detail).toMatch(/page\[size\]/);
    expect((await rewardsOf('1001', [['page[size]', '500']])).meta.per_page).toBe(50);
  });
});
