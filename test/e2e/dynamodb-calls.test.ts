// Every endpoint at the design's minimum DynamoDB calls on a warm function: one request at a time
// through the twin, counted by its SDK middleware (DYNAMODB_STATS) and read through the twin's
// control endpoints, exactly as `npm run bench` counts them. A second read of the key, the
// customer or the shop configuration (e.g. a broken configuration cache) fails here.
import { BENCH_ENDPOINTS, type BenchEndpoint, type DynamoDbCalls } from '../../bench/endpoints';
import { authorizationOf, refreshShopperTokens } from '../../bench/shopper-auth';
import { twinCpu, twinDynamoDbStats } from '../../bench/twin-control';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { putApiKey } from '../../shared/data/api-key-repository';
import { hashApiKey } from '../../shared/domain/api-key';
import { apiClient, startTestTwin, type ApiResponse, usageKeyFields } from '../support/twin';

let twin: Twin;

beforeAll(async () => {
  // As deployed: the shop configuration is cached for the life of a warm function (30 s by default).
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false, environment: { DYNAMODB_STATS: 'true', SHOP_CONFIG_TTL_SECONDS: '300' } });
});
afterAll(async () => {
  await twin?.stop();
});

/** The DynamoDB calls of one request, by command; `warm` first so the function and its shop cache are loaded. */
async function callsOf(
  send: () => Promise<ApiResponse>,
  warm: () => Promise<ApiResponse> = send,
): Promise<{ status: number; calls: DynamoDbCalls }> {
  expect((await warm()).status).toBeLessThan(300);
  return countCalls(send);
}

/** The DynamoDB calls of exactly this request, whatever ran before it. */
async function countCalls(send: () => Promise<ApiResponse>): Promise<{ status: number; calls: DynamoDbCalls }> {
  await twinDynamoDbStats(twin.url, 'reset');
  const response = await send();
  const { calls } = await twinDynamoDbStats(twin.url, 'pause');
  return { status: response.status, calls };
}

const activeKey = (key: string) => ({
  key_hash: hashApiKey(key),
  shop_id: 'demo',
  name: key,
  scope: 'read' as const,
  status: 'active' as const,
  usage_identifier_key: null,
  created_at: '2026-11-01T00:00:00.000Z',
});

/** One request as the bench sends it: with its API key, or a shopper row's session token. */
const send = (endpoint: Pick<BenchEndpoint, 'method' | 'path' | 'key' | 'shopper' | 'body'>) => async () => {
  await refreshShopperTokens([endpoint]);
  return apiClient(twin.url, authorizationOf(endpoint)).request(endpoint.method, endpoint.path, endpoint.body);
};

describe('DynamoDB calls per request on a warm function and a warm key (the design minimum)', () => {
  it.each(BENCH_ENDPOINTS.map((endpoint) => [endpoint.name, endpoint] as const))('%s', async (_name, endpoint) => {
    // A prepared row (a redemption to refund, a new friend, a member with referrals): its data first, and
    // each request, the warm one too, with its own path and body as the bench sends them.
    const { prepared } = endpoint;
    if (prepared) await prepared.prepare(twin.url, 2);
    const request = () => send({ ...endpoint, ...(prepared?.next() ?? {}) })();
    expect(await callsOf(request)).toEqual({ status: endpoint.status ?? 200, calls: endpoint.minimumCalls });
  });

  it('GET /customers/{id}/anniversary: the customer only (the key answer is cached)', async () => {
    expect(await callsOf(send({ method: 'GET', path: '/v1/customers/1001/anniversary', key: 'demo_read_key' }))).toEqual({
      status: 200,
      calls: { GetItemCommand: 1 },
    });
  });

  it("GET /admin/api/v1/customers/{id} with an ID token: the customer only, as on /v1 (the shop's domain and secret cached)", async () => {
    const minted = await fetch(`${twin.platformUrl}/_id_tokens`, { method: 'POST', body: JSON.stringify({ shop: 'demo', user_id: '42' }) });
    const { token } = (await minted.json()) as { token: string };
    const staff = () => apiClient(twin.url, `Bearer ${token}`).get('/admin/api/v1/customers/1001');

    expect(await callsOf(staff)).toEqual({ status: 200, calls: { GetItemCommand: 1 } });
  });

  it('GET /earning-rules without a customer: nothing (cached key answer, cached configuration)', async () => {
    expect(await callsOf(send({ method: 'GET', path: '/v1/earning-rules', key: 'demo_read_key' }))).toEqual({
      status: 200,
      calls: {},
    });
  });

  it('GET one earning or reward history entry: customer, entry', async () => {
    for (const path of ['/v1/customers/1001/earning-history/e-1001-1', '/v1/customers/1001/reward-history/r-1001-1']) {
      expect(await callsOf(send({ method: 'GET', path, key: 'demo_read_key' }))).toEqual({ status: 200, calls: { GetItemCommand: 2 } });
    }
  });

  // The e-mail search postings (one per distinct trigram of the address) are writes of the same transaction:
  // enrolment costs more write units, not more calls.
  it('POST /customers: the existing-member check, one transaction (profile, referral guard, counters, e-mail postings)', async () => {
    const enrol = (id: string) => send({ method: 'POST', path: '/v1/customers', key: 'demo_full_key', body: { platform_customer_id: id } });
    expect(await callsOf(enrol('1012'), enrol('1011'))).toEqual({
      status: 201,
      calls: { GetItemCommand: 1, TransactWriteItemsCommand: 1 },
    });
  });

  it('POST /rewards/{id}/purchase: customer, the deducting transaction, the activation with its reward.purchased', async () => {
    const purchase = send({
      method: 'POST',
      path: '/v1/rewards/five-off/purchase',
      key: 'demo_full_key',
      body: { customer_identifier: '1001' },
    });
    expect(await callsOf(purchase)).toEqual({
      status: 201,
      calls: { GetItemCommand: 1, TransactWriteItemsCommand: 2 },
    });
  });

  it('POST /rewards/{id}/purchase of a free-shipping or free-product code: as a fixed code (customer, the transaction, the activation)', async () => {
    const topUp = send({ method: 'POST', path: '/v1/customers/1004/points', key: 'demo_full_key', body: { adjustment: 6000 } });
    expect((await topUp()).status).toBe(200);
    for (const reward of ['free-ship', 'merino-scarf']) {
      const customer = reward === 'free-ship' ? '1005' : '1004';
      const purchase = send({
        method: 'POST',
        path: `/v1/rewards/${reward}/purchase`,
        key: 'demo_full_key',
        body: { customer_identifier: customer },
      });
      expect(await callsOf(purchase)).toEqual({ status: 201, calls: { GetItemCommand: 1, TransactWriteItemsCommand: 2 } });
    }
  });

  it("POST /rewards/{id}/purchase of store credit: a fixed code's calls and the marker written before the credit is sent", async () => {
    const topUp = send({ method: 'POST', path: '/v1/customers/1008/points', key: 'demo_full_key', body: { adjustment: 2000 } });
    expect((await topUp()).status).toBe(200);
    const purchase = send({
      method: 'POST',
      path: '/v1/rewards/store-credit-5/purchase',
      key: 'demo_full_key',
      body: { customer_identifier: '1008' },
    });
    expect(await callsOf(purchase)).toEqual({
      status: 201,
      calls: { GetItemCommand: 1, TransactWriteItemsCommand: 2, UpdateItemCommand: 1 },
    });
  });

  it('POST /shopper/rewards/{id}/redeem: exactly the /v1 purchase (customer, the deducting transaction, the activation)', async () => {
    const redeem = send({ method: 'POST', path: '/shopper/rewards/five-off/redeem', shopper: { customerId: '1005' }, body: {} });
    expect(await callsOf(redeem)).toEqual({
      status: 201,
      calls: { GetItemCommand: 1, TransactWriteItemsCommand: 2 },
    });
  });

  it('a shopper refused for their identity costs nothing of the table once the shop is known', async () => {
    const forged = () => apiClient(twin.url, 'Bearer not.a.token').get('/shopper/member');
    const forgedSignature = async () =>
      apiClient(twin.url, authorizationOf({ shopper: { customerId: '1001' } }).replace(/\.[^.]+$/, '.forged')).get('/shopper/member');
    await refreshShopperTokens([{ shopper: { customerId: '1001' } }]);
    expect(await countCalls(forged)).toEqual({ status: 401, calls: {} });
    expect(await countCalls(forgedSignature)).toEqual({ status: 401, calls: {} });
  });

  it('POST /customers/{id}/actions: customer, the award transaction (counter, profile, entry); past the limit the same, refused', async () => {
    const earn = (id: string) =>
      send({ method: 'POST', path: `/v1/customers/${id}/actions`, key: 'demo_full_key', body: { action: 'follow_on_instagram' } });
    const awarded = await callsOf(earn('1007'), earn('1003'));
    const refused = await countCalls(earn('1007'));

    expect(awarded).toEqual({ status: 201, calls: { GetItemCommand: 1, TransactWriteItemsCommand: 1 } });
    expect(refused).toEqual({ status: 422, calls: { GetItemCommand: 1, TransactWriteItemsCommand: 1 } });
  });

  it('POST .../reward-history/{id}/refund: customer and entry (read at once), the undo recorded, one transaction', async () => {
    const buy = async () =>
      (await send({ method: 'POST', path: '/v1/rewards/five-off/purchase', key: 'demo_full_key', body: { customer_identifier: '1001' } })())
        .body.data.id as string;
    const refund = (id: string) => send({ method: 'POST', path: `/v1/customers/1001/reward-history/${id}/refund`, key: 'demo_full_key' });
    // Enough points for both purchases, whatever the tests before spent.
    await apiClient(twin.url, 'demo_full_key').post('/v1/customers/1001/points', { adjustment: 1000 });
    const [warm, counted] = [await buy(), await buy()];

    expect(await callsOf(refund(counted), refund(warm))).toEqual({
      status: 200,
      calls: { GetItemCommand: 2, UpdateItemCommand: 1, TransactWriteItemsCommand: 1 },
    });
  });

  it('POST /v1/referrals: the code, then the referrer and the e-mail index at once, one transaction, the activation with its event', async () => {
    const api = apiClient(twin.url, 'demo_full_key');
    const code = (await api.get('/v1/customers/1002')).body.data.attributes.referral_code as string;
    const refer = (email: string) =>
      send({ method: 'POST', path: '/v1/referrals', key: 'demo_full_key', body: { referral_code: code, email } });

    const created = await callsOf(refer('calls.friend@example.com'), refer('calls.warm@example.com'));
    // A Gmail address under another form: its own form and its mailbox are both looked up in the e-mail index.
    const gmail = await countCalls(refer('Calls.Friend+x@googlemail.com'));
    // A mailbox referred before, by another member: the guard names who referred it (no stalled referral to finish).
    const other = (await api.get('/v1/customers/1003')).body.data.attributes.referral_code as string;
    const refused = await countCalls(
      send({
        method: 'POST',
        path: '/v1/referrals',
        key: 'demo_full_key',
        body: { referral_code: other, email: 'calls.friend@example.com' },
      }),
    );

    expect(created).toEqual({
      status: 201,
      calls: { GetItemCommand: 2, QueryCommand: 1, TransactWriteItemsCommand: 2 },
    });
    expect(gmail).toEqual({
      status: 201,
      calls: { GetItemCommand: 2, QueryCommand: 2, TransactWriteItemsCommand: 2 },
    });
    expect(refused).toEqual({ status: 422, calls: { GetItemCommand: 3, QueryCommand: 1, TransactWriteItemsCommand: 1 } });
  });

  it('GET /customers/{id}/referrals: the customer, then the page and its count at once', async () => {
    expect(await callsOf(send({ method: 'GET', path: '/v1/customers/1002/referrals', key: 'demo_read_key' }))).toEqual({
      status: 200,
      calls: { GetItemCommand: 1, QueryCommand: 2 },
    });
  });

  // The totals are known before any index is read: the shop's counters item, the history's COUNT query.
  it.each([
    ['/v1/customers?page%5Bnumber%5D=107374183', { GetItemCommand: 1 }],
    ['/v1/customers?sort=-points&filter%5Bloyalty_status%5D=member&page%5Bsize%5D=100&page%5Bnumber%5D=21474837', { GetItemCommand: 1 }],
    ['/v1/customers/1001/earning-history?page%5Bnumber%5D=999999999', { GetItemCommand: 1, QueryCommand: 1 }],
    ['/v1/customers/1001/reward-history?page%5Bsize%5D=100&page%5Bnumber%5D=21474837', { GetItemCommand: 1, QueryCommand: 1 }],
  ])('a page past the last, %s, reads the totals and no page from any index', async (path, calls) => {
    const response = await callsOf(send({ method: 'GET', path, key: 'demo_read_key' }));

    expect(response).toEqual({ status: 200, calls });
  });

  it('counts nothing while paused, and a reset starts from zero', async () => {
    await twinDynamoDbStats(twin.url, 'reset');
    await send(BENCH_ENDPOINTS[0]!)();
    await twinDynamoDbStats(twin.url, 'pause');
    await send(BENCH_ENDPOINTS[0]!)();
    expect((await twinDynamoDbStats(twin.url)).calls).toEqual({ GetItemCommand: 1 });
    expect((await twinDynamoDbStats(twin.url, 'reset')).calls).toEqual({});
  });
});

describe("the authorizer's answer, cached per key and flushed by every key write", () => {
  const getCustomer = (key: string) => () => apiClient(twin.url, key).get('/v1/customers/1001');

  it('reads a key on its first request only: a cold key costs one GetItem more, a warm one none', async () => {
    const key = 'e2e_calls_cold_key';
    await putApiKey({ ...activeKey(key), ...(await usageKeyFields(twin)), name: 'Cold' });

    const cold = await countCalls(getCustomer(key));
    const warm = await countCalls(getCustomer(key));

    expect(cold).toEqual({ status: 200, calls: { GetItemCommand: 2 } });
    expect(warm).toEqual({ status: 200, calls: { GetItemCommand: 1 } });
  });

  it('reads the key again after any key write, even of another key, and refuses a key revoked meanwhile', async () => {
    const key = 'e2e_calls_flushed_key';
    await putApiKey({ ...activeKey(key), ...(await usageKeyFields(twin)), name: 'Flushed' });
    expect((await getCustomer(key)()).status).toBe(200);

    await putApiKey({ ...activeKey('e2e_calls_other_key'), name: 'Other' });
    const afterOtherWrite = await countCalls(getCustomer(key));
    await putApiKey({ ...activeKey(key), name: 'Flushed', status: 'revoked' });
    const afterRevoke = await countCalls(getCustomer(key));

    expect(afterOtherWrite).toEqual({ status: 200, calls: { GetItemCommand: 2 } });
    expect(afterRevoke).toEqual({ status: 401, calls: { GetItemCommand: 1 } });
  });
});

describe("the twin's CPU counter (GET /_cpu, bench only)", () => {
  it("reports the process's CPU time so far, growing with the requests served", async () => {
    const before = await twinCpu(twin.url);
    for (let i = 0; i < 20; i += 1) await send(BENCH_ENDPOINTS[0]!)();
    const after = await twinCpu(twin.url);

    expect(Object.keys(after).sort()).toEqual(['systemMicros', 'userMicros']);
    expect(after.userMicros + after.systemMicros).toBeGreaterThan(before.userMicros + before.systemMicros);
    expect(after.userMicros).toBeGreaterThanOrEqual(before.userMicros);
  });
});
