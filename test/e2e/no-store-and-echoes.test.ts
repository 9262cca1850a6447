// Every answer of the API carries personal data or may (members, histories, referrals, an e-mail in a
// detail): each one, success or error, from a handler or from the gateway itself, says `Cache-Control:
// no-store`. And an identifier a detail repeats is cut to a sane length, not sent back whole.
import type { Twin } from '../../infra/local/twin';
import { ECHOED_IDENTIFIER_MAX } from '../../shared/domain/errors';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { apiClient, expectError, startTestTwin, type ApiResponse } from '../support/twin';

let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin(e2eConfig());
});
afterAll(async () => {
  await twin.stop();
});

const noStore = (response: ApiResponse) => response.headers.get('cache-control');

describe('Cache-Control: no-store', () => {
  it('is on every answer: a member, a list, a write, its replay, refusals of the handler and of the gateway', async () => {
    const api = apiClient(twin.url, KEYS.full);
    const idempotent = { 'Idempotency-Key': `no-store-${Date.now()}` };
    const answers = {
      member: await api.get('/v1/customers/1001'),
      list: await api.get('/v1/customers'),
      history: await api.get('/v1/customers/1001/earning-history'),
      write: await api.post('/v1/customers/1001/points', { adjustment: 1 }, idempotent),
      replay: await api.post('/v1/customers/1001/points', { adjustment: 1 }, idempotent),
      notFound: await api.get('/v1/customers/someone@example.com'),
      invalid: await api.post('/v1/customers', { platform_customer_id: 12 }),
      readOnly: await apiClient(twin.url, KEYS.read).post('/v1/customers/1001/points', { adjustment: 1 }),
      unauthenticated: await apiClient(twin.url).get('/v1/customers/1001'),
      unknownKey: await apiClient(twin.url, 'not-a-key').get('/v1/customers/1001'),
      noRoute: await api.get('/v1/nowhere/someone@example.com'),
      wrongMethod: await api.request('DELETE', '/v1/customers'),
    };

    expect(answers.member.status).toBe(200);
    expect(answers.replay.headers.get('idempotency-replayed')).toBe('true');
    expect(Object.fromEntries(Object.entries(answers).map(([name, answer]) => [name, noStore(answer)]))).toEqual(
      Object.fromEntries(Object.keys(answers).map((name) => [name, 'no-store'])),
    );
  });
});

describe('identifiers repeated in details', () => {
  const long = '9'.repeat(5000);
  const shown = `${'9'.repeat(ECHOED_IDENTIFIER_MAX)}…`;

  it('cuts a 5 000-character identifier in a 404 to its first 100 characters', async () => {
    const api = apiClient(twin.url, KEYS.full);

    expectError(await api.get(`/v1/customers/${long}`), 404, `Customer '${shown}' not found`);
    expectError(await api.get(`/v1/customers/1001/earning-history/${long}`), 404, `Earning history entry '${shown}' not found`);
    expectError(await api.post(`/v1/rewards/${long}/purchase`, { customer_identifier: '1001' }), 404, `Reward '${shown}' not found`);
    expectError(await api.get(`/v1/nowhere/${long}`), 404, `No route matches GET /v1/nowhere/${'9'.repeat(ECHOED_IDENTIFIER_MAX - 12)}…`);
  });

  it('repeats an identifier of 100 characters or fewer whole', async () => {
    const api = apiClient(twin.url, KEYS.full);
    const exact = `${'a'.repeat(ECHOED_IDENTIFIER_MAX - 12)}@example.com`;

    expectError(await api.get(`/v1/customers/${exact}`), 404, `Customer '${exact}' not found`);
  });
});
