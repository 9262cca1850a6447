import type { Twin } from '../../infra/local/twin';
import { getCustomer } from '../../shared/data/customer-repository';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { apiClient, expectError, startTestTwin } from '../support/twin';

let twin: Twin;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  twin = await startTestTwin(e2eConfig());
  api = apiClient(twin.url, KEYS.full);
});
afterAll(async () => {
  await twin.stop();
});
afterEach(() => {
  twin.simulator.setFaults({ customers: 'ok', discount_codes: 'ok' });
});

const CUSTOMER_FIELDS = [
  'platform_customer_id',
  'email',
  'first_name',
  'last_name',
  'current_points',
  'lifetime_points',
  'redeemed_points',
  'loyalty_status',
  'loyalty_mode',
  'store_credit',
  'date_of_birth',
  'referral_url',
  'referral_code',
  'vip_tier',
  'created_at',
  'updated_at',
];
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
/** The UTC calendar date `days` from now. */
const futureDate = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);

describe('GET /v1/customers/{identifier}', () => {
  it('returns the customer object with every field of the spec', async () => {
    const response = await api.get('/v1/customers/1001');

    expect(response.status).toBe(200);
    const { data } = response.body;
    expect(data.type).toBe('customer');
    expect(data.id).toBe('1001');
    for (const field of CUSTOMER_FIELDS) expect(data.attributes).toHaveProperty(field);
    expect(data.attributes).toMatchObject({
      platform_customer_id: '1001',
      email: 'Ada.Lovelace@Example.com',
      first_name: 'Ada',
      last_name: 'Lovelace',
      current_points: 800,
      lifetime_points: 1200,
      redeemed_points: 400,
      loyalty_status: 'member',
      loyalty_mode: 'points',
      store_credit: null,
      date_of_birth: '1815-12-10',
      vip_tier: {
        id: 'gold',
        name: 'Gold',
        threshold: 1000,
        points_multiplier: 2,
        badge_image_url: 'https://cdn.example/gold.png',
        badge_color: '#FFD700',
      },
    });
    expect(data.attributes.referral_url).toBe(`https://e2e.example/?ref=${data.attributes.referral_code}`);
    expect(data.attributes.created_at).toMatch(ISO_MS);
    expect(data.attributes.updated_at).toMatch(ISO_MS);
  });

  it('finds a customer by e-mail in any letter case, also percent-encoded', async () => {
    const plain = await api.get('/v1/customers/ada.lovelace@example.com');
    const encoded = await api.get('/v1/customers/ADA.LOVELACE%40EXAMPLE.COM');

    expect(plain.body.data.id).toBe('1001');
    expect(encoded.body.data.id).toBe('1001');
  });

  it('returns vip_tier null with exclude_vip=true', async () => {
    const response = await api.get('/v1/customers/1001?exclude_vip=true');

    expect(response.body.data.attributes.vip_tier).toBeNull();
  });

  it('returns vip_tier null when no tier is reached', async () => {
    const response = await api.get('/v1/customers/1002');

    expect(response.body.data.attributes.lifetime_points).toBeLessThan(100);
    expect(response.body.data.attributes.vip_tier).toBeNull();
  });

  it('refuses an exclude_vip value other than true or false', async () => {
    expectError(await api.get('/v1/customers/1001?exclude_vip=yes'), 400);
  });

  it.each(['9999', 'nobody@example.com', 'not-an-identifier', '1026'])('answers 404 naming %p', async (identifier) => {
    expectError(await api.get(`/v1/customers/${encodeURIComponent(identifier)}`), 404, `Customer '${identifier}' not found`);
  });

  // The identifier reaches the function as the caller sent it (API Gateway decodes no path parameter); the
  // function decodes it exactly once, and `%2F` is part of the identifier, not a path separator.
  it.each([
    ['%40', 'ada%40nowhere.example', 'ada@nowhere.example'],
    ['%2B', 'ada%2Btag%40nowhere.example', 'ada+tag@nowhere.example'],
    ['a raw +', 'ada+tag@nowhere.example', 'ada+tag@nowhere.example'],
    ['%2F', 'ada%2Fnowhere', 'ada/nowhere'],
    ['%25', 'ada%25nowhere', 'ada%nowhere'],
    ['%2540, once', 'ada%2540nowhere.example', 'ada%40nowhere.example'],
  ])('decodes %s in the identifier exactly once', async (_, sent, identifier) => {
    expectError(await api.get(`/v1/customers/${sent}`), 404, `Customer '${identifier}' not found`);
  });

  it.each(['100%', 'ada%zz', '%E0%A4%A'])('answers 400 for %p, whose percent sign starts no valid escape', async (sent) => {
    expectError(await api.get(`/v1/customers/${sent}`), 400, `The path segment '${sent}' is not valid percent-encoding`);
  });

  it('shows the store-credit balance as money in store-credit shops', async () => {
    const response = await apiClient(twin.url, KEYS.credit).get('/v1/customers/7001');

    expect(response.body.data.attributes).toMatchObject({
      loyalty_mode: 'store_credit',
      current_points: 2550,
      store_credit: { balance: '25.50', currency: 'EUR' },
      anniversary_date: '2023-05-05',
    });
    expect(response.body.data.attributes.referral_url).toMatch(/^https:\/\/credit\.example\/join\?ref=[A-Z0-9]{8}$/);
  });
});

describe('POST /v1/customers', () => {
  it('enrols a platform customer with zero points and the platform details (201)', async () => {
    const response = await api.post('/v1/customers', { platform_customer_id: '1026' });

    expect(response.status).toBe(201);
    expect(response.body.data.id).toBe('1026');
    expect(response.body.data.attributes).toMatchObject({
      platform_customer_id: '1026',
      email: 'customer1026@example.com',
      first_name: 'First25',
      last_name: 'Last25',
      current_points: 0,
      lifetime_points: 0,
      redeemed_points: 0,
      loyalty_status: 'member',
      vip_tier: null,
      date_of_birth: null,
    });
    expect(response.body.data.attributes.referral_code).toMatch(/^[A-Z0-9]{8}$/);
    const anniversary = await api.get('/v1/customers/1026/anniversary');
    expect(anniversary.body.data.attributes.anniversary_date).toBe('2024-03-26');
  });

  it('returns the existing record unchanged with 200 when already enrolled', async () => {
    const before = await api.get('/v1/customers/1003');

    const response = await api.post('/v1/customers', { platform_customer_id: '1003' });

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual(before.body.data);
  });

  it('accepts the JSON:API form of the body', async () => {
    const response = await api.post('/v1/customers', { data: { attributes: { platform_customer_id: '1027' } } });

    expect(response.status).toBe(201);
  });

  it('creates exactly one record for concurrent enrolments of one customer', async () => {
    const responses = await Promise.all(Array.from({ length: 8 }, () => api.post('/v1/customers', { platform_customer_id: '1028' })));

    const statuses = responses.map((r) => r.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    const codes = new Set(responses.map((r) => r.body.data.attributes.referral_code));
    expect(codes.size).toBe(1);
  });

  it('gives every member a different referral code', async () => {
    const list = await api.get('/v1/customers?page[size]=100');
    const codes = list.body.data.map((c: { attributes: { referral_code: string } }) => c.attributes.referral_code);

    expect(new Set(codes).size).toBe(codes.length);
  });

  it.each([
    ['a missing field', {}, 'platform_customer_id is required'],
    ['a number', { platform_customer_id: 1029 }, 'platform_customer_id must be a string'],
    ['a non-numeric id', { platform_customer_id: 'abc' }, 'platform_customer_id must be a numeric platform customer ID'],
    ['an array body', [], 'Request body must be a JSON object'],
  ])('answers 400 for %s', async (_case, body, detail) => {
    expectError(await api.post('/v1/customers', body), 400, detail);
  });

  it('answers 400 for invalid JSON and for an empty body', async () => {
    expectError(await api.post('/v1/customers', '{"platform_customer_id": '), 400, 'Request body is not valid JSON');
    expectError(await api.request('POST', '/v1/customers'), 400, 'Request body must be a JSON object');
  });

  it('answers 404 when the platform has no such customer', async () => {
    expectError(await api.post('/v1/customers', { platform_customer_id: '424242' }), 404, "Platform customer '424242' not found");
  });

  it.each(['unreachable', 'error', 'hang'] as const)('answers 503 when the platform is %s, and writes nothing', async (mode) => {
    twin.simulator.setFaults({ customers: mode });

    const response = await api.post('/v1/customers', { platform_customer_id: '1029' });

    expectError(response, 503, 'Unable to connect to the platform. Please try again.');
    expect(await getCustomer('e2e', '1029', true)).toBeNull();
  });
});

describe('PUT /v1/customers/{identifier}', () => {
  it('updates dates from a flat body and returns the updated customer', async () => {
    const response = await api.put('/v1/customers/1004', {
      date_of_birth: '1990-05-17',
      anniversary_date: '2020-02-29',
      email: 'ignored@x.y',
    });

    expect(response.status).toBe(200);
    expect(response.body.data.attributes.date_of_birth).toBe('1990-05-17');
    expect(response.body.data.attributes.email).toBe('customer1004@example.com');
    const anniversary = await api.get('/v1/customers/1004/anniversary');
    expect(anniversary.body.data.attributes.anniversary_date).toBe('2020-02-29');
  });

  it('accepts the JSON:API form and clears a date with null', async () => {
    const response = await api.put('/v1/customers/1004', { data: { attributes: { date_of_birth: null } } });

    expect(response.status).toBe(200);
    expect(response.body.data.attributes.date_of_birth).toBeNull();
  });

  it('excludes and re-includes a customer', async () => {
    const excluded = await api.put('/v1/customers/customer1005@example.com', { is_excluded: true });
    const member = await api.put('/v1/customers/1005', { is_excluded: false });

    expect(excluded.body.data.attributes.loyalty_status).toBe('excluded');
    expect(member.body.data.attributes.loyalty_status).toBe('member');
  });

  it('honours exclude_vip on the response', async () => {
    const response = await api.put('/v1/customers/1001?exclude_vip=true', { anniversary_date: '2024-03-01' });

    expect(response.body.data.attributes.vip_tier).toBeNull();
  });

  it.each([
    ['no updatable field', { email: 'x@y.z' }, 'No updatable fields provided'],
    ['an empty body object', {}, 'No updatable fields provided'],
    ['an impossible date', { date_of_birth: '2023-02-30' }, 'date_of_birth: 2023-02-30 does not exist (February 2023 has 28 days)'],
    [
      'an impossible date-time',
      { anniversary_date: '2025-02-29T10:00:00Z' },
      'anniversary_date: 2025-02-29 does not exist (February 2025 has 28 days)',
    ],
    ['a thirteenth month', { date_of_birth: '1990-13-01' }, 'date_of_birth: 1990-13-01 does not exist (months run from 01 to 12)'],
    [
      'a 25th hour',
      { date_of_birth: '1990-01-01T25:00:00Z' },
      'date_of_birth: 1990-01-01T25:00:00Z is not a real time (hours run from 00 to 23)',
    ],
    [
      'a time of 99:99:99',
      { anniversary_date: '2020-06-01T99:99:99Z' },
      'anniversary_date: 2020-06-01T99:99:99Z is not a real time (hours run from 00 to 23)',
    ],
    [
      'a time zone 99 hours away',
      { date_of_birth: '1990-01-01T10:00:00-99:00' },
      'date_of_birth: 1990-01-01T10:00:00-99:00 is not a real time (a time zone offset runs from -23:59 to +23:59)',
    ],
    [
      'a birth date after today everywhere on Earth',
      { date_of_birth: futureDate(2) },
      `date_of_birth cannot be in the future (${futureDate(2)})`,
    ],
    ['a birth date years ahead', { date_of_birth: '2999-01-01' }, 'date_of_birth cannot be in the future (2999-01-01)'],
    ['a non-date string', { anniversary_date: 'soon' }, 'anniversary_date must be an ISO 8601 date (YYYY-MM-DD) or null'],
    ['a number as date', { date_of_birth: 19900517 }, 'date_of_birth must be an ISO 8601 date (YYYY-MM-DD) or null'],
    ['a non-boolean is_excluded', { is_excluded: 'yes' }, 'is_excluded must be a boolean'],
  ])('answers 400 for %s', async (_case, body, detail) => {
    expectError(await api.put('/v1/customers/1006', body), 400, detail);
  });

  it("accepts today's date as a date of birth, in any time zone", async () => {
    const response = await api.put('/v1/customers/1006', { date_of_birth: futureDate(0) });

    expect(response.status).toBe(200);
    expect(response.body.data.attributes.date_of_birth).toBe(futureDate(0));
  });

  it('answers 400 for invalid JSON', async () => {
    expectError(await api.put('/v1/customers/1006', 'date_of_birth=1990-01-01'), 400, 'Request body is not valid JSON');
  });

  it('answers 404 for an unknown customer', async () => {
    expectError(await api.put('/v1/customers/31337', { is_excluded: true }), 404, "Customer '31337' not found");
  });
});

describe('GET birthday and anniversary', () => {
  it('returns customer_birthday', async () => {
    const response = await api.get('/v1/customers/1001/birthday');

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        type: 'customer_birthday',
        id: '1001',
        attributes: { platform_customer_id: '1001', email: 'Ada.Lovelace@Example.com', date_of_birth: '1815-12-10' },
      },
    });
  });

  it('returns customer_anniversary defaulting to the platform account creation date', async () => {
    const response = await apiClient(twin.url, KEYS.read).get('/v1/customers/1002/anniversary');

    expect(response.body).toEqual({
      data: {
        type: 'customer_anniversary',
        id: '1002',
        attributes: { platform_customer_id: '1002', email: 'customer1002@example.com', anniversary_date: '2024-03-02' },
      },
    });
  });

  it('answers 404 for unknown customers', async () => {
    expectError(await apiClient(twin.url, KEYS.read).get('/v1/customers/8888/birthday'), 404, "Customer '8888' not found");
    expectError(await apiClient(twin.url, KEYS.read).get('/v1/customers/8888/anniversary'), 404, "Customer '8888' not found");
  });
});

describe('GET /v1/customers', () => {
  it('lists 20 customers by default, newest first, with pagination meta, mode and currency', async () => {
    const response = await apiClient(twin.url, KEYS.read).get('/v1/customers');

    expect(response.status).toBe(200);
    expect(response.body.data).toHaveLength(20);
    const total = response.body.meta.total;
    expect(response.body.meta).toEqual({
      total,
      page: 1,
      per_page: 20,
      total_pages: Math.ceil(total / 20),
      loyalty_mode: 'points',
      currency: 'USD',
    });
    const created = response.body.data.map((c: { attributes: { created_at: string } }) => c.attributes.created_at);
    expect(created).toEqual([...created].sort().reverse());
  });

  it('pages to the end with correct totals, and returns an empty page beyond it', async () => {
    const first = await api.get('/v1/customers?page[size]=7&sort=created_at');
    const total = first.body.meta.total;
    const ids = new Set<string>();
    for (let page = 1; page <= first.body.meta.total_pages; page += 1) {
      const response = await api.get(`/v1/customers?page[size]=7&page[number]=${page}&sort=created_at`);
      for (const customer of response.body.data) ids.add(customer.id);
    }
    const beyond = await api.get(`/v1/customers?page[size]=7&page[number]=${first.body.meta.total_pages + 1}`);

    expect(ids.size).toBe(total);
    expect(beyond.status).toBe(200);
    expect(beyond.body.data).toEqual([]);
    expect(beyond.body.meta.total).toBe(total);
  });

  it.each([
    ['page[number]=107374183', 107374183, 20],
    ['page[size]=100&page[number]=21474837', 21474837, 100],
    [`page[number]=${Number.MAX_SAFE_INTEGER}`, Number.MAX_SAFE_INTEGER, 20],
  ])('answers %s (far past the last page) with the empty page and the real totals', async (query, page, perPage) => {
    const total = (await api.get('/v1/customers')).body.meta.total;
    const response = await api.get(`/v1/customers?${query}`);

    expect(response.status).toBe(200);
    expect(response.body.data).toEqual([]);
    expect(response.body.meta).toMatchObject({ total, page, per_page: perPage, total_pages: Math.ceil(total / perPage) });
  });

  it.each([
    ['points', 'current_points'],
    ['-points', 'current_points'],
    ['lifetime_points', 'lifetime_points'],
    ['-redeemed_points', 'redeemed_points'],
  ])('sorts by %s', async (sort, attribute) => {
    const response = await api.get(`/v1/customers?sort=${sort}&page[size]=100`);

    const values = response.body.data.map((c: { attributes: Record<string, number> }) => c.attributes[attribute]);
    const ascending = [...values].sort((a, b) => a - b);
    expect(values).toEqual(sort.startsWith('-') ? ascending.reverse() : ascending);
  });

  it('filters by partial, case-insensitive e-mail with the filtered total', async () => {
    const response = await api.get('/v1/customers?filter[email]=LOVELACE');

    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual(['1001']);
    expect(response.body.meta.total).toBe(1);
    expect(response.body.meta.total_pages).toBe(1);
  });

  it('filters by loyalty status', async () => {
    const response = await api.get('/v1/customers?filter[loyalty_status]=excluded');

    expect(response.body.data.map((c: { id: string }) => c.id)).toEqual(['1025']);
    expect(response.body.meta.total).toBe(1);
  });

  it('serves page[size] above 100 at 100', async () => {
    const response = await api.get('/v1/customers?page[size]=250');

    expect(response.body.meta.per_page).toBe(100);
  });

  it.each([
    ['sort=email', /Invalid sort 'email'/],
    ['filter[name]=ada', /Unknown filter 'filter\[name\]'/],
    ['filter[loyalty_status]=vip', /filter\[loyalty_status\] must be 'member' or 'excluded'/],
    ['page[number]=0', /page\[number\] must be a positive integer/],
    ['page[size]=ten', /page\[size\] must be a positive integer/],
  ])('answers 400 for %s', async (query, detail) => {
    expectError(await api.get(`/v1/customers?${query}`), 400, detail);
  });

  it('reports store-credit mode and currency in meta for store-credit shops', async () => {
    const response = await apiClient(twin.url, KEYS.credit).get('/v1/customers');

    expect(response.body.meta).toMatchObject({ loyalty_mode: 'store_credit', currency: 'EUR', total: 1 });
  });
});

// Last in the file: it enrols one more member, which the list tests above would count.
describe('internationalised e-mail addresses', () => {
  it('finds the customer by the address in any case, percent-encoded UTF-8, composed or decomposed', async () => {
    twin.simulator.addCustomer('e2e', { id: '1099', email: 'José@Exämple.com', first_name: 'José', last_name: 'Ñúñez', created_at: null });
    const enrolled = await api.post('/v1/customers', { platform_customer_id: '1099' });

    const found = await Promise.all(
      ['josé@exämple.com', 'JOSÉ@EXÄMPLE.COM', 'jose\u0301@exa\u0308mple.com'].map((email) =>
        api.get(`/v1/customers/${encodeURIComponent(email)}`),
      ),
    );

    expect(enrolled.status).toBe(201);
    expect(found.map((response) => [response.status, response.body.data?.id])).toEqual([
      [200, '1099'],
      [200, '1099'],
      [200, '1099'],
    ]);
  });
});
