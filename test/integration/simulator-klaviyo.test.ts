// The simulator's Klaviyo over HTTP, answering as Klaviyo's API does (revision 2026-10-15): 201 then 200 for a
// profile created then updated, 202 with no body for an event, Klaviyo's JSON:API error bodies for 400, 401,
// 415, 429 and 503, the first event of a unique_id per profile and metric recorded only, GET /_klaviyo, and
// the `klaviyo` fault of PUT /_faults.
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';

const KEY = 'pk_sim_0123456789';
let simulator: PlatformSimulator;

beforeAll(async () => {
  simulator = await startPlatformSimulator({ shops: {}, klaviyoKeys: [KEY, 'pk_other_0123456789'] });
});
afterAll(async () => {
  await simulator.stop();
});
afterEach(() => {
  simulator.setFaults({ klaviyo: 'ok' });
});

const HEADERS = { Authorization: `Klaviyo-API-Key ${KEY}`, revision: '2026-10-15', 'Content-Type': 'application/vnd.api+json' };

async function post(path: string, body: unknown, headers: Record<string, string> = HEADERS) {
  const response = await fetch(`${simulator.klaviyoUrl}${path}`, {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, body: text ? (JSON.parse(text) as any) : null }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const profile = (attributes: Record<string, unknown>) => ({ data: { type: 'profile', attributes } });
const event = (uniqueId: string, email = 'ada@example.com', metric = 'Loyalty Points Earned') => ({
  data: {
    type: 'event',
    attributes: {
      properties: { points: 5 },
      time: '2026-11-27T10:00:00.000Z',
      unique_id: uniqueId,
      metric: { data: { type: 'metric', attributes: { name: metric } } },
      profile: { data: { type: 'profile', attributes: { email, external_id: '1001' } } },
    },
  },
});
const errorShape = (status: number, code: string) => ({
  errors: [
    {
      id: expect.any(String),
      status,
      code,
      title: expect.any(String),
      detail: expect.any(String),
      source: { pointer: expect.any(String) },
      links: {},
      meta: {},
    },
  ],
});

describe("the simulator's Klaviyo", () => {
  it('creates a profile with 201, updates it with 200 (found by e-mail or external id) and merges its properties', async () => {
    const created = await post('/api/profile-import', profile({ email: 'grace@example.com', external_id: '2002', properties: { a: 1 } }));
    const updated = await post('/api/profile-import', profile({ external_id: '2002', first_name: 'Grace', properties: { b: 2 } }));

    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({
      type: 'profile',
      id: expect.any(String),
      attributes: { email: 'grace@example.com', external_id: '2002' },
    });
    expect(updated.status).toBe(200);
    expect(updated.body.data.id).toBe(created.body.data.id);
    expect(simulator.klaviyo().profiles.filter((found) => found.external_id === '2002')).toEqual([
      { email: 'grace@example.com', external_id: '2002', first_name: 'Grace', properties: { a: 1, b: 2 } },
    ]);
  });

  it('answers an event 202 with no body and records the first of a unique_id per profile and metric only', async () => {
    const first = await post('/api/events', event('u-1'));
    const again = await post('/api/events', event('u-1'));
    const otherMetric = await post('/api/events', event('u-1', 'ada@example.com', 'Loyalty Points Adjusted'));

    expect([first.status, again.status, otherMetric.status]).toEqual([202, 202, 202]);
    expect(first.text).toBe('');
    const recorded = (await (await fetch(`${simulator.url}/_klaviyo`)).json()) as ReturnType<PlatformSimulator['klaviyo']>;
    expect(recorded.events.filter((found) => found.unique_id === 'u-1')).toEqual([
      {
        metric: { name: 'Loyalty Points Earned' },
        profile: { email: 'ada@example.com', external_id: '1001' },
        properties: { points: 5 },
        time: '2026-11-27T10:00:00.000Z',
        unique_id: 'u-1',
      },
      expect.objectContaining({ metric: { name: 'Loyalty Points Adjusted' }, unique_id: 'u-1' }),
    ]);
    expect(recorded.requests).toBeGreaterThanOrEqual(3);
  });

  it('refuses as Klaviyo does: an unknown key 401, a body it would refuse 400 naming the field, no revision 400, another content type 415', async () => {
    const unknownKey = await post('/api/events', event('u-2'), { ...HEADERS, Authorization: 'Klaviyo-API-Key pk_nobody_0000' });
    const noMetric = await post('/api/events', {
      data: { type: 'event', attributes: { properties: {}, profile: event('x').data.attributes.profile } },
    });
    const badEmail = await post('/api/events', event('u-3', 'ada@example'));
    const noIdentifier = await post('/api/profile-import', profile({ first_name: 'Nobody' }));
    const wrongType = await post('/api/profile-import', { data: { type: 'event', attributes: { email: 'a@example.com' } } });
    const noRevision = await post('/api/events', event('u-4'), {
      Authorization: HEADERS.Authorization,
      'Content-Type': HEADERS['Content-Type'],
    });
    const text = await post('/api/events', 'hello', { ...HEADERS, 'Content-Type': 'text/plain' });

    expect(unknownKey).toMatchObject({ status: 401, body: errorShape(401, 'not_authenticated') });
    expect(noMetric).toMatchObject({ status: 400, body: errorShape(400, 'invalid') });
    expect(noMetric.body.errors[0].source.pointer).toBe('/data/attributes/metric');
    expect(badEmail.body.errors[0]).toMatchObject({
      status: 400,
      detail: 'Invalid email address',
      source: { pointer: '/data/attributes/profile/data/attributes/email' },
    });
    expect(noIdentifier).toMatchObject({ status: 400, body: errorShape(400, 'invalid') });
    expect(wrongType.body.errors[0].source.pointer).toBe('/data/type');
    expect(noRevision).toMatchObject({ status: 400, body: errorShape(400, 'invalid') });
    expect(text).toMatchObject({ status: 415, body: errorShape(415, 'unsupported_media_type') });
    expect(simulator.klaviyo().events.some((found) => ['u-2', 'u-3', 'u-4'].includes(found.unique_id))).toBe(false);
  });

  it('keeps one account per key', async () => {
    await post('/api/profile-import', profile({ email: 'shared@example.com', properties: { shop: 'one' } }));
    await post('/api/profile-import', profile({ email: 'shared@example.com', properties: { shop: 'two' } }), {
      ...HEADERS,
      Authorization: 'Klaviyo-API-Key pk_other_0123456789',
    });

    expect(
      simulator
        .klaviyo()
        .profiles.filter((found) => found.email === 'shared@example.com')
        .map((found) => found.properties.shop),
    ).toEqual(['one', 'two']);
  });

  it('throttles with 429 and Retry-After: 1, fails with 503, drops the connection, as PUT /_faults says', async () => {
    const put = async (body: unknown) =>
      fetch(`${simulator.url}/_faults`, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

    expect((await put({ klaviyo: 'throttled' })).status).toBe(200);
    const throttled = await post('/api/events', event('u-5'));
    expect(throttled).toMatchObject({ status: 429, body: errorShape(429, 'throttled') });
    expect(throttled.headers.get('retry-after')).toBe('1');

    await put({ klaviyo: 'error' });
    expect(await post('/api/profile-import', profile({ email: 'x@example.com' }))).toMatchObject({
      status: 503,
      body: errorShape(503, 'service_unavailable'),
    });

    await put({ klaviyo: 'unreachable' });
    await expect(post('/api/events', event('u-6'))).rejects.toThrow();

    const refused = await put({ klaviyo: 'hang' });
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: string }).error).toContain('klaviyo is one of ok, throttled, error, unreachable');

    await put({ klaviyo: 'ok' });
    expect((await post('/api/events', event('u-7'))).status).toBe(202);
    expect(simulator.klaviyo().events.some((found) => ['u-5', 'u-6'].includes(found.unique_id))).toBe(false);
  });
});
