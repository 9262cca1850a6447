import type { Twin } from '../../infra/local/twin';
import { rewardEntryItem } from '../../shared/data/items/reward-entry';
import { batchPut } from '../../shared/data/shop-repository';
import type { RewardStatus } from '../../shared/domain/history';
import { echoed } from '../../shared/domain/errors';
import {
  CREDIT_EARNING_ID,
  CREDIT_REWARD_ID,
  HISTORY_KEYS,
  MAIN_EARNINGS,
  MAIN_REWARDS,
  MEMBERS,
  SECOND_EARNING_ID,
  SECOND_REWARD_ID,
  historyConfig,
} from '../fixtures/history-config';
import { apiClient, expectError, startTestTwin, type ApiResponse } from '../support/twin';

let twin: Twin;
let api: ReturnType<typeof apiClient>;
let credit: ReturnType<typeof apiClient>;

const MAIN = MEMBERS.main.id;
// Written the way the purchase saga parks an entry before its discount code exists.
const PENDING_REWARD_ID = 'hist-redeem-pending';

beforeAll(async () => {
  twin = await startTestTwin(historyConfig(), { throttling: false });
  api = apiClient(twin.url, HISTORY_KEYS.full);
  credit = apiClient(twin.url, HISTORY_KEYS.credit);
  await batchPut([
    rewardEntryItem('hist-points', MAIN, {
      ...MAIN_REWARDS[0]!,
      id: PENDING_REWARD_ID,
      status: 'pending' as RewardStatus,
      points_spent: 50,
      created_at: '2025-03-01T00:00:00.000Z',
      updated_at: '2025-03-01T00:00:00.000Z',
    }),
  ]);
});
afterAll(async () => {
  await twin.stop();
});

const EARNING_FIELDS = [
  'earning_rule_id',
  'action',
  'points',
  'base_points',
  'points_multiplier',
  'status',
  'order_id',
  'order_number',
  'points_due_at',
  'points_given_at',
  'points_expiry_at',
  'created_at',
  'updated_at',
];
const REWARD_FIELDS = [
  'reward_id',
  'reward_name',
  'reward_discount_type',
  'points_spent',
  'discount_code',
  'status',
  'is_refunded',
  'discount_code_redeemed_at',
  'redeemed_at',
  'expires_at',
  'created_at',
  'updated_at',
];

type ConfigEarning = (typeof MAIN_EARNINGS)[number];
type ConfigReward = (typeof MAIN_REWARDS)[number];
type Resource = { type: string; id: string; attributes: Record<string, unknown> };

/** The attributes an imported entry is served with (the import sets updated_at to created_at). */
function earningAttributes({ id: _id, ...entry }: ConfigEarning) {
  return { ...entry, updated_at: entry.created_at };
}

/** The import dates a reward entry by its redemption, and updates it when the code was used. */
function rewardAttributes({ id: _id, ...entry }: ConfigReward) {
  return { ...entry, created_at: entry.redeemed_at, updated_at: entry.discount_code_redeemed_at ?? entry.redeemed_at };
}

const ids = (response: ApiResponse): string[] => response.body.data.map((resource: Resource) => resource.id);
const byCreatedAt = <T extends { created_at?: string; redeemed_at?: string }>(a: T, b: T) =>
  (a.created_at ?? a.redeemed_at)! < (b.created_at ?? b.redeemed_at)! ? -1 : 1;
const sortedCopy = (values: Array<string | number>, descending: boolean) => {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return descending ? sorted.reverse() : sorted;
};

/** Reads every page of a list; each page must carry the same total and page count. */
async function allPages(path: string, size: number): Promise<Resource[]> {
  const separator = path.includes('?') ? '&' : '?';
  const first = await api.get(`${path}${separator}page[size]=${size}`);
  expect(first.status).toBe(200);
  const resources: Resource[] = [...first.body.data];
  for (let number = 2; number <= first.body.meta.total_pages; number += 1) {
    const page = await api.get(`${path}${separator}page[size]=${size}&page[number]=${number}`);
    expect(page.body.meta).toMatchObject({ total: first.body.meta.total, page: number, total_pages: first.body.meta.total_pages });
    resources.push(...page.body.data);
  }
  return resources;
}

describe('GET /v1/customers/{identifier}/earning-history', () => {
  const path = `/v1/customers/${MAIN}/earning-history`;

  it('lists the newest entries first, 20 to a page, with pagination meta only', async () => {
    const response = await api.get(path);

    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ total: 27, page: 1, per_page: 20, total_pages: 2 });
    const newestFirst = [...MAIN_EARNINGS].sort(byCreatedAt).reverse();
    expect(ids(response)).toEqual(newestFirst.slice(0, 20).map((entry) => entry.id));
  });

  it('serves each entry as an earning_history_entry with exactly the spec fields', async () => {
    const response = await api.get(`${path}?sort=created_at&page[size]=100`);

    const resources: Resource[] = response.body.data;
    expect(resources).toHaveLength(MAIN_EARNINGS.length);
    resources.forEach((resource, i) => {
      expect(resource.type).toBe('earning_history_entry');
      expect(resource.id).toBe(MAIN_EARNINGS[i]!.id);
      expect(Object.keys(resource.attributes).sort()).toEqual([...EARNING_FIELDS].sort());
      expect(resource.attributes).toEqual(earningAttributes(MAIN_EARNINGS[i]!));
    });
  });

  it.each([
    ['created_at', (entry: ConfigEarning) => entry.created_at],
    ['-created_at', (entry: ConfigEarning) => entry.created_at],
    ['points', (entry: ConfigEarning) => entry.points],
    ['-points', (entry: ConfigEarning) => entry.points],
    ['points_given_at', (entry: ConfigEarning) => entry.points_given_at ?? '~'],
    ['-points_given_at', (entry: ConfigEarning) => entry.points_given_at ?? '~'],
  ])('pages through every entry with sort=%s, in order, without gaps or repeats', async (sort, valueOf) => {
    const resources = await allPages(`${path}?sort=${sort}`, 6);

    expect(resources).toHaveLength(MAIN_EARNINGS.length);
    expect(new Set(resources.map((resource) => resource.id)).size).toBe(MAIN_EARNINGS.length);
    const byId = new Map(MAIN_EARNINGS.map((entry) => [entry.id, entry]));
    const values = resources.map((resource) => valueOf(byId.get(resource.id)!));
    expect(values).toEqual(sortedCopy(values, sort.startsWith('-')));
  });

  it('puts entries whose points were not given yet last when sorting by points_given_at ascending', async () => {
    const notGiven = MAIN_EARNINGS.filter((entry) => entry.points_given_at === null).length;

    const ascending = await api.get(`${path}?sort=points_given_at&page[size]=100`);
    const descending = await api.get(`${path}?sort=-points_given_at&page[size]=${notGiven}`);

    const givenAt = ascending.body.data.map((resource: Resource) => resource.attributes.points_given_at);
    expect(givenAt.slice(-notGiven).every((value: unknown) => value === null)).toBe(true);
    expect(givenAt.slice(0, -notGiven).every((value: unknown) => typeof value === 'string')).toBe(true);
    expect(descending.body.data.every((resource: Resource) => resource.attributes.points_given_at === null)).toBe(true);
  });

  it.each(['pending', 'approved', 'rejected'])('filters by status %s with the filtered total', async (status) => {
    const expected = MAIN_EARNINGS.filter((entry) => entry.status === status);

    const resources = await allPages(`${path}?filter[status]=${status}&sort=created_at`, 4);
    const first = await api.get(`${path}?filter[status]=${status}&page[size]=4`);

    expect(resources.map((resource) => resource.id)).toEqual(expected.map((entry) => entry.id));
    expect(first.body.meta).toEqual({ total: expected.length, page: 1, per_page: 4, total_pages: Math.ceil(expected.length / 4) });
  });

  it('finds the customer by e-mail in any letter case, also percent-encoded', async () => {
    const plain = await api.get('/v1/customers/hist.member@example.com/earning-history');
    const encoded = await api.get('/v1/customers/HIST.MEMBER%40EXAMPLE.COM/earning-history');

    expect(plain.body.meta.total).toBe(27);
    expect(ids(encoded)).toEqual(ids(plain));
  });

  it('returns an empty page beyond the last one, with the real totals', async () => {
    const response = await api.get(`${path}?page[number]=9`);

    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: [], meta: { total: 27, page: 9, per_page: 20, total_pages: 2 } });
  });

  it.each([
    ['page[number]=999999999', 999999999, 20],
    ['page[size]=100&page[number]=21474837', 21474837, 100],
    [`page[number]=${Number.MAX_SAFE_INTEGER}`, Number.MAX_SAFE_INTEGER, 20],
  ])('answers %s (far past the last page) with the empty page and the real totals', async (query, page, perPage) => {
    const response = await api.get(`${path}?${query}`);

    expect(response.body).toEqual({ data: [], meta: { total: 27, page, per_page: perPage, total_pages: Math.ceil(27 / perPage) } });
  });

  it('returns an empty list for a member without history', async () => {
    const response = await api.get(`/v1/customers/${MEMBERS.empty.id}/earning-history`);

    expect(response.body).toEqual({ data: [], meta: { total: 0, page: 1, per_page: 20, total_pages: 0 } });
  });

  it("never shows another customer's entries", async () => {
    const response = await api.get(`/v1/customers/${MEMBERS.second.id}/earning-history`);

    expect(ids(response)).toEqual([SECOND_EARNING_ID]);
  });

  it("shows a store-credit shop's own entries in minor units, never another shop's", async () => {
    const response = await credit.get(`/v1/customers/${MAIN}/earning-history`);

    expect(response.status).toBe(200);
    expect(ids(response)).toEqual(['hist-credit-earn-2', CREDIT_EARNING_ID]);
    expect(response.body.data[1].attributes).toMatchObject({ points: 1250, base_points: 1250, points_multiplier: 1, status: 'approved' });
    expect(response.body.meta).toEqual({ total: 2, page: 1, per_page: 20, total_pages: 1 });
  });

  it('shows the audit entry of a points adjustment with the spec fields only', async () => {
    const adjusted = `/v1/customers/${MEMBERS.adjusted.id}`;
    const adjustment = await api.post(`${adjusted}/points`, { adjustment: 25, note: 'goodwill gesture' });

    const list = await api.get(`${adjusted}/earning-history`);

    expect(adjustment.status).toBe(200);
    expect(list.body.meta.total).toBe(1);
    const [entry] = list.body.data;
    expect(Object.keys(entry.attributes).sort()).toEqual([...EARNING_FIELDS].sort());
    expect(entry.attributes).toMatchObject({ points: 25, base_points: 25, points_multiplier: 1, status: 'approved' });
    expect((await api.get(`${adjusted}/earning-history/${entry.id}`)).body.data).toEqual(entry);
  });

  it.each([
    ['filter[status]=active', "filter[status] must be 'pending', 'approved' or 'rejected'"],
    ['filter[status]=', "filter[status] must be 'pending', 'approved' or 'rejected'"],
    ['filter[action]=purchase', /Unknown filter 'filter\[action\]'/],
    ['sort=points_spent', /Invalid sort 'points_spent'/],
    ['sort=-updated_at', /Invalid sort '-updated_at'/],
    ['page[size]=0', 'page[size] must be a positive integer'],
    ['page[number]=two', 'page[number] must be a positive integer'],
  ])('answers 400 for %s', async (query, detail) => {
    expectError(await api.get(`${path}?${query}`), 400, detail);
  });

  it.each(['9999', 'nobody@example.com', MEMBERS.second.email.replace('second', 'third')])(
    'answers 404 naming the unknown customer %p',
    async (identifier) => {
      expectError(await api.get(`/v1/customers/${identifier}/earning-history`), 404, `Customer '${identifier}' not found`);
    },
  );

  it('answers 404 for a customer who exists only in another shop', async () => {
    expectError(await credit.get(`/v1/customers/${MEMBERS.second.id}/earning-history`), 404, `Customer '${MEMBERS.second.id}' not found`);
  });
});

describe('GET /v1/customers/{identifier}/earning-history/{id}', () => {
  const entryPath = (identifier: string, id: string) => `/v1/customers/${identifier}/earning-history/${id}`;

  it('returns the entry with loyalty_mode and currency in meta', async () => {
    const entry = MAIN_EARNINGS[1]!;

    const response = await api.get(entryPath(MAIN, entry.id));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { type: 'earning_history_entry', id: entry.id, attributes: earningAttributes(entry) },
      meta: { loyalty_mode: 'points', currency: 'USD' },
    });
  });

  it('finds the entry through the customer e-mail', async () => {
    const response = await api.get(entryPath('Hist.Member%40example.com', MAIN_EARNINGS[4]!.id));

    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(MAIN_EARNINGS[4]!.id);
  });

  it('returns the store-credit meta in a store-credit shop', async () => {
    const response = await credit.get(entryPath(MAIN, CREDIT_EARNING_ID));

    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ loyalty_mode: 'store_credit', currency: 'EUR' });
    expect(response.body.data.attributes).toMatchObject({
      points: 1250,
      order_number: '#9001',
      points_given_at: '2025-01-02T13:00:00.000Z',
    });
  });

  it.each([
    ['an unknown entry', MAIN, 'hist-earn-unknown'],
    ["another customer's entry", MAIN, SECOND_EARNING_ID],
    ['an entry under the wrong customer', MEMBERS.second.id, MAIN_EARNINGS[0]!.id],
    ['a reward entry id', MAIN, MAIN_REWARDS[0]!.id],
    ['an unknown customer', '9999', MAIN_EARNINGS[0]!.id],
    ['an unknown e-mail', 'nobody@example.com', MAIN_EARNINGS[0]!.id],
    ['an absurdly long id', MAIN, 'x'.repeat(1500)],
  ])('answers 404 naming the entry for %s', async (_case, identifier, id) => {
    // An id over 100 characters is named by its first 100 (docs/api-behaviour.md).
    expectError(await api.get(entryPath(identifier, id)), 404, `Earning history entry '${echoed(id)}' not found`);
  });

  it("answers 404 for another shop's entry of a customer with the same id", async () => {
    expectError(await credit.get(entryPath(MAIN, MAIN_EARNINGS[0]!.id)), 404, `Earning history entry '${MAIN_EARNINGS[0]!.id}' not found`);
    expectError(await api.get(entryPath(MAIN, CREDIT_EARNING_ID)), 404, `Earning history entry '${CREDIT_EARNING_ID}' not found`);
  });
});

describe('GET /v1/customers/{identifier}/reward-history', () => {
  const path = `/v1/customers/${MAIN}/reward-history`;

  it('lists the newest visible entries first with pagination, loyalty_mode and currency in meta', async () => {
    const response = await api.get(path);

    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ total: 7, page: 1, per_page: 20, total_pages: 1, loyalty_mode: 'points', currency: 'USD' });
    expect(ids(response)).toEqual([...MAIN_REWARDS].reverse().map((entry) => entry.id));
  });

  it('serves each entry as a reward_history_entry with exactly the spec fields', async () => {
    const response = await api.get(`${path}?sort=created_at`);

    const resources: Resource[] = response.body.data;
    resources.forEach((resource, i) => {
      expect(resource.type).toBe('reward_history_entry');
      expect(resource.id).toBe(MAIN_REWARDS[i]!.id);
      expect(Object.keys(resource.attributes).sort()).toEqual([...REWARD_FIELDS].sort());
      expect(resource.attributes).toEqual(rewardAttributes(MAIN_REWARDS[i]!));
    });
  });

  it.each(['created_at', '-created_at', 'points_spent', '-points_spent'])(
    'pages through every visible entry with sort=%s, in order, without gaps or repeats',
    async (sort) => {
      const field = sort.replace(/^-/, '') as 'created_at' | 'points_spent';

      const resources = await allPages(`${path}?sort=${sort}`, 2);

      expect(resources.map((resource) => resource.id).sort()).toEqual(MAIN_REWARDS.map((entry) => entry.id).sort());
      const values = resources.map((resource) => resource.attributes[field] as string | number);
      expect(values).toEqual(sortedCopy(values, sort.startsWith('-')));
    },
  );

  it('answers a page far past the last with the empty page and the real totals', async () => {
    const response = await api.get(`${path}?page[size]=100&page[number]=21474837`);

    expect(response.body).toEqual({
      data: [],
      meta: { total: 7, page: 21474837, per_page: 100, total_pages: 1, loyalty_mode: 'points', currency: 'USD' },
    });
  });

  it.each(['active', 'used', 'expired'])('filters by status %s with the filtered total', async (status) => {
    const expected = MAIN_REWARDS.filter((entry) => entry.status === status);

    const response = await api.get(`${path}?filter[status]=${status}&sort=created_at`);

    expect(ids(response)).toEqual(expected.map((entry) => entry.id));
    expect(response.body.meta.total).toBe(expected.length);
  });

  it('never lists or counts an entry the purchase saga has not finished', async () => {
    const cheapest = await api.get(`${path}?sort=points_spent&page[size]=1`);

    expect(cheapest.body.data[0].id).not.toBe(PENDING_REWARD_ID);
    expect(cheapest.body.meta.total).toBe(MAIN_REWARDS.length);
  });

  it('finds the customer by e-mail', async () => {
    const response = await api.get('/v1/customers/HIST.member@example.com/reward-history');

    expect(response.body.meta.total).toBe(7);
  });

  it("never shows another customer's entries", async () => {
    const response = await api.get(`/v1/customers/${MEMBERS.second.id}/reward-history`);

    expect(ids(response)).toEqual([SECOND_REWARD_ID]);
  });

  it('returns an empty list for a member without history', async () => {
    const response = await api.get(`/v1/customers/${MEMBERS.empty.id}/reward-history`);

    expect(response.body).toEqual({
      data: [],
      meta: { total: 0, page: 1, per_page: 20, total_pages: 0, loyalty_mode: 'points', currency: 'USD' },
    });
  });

  it("shows a store-credit shop's own entries with its mode and currency", async () => {
    const response = await credit.get(path);

    expect(ids(response)).toEqual([CREDIT_REWARD_ID]);
    expect(response.body.data[0].attributes).toMatchObject({ points_spent: 450, status: 'used', reward_name: '€4.50 store credit' });
    expect(response.body.meta).toEqual({ total: 1, page: 1, per_page: 20, total_pages: 1, loyalty_mode: 'store_credit', currency: 'EUR' });
  });

  it.each([
    ['filter[status]=pending', "filter[status] must be 'active', 'used' or 'expired'"],
    ['filter[status]=approved', "filter[status] must be 'active', 'used' or 'expired'"],
    ['filter[reward_id]=hist-reward-5-off', /Unknown filter 'filter\[reward_id\]'/],
    ['sort=points', /Invalid sort 'points'/],
    ['page[size]=-3', 'page[size] must be a positive integer'],
  ])('answers 400 for %s', async (query, detail) => {
    expectError(await api.get(`${path}?${query}`), 400, detail);
  });

  it('answers 404 naming an unknown customer', async () => {
    expectError(await api.get('/v1/customers/4242/reward-history'), 404, "Customer '4242' not found");
  });
});

describe('GET /v1/customers/{identifier}/reward-history/{id}', () => {
  const entryPath = (identifier: string, id: string) => `/v1/customers/${identifier}/reward-history/${id}`;

  it('returns the entry with loyalty_mode and currency in meta', async () => {
    const entry = MAIN_REWARDS[1]!;

    const response = await api.get(entryPath(MAIN, entry.id));

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: { type: 'reward_history_entry', id: entry.id, attributes: rewardAttributes(entry) },
      meta: { loyalty_mode: 'points', currency: 'USD' },
    });
  });

  it('finds the entry through the customer e-mail', async () => {
    const response = await api.get(entryPath(MEMBERS.main.email, MAIN_REWARDS[2]!.id));

    expect(response.body.data.attributes.status).toBe('expired');
  });

  it('returns the store-credit meta in a store-credit shop', async () => {
    const response = await credit.get(entryPath(MAIN, CREDIT_REWARD_ID));

    expect(response.status).toBe(200);
    expect(response.body.meta).toEqual({ loyalty_mode: 'store_credit', currency: 'EUR' });
    expect(response.body.data.attributes).toMatchObject({ points_spent: 450, discount_code: 'HIST-CREDIT-1', is_refunded: false });
  });

  it.each([
    ['an unknown entry', MAIN, 'hist-redeem-unknown'],
    ['an entry the purchase saga has not finished', MAIN, PENDING_REWARD_ID],
    ["another customer's entry", MAIN, SECOND_REWARD_ID],
    ['an earning entry id', MAIN, MAIN_EARNINGS[0]!.id],
    ['an unknown customer', '9999', MAIN_REWARDS[0]!.id],
    ['an unknown e-mail', 'nobody@example.com', MAIN_REWARDS[0]!.id],
  ])('answers 404 naming the entry for %s', async (_case, identifier, id) => {
    expectError(await api.get(entryPath(identifier, id)), 404, `Reward history entry '${id}' not found`);
  });

  it("answers 404 for another shop's entry of a customer with the same id", async () => {
    expectError(await credit.get(entryPath(MAIN, MAIN_REWARDS[0]!.id)), 404, `Reward history entry '${MAIN_REWARDS[0]!.id}' not found`);
  });
});

describe('history authentication', () => {
  const routes = [
    `/v1/customers/${MAIN}/earning-history`,
    `/v1/customers/${MAIN}/earning-history/${MAIN_EARNINGS[0]!.id}`,
    `/v1/customers/${MAIN}/reward-history`,
    `/v1/customers/${MAIN}/reward-history/${MAIN_REWARDS[0]!.id}`,
  ];

  it.each(routes)('answers 401 without an Authorization header on %s', async (route) => {
    expectError(await apiClient(twin.url).get(route), 401, 'Missing Authorization header');
  });

  it.each(routes)('answers 401 for a revoked key on %s', async (route) => {
    expectError(await apiClient(twin.url, HISTORY_KEYS.revoked).get(route), 401, 'Invalid or revoked API key');
  });

  it.each(routes)('lets a read-only key read %s', async (route) => {
    expect((await apiClient(twin.url, HISTORY_KEYS.read).get(route)).status).toBe(200);
  });
});

// Runs last: starting a second twin points the in-process handlers at its table, so no test of the
// unthrottled twin may run after it.
describe('history rate limit', () => {
  let throttled: Twin;

  beforeAll(async () => {
    throttled = await startTestTwin(historyConfig());
  });
  afterAll(async () => {
    await throttled.stop();
  });

  it.each([
    `/v1/customers/${MAIN}/earning-history`,
    `/v1/customers/${MAIN}/earning-history/${MAIN_EARNINGS[0]!.id}`,
    `/v1/customers/${MAIN}/reward-history`,
    `/v1/customers/${MAIN}/reward-history/${MAIN_REWARDS[0]!.id}`,
  ])('answers 429 in the error envelope past 6 requests a second on %s', async (route) => {
    const client = apiClient(throttled.url, HISTORY_KEYS.full);

    // 24 at once: even a slow CI machine cannot refill a 6-token bucket fast enough to serve them all.
    const responses = await Promise.all(Array.from({ length: 24 }, () => client.get(route)));

    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThanOrEqual(6);
    expect(statuses.every((status) => status === 200 || status === 429)).toBe(true);
    expectError(
      responses.find((response) => response.status === 429)!,
      429,
      'Rate limit exceeded',
    );
  });
});
