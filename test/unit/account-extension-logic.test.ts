// The customer account extensions' logic without a host: the /shopper client (what it sends, how it
// reads answers and errors) and what the page derives from the answers. The same code against the
// twin's real answers: test/e2e/account-extension.test.ts; in Chromium: account-extension-browser.test.ts.
import {
  activityLine,
  errorMessageKey,
  rewardOffers,
  tierProgress,
  waysToEarn,
} from '../../infra/shopify-app/extensions/loyalty-account/src/loyalty-view';
import {
  createShopperApi,
  errorKind,
  ShopperApiError,
  type Member,
  type Program,
  type ShopperErrorKind,
} from '../../infra/shopify-app/extensions/loyalty-account/src/shopper-api';
import en from '../../infra/shopify-app/extensions/loyalty-account/locales/en.default.json';

interface Sent {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string | undefined;
}

/** A fetch that records each request and answers from a list, in order. */
function fakeFetch(answers: Array<{ status: number; body: unknown } | Error>) {
  const sent: Sent[] = [];
  const fetch = async (input: string, init?: RequestInit): Promise<Response> => {
    sent.push({
      url: String(input),
      method: init?.method ?? 'GET',
      headers: { ...(init?.headers as Record<string, string>) },
      body: init?.body as string | undefined,
    });
    const answer = answers.shift();
    if (!answer) throw new Error('no answer left');
    if (answer instanceof Error) throw answer;
    return new Response(typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'Content-Type': 'application/json' },
    });
  };
  return { sent, fetch };
}

function client(answers: Array<{ status: number; body: unknown } | Error>) {
  let tokens = 0;
  const fake = fakeFetch(answers);
  const api = createShopperApi({
    serviceUrl: 'https://api.example.test/prod/',
    sessionToken: async () => `token-${++tokens}`,
    fetch: fake.fetch,
  });
  return { api, sent: fake.sent };
}

const envelope = (status: number, detail: string) => ({ errors: [{ status: String(status), title: 'x', detail }] });

const member: Member = {
  id: '1001',
  first_name: 'Ada',
  current_points: 700,
  lifetime_points: 1200,
  pending_points: 50,
  loyalty_status: 'member',
  vip_tier: { id: 'silver', name: 'Silver', threshold: 1000, points_multiplier: 1.25, badge_image_url: null, badge_color: '#8a8d91' },
  next_tier: { id: 'gold', name: 'Gold', threshold: 2000, remaining: 800 },
  referral_url: 'https://demo.myshopify.com/?ref=ADA1',
  referral_code: 'ADA1',
  points_expiring: { points: 200, at: '2027-01-31T00:00:00.000Z' },
  redeemable_reward_ids: ['r-500'],
};

const reward = (id: string, points_cost: number, extra: Partial<Program['rewards'][number]> = {}): Program['rewards'][number] => ({
  id,
  name: `Reward ${id}`,
  description: null,
  discount_type: 'fixed',
  discount_amount: 5,
  minimum_spend: 0,
  redemption_mode: 'fixed',
  points_cost,
  flexible: null,
  vip_tier_id: null,
  expiry_days: 30,
  ...extra,
});

const program: Program = {
  id: 'demo',
  loyalty_mode: 'points',
  currency: 'USD',
  earning_rules: [
    {
      id: 'e1',
      name: 'signup',
      action: 'signup',
      customer_facing_label: 'Create an account',
      call_to_action_url: null,
      points: 100,
      spend_unit: null,
    },
    {
      id: 'e2',
      name: 'Follow us',
      action: 'instagram_follow',
      customer_facing_label: '  ',
      call_to_action_url: 'https://x.test',
      points: 25,
      spend_unit: null,
    },
  ],
  campaign: null,
  rewards: [reward('r-500', 500), reward('r-1000', 1000), reward('r-gold', 300, { vip_tier_id: 'gold' })],
  vip_tiers: [
    { id: 'silver', name: 'Silver', threshold: 1000, points_multiplier: 1.25, badge_color: '#8a8d91', badge_image_url: null },
    { id: 'gold', name: 'Gold', threshold: 2000, points_multiplier: 1.5, badge_color: '#b8860b', badge_image_url: null },
  ],
};

describe('the /shopper client of the customer account extensions', () => {
  it('calls the service by its absolute URL with a fresh session token as a bearer on every request', async () => {
    const { api, sent } = client([
      { status: 200, body: { data: { type: 'program', id: 'demo', attributes: { ...program, id: undefined } } } },
      { status: 200, body: { data: null, meta: { logged_in: true, member: false } } },
    ]);
    const read = await api.program();
    const who = await api.member();

    expect(read.id).toBe('demo');
    expect(read.rewards.map((entry) => entry.id)).toEqual(['r-500', 'r-1000', 'r-gold']);
    expect(who).toEqual({ loggedIn: true, member: null });
    expect(sent.map((request) => [request.method, request.url, request.headers.Authorization])).toEqual([
      ['GET', 'https://api.example.test/prod/shopper/program', 'Bearer token-1'],
      ['GET', 'https://api.example.test/prod/shopper/member', 'Bearer token-2'],
    ]);
    expect(sent[0]!.headers['Content-Type']).toBeUndefined();
  });

  it('joins with POST /shopper/member and tells a new member (201) from an existing one (200)', async () => {
    const body = {
      data: { type: 'shopper_member', id: '1001', attributes: { ...member, id: undefined } },
      meta: { logged_in: true, member: true },
    };
    const { api, sent } = client([
      { status: 201, body },
      { status: 200, body },
    ]);

    expect(await api.join()).toEqual({ created: true, member });
    expect((await api.join()).created).toBe(false);
    expect(sent[0]).toMatchObject({ method: 'POST', url: 'https://api.example.test/prod/shopper/member', body: '{}' });
    expect(sent[0]!.headers['Content-Type']).toBe('application/json');
  });

  it('redeems with the Idempotency-Key given and the points of a flexible reward, and reads the code', async () => {
    const redemption = {
      reward_id: 'r/1',
      reward_name: 'Five off',
      points_spent: 500,
      discount_code: 'LOYAL-ABC',
      expires_at: null,
      status: 'active',
    };
    const { api, sent } = client([
      { status: 201, body: { data: { type: 'redemption', id: 'h1', attributes: redemption } } },
      { status: 201, body: { data: { type: 'redemption', id: 'h2', attributes: redemption } } },
    ]);

    expect(await api.redeem('r/1', { idempotencyKey: 'key-1' })).toEqual({ id: 'h1', ...redemption });
    await api.redeem('flex', { idempotencyKey: 'key-2', points: 750 });
    expect(sent.map((request) => [request.url, request.headers['Idempotency-Key'], request.body])).toEqual([
      ['https://api.example.test/prod/shopper/rewards/r%2F1/redeem', 'key-1', '{}'],
      ['https://api.example.test/prod/shopper/rewards/flex/redeem', 'key-2', '{"points":750}'],
    ]);
  });

  it("pages the activity by the answer's own page figures, and takes an answer without them for none of the service's", async () => {
    const line = (id: string) => ({
      type: 'activity',
      id,
      attributes: {
        kind: 'earned',
        points: 5,
        label: 'Order #1',
        status: 'approved',
        created_at: '2026-01-01T00:00:00Z',
        discount_code: null,
      },
    });
    const { api, sent } = client([
      { status: 200, body: { data: [line('a'), line('b')], meta: { total: 12, page: 1, per_page: 2, total_pages: 6 } } },
      { status: 200, body: { data: [line('c')], meta: { total: 12, page: 6, per_page: 2, total_pages: 6 } } },
      { status: 200, body: { data: [line('d'), line('e')] } },
    ]);

    const first = await api.activity(1, 2);
    expect(first.entries.map((entry) => entry.id)).toEqual(['a', 'b']);
    expect(first.entries[0]).toMatchObject({ kind: 'earned', points: 5, label: 'Order #1', discount_code: null });
    expect(first).toMatchObject({ page: 1, total_pages: 6, hasMore: true });
    expect(await api.activity(6, 2)).toMatchObject({ page: 6, total_pages: 6, hasMore: false });
    await expect(api.activity(2, 2)).rejects.toMatchObject({ kind: 'network' });
    expect(sent[0]!.url).toBe('https://api.example.test/prod/shopper/member/activity?page%5Bnumber%5D=1&page%5Bsize%5D=2');
  });

  it.each<[number, string, ShopperErrorKind]>([
    [401, 'member', 'sign_in'],
    [403, 'redeem', 'not_allowed'],
    [404, 'member/activity', 'not_member'],
    [404, 'redeem', 'not_found'],
    [422, 'redeem', 'insufficient'],
    [429, 'program', 'throttled'],
    [503, 'redeem', 'unavailable'],
    [500, 'redeem', 'unavailable'],
    [400, 'redeem', 'invalid'],
  ])('reads a %i on %s as %s', (status, route, kind) => {
    expect(errorKind(status, route)).toBe(kind);
  });

  it("turns the service's error envelope into an error with its status and detail", async () => {
    const { api } = client([{ status: 422, body: envelope(422, 'Customer has 10 points but this reward costs 500') }]);
    const failure = await api.redeem('r-500', { idempotencyKey: 'k' }).catch((error: unknown) => error);

    expect(failure).toBeInstanceOf(ShopperApiError);
    expect(failure).toMatchObject({ kind: 'insufficient', status: 422, detail: 'Customer has 10 points but this reward costs 500' });
  });

  it('reports no answer, or an answer that is not JSON (a gateway page), as a network error', async () => {
    const { api } = client([new TypeError('Failed to fetch'), { status: 502, body: '<html>Bad gateway</html>' }]);

    await expect(api.member()).rejects.toMatchObject({ kind: 'network', status: 0, detail: 'Failed to fetch' });
    await expect(api.member()).rejects.toMatchObject({ kind: 'network', status: 502 });
  });
});

describe('what the loyalty page derives from the answers', () => {
  it("shows the progress between the member's tier and the next from the service's remaining points", () => {
    expect(tierProgress(member, program)).toEqual({ current: 'Silver', next: 'Gold', remaining: 800, percent: 20 });
    expect(
      tierProgress({ ...member, vip_tier: null, next_tier: { id: 'silver', name: 'Silver', threshold: 1000, remaining: 250 } }, program),
    ).toEqual({
      current: null,
      next: 'Silver',
      remaining: 250,
      percent: 75,
    });
    expect(tierProgress({ ...member, next_tier: null }, program)).toBeNull();
  });

  it('offers to redeem exactly the rewards the service calls redeemable, and says why the others are not', () => {
    const offers = rewardOffers(program, member);
    expect(offers.map((offer) => [offer.reward.id, offer.state])).toEqual([
      ['r-500', { kind: 'redeemable', points: 500 }],
      ['r-1000', { kind: 'short', needed: 300 }],
      ['r-gold', { kind: 'tier', tier: 'Gold' }],
    ]);
    // The service's word wins: a reward it does not list is never offered, even with the points for it.
    expect(rewardOffers(program, { ...member, current_points: 5000, redeemable_reward_ids: [] })[0]!.state).toEqual({
      kind: 'unavailable',
    });
    expect(rewardOffers(program, { ...member, loyalty_status: 'excluded', redeemable_reward_ids: [] })[1]!.state).toEqual({
      kind: 'unavailable',
    });
    // A guest or a non-member sees the rewards and their cost, with no action.
    expect(rewardOffers(program, null).map((offer) => offer.state)).toEqual([null, null, null]);
  });

  it("costs a flexible reward at its minimum, the amount the service's redeemable list assumes", () => {
    const flexible = reward('flex', 0, {
      redemption_mode: 'flexible',
      flexible: { min_points: 200, max_points: 2000, points_per_unit: 100 },
    });
    const [offer] = rewardOffers({ ...program, rewards: [flexible] }, { ...member, redeemable_reward_ids: ['flex'] });
    expect(offer).toMatchObject({ cost: 200, state: { kind: 'redeemable', points: 200 } });
  });

  it("words the ways to earn with the rule's name and the shopper's points now, a per-spend rule's for its unit", () => {
    const withOrder = {
      ...program,
      earning_rules: [
        ...program.earning_rules,
        {
          id: 'e3',
          name: 'Place an order',
          action: 'purchase',
          customer_facing_label: '5 points for every $1 spent',
          call_to_action_url: null,
          points: 20,
          spend_unit: 1,
        },
      ],
    };
    // The label states the base figure; the line shows what the service computed for this shopper now.
    expect(waysToEarn(withOrder)).toEqual([
      { id: 'e1', label: 'signup', points: 100, per: null, url: null },
      { id: 'e2', label: 'Follow us', points: 25, per: null, url: 'https://x.test' },
      { id: 'e3', label: 'Place an order', points: 20, per: 1, url: null },
    ]);
    expect(waysToEarn({ ...program, earning_rules: [{ ...program.earning_rules[0]!, name: ' ' }] })[0]!.label).toBe('Create an account');
  });

  it('signs activity lines and has a text for every kind and every error', () => {
    const entry = { id: 'x', label: 'Five off', status: 'active', created_at: '2026-01-01T00:00:00Z', discount_code: null };
    expect(activityLine({ ...entry, kind: 'spent', points: -500 })).toEqual({ key: 'activity.kind.spent', sign: '−', points: 500 });
    expect(activityLine({ ...entry, kind: 'earned', points: 50 })).toEqual({ key: 'activity.kind.earned', sign: '+', points: 50 });

    const texts = en as unknown as Record<string, Record<string, unknown>>;
    for (const kind of ['earned', 'spent', 'refunded', 'expired', 'adjusted']) expect(texts.activity!.kind).toHaveProperty(kind);
    const kinds: ShopperErrorKind[] = [
      'sign_in',
      'not_member',
      'not_found',
      'not_allowed',
      'insufficient',
      'throttled',
      'unavailable',
      'invalid',
      'network',
    ];
    for (const kind of kinds) expect(typeof texts.error![errorMessageKey(kind).slice('error.'.length)]).toBe('string');
  });
});
