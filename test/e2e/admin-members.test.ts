// The staff's member list and tools through HTTP on the twin (docs/admin.md#the-member-list):
// GET /admin/api/members sorted by points, enrolment and last activity both ways, filtered by status and tier,
// walked page by page with its cursor (every member once, in order), each shop seeing only its own members,
// refusals in the error envelope; who every history entry is by (staff, API key, Shopify, the system); an
// adjustment below the balance floor answering what it really took; the search by a part of an e-mail and by name.
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { main } from '../../infra/cli/main';
import type { Twin } from '../../infra/local/twin';
import { documentClient, tableName } from '../../shared/data/client';
import { e2eConfig, KEYS } from '../fixtures/e2e-config';
import { apiClient, type ApiResponse, expectError, sendJson, startTestTwin } from '../support/twin';

jest.setTimeout(180_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const APP = { clientId: 'members-app-client-id', clientSecret: 'members-app-client-secret', domain: 'e2e.myshopify.com' };
const OTHER = { clientId: 'members-other-client-id', clientSecret: 'members-other-client-secret', domain: 'e2e-other.myshopify.com' };

let twin: Twin;

beforeAll(async () => {
  const config: Json = e2eConfig();
  const [e2e, other] = config.shops;
  e2e.platform = { ...e2e.platform, shop_domain: APP.domain, client_id: APP.clientId, client_secret: APP.clientSecret };
  other.platform = { ...other.platform, shop_domain: OTHER.domain, client_id: OTHER.clientId, client_secret: OTHER.clientSecret };
  e2e.rewards = [
    ...e2e.rewards,
    { id: 'small', name: 'Small thanks', points_cost: 50, discount_amount: 1, expiry_days: 30, created_at: '2025-01-01T00:00:00.000Z' },
  ];
  twin = await startTestTwin(config, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

async function idToken(shop = 'e2e', userId = '42'): Promise<string> {
  const response = await fetch(`${twin.platformUrl}/_id_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shop, user_id: userId }),
  });
  return ((await response.json()) as { token: string }).token;
}

async function staff(method: string, path: string, body?: unknown, shop = 'e2e', userId = '42'): Promise<ApiResponse> {
  return sendJson(`${twin.url}/admin/api${path}`, method, { Authorization: `Bearer ${await idToken(shop, userId)}` }, body);
}

/** Every page of a list, following next_cursor; fails on a page larger than asked. */
async function walk(query: string, size: number, shop = 'e2e'): Promise<{ members: Json[]; pages: number }> {
  const members: Json[] = [];
  let cursor: string | null = null;
  let pages = 0;
  do {
    const answer: ApiResponse = await staff(
      'GET',
      `/members?${query}&page[size]=${size}${cursor ? `&page[cursor]=${encodeURIComponent(cursor)}` : ''}`,
      undefined,
      shop,
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data.length).toBeLessThanOrEqual(size);
    members.push(...answer.body.data);
    cursor = answer.body.meta.page.next_cursor;
    pages += 1;
    expect(pages).toBeLessThan(50);
  } while (cursor);
  return { members, pages };
}

const ids = (members: Json[]) => members.map((member) => member.id as string);
const ALL_MEMBERS = Array.from({ length: 25 }, (_, i) => String(1001 + i));

function expectSorted(values: Array<string | number>, descending: boolean) {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  expect(values).toEqual(descending ? sorted.reverse() : sorted);
}

describe('GET /admin/api/members', () => {
  it.each([
    ['-points', 'current_points', true],
    ['points', 'current_points', false],
    ['-joined', 'created_at', true],
    ['joined', 'created_at', false],
    ['-last_activity', 'last_activity_at', true],
    ['last_activity', 'last_activity_at', false],
  ])('sort=%s walks every member once, in order, page by page', async (sort, attribute, descending) => {
    const { members, pages } = await walk(`sort=${sort}`, 7);

    expect([...ids(members)].sort()).toEqual(ALL_MEMBERS);
    expect(pages).toBe(4);
    expectSorted(
      members.map((member) => member.attributes[attribute]),
      descending,
    );
  });

  it('answers the first page of the default sort (most points first) with the shop currency and a cursor', async () => {
    const answer = await staff('GET', '/members?page[size]=3');

    expect(answer.status).toBe(200);
    expect(answer.body.meta).toMatchObject({ sort: '-points', currency: 'USD', loyalty_mode: 'points', page: { size: 3 } });
    expect(typeof answer.body.meta.page.next_cursor).toBe('string');
    expect(answer.body.data[0]).toMatchObject({ type: 'customer', id: '1001', attributes: { current_points: 800 } });
  });

  it('filters by status', async () => {
    const excluded = await walk('sort=-points&filter[loyalty_status]=excluded', 5);
    const members = await walk('sort=joined&filter[loyalty_status]=member', 5);

    expect(ids(excluded.members)).toEqual(['1025']);
    expect(ids(members.members).sort()).toEqual(ALL_MEMBERS.filter((id) => id !== '1025'));
    expect(members.members.every((member) => member.attributes.loyalty_status === 'member')).toBe(true);
  });

  it('filters by tier (by last activity), and none is the members of no tier', async () => {
    const everyone = (await walk('sort=-points', 100)).members;
    const tierOf = (member: Json) => member.attributes.vip_tier?.id ?? 'none';
    for (const tier of ['gold', 'bronze', 'none']) {
      const { members } = await walk(`sort=-last_activity&filter[tier]=${tier}`, 4);
      const expected = everyone
        .filter((member) => tierOf(member) === tier)
        .map((member) => member.id)
        .sort();

      expect(expected.length).toBeGreaterThan(0);
      expect(ids(members).sort()).toEqual(expected);
      expectSorted(
        members.map((member) => member.attributes.last_activity_at),
        true,
      );
    }
    const goldMembers = await walk('sort=last_activity&filter[tier]=gold&filter[loyalty_status]=member', 2);
    expect(goldMembers.members.every((member) => member.attributes.vip_tier.id === 'gold')).toBe(true);
  });

  it('moves a member to the top of the last activity list when their points change, and into their new tier', async () => {
    expect((await staff('POST', '/v1/customers/1010/points', { adjustment: 2000, note: 'to gold' })).status).toBe(200);

    const recent = await staff('GET', '/members?sort=-last_activity&page[size]=1');
    const gold = await walk('sort=-last_activity&filter[tier]=gold', 10);

    expect(ids(recent.body.data)).toEqual(['1010']);
    expect(ids(gold.members)).toContain('1010');
    expect(ids((await walk('sort=-last_activity&filter[tier]=none', 10)).members)).not.toContain('1010');
  });

  it("never shows one shop's members to another shop's staff, nor takes its cursor", async () => {
    const other = await walk('sort=-points', 10, 'e2e-other');
    const first = await staff('GET', '/members?page[size]=2');

    expect(ids(other.members)).toEqual(['5001']);
    expectError(
      await staff(
        'GET',
        `/members?page[size]=2&page[cursor]=${encodeURIComponent(first.body.meta.page.next_cursor)}`,
        undefined,
        'e2e-other',
      ),
      400,
      /another list/,
    );
  });

  it('refuses what it cannot answer in the error envelope', async () => {
    const first = await staff('GET', '/members?sort=-points&page[size]=2');
    const cursor = encodeURIComponent(first.body.meta.page.next_cursor);

    expectError(await staff('GET', '/members?sort=name'), 400, /Invalid sort 'name'/);
    expectError(await staff('GET', '/members?filter[tier]=platinum'), 400, /names no tier/);
    expectError(await staff('GET', '/members?filter[tier]=gold&sort=-points'), 400, /last_activity/);
    expectError(await staff('GET', '/members?filter[loyalty_status]=active'), 400, /loyalty_status/);
    expectError(await staff('GET', '/members?filter[email]=ada'), 400, /Unknown filter/);
    expectError(await staff('GET', '/members?page[size]=0'), 400, /page\[size\]/);
    expectError(await staff('GET', '/members?page[number]=2'), 400, /page\[cursor\]/);
    expectError(await staff('GET', '/members?page[cursor]=%7B%7D'), 400, /not a cursor/);
    expectError(await staff('GET', '/members?page[cursor]=eyJsIjoxfQ'), 400, /another list/);
    expectError(await staff('GET', `/members?sort=points&page[size]=2&page[cursor]=${cursor}`), 400, /another list/);
    // A cursor of this list whose positions were changed: another partition, another shop's key, a wrong type.
    const decoded = JSON.parse(Buffer.from(first.body.meta.page.next_cursor, 'base64url').toString('utf8'));
    const forged = (change: (position: Json) => void) => {
      const copy = JSON.parse(JSON.stringify(decoded));
      change(copy.p.find((position: Json) => position && typeof position === 'object'));
      return encodeURIComponent(Buffer.from(JSON.stringify(copy)).toString('base64url'));
    };
    for (const change of [
      (position: Json) => (position.list_pk = 'SHOP#e2e-other#LIST#member'),
      (position: Json) => (position.pk = 'SHOP#e2e-other#C#5001'),
      (position: Json) => (position.current_points = 'many'),
      (position: Json) => (position.extra = 'x'),
    ]) {
      expectError(await staff('GET', `/members?sort=-points&page[size]=2&page[cursor]=${forged(change)}`), 400, /not a cursor/);
    }
    expectError(await staff('GET', `/members?sort=-points&page[size]=3&page[cursor]=${cursor}`), 400, /another list/);
  });

  it('lists members written before the list existed once `loyalty member-list backfill` has run', async () => {
    // Two profiles as an earlier release wrote them: without the list's attributes.
    for (const id of ['1011', '1012']) {
      await documentClient().send(
        new UpdateCommand({
          TableName: tableName(),
          Key: { pk: `SHOP#e2e#C#${id}`, sk: 'PROFILE' },
          UpdateExpression: 'REMOVE tier_list_pk, last_activity_at',
        }),
      );
    }
    expect(ids((await walk('sort=-last_activity', 50)).members)).not.toContain('1011');

    const out: string[] = [];
    const cli = (shop: string) =>
      main(['member-list', 'backfill', '--shop', shop, '--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName], {
        out: (line: string) => out.push(line),
        err: (line: string) => out.push(line),
      });
    expect(await cli('e2e')).toBe(0);
    expect(out).toContain('shop e2e: 25 members read, 2 put on the member list');
    expect([...ids((await walk('sort=-last_activity', 50)).members)].sort()).toEqual(ALL_MEMBERS);
    // Run again: nothing left to write.
    expect(await cli('e2e')).toBe(0);
    expect(out).toContain('shop e2e: 25 members read, 0 put on the member list');
  });

  it('is for staff only: no token, an API key or a key as bearer are refused', async () => {
    expectError(await sendJson(`${twin.url}/admin/api/members`, 'GET', {}), 401);
    expectError(await sendJson(`${twin.url}/admin/api/members`, 'GET', { Authorization: KEYS.full }), 401);
    expectError(await sendJson(`${twin.url}/admin/api/members`, 'GET', { Authorization: `Bearer ${KEYS.read}` }), 401);
    expect((await apiClient(twin.url, KEYS.full).get('/v1/members')).status).toBe(404);
  });
});

describe('the search by a part of an e-mail', () => {
  it.each(['ada', 'lovelace', 'ada.lovelace@', 'LOVELACE@EXAMPLE', 'example.com'])('finds Ada by %s', async (part) => {
    const answer = await staff('GET', `/v1/customers?filter[email]=${encodeURIComponent(part)}&page[size]=100`);

    expect(answer.status).toBe(200);
    expect(ids(answer.body.data)).toContain('1001');
  });
});

describe('the search by name', () => {
  it.each(['Ada', 'love', 'ADA LOVELACE', 'lovelace ada'])('finds Ada by %s, and no one else', async (name) => {
    const answer = await staff('GET', `/members?filter[name]=${encodeURIComponent(name)}`);

    expect(answer.status).toBe(200);
    expect(ids(answer.body.data)).toEqual(['1001']);
    expect(answer.body.meta).toMatchObject({ sort: 'name', page: { size: 20, next_cursor: null } });
    expect(answer.body.data[0].attributes).toMatchObject({
      first_name: 'Ada',
      last_name: 'Lovelace',
      last_activity_at: expect.any(String),
    });
  });

  it('walks every member whose name starts with the query once, page by page with the cursor', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const answer: ApiResponse = await staff(
        'GET',
        `/members?filter[name]=first1&page[size]=4${cursor ? `&page[cursor]=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(answer.status).toBe(200);
      expect(answer.body.data.length).toBeLessThanOrEqual(4);
      seen.push(...ids(answer.body.data));
      cursor = answer.body.meta.page.next_cursor;
    } while (cursor);
    // First1 and First10..First19: members 1002 and 1011..1020.
    expect(seen.sort()).toEqual(['1002', ...Array.from({ length: 10 }, (_, i) => String(1011 + i))]);
  });

  it("refuses another sort or filter beside it, a query without a word, and sees only the shop's own members", async () => {
    expectError(await staff('GET', '/members?filter[name]=ada&sort=points'), 400, /filter\[name\]/);
    expectError(await staff('GET', '/members?filter[name]=ada&filter[tier]=gold'), 400, /filter\[name\]/);
    expectError(await staff('GET', `/members?filter[name]=${encodeURIComponent('--')}`), 400, /letter or a digit/);
    const other = await staff('GET', '/members?filter[name]=ada', undefined, 'e2e-other');
    expect(other.status).toBe(200);
    expect(other.body.data).toEqual([]);
  });
});

describe('who each history entry is by', () => {
  it('names the staff user, the API key and, for imported balances, the system', async () => {
    const api = apiClient(twin.url, KEYS.full);
    expect((await api.post('/v1/customers/1004/points', { adjustment: 5, note: 'by the backend' })).status).toBe(200);
    expect((await staff('POST', '/v1/customers/1004/points', { adjustment: 6, note: 'by staff' }, 'e2e', '77')).status).toBe(200);
    // A redemption undone by staff: the entry giving the points back names them.
    const bought = await api.post('/v1/rewards/small/purchase', { customer_identifier: '1004' });
    expect(bought.status).toBe(201);
    const undone = await staff('POST', `/v1/customers/1004/reward-history/${bought.body.data.id}/refund`, undefined, 'e2e', '78');
    expect(undone.status).toBe(200);

    const entries = (await staff('GET', '/v1/customers/1004/earning-history?page[size]=100')).body.data as Json[];
    const by = (action: string, points: number) =>
      entries.find((entry) => entry.attributes.action === action && entry.attributes.points === points)?.attributes.actor;

    expect(by('manual_adjustment', 5)).toEqual({ type: 'api_key', id: expect.any(String), name: 'Backend' });
    expect(by('manual_adjustment', 6)).toEqual({ type: 'staff', id: '77' });
    expect(by('reward_refund', 50)).toEqual({ type: 'staff', id: '78' });
    for (const entry of entries.filter((candidate) => candidate.attributes.action === 'import')) {
      expect(entry.attributes.actor).toEqual({ type: 'system' });
    }
  });

  it('names the API key that undid a redemption', async () => {
    const api = apiClient(twin.url, KEYS.full);
    const bought = await api.post('/v1/rewards/small/purchase', { customer_identifier: '1005' });
    expect(bought.status).toBe(201);
    expect((await api.post(`/v1/customers/1005/reward-history/${bought.body.data.id}/refund`)).status).toBe(200);

    const entries = (await staff('GET', '/v1/customers/1005/earning-history?page[size]=100')).body.data as Json[];
    const refund = entries.find((entry) => entry.attributes.action === 'reward_refund');
    expect(refund.attributes.actor).toMatchObject({ type: 'api_key', name: 'Backend' });
  });
});

describe('an adjustment below the balance floor', () => {
  it('answers what it really took: the whole balance, not the amount asked', async () => {
    const before = (await staff('GET', '/v1/customers/1008')).body.data.attributes.current_points;
    expect(before).toBeGreaterThan(0);

    const answer = await staff('POST', '/v1/customers/1008/points', { adjustment: -99999, note: 'too much' });

    expect(answer.status).toBe(200);
    expect(answer.body.data.attributes).toMatchObject({ adjustment: -before, points_before: before, points_after: 0 });
  });
});
