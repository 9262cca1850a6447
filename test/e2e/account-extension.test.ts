// The customer account extensions' logic against the twin's real /shopper answers, with real session
// tokens from the simulator's POST /_session_tokens: what the page shows is what the /v1 API says of
// the same customer; the redeem flow (its Idempotency-Key, its code in the reward history); a
// non-member's join; the errors the page words. The same flow in Chromium: account-extension-browser.test.ts.
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { rewardOffers, tierProgress } from '../../infra/shopify-app/extensions/loyalty-account/src/loyalty-view';
import { createShopperApi, ShopperApiError } from '../../infra/shopify-app/extensions/loyalty-account/src/shopper-api';
import { sessionToken } from '../support/shopper';
import { apiClient, startTestTwin } from '../support/twin';

let twin: Twin;
const api = () => apiClient(twin.url, 'demo_full_key');

/** The extension's client as the host builds it: a fresh token for `customerId` on every call. */
function extensionClient(customerId?: string) {
  let minted = 0;
  const client = createShopperApi({
    serviceUrl: twin.url,
    sessionToken: () => {
      minted += 1;
      return sessionToken(twin.platformUrl, 'demo', customerId);
    },
  });
  return { client, minted: () => minted };
}

beforeAll(async () => {
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

describe('the customer account extensions against the twin', () => {
  it("show a member the API's balance, tier and progress, and offer exactly the rewards the service would sell", async () => {
    const { client, minted } = extensionClient('1001');
    const [program, who] = await Promise.all([client.program(), client.member()]);
    const customer = (await api().get('/v1/customers/1001')).body.data.attributes;

    expect(minted()).toBe(2);
    expect(who.loggedIn).toBe(true);
    const member = who.member!;
    expect(member.id).toBe('1001');
    expect(member.current_points).toBe(customer.current_points);
    expect(member.lifetime_points).toBe(customer.lifetime_points);
    expect(member.vip_tier?.id ?? null).toBe(customer.vip_tier?.id ?? null);
    const progress = tierProgress(member, program);
    if (member.next_tier) expect(progress).toMatchObject({ next: member.next_tier.name, remaining: member.next_tier.remaining });

    const offers = rewardOffers(program, member);
    expect(offers.map((offer) => offer.reward.id).sort()).toEqual(program.rewards.map((reward) => reward.id).sort());
    const redeemable = offers.filter((offer) => offer.state?.kind === 'redeemable').map((offer) => offer.reward.id);
    expect(redeemable.sort()).toEqual([...member.redeemable_reward_ids].sort());
    for (const offer of offers.filter((entry) => entry.state?.kind === 'short')) {
      expect(offer.state).toEqual({ kind: 'short', needed: offer.cost - member.current_points });
    }
  });

  it('redeem a reward once per Idempotency-Key, show its code, and find it in the reward history and the activity', async () => {
    await api().post('/v1/customers/1001/points', { adjustment: 2000, note: 'for the account page test' });
    const { client } = extensionClient('1001');
    const before = (await client.member()).member!;
    const program = await client.program();
    const target = rewardOffers(program, before).find((offer) => offer.state?.kind === 'redeemable' && !offer.reward.flexible)!;
    expect(target).toBeDefined();

    const redemption = await client.redeem(target.reward.id, { idempotencyKey: 'account-page-redeem-1' });
    const replay = await client.redeem(target.reward.id, { idempotencyKey: 'account-page-redeem-1' });
    const after = (await client.member()).member!;

    expect(redemption).toMatchObject({ reward_id: target.reward.id, points_spent: target.cost, status: 'active' });
    expect(redemption.discount_code).toMatch(/\S{4,}/);
    expect(replay).toEqual(redemption);
    expect(after.current_points).toBe(before.current_points - target.cost);
    const history = (await api().get('/v1/customers/1001/reward-history')).body.data;
    expect(history.map((entry: { attributes: { discount_code: string } }) => entry.attributes.discount_code)).toContain(
      redemption.discount_code,
    );

    const activity = await client.activity(1, 10);
    expect(activity.entries[0]).toMatchObject({ kind: 'spent', points: -target.cost, label: redemption.reward_name });
    // The adjustment's note is the staff's: the shopper's line never shows it.
    expect(JSON.stringify(activity.entries)).not.toContain('for the account page test');
  });

  it('let a signed-in non-member join once, with the signup points, then show them as a member', async () => {
    const { client } = extensionClient('1010');
    expect(await client.member()).toEqual({ loggedIn: true, member: null });
    await expect(client.activity(1)).rejects.toMatchObject({ kind: 'not_member', status: 404 });

    const joined = await client.join();
    const again = await client.join();
    const customer = (await api().get('/v1/customers/1010')).body.data.attributes;

    expect(joined.created).toBe(true);
    expect(again.created).toBe(false);
    expect(joined.member.current_points).toBe(customer.current_points);
    expect((await client.member()).member?.current_points).toBe(customer.current_points);
  });

  it('word the refusals: a guest asked to sign in, too few points, a reward that does not exist', async () => {
    const guest = extensionClient(undefined).client;
    expect(await guest.member()).toEqual({ loggedIn: false, member: null });
    await expect(guest.redeem('five-off', { idempotencyKey: 'guest-1' })).rejects.toMatchObject({ kind: 'sign_in', status: 401 });

    const { client } = extensionClient('1011');
    const member = (await client.join()).member;
    const tooDear = (await client.program()).rewards.find((reward) => reward.id === 'ten-percent')!;
    expect(tooDear.points_cost).toBeGreaterThan(member.current_points);
    await expect(client.redeem(tooDear.id, { idempotencyKey: 'too-dear-1' })).rejects.toMatchObject({ kind: 'insufficient', status: 422 });
    const missing = await client.redeem('no-such-reward', { idempotencyKey: 'missing-1' }).catch((error: unknown) => error);
    expect(missing).toBeInstanceOf(ShopperApiError);
    expect(missing).toMatchObject({ kind: 'not_found', status: 404 });
  });

  it('report a token the service refuses as sign-in, and no service at all as a network error', async () => {
    const forged = createShopperApi({ serviceUrl: twin.url, sessionToken: async () => 'not-a-token' });
    await expect(forged.member()).rejects.toMatchObject({ kind: 'sign_in', status: 401 });

    const nowhere = createShopperApi({ serviceUrl: 'http://127.0.0.1:9', sessionToken: async () => 'x' });
    await expect(nowhere.program()).rejects.toMatchObject({ kind: 'network', status: 0 });
  });
});
