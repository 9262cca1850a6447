import type { Twin } from '../../infra/local/twin';
import { putApiKey } from '../../shared/data/api-key-repository';
import { hashApiKey } from '../../shared/domain/api-key';
import { getCustomer } from '../../shared/data/customer-repository';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { apiClient, expectError, startTestTwin, usageKeyFields } from '../support/twin';

let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin(e2eConfig());
});
afterAll(async () => {
  await twin.stop();
});

describe('authentication', () => {
  it('answers 401 when the Authorization header is missing', async () => {
    const response = await apiClient(twin.url).get('/v1/customers');

    expectError(response, 401, 'Missing Authorization header');
  });

  it('answers 401 missing for an empty Authorization header', async () => {
    expectError(await apiClient(twin.url, '').get('/v1/customers'), 401, 'Missing Authorization header');
  });

  it('answers 401 for an unknown key', async () => {
    expectError(await apiClient(twin.url, 'not-a-real-key').get('/v1/customers'), 401, 'Invalid or revoked API key');
  });

  it('answers 401 for a revoked key', async () => {
    expectError(await apiClient(twin.url, KEYS.revoked).get('/v1/customers/1001'), 401, 'Invalid or revoked API key');
  });

  it('does not accept a Bearer prefix, and says the header must carry the bare key', async () => {
    const detail = "Invalid API key: send the bare key in the Authorization header, without the 'Bearer ' prefix";

    expectError(await apiClient(twin.url, `Bearer ${KEYS.full}`).get('/v1/customers'), 401, detail);
    expectError(await apiClient(twin.url, `bearer ${KEYS.read}`).get('/v1/customers/1001'), 401, detail);
    expectError(await apiClient(twin.url, 'Bearer not-a-key').get('/v1/customers'), 401, detail);
  });

  it('lets a read-only key read', async () => {
    expect((await apiClient(twin.url, KEYS.read).get('/v1/customers/1001')).status).toBe(200);
  });

  it('refuses every write with a read-only key, and writes nothing', async () => {
    const api = apiClient(twin.url, KEYS.read);

    const enrol = await api.post('/v1/customers', { platform_customer_id: '1030' });
    const update = await api.put('/v1/customers/1002', { date_of_birth: '2001-01-01' });

    const detail = 'This API key is read-only and cannot perform write operations';
    expectError(enrol, 403, detail);
    expectError(update, 403, detail);
    expect(await getCustomer('e2e', '1030', true)).toBeNull();
    expect((await getCustomer('e2e', '1002', true))?.record.date_of_birth).toBeNull();
  });

  it('refuses a read-only write before looking at the body', async () => {
    expectError(await apiClient(twin.url, KEYS.read).post('/v1/customers', '{not json'), 403);
  });

  it('applies a revocation to the very next request', async () => {
    const key = 'e2e_soon_revoked_key';
    const record = {
      key_hash: hashApiKey(key),
      shop_id: 'e2e',
      name: 'Temp',
      scope: 'full' as const,
      status: 'active' as const,
      ...(await usageKeyFields(twin)),
      created_at: new Date().toISOString(),
    };
    await putApiKey(record);
    const api = apiClient(twin.url, key);
    expect((await api.get('/v1/customers/1001')).status).toBe(200);

    await putApiKey({ ...record, status: 'revoked' });

    expectError(await api.get('/v1/customers/1001'), 401, 'Invalid or revoked API key');
  });

  it('refuses an active key without a usage-plan key, or with one the plan does not hold or has disabled, as API Gateway does', async () => {
    const put = async (key: string, usage: { usage_identifier_key: string | null; usage_key_id?: string | null }) => {
      await putApiKey({
        key_hash: hashApiKey(key),
        shop_id: 'e2e',
        name: key,
        scope: 'read',
        status: 'active',
        ...usage,
        created_at: new Date().toISOString(),
      });
      return apiClient(twin.url, key);
    };
    const disabled = await usageKeyFields(twin);
    await twin.usagePlan.keys.disable(disabled.usage_key_id);

    const answers = [
      await (await put('e2e_no_usage_key_1', { usage_identifier_key: null })).get('/v1/customers/1001'),
      await (await put('e2e_unknown_usage_key', { usage_identifier_key: 'not-a-key-of-the-plan-0123456789' })).get('/v1/customers/1001'),
      await (await put('e2e_disabled_usage_key', disabled)).get('/v1/customers/1001'),
    ];

    for (const answer of answers) expectError(answer, 401, 'Invalid or revoked API key');
  });

  it('never shows one shop the customers of another', async () => {
    const other = apiClient(twin.url, KEYS.otherShop);

    expectError(await other.get('/v1/customers/1001'), 404, "Customer '1001' not found");
    expectError(await other.get('/v1/customers/ada.lovelace@example.com'), 404);
    const list = await other.get('/v1/customers');
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual(['5001']);
    expect(list.body.meta.total).toBe(1);
  });
});

describe('gateway errors', () => {
  it('answers an unknown route with 404 in the envelope, key or not', async () => {
    expectError(await apiClient(twin.url).get('/v1/nothing-here'), 404);
    expectError(await apiClient(twin.url, KEYS.full).get('/v2/customers'), 404);
  });

  it('answers an unsupported method with 405 and an Allow header', async () => {
    const response = await apiClient(twin.url, KEYS.full).request('DELETE', '/v1/customers/1001');

    expectError(response, 405);
    expect(response.headers.get('allow')).toBe('GET, PUT');
  });

  it('answers 500 without internals when something unexpected fails', async () => {
    // A key whose shop has no configuration: a deployment fault the caller cannot fix.
    const key = 'e2e_orphan_shop_key';
    await putApiKey({
      key_hash: hashApiKey(key),
      shop_id: 'no-such-shop',
      name: 'Orphan',
      scope: 'full',
      status: 'active',
      ...(await usageKeyFields(twin)),
      created_at: new Date().toISOString(),
    });
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);

    const response = await apiClient(twin.url, key).get('/v1/earning-rules');

    spy.mockRestore();
    expectError(response, 500, 'An unexpected error occurred');
    expect(JSON.stringify(response.body)).not.toMatch(/no-such-shop|stack|Error:/);
  });
});

describe('rate limits', () => {
  it('answers 429 in the envelope past 6 requests a second on a throttled route', async () => {
    const api = apiClient(twin.url, KEYS.read);

    // 24 at once: even a slow CI machine cannot refill a 6-token bucket fast enough to serve them all.
    const responses = await Promise.all(Array.from({ length: 24 }, () => api.get('/v1/customers/1001/birthday')));

    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200).length).toBeGreaterThanOrEqual(6);
    expect(statuses.filter((s) => s === 200).length).toBeLessThan(24);
    const limited = responses.find((r) => r.status === 429);
    expect(limited).toBeDefined();
    expectError(limited!, 429, 'Rate limit exceeded');
  });

  it('throttles each key separately', async () => {
    const burst = await Promise.all(Array.from({ length: 24 }, () => apiClient(twin.url, KEYS.full).get('/v1/customers/1001/anniversary')));
    const otherKey = await apiClient(twin.url, KEYS.otherShop).get('/v1/customers/5001/anniversary');

    expect(burst.some((r) => r.status === 429)).toBe(true);
    expect(otherKey.status).toBe(200);
  });

  it('never refuses a normal burst on the other routes', async () => {
    const api = apiClient(twin.url, KEYS.full);

    const responses = await Promise.all(Array.from({ length: 40 }, () => api.get('/v1/customers/1002')));

    expect(responses.every((r) => r.status === 200)).toBe(true);
  });
});
