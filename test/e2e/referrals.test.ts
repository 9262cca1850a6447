// The referred friend's reward through HTTP on the twin (PROGRAM-CONTRACT.md, "The referred friend's
// reward"): a member's referral code and a friend's e-mail give the friend a single-use code from the shop's
// friend reward, for any buyer, charging no points; refusals in the spec's envelope for an unknown code, the
// referrer's own e-mail under any of its forms, a mailbox referred before, a customer with a paid order and a
// referrer past the day's cap, which concurrent requests never get past.
import type { Twin } from '../../infra/local/twin';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { platformControls } from '../support/orders';
import { scanAll } from '../support/test-table';
import { apiClient, expectError, startTestTwin } from '../support/twin';

let twin: Twin;
let api: ReturnType<typeof apiClient>;

const MAX_PER_DAY = 3;

export function referralsConfig() {
  const config = e2eConfig();
  const shop = config.shops[0]! as Record<string, unknown> & { platform: { customers: Array<{ id: string; email: string }> } };
  const members = shop.members as Array<Record<string, unknown>>;
  Object.assign(shop, {
    referral_settings: { friend_reward_id: 'welcome', max_friends_per_day: MAX_PER_DAY },
    rewards: [
      ...(shop.rewards as unknown[]),
      {
        id: 'welcome',
        name: 'Welcome, friend',
        points_cost: 300,
        discount_amount: 7.5,
        minimum_spend: 25,
        expiry_days: 14,
        is_active: false,
        created_at: '2025-01-01T00:00:00.000Z',
      },
    ],
    earning_rules: [
      { id: 'order', name: 'Order', action: 'purchase', category: 'purchase', points_to_give: 1, created_at: '2025-01-01T00:00:00.000Z' },
      { id: 'refer', name: 'Refer', action: 'referral', category: 'referral', points_to_give: 40, created_at: '2025-01-01T00:00:00.000Z' },
    ],
  });
  // A Gmail referrer, and a member who already has a paid order.
  shop.platform.customers.find((customer) => customer.id === '1002')!.email = 'Grace.Hopper@gmail.com';
  members.find((member) => member.platform_customer_id === '1003')!.orders_count = 2;
  return config;
}

beforeAll(async () => {
  twin = await startTestTwin(referralsConfig(), { throttling: false });
  api = apiClient(twin.url, KEYS.full);
});
afterAll(async () => {
  await setClock(null);
  await twin?.stop();
});
afterEach(() => twin.simulator.setFaults({ discount_codes: 'ok' }));

async function setClock(now: string | null): Promise<void> {
  const answer = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now }) });
  expect(answer.status).toBe(200);
}

const codeOf = async (id: string): Promise<string> => (await api.get(`/v1/customers/${id}`)).body.data.attributes.referral_code;
const refer = (code: string, email: string, headers?: Record<string, string>) =>
  api.post('/v1/referrals', { referral_code: code, email }, headers);
const platformCodes = () => twin.simulator.discountCodes();
const events = async () => ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<Record<string, unknown>> }).events;
const referralItems = async () => (await scanAll()).filter((item) => String(item.sk).startsWith('FRIEND#'));

describe('POST /v1/referrals', () => {
  it("creates the friend's single-use code from the friend reward, for any buyer, and charges no one", async () => {
    const code = await codeOf('1001');
    const before = (await api.get('/v1/customers/1001')).body.data.attributes;

    const response = await refer(code, ' Friend.Zero@Example.com ');

    expect(response.status).toBe(201);
    const { data } = response.body;
    expect(data).toEqual({
      type: 'referral',
      id: expect.any(String),
      attributes: {
        referral_code: code,
        referrer_platform_customer_id: '1001',
        email: 'Friend.Zero@Example.com',
        discount_code: expect.stringMatching(/^FRIEND-[A-Z2-9]{4}-[A-Z2-9]{4}-[A-Z2-9]{4}$/),
        expires_at: expect.any(String),
        created_at: expect.any(String),
      },
    });
    const { attributes } = data;
    expect(Date.parse(attributes.expires_at) - Date.parse(attributes.created_at)).toBe(14 * 86_400_000);
    // On the platform: the reward's discount and minimum spend, for no customer in particular.
    const onPlatform = platformCodes().find((entry) => entry.code === attributes.discount_code);
    expect(onPlatform).toMatchObject({ shop: 'e2e', customer_id: null, amount: 7.5, type: 'fixed', minimum_spend: 25 });
    expect(onPlatform!.ends_at).toBe(attributes.expires_at);
    // No points move: the reward's points_cost is charged to no one.
    const after = (await api.get('/v1/customers/1001')).body.data.attributes;
    expect(after.current_points).toBe(before.current_points);
    expect(after.redeemed_points).toBe(before.redeemed_points);
    expect(await events()).toContainEqual(
      expect.objectContaining({
        type: 'referral.created',
        shop_id: 'e2e',
        customer_id: '1001',
        referral_id: data.id,
        referral_code: code,
        friend_email: 'Friend.Zero@Example.com',
        discount_code: attributes.discount_code,
        reward_id: 'welcome',
        expires_at: attributes.expires_at,
      }),
    );
  });

  it('accepts the referral code in any case, and replays the first answer for the same Idempotency-Key', async () => {
    const code = await codeOf('1004');
    const headers = { 'Idempotency-Key': 'refer-friend-replay' };

    const first = await refer(code.toLowerCase(), 'friend.replay@example.com', headers);
    const again = await refer(code.toLowerCase(), 'friend.replay@example.com', headers);

    expect(first.status).toBe(201);
    expect(first.body.data.attributes.referral_code).toBe(code);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotency-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect(platformCodes().filter((entry) => entry.code === first.body.data.attributes.discount_code)).toHaveLength(1);
  });

  it('refuses an unknown referral code, and the code of an excluded member', async () => {
    expectError(await refer('NOSUCHCODE', 'friend.a@example.com'), 422, "Unknown referral code 'NOSUCHCODE'");
    expectError(
      await refer(await codeOf('1025'), 'friend.a@example.com'),
      422,
      /^The member of referral code '.+' is excluded from the loyalty program$/,
    );
  });

  it.each([
    ['the same address', '1002', 'Grace.Hopper@gmail.com', 'A member cannot refer their own e-mail'],
    ['another case and spaces', '1002', '  GRACE.HOPPER@GMAIL.COM  ', 'A member cannot refer their own e-mail'],
    ['a +tag', '1002', 'grace.hopper+friends@gmail.com', /is the referrer's own e-mail under another form$/],
    ['Gmail dots', '1002', 'g.r.a.c.e.h.o.p.p.e.r@gmail.com', /is the referrer's own e-mail under another form$/],
    ['googlemail.com, dots and a tag', '1002', 'GraceHopper+x@GoogleMail.com', /is the referrer's own e-mail under another form$/],
    ['a +tag outside Gmail', '1001', 'ada.lovelace+me@example.com', /is the referrer's own e-mail under another form$/],
  ])("refuses the referrer's own e-mail: %s", async (_, referrer, email, detail) => {
    const response = await refer(await codeOf(referrer), email);

    expectError(response, 422, detail);
    expect(response.body.errors[0].title).toBe('Self Referral');
  });

  it('keeps dots outside Gmail: another address at the same host is another person', async () => {
    expect((await refer(await codeOf('1001'), 'adalovelace@example.com')).status).toBe(201);
  });

  it.each([
    ['the same address', 'friend.two@gmail.com'],
    ['another case', 'FRIEND.TWO@gmail.com'],
    ['surrounding spaces', '  friend.two@gmail.com\t'],
    ['a +tag', 'friend.two+again@gmail.com'],
    ['Gmail dots', 'f.r.i.e.n.d.two@gmail.com'],
    ['googlemail.com', 'friendtwo@googlemail.com'],
  ])('refuses a mailbox referred before in the shop, by anyone: %s', async (_, email) => {
    // Referred once by 1005 (the first run of this table); each variant is refused, whoever refers it.
    const first = await refer(await codeOf('1005'), 'friend.two@gmail.com');
    expect([201, 422]).toContain(first.status);

    const response = await refer(await codeOf('1007'), email);

    expectError(response, 422, `'${email.trim()}' has already been referred in this shop`);
    expect(response.body.errors[0].title).toBe('Already Referred');
  });

  it('refuses the e-mail of a customer who already has a paid order, under its other forms too', async () => {
    const code = await codeOf('1001');

    expectError(
      await refer(code, 'customer1003@example.com'),
      422,
      "'customer1003@example.com' belongs to a customer who already has a paid order",
    );
    expectError(await refer(code, 'Customer1003+promo@Example.com'), 422, /belongs to a customer who already has a paid order/);
    // A member without a paid order may be referred.
    expect((await refer(code, 'customer1009@example.com')).status).toBe(201);
  });

  it('refuses bad bodies with 400, a read-only key with 403, and a shop without referral_settings with 422', async () => {
    const code = await codeOf('1001');

    expectError(await api.post('/v1/referrals', { referral_code: code }), 400, 'email is required');
    expectError(await api.post('/v1/referrals', { email: 'x@example.com' }), 400, 'referral_code is required');
    expectError(await refer(code, 'not-an-address'), 400, 'email must be an e-mail address');
    expectError(await api.post('/v1/referrals', { referral_code: 7, email: 'x@example.com' }), 400, 'referral_code must be a string');
    expectError(await apiClient(twin.url, KEYS.read).post('/v1/referrals', { referral_code: code, email: 'x@example.com' }), 403);
    const other = await apiClient(twin.url, KEYS.otherShop).post('/v1/referrals', { referral_code: code, email: 'x@example.com' });
    expectError(other, 422, /no reward for referred friends/);
    expect(other.body.errors[0].title).toBe('Referrals Not Enabled');
  });

  it.each([
    ['markup after the address', 'v@example.com<svg/onload=alert(1)>'],
    ['a right-to-left override', 'rtl\u202egro@example.com'],
    ['a NUL', 'nul\u0000@example.com'],
    ['a quoted local part', '"friend quoted"@example.com'],
    ['an address over 254 characters', `${'a'.repeat(64)}@${'b'.repeat(190)}.com`],
  ])('refuses an e-mail with %s with 400, and stores, lists and publishes nothing', async (_case, email) => {
    const code = await codeOf('1001');
    const before = (await referralItems()).length;

    expectError(await refer(code, email), 400, 'email must be an e-mail address');

    expect((await referralItems()).length).toBe(before);
  });

  it('takes an address whose domain is internationalised, and one with an apostrophe', async () => {
    const code = await codeOf('1022');

    expect((await refer(code, 'friend.idn@exämple.com')).status).toBe(201);
    expect((await refer(code, "o'friend@example.com")).status).toBe(201);
  });

  it('answers 503 when the platform fails, with no code and no referral listed; the same request finishes it after a minute', async () => {
    const code = await codeOf('1008');
    const codesBefore = platformCodes().length;
    twin.simulator.setFaults({ discount_codes: 'unreachable' });
    await setClock('2031-05-01T10:00:00.000Z');

    const refused = await refer(code, 'friend.outage@example.com');

    expectError(refused, 503);
    expect(platformCodes()).toHaveLength(codesBefore);
    // The code may have been created before the connection failed, and it could not be looked up: the
    // referral stays `issuing` (never listed), for a retry to finish.
    const stalled = (await referralItems()).find((item) => item.email === 'friend.outage@example.com');
    expect(stalled).toMatchObject({ status: 'issuing', platform_discount_id: null });
    twin.simulator.setFaults({ discount_codes: 'ok' });
    // While an invocation may still be at work on it, the mailbox is taken.
    await setClock('2031-05-01T10:00:30.000Z');
    expectError(await refer(code, 'friend.outage@example.com'), 422, /has already been referred/);
    // Past any invocation's time, the same request finishes it: the same referral and code, created once.
    await setClock('2031-05-01T10:01:30.000Z');
    const finished = await refer(code, 'friend.outage@example.com');
    expect(finished.status).toBe(201);
    expect(finished.body.data.id).toBe(stalled!.id);
    expect(finished.body.data.attributes.discount_code).toBe(stalled!.discount_code);
    expect(platformCodes().filter((entry) => entry.code === stalled!.discount_code)).toHaveLength(1);
    // Another referrer does not take it over.
    expectError(await refer(await codeOf('1009'), 'friend.outage@example.com'), 422, /has already been referred/);
    await setClock(null);
  });

  it('takes everything back when the platform refuses the code (nothing can exist), so the same request succeeds at once', async () => {
    const code = await codeOf('1013');
    twin.simulator.setFaults({ discount_codes: 'error' });

    const refused = await refer(code, 'friend.refused@example.com');

    expect([500, 503]).toContain(refused.status);
    expect((await referralItems()).filter((item) => item.email === 'friend.refused@example.com')).toHaveLength(0);
    twin.simulator.setFaults({ discount_codes: 'ok' });
    expect((await refer(code, 'friend.refused@example.com')).status).toBe(201);
  });

  it('gives one of 10 concurrent requests for one friend a code, and refuses the other nine', async () => {
    const codes = await Promise.all(['1010', '1011'].map(codeOf));
    const variants = ['race.friend@gmail.com', 'Race.Friend@gmail.com', 'racefriend+1@googlemail.com', ' race.friend@gmail.com '];

    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => refer(codes[i % 2]!, variants[i % variants.length]!)));

    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expectError(answer, 422, /has already been referred in this shop$/);
    }
    const created = answers.find((answer) => answer.status === 201)!.body.data.attributes;
    expect((await referralItems()).filter((item) => item.canonical_email === 'racefriend@gmail.com')).toHaveLength(1);
    expect(platformCodes().filter((entry) => entry.code === created.discount_code)).toHaveLength(1);
  });

  it("gives exactly the day's cap of concurrent friends of one referrer a code, and more the next UTC day", async () => {
    await setClock('2031-03-04T23:59:00.000Z');
    const code = await codeOf('1012');
    const before = platformCodes().length;

    const answers = await Promise.all(Array.from({ length: 9 }, (_, i) => refer(code, `capped.${i}@example.com`)));

    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(MAX_PER_DAY);
    for (const answer of answers.filter((a) => a.status !== 201)) {
      expectError(answer, 422, `The member of referral code '${code}' has referred the maximum of ${MAX_PER_DAY} friends today (UTC)`);
      expect(answer.body.errors[0].title).toBe('Referral Limit Reached');
    }
    expect(platformCodes().length - before).toBe(MAX_PER_DAY);
    // A refused friend may be referred the next UTC day.
    const refusedEmail = `capped.${answers.findIndex((answer) => answer.status === 422)}@example.com`;
    await setClock('2031-03-05T00:00:01.000Z');
    expect((await refer(code, refusedEmail)).status).toBe(201);
    await setClock(null);
  });
});

describe("an order paid with a friend's code", () => {
  const referralEntries = async (referrer: string) =>
    (await api.get(`/v1/customers/${referrer}/earning-history?page%5Bsize%5D=100`)).body.data.filter(
      (entry: { attributes: { action: string } }) => entry.attributes.action === 'referral',
    );

  it("counts as referred by the code's member without a landing page or note, and completes the referral", async () => {
    const platform = platformControls(twin);
    const friendCode = (await refer(await codeOf('1014'), 'customer1026@example.com')).body.data.attributes.discount_code;
    expect((await api.post('/v1/customers', { platform_customer_id: '1026' })).status).toBe(201);
    const before = (await api.get('/v1/customers/1014')).body.data.attributes;

    // The friend's first order: paid with the code (in lower case, as a shopper may type it), nothing else.
    const { order, webhook } = await platform.order({
      shop: 'e2e',
      customer_id: '1026',
      subtotal_price: '30.00',
      discount_codes: [friendCode.toLowerCase()],
    });

    expect(webhook?.status).toBe(200);
    const entries = await referralEntries('1014');
    expect(entries).toHaveLength(1);
    expect(entries[0].attributes).toMatchObject({ points: 40, status: 'approved', order_id: String(order.id), earning_rule_id: 'refer' });
    expect((await api.get('/v1/customers/1014')).body.data.attributes.current_points).toBe(before.current_points + 40);
    const referral = (await referralItems()).find((item) => item.discount_code === friendCode);
    expect(referral).toMatchObject({ status: 'completed', friend_platform_customer_id: '1026', order_id: String(order.id) });
  });

  it("awards nothing for a first order without a referral code or a friend's code, and a referrer never refers themselves with it", async () => {
    const platform = platformControls(twin);
    const friendCode = (await refer(await codeOf('1015'), 'friend.self@example.com')).body.data.attributes.discount_code;
    expect((await api.post('/v1/customers', { platform_customer_id: '1027' })).status).toBe(201);

    await platform.order({ shop: 'e2e', customer_id: '1027', subtotal_price: '30.00', discount_codes: ['SUMMER10'] });
    // 1016 has no order yet: using 1015's friend code is 1015's referral; 1015 using it is a self-referral.
    await platform.order({ shop: 'e2e', customer_id: '1015', subtotal_price: '30.00', discount_codes: [friendCode] });

    expect(await referralEntries('1015')).toHaveLength(0);
    expect((await referralItems()).find((item) => item.discount_code === friendCode)).toMatchObject({ status: 'active' });
  });
});

describe('GET /v1/customers/{identifier}/referrals', () => {
  it('lists the referrals the member made, newest first, pending until the friend pays and completed after', async () => {
    const platform = platformControls(twin);
    const code = await codeOf('1016');
    await setClock('2031-07-01T10:00:00.000Z');
    const first = (await refer(code, 'customer1028@example.com')).body.data;
    await setClock('2031-07-01T10:00:01.000Z');
    const second = (await refer(code, 'listed.two@example.com')).body.data;
    await setClock(null);
    expect((await api.post('/v1/customers', { platform_customer_id: '1028' })).status).toBe(201);
    await platform.order({
      shop: 'e2e',
      customer_id: '1028',
      subtotal_price: '40.00',
      discount_codes: [first.attributes.discount_code],
    });

    const response = await apiClient(twin.url, KEYS.read).get('/v1/customers/1016/referrals');

    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ total: 2, page: 1, per_page: 20, total_pages: 1 });
    expect(response.body.data.map((referral: { id: string }) => referral.id)).toEqual([second.id, first.id]);
    expect(response.body.data[0]).toEqual({ ...second, attributes: { ...second.attributes, status: 'pending', completed_at: null } });
    expect(response.body.data[1].attributes).toMatchObject({ ...first.attributes, status: 'completed', completed_at: expect.any(String) });
  });

  it('pages as the spec lists do, by id or e-mail, and refuses bad pages and unknown customers', async () => {
    const code = await codeOf('1017');
    for (let i = 0; i < 3; i += 1) expect((await refer(code, `paged.${i}@example.com`)).status).toBe(201);
    const list = (query: string, who = '1017') => api.get(`/v1/customers/${who}/referrals${query}`);

    const page2 = await list('?page%5Bnumber%5D=2&page%5Bsize%5D=2');
    const beyond = await list('?page%5Bnumber%5D=9&page%5Bsize%5D=2');
    const byEmail = await list('', 'customer1017@example.com');

    expect(page2.body.meta).toEqual({ total: 3, page: 2, per_page: 2, total_pages: 2 });
    expect(page2.body.data).toHaveLength(1);
    expect(page2.body.data[0].attributes.email).toBe('paged.0@example.com');
    expect(beyond.body).toEqual({ data: [], meta: { total: 3, page: 9, per_page: 2, total_pages: 2 } });
    expect(byEmail.body.meta.total).toBe(3);
    expect((await list('?page%5Bsize%5D=500')).body.meta.per_page).toBe(100);
    expectError(await list('?page%5Bsize%5D=0'), 400);
    expectError(await list('?page%5Bnumber%5D=abc'), 400);
    expectError(await list('', '9999'), 404, "Customer '9999' not found");
    expect((await list('', '1018')).body).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20, total_pages: 0 } });
  });
});

describe('a referred friend who comes through the referral link without the code', () => {
  const entriesOf = async (referrer: string) =>
    (await api.get(`/v1/customers/${referrer}/earning-history?page%5Bsize%5D=100`)).body.data.filter(
      (entry: { attributes: { action: string } }) => entry.attributes.action === 'referral',
    );
  const listedOf = async (referrer: string, id: string) =>
    (await apiClient(twin.url, KEYS.read).get(`/v1/customers/${referrer}/referrals`)).body.data.find(
      (entry: { id: string }) => entry.id === id,
    );

  it("completes the friend's referral with the referrer's award, once, however often the order arrives", async () => {
    const platform = platformControls(twin);
    const code = await codeOf('1019');
    // Referred under another form of the address the friend's account has.
    const referral = (await refer(code, ' Customer1029+spring@Example.com ')).body.data;
    expect((await api.post('/v1/customers', { platform_customer_id: '1029' })).status).toBe(201);

    // The first order: through the member's link (the landing page carries the code), no discount code.
    const { order, webhook } = await platform.order({
      shop: 'e2e',
      customer_id: '1029',
      subtotal_price: '30.00',
      landing_site: `/?ref=${code}`,
    });
    expect(webhook?.status).toBe(200);
    expect((await platform.redeliver(webhook!.id)).status).toBe(200);
    expect((await platform.redeliver(webhook!.id)).status).toBe(200);

    expect(await entriesOf('1019')).toHaveLength(1);
    const listed = await listedOf('1019', referral.id);
    expect(listed.attributes).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    const stored = (await referralItems()).find((item) => item.id === referral.id);
    expect(stored).toMatchObject({ status: 'completed', friend_platform_customer_id: '1029', order_id: String(order.id) });
    const completedAt = listed.attributes.completed_at;
    // A later order changes nothing.
    await platform.order({ shop: 'e2e', customer_id: '1029', subtotal_price: '12.00', landing_site: `/?ref=${code}` });
    expect((await listedOf('1019', referral.id)).attributes.completed_at).toBe(completedAt);
    expect(await entriesOf('1019')).toHaveLength(1);
  });

  it("leaves the referral pending when the friend comes through another member's link, who earns instead", async () => {
    const platform = platformControls(twin);
    const referral = (await refer(await codeOf('1020'), 'customer1030@example.com')).body.data;
    expect((await api.post('/v1/customers', { platform_customer_id: '1030' })).status).toBe(201);

    await platform.order({
      shop: 'e2e',
      customer_id: '1030',
      subtotal_price: '30.00',
      note_attributes: [{ name: 'referral_code', value: await codeOf('1021') }],
    });

    expect(await entriesOf('1021')).toHaveLength(1);
    expect(await entriesOf('1020')).toHaveLength(0);
    expect((await listedOf('1020', referral.id)).attributes.status).toBe('pending');
  });
});
