// Undoing a redemption as the shopper (checkout's "Undo" before paying): POST /shopper/member/rewards/{id}/refund
// is exactly POST /v1/customers/{identifier}/reward-history/{id}/refund for the signed-in member: the code gone
// from the platform, the points back, the same refusals and details, the Idempotency-Key scoped to the shopper;
// another member's entry is a 404 and the entry stays as it was.
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

async function redeem(customerId: string, reward = 'five-off', body: unknown = {}) {
  const response = await withToken(twin.url, await tokenFor(customerId), 'POST', `/rewards/${reward}/redeem`, body);
  expect(response.status).toBe(201);
  return response.body.data as { id: string; attributes: { discount_code: string; points_spent: number } };
}

describe('POST /shopper/member/rewards/{id}/refund', () => {
  it('deletes the code and gives the points back, answering the entry as the /v1 route does', async () => {
    const before = await points('1001');
    const redemption = await redeem('1001');
    expect(await points('1001')).toBe(before - redemption.attributes.points_spent);
    expect(twin.simulator.discountCodes().map((code) => code.code)).toContain(redemption.attributes.discount_code);

    const response = await withToken(twin.url, await tokenFor('1001'), 'POST', `/member/rewards/${redemption.id}/refund`);

    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.body.data).toMatchObject({
      type: 'reward_history_entry',
      id: redemption.id,
      attributes: {
        is_refunded: true,
        discount_code: redemption.attributes.discount_code,
        points_spent: redemption.attributes.points_spent,
      },
    });
    expect(response.body.data.attributes).not.toHaveProperty('actor');
    expect(response.body.meta).toEqual({ loyalty_mode: expect.any(String), currency: 'USD' });
    expect(await points('1001')).toBe(before);
    expect(twin.simulator.discountCodes().map((code) => code.code)).not.toContain(redemption.attributes.discount_code);
    // The /v1 entry is the same entry, refunded.
    const v1 = await api().get(`/v1/customers/1001/reward-history/${redemption.id}`);
    expect(v1.body.data).toEqual(response.body.data);
  });

  it('refuses a second undo with the /v1 route’s status and detail', async () => {
    const redemption = await redeem('1001', 'dollar-off-flex', { points: 100 });
    const token = await tokenFor('1001');
    expect((await withToken(twin.url, token, 'POST', `/member/rewards/${redemption.id}/refund`)).status).toBe(200);
    const again = await withToken(twin.url, token, 'POST', `/member/rewards/${redemption.id}/refund`);
    const v1 = await api().post(`/v1/customers/1001/reward-history/${redemption.id}/refund`);
    expect(again.status).toBe(422);
    expect(again.body).toEqual(v1.body);
  });

  it('answers 404 for another member’s entry and leaves it as it was', async () => {
    const theirs = await redeem('1004', 'dollar-off-flex', { points: 100 });
    const before = await points('1004');
    const response = await withToken(twin.url, await tokenFor('1001'), 'POST', `/member/rewards/${theirs.id}/refund`);
    expectError(response, 404, new RegExp(theirs.id));
    expect(await points('1004')).toBe(before);
    expect(twin.simulator.discountCodes().map((code) => code.code)).toContain(theirs.attributes.discount_code);
    expectError(await withToken(twin.url, await tokenFor('1001'), 'POST', '/member/rewards/no-such-entry/refund'), 404, /no-such-entry/);
  });

  it('refuses a guest (401) and a customer who is not a member (404)', async () => {
    expectError(await withToken(twin.url, await tokenFor(), 'POST', '/member/rewards/anything/refund'), 401, /Sign in/);
    expectError(await viaProxy(twin.url, 'POST', '/member/rewards/anything/refund', { customerId: '1011' }), 404);
  });

  it('replays an Idempotency-Key scoped to the shopper: the same answer, the points given back once', async () => {
    const redemption = await redeem('1004', 'dollar-off-flex', { points: 100 });
    const headers = { 'Idempotency-Key': 'checkout-undo-1' };
    const first = await viaProxy(twin.url, 'POST', `/member/rewards/${redemption.id}/refund`, { customerId: '1004', headers });
    const after = await points('1004');
    const replay = await viaProxy(twin.url, 'POST', `/member/rewards/${redemption.id}/refund`, { customerId: '1004', headers });
    expect(first.status).toBe(200);
    expect(replay.status).toBe(200);
    expect(replay.body).toEqual(first.body);
    expect(await points('1004')).toBe(after);
  });
});
