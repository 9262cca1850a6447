import type { Twin } from '../../infra/local/twin';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { apiClient, expectError, startTestTwin } from '../support/twin';

let twin: Twin;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  twin = await startTestTwin(e2eConfig(), { throttling: false });
  api = apiClient(twin.url, KEYS.full);
});
afterAll(async () => {
  await twin.stop();
});

const key = (name: string) => ({ 'Idempotency-Key': `${name}-${Math.random().toString(36).slice(2)}` });
const balance = async (id: string) => (await api.get(`/v1/customers/${id}`)).body.data.attributes.current_points as number;
const adjustedEvents = async (customerId: string) =>
  ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<{ type: string; customer_id: string }> }).events.filter(
    (e) => e.type === 'points.adjusted' && e.customer_id === customerId,
  );

describe('Idempotency-Key', () => {
  it('replays the first response of a points adjustment and applies it once', async () => {
    const headers = key('adjust');
    const before = await balance('1011');

    const first = await api.post('/v1/customers/1011/points', { adjustment: 7 }, headers);
    const retry = await api.post('/v1/customers/1011/points', { adjustment: 7 }, headers);

    expect(first.status).toBe(200);
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get('idempotency-replayed')).toBe('true');
    expect(await balance('1011')).toBe(before + 7);
    expect(await adjustedEvents('1011')).toHaveLength(1);
  });

  it('treats the same body with keys in another order as the same request', async () => {
    const headers = key('order');
    await api.post('/v1/customers/1012/points', { adjustment: 2, note: 'x' }, headers);

    const retry = await api.post('/v1/customers/1012/points', '{"note":"x","adjustment":2}', headers);

    expect(retry.headers.get('idempotency-replayed')).toBe('true');
  });

  it('refuses the same key with a different body with 422', async () => {
    const headers = key('mismatch');
    await api.post('/v1/customers/1013/points', { adjustment: 1 }, headers);

    const response = await api.post('/v1/customers/1013/points', { adjustment: 2 }, headers);

    expectError(response, 422, `Idempotency-Key '${headers['Idempotency-Key']}' was already used with a different request`);
  });

  it('keeps keys of different shops apart', async () => {
    const headers = key('shared');
    await api.post('/v1/customers/1014/points', { adjustment: 1 }, headers);

    const other = await apiClient(twin.url, KEYS.otherShop).post('/v1/customers/5001/points', { adjustment: 1 }, headers);

    expect(other.status).toBe(200);
    expect(other.headers.get('idempotency-replayed')).toBeNull();
  });

  it('replays an enrolment as 201 while a plain repeat answers 200', async () => {
    const headers = key('enrol');

    const first = await api.post('/v1/customers', { platform_customer_id: '1029' }, headers);
    const replay = await api.post('/v1/customers', { platform_customer_id: '1029' }, headers);
    const plain = await api.post('/v1/customers', { platform_customer_id: '1029' });

    expect([first.status, replay.status, plain.status]).toEqual([201, 201, 200]);
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
  });

  it('replays a 4XX first response', async () => {
    const headers = key('notfound');
    await api.post('/v1/customers/4444/points', { adjustment: 1 }, headers);

    const replay = await api.post('/v1/customers/4444/points', { adjustment: 1 }, headers);

    expectError(replay, 404, "Customer '4444' not found");
    expect(replay.headers.get('idempotency-replayed')).toBe('true');
  });

  it('of concurrent requests with one key, exactly one applies', async () => {
    const headers = key('race');
    const before = await balance('1015');

    const responses = await Promise.all(Array.from({ length: 6 }, () => api.post('/v1/customers/1015/points', { adjustment: 5 }, headers)));

    expect(responses.every((r) => r.status === 200 || r.status === 409)).toBe(true);
    expect(await balance('1015')).toBe(before + 5);
  });

  it('charges a purchase once when it is retried after the client timed out', async () => {
    const headers = key('purchase');
    await api.post('/v1/customers/1016/points', { adjustment: 1000 });
    const before = await balance('1016');
    const codesBefore = twin.simulator.discountCodes().length;
    const controller = new AbortController();
    const first = fetch(`${twin.url}/v1/rewards/five-off/purchase`, {
      method: 'POST',
      headers: { Authorization: KEYS.full, 'Content-Type': 'application/json', ...headers },
      body: JSON.stringify({ customer_identifier: '1016' }),
      signal: controller.signal,
    }).catch(() => null);
    controller.abort(); // the client gives up at once; the server carries on

    await first;
    let retry = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '1016' }, headers);
    for (let i = 0; retry.status === 409 && i < 50; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      retry = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '1016' }, headers);
    }
    const again = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '1016' }, headers);

    expect(retry.status).toBe(201);
    expect(again.body).toEqual(retry.body);
    expect(await balance('1016')).toBe(before - 500);
    expect(twin.simulator.discountCodes().length).toBe(codesBefore + 1);
  });

  it('refuses an invalid key and still answers 403 to a read-only key first', async () => {
    expectError(
      await api.post('/v1/customers/1017/points', { adjustment: 1 }, { 'Idempotency-Key': 'é'.repeat(3) }),
      400,
      'Idempotency-Key must be 1 to 255 printable ASCII characters',
    );
    expectError(await apiClient(twin.url, KEYS.read).post('/v1/customers/1017/points', { adjustment: 1 }, key('ro')), 403);
  });

  it('ignores an expired record that TTL has not deleted yet', async () => {
    const headers = key('expired');
    const route = 'POST /v1/customers/{identifier}/points';
    // A record of another request, claimed two days ago, as the table holds one: past its TTL, not deleted yet.
    const claimedAt = Date.now() - 2 * 86_400_000;
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          pk: `SHOP#e2e#IDEMPOTENCY#${route}#${headers['Idempotency-Key']!}`,
          sk: 'IDEMPOTENCY',
          request_hash: 'other-hash',
          status: 'in_progress',
          created_at: new Date(claimedAt).toISOString(),
          ttl: Math.floor(claimedAt / 1000) + 86_400,
          in_progress_expiry: claimedAt + 10_000,
          claim_id: 'a-claim',
        },
      }),
    );

    const response = await api.post('/v1/customers/1018/points', { adjustment: 1 }, headers);

    expect(response.status).toBe(200);
    expect(response.headers.get('idempotency-replayed')).toBeNull();
  });
});
