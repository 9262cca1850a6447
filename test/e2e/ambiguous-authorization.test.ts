// A request carrying two Authorization headers is ambiguous: API Gateway passes the last one on, so a
// read key followed by a full key would write. It is refused with 401 in the envelope, whichever keys
// they are, by the authorizer and again by the endpoint's chain, so a cached authorizer answer for the
// last key (the stage's cache is keyed by that value) cannot let it through. Nothing is written.
import { request } from 'node:http';
import type { Twin } from '../../infra/local/twin';
import { getCustomer } from '../../shared/data/customer-repository';
import { DETAILS } from '../../shared/http/errors';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { apiClient, expectError, startTestTwin, type ApiResponse } from '../support/twin';

let twin: Twin;

beforeAll(async () => {
  twin = await startTestTwin(e2eConfig());
});
afterAll(async () => {
  await twin.stop();
});

/** Sends one request with these raw header lines, each on its own line as a client would. */
function rawRequest(method: string, path: string, headerLines: Array<[string, string]>, body?: unknown): Promise<ApiResponse> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  // Raw header lines get no defaults from Node: Host and the body's headers are written here.
  const lines: Array<[string, string]> = [['Host', new URL(twin.url).host], ...headerLines];
  if (payload) lines.push(['Content-Type', 'application/json'], ['Content-Length', String(Buffer.byteLength(payload))]);
  return new Promise((resolve, reject) => {
    const req = request(`${twin.url}${path}`, { method, headers: lines.flat() }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          headers: new Headers(res.headers as Record<string, string>),
          body: text ? JSON.parse(text) : text,
        }),
      );
    });
    req.on('error', reject);
    req.end(payload);
  });
}

describe('more than one Authorization header', () => {
  // First: the others leave the authorizer's Deny cached under their last key, as the stage's cache keeps it.
  it('is refused even when the authorizer cache holds an Allow for the last key', async () => {
    // The full key alone: allowed, and its answer now cached by the gateway under that value.
    expect((await apiClient(twin.url, KEYS.full).get('/v1/customers/1001')).status).toBe(200);

    const answer = await rawRequest(
      'PUT',
      '/v1/customers/1002',
      [
        ['Authorization', KEYS.read],
        ['Authorization', KEYS.full],
      ],
      { date_of_birth: '2001-02-03' },
    );

    expectError(answer, 401, DETAILS.ambiguousAuthorization);
    expect((await getCustomer('e2e', '1002', true))?.record.date_of_birth).toBeNull();
  });

  it('refuses a read key followed by a full key on a write, and writes nothing', async () => {
    const answer = await rawRequest(
      'POST',
      '/v1/customers',
      [
        ['Authorization', KEYS.read],
        ['Authorization', KEYS.full],
      ],
      { platform_customer_id: '1031' },
    );

    expectError(answer, 401, DETAILS.ambiguousAuthorization);
    expect(await getCustomer('e2e', '1031', true)).toBeNull();
  });

  it('refuses two spellings of the name, and the same key twice, on a read too', async () => {
    const spellings = await rawRequest('GET', '/v1/customers/1001', [
      ['authorization', KEYS.read],
      ['AUTHORIZATION', KEYS.full],
    ]);
    const twice = await rawRequest('GET', '/v1/customers/1001', [
      ['Authorization', KEYS.full],
      ['Authorization', KEYS.full],
    ]);

    expectError(spellings, 401, DETAILS.ambiguousAuthorization);
    expectError(twice, 401, DETAILS.ambiguousAuthorization);
  });
});
