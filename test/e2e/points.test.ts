import type { Twin } from '../../infra/local/twin';
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

const events = async () => ((await (await fetch(`${twin.url}/_events`)).json()) as { events: Array<Record<string, unknown>> }).events;

describe('POST /v1/customers/{identifier}/points', () => {
  it('adds points and answers with the points_adjustment object', async () => {
    const before = (await api.get('/v1/customers/1003')).body.data.attributes;

    const response = await api.post('/v1/customers/1003/points', { adjustment: 25, note: 'Goodwill' });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      data: {
        type: 'points_adjustment',
        id: '1003',
        attributes: {
          platform_customer_id: '1003',
          adjustment: 25,
          points_before: before.current_points,
          points_after: before.current_points + 25,
          current_points: before.current_points + 25,
          loyalty_mode: 'points',
          currency: 'USD',
        },
      },
    });
    const after = (await api.get('/v1/customers/1003')).body.data.attributes;
    expect(after.current_points).toBe(before.current_points + 25);
    expect(after.lifetime_points).toBe(before.lifetime_points + 25);
  });

  it('floors the balance at zero and reports the adjustment actually applied', async () => {
    await api.post('/v1/customers/1004/points', { adjustment: -100000 });
    await api.post('/v1/customers/1004/points', { adjustment: 5 });

    const response = await api.post('/v1/customers/1004/points', { adjustment: -20 });

    expect(response.body.data.attributes).toMatchObject({ adjustment: -5, points_before: 5, points_after: 0, current_points: 0 });
  });

  it('keeps lifetime points when update_lifetime_points is false', async () => {
    const before = (await api.get('/v1/customers/1005')).body.data.attributes;

    await api.post('/v1/customers/customer1005@example.com/points', { adjustment: 40, update_lifetime_points: false });

    const after = (await api.get('/v1/customers/1005')).body.data.attributes;
    expect(after.current_points).toBe(before.current_points + 40);
    expect(after.lifetime_points).toBe(before.lifetime_points);
  });

  it('recalculates the tier in the same write', async () => {
    expect((await api.get('/v1/customers/1002')).body.data.attributes.vip_tier).toBeNull();

    await api.post('/v1/customers/1002/points', { adjustment: 2000 });

    expect((await api.get('/v1/customers/1002')).body.data.attributes.vip_tier.id).toBe('gold');
  });

  it('records the adjustment in the earning history as an approved manual adjustment', async () => {
    const response = await api.post('/v1/customers/1006/points', { adjustment: 12, note: 'Audit me' });

    expect(response.status).toBe(200);
    const published = (await events()).filter((e) => e.type === 'points.adjusted' && e.customer_id === '1006');
    expect(published).toHaveLength(1);
    const entryId = published[0]!.earning_history_entry_id as string;
    const entry = await api.get(`/v1/customers/1006/earning-history/${entryId}`);
    expect(entry.status).toBe(200);
    expect(entry.body.data.attributes).toMatchObject({ action: 'manual_adjustment', points: 12, base_points: 12, status: 'approved' });
  });

  it('publishes the event with the send_email flag', async () => {
    await api.post('/v1/customers/1007/points', { adjustment: 3, send_email: false });

    const published = (await events()).filter((e) => e.type === 'points.adjusted' && e.customer_id === '1007');
    expect(published).toEqual([expect.objectContaining({ shop_id: 'e2e', adjustment: 3, send_email: false })]);
  });

  it('adds the money view in store-credit shops', async () => {
    const credit = apiClient(twin.url, KEYS.credit);

    const response = await credit.post('/v1/customers/7001/points', { adjustment: -250 });

    expect(response.status).toBe(200);
    expect(response.body.data.attributes).toEqual({
      platform_customer_id: '7001',
      adjustment: -250,
      points_before: 2550,
      points_after: 2300,
      current_points: 2300,
      loyalty_mode: 'store_credit',
      currency: 'EUR',
      credit_adjustment: '-2.50',
      credit_before: '25.50',
      credit_after: '23.00',
      credit_balance: '23.00',
    });
  });

  it.each([
    [{}, 'adjustment is required'],
    [{ adjustment: 0 }, 'adjustment cannot be zero'],
    [{ adjustment: 2.5 }, 'adjustment must be a non-zero integer'],
    [{ adjustment: '10' }, 'adjustment must be a non-zero integer'],
  ])('answers 400 for %j', async (body, detail) => {
    expectError(await api.post('/v1/customers/1008/points', body), 400, detail);
  });

  it('answers 400 for invalid JSON', async () => {
    expectError(await api.post('/v1/customers/1008/points', '{"adjustment": 5'), 400, 'Request body is not valid JSON');
  });

  it('answers 403 for an excluded customer and changes nothing', async () => {
    const before = (await api.get('/v1/customers/1025')).body.data.attributes;

    expectError(await api.post('/v1/customers/1025/points', { adjustment: 5 }), 403, 'Customer is excluded from the loyalty program');

    expect((await api.get('/v1/customers/1025')).body.data.attributes.current_points).toBe(before.current_points);
  });

  it('answers 403 for a read-only key and changes nothing', async () => {
    const before = (await api.get('/v1/customers/1009')).body.data.attributes;

    const response = await apiClient(twin.url, KEYS.read).post('/v1/customers/1009/points', { adjustment: 5 });

    expectError(response, 403, 'This API key is read-only and cannot perform write operations');
    expect((await api.get('/v1/customers/1009')).body.data.attributes.current_points).toBe(before.current_points);
  });

  it('answers 404 for an unknown customer, and for a customer of another shop', async () => {
    expectError(await api.post('/v1/customers/4040/points', { adjustment: 5 }), 404, "Customer '4040' not found");
    expectError(await api.post('/v1/customers/5001/points', { adjustment: 5 }), 404, "Customer '5001' not found");
  });

  it('answers 401 without a key', async () => {
    expectError(await apiClient(twin.url).post('/v1/customers/1001/points', { adjustment: 5 }), 401, 'Missing Authorization header');
  });

  it('applies simultaneous adjustments over HTTP without losing any', async () => {
    const before = (await api.get('/v1/customers/1010')).body.data.attributes.current_points;

    const responses = await Promise.all(Array.from({ length: 20 }, () => api.post('/v1/customers/1010/points', { adjustment: 3 })));

    expect(responses.every((r) => r.status === 200)).toBe(true);
    expect((await api.get('/v1/customers/1010')).body.data.attributes.current_points).toBe(before + 60);
  });
});
