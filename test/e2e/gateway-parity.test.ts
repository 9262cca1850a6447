// The twin's gateway answers as API Gateway's REST API (edge-optimized, Lambda proxy integrations) and Lambda
// do, and its own answers are the stack's gateway responses (GATEWAY_RESPONSES): function timeouts and the 29 s
// integration timeout, failed and malformed results, the payload limits, the query string, percent-encoded path
// parameters, the mocks' media type and the edge's headers. A gateway of a few test routes with fixture
// handlers; the authorizer's Allow is in its cache, so no table is read. Timeouts are scaled, never slept.
import { request } from 'node:http';
import { join } from 'node:path';
import type { APIGatewayAuthorizerResult, APIGatewayProxyEvent } from 'aws-lambda';
import { authorizerCache } from '../../infra/local/authorizer-cache';
import { GATEWAY_RESPONSES } from '../../infra/cdk/constructs/loyalty-api';
import { startGateway, type Gateway } from '../../infra/local/gateway';
import { pagePath } from '../../functions/admin/home';
import { DETAILS, envelope } from '../../shared/http/errors';
import { ADMIN_PAGES, type Route, ROUTES, SHOPPER_ROUTES, WEBHOOKS } from '../../shared/runtime/entry-points';

const ROOT = join(__dirname, '..', '..');
const FIXTURE = 'test/fixtures/gateway-parity-handler.ts';
const KEY = 'parity-test-key';
const MB = 1024 * 1024;

const route = (name: string, method: Route['method'], path: string, extra: Partial<Route> & { timeoutSeconds?: number } = {}): Route => ({
  name,
  method,
  path,
  handler: FIXTURE,
  scope: method === 'GET' ? 'read' : 'full',
  table: 'none',
  throttle: 'standard',
  ...extra,
});
const getCustomer = ROUTES.find((candidate) => candidate.name === 'getCustomer')!;
const ROUTE_SET: Route[] = [
  route('parityRead', 'GET', '/v1/parity'),
  route('parityWrite', 'POST', '/v1/parity'),
  // A function whose timeout is above the REST API's 29 s.
  route('paritySlow', 'POST', '/v1/parity/slow', { timeoutSeconds: 60 }),
  { ...getCustomer, handler: 'test/fixtures/path-parameter-handler.ts' },
  { ...getCustomer, name: 'getCustomerEvent', path: '/v1/parity/customers/{identifier}', handler: FIXTURE },
];

/** An authorizer cache holding the Allow for KEY, so that the authorizer (and its table) is never asked. */
function allowingCache() {
  const cache = authorizerCache(300);
  const allow: APIGatewayAuthorizerResult = {
    principalId: 'parity',
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: 'Allow', Resource: '*' }] },
    context: { shopId: 'shop-parity', keyId: 'parity', scope: 'full' },
  };
  cache.set(KEY, allow, cache.generation);
  return cache;
}

const start = (timeScale?: number) =>
  startGateway({
    routes: ROUTE_SET,
    root: ROOT,
    port: 0,
    limiter: null,
    authorizerCache: allowingCache(),
    webhooks: WEBHOOKS.map((hook) => ({ ...hook, handler: FIXTURE })),
    shopperRoutes: SHOPPER_ROUTES,
    pages: ADMIN_PAGES.map((page) => ({ ...page, handler: FIXTURE })),
    ...(timeScale ? { timeScale } : {}),
  });

let gateway: Gateway;
/** The same routes with every timeout a thousandth: a function's 10 s is 10 ms, the integration's 29 s 29 ms. */
let hurried: Gateway;

beforeAll(async () => {
  [gateway, hurried] = await Promise.all([start(), start(0.001)]);
});
afterAll(async () => {
  await Promise.all([gateway?.stop(), hurried?.stop()]);
});

interface Answer {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
}

/** A request with the allowed key; it gives up after 5 s, so a gateway that never answers fails fast. */
async function call(path: string, init: RequestInit = {}, on: Gateway = gateway): Promise<Answer> {
  const response = await fetch(`${on.url}${path}`, {
    ...init,
    headers: { Authorization: KEY, ...(init.headers as Record<string, string>) },
    signal: AbortSignal.timeout(5000),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, headers: response.headers, text: bytes.toString('utf8'), bytes };
}

/** A GET through node:http, which sends the Host header given (fetch replaces it); the event the fixture echoes. */
function eventWithHost(path: string, headers: Record<string, string>): Promise<APIGatewayProxyEvent> {
  return new Promise((resolve, reject) => {
    const req = request(`${gateway.url}${path}`, { headers: { Authorization: KEY, ...headers }, timeout: 5000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(JSON.parse(Buffer.concat(chunks).toString('utf8')) as APIGatewayProxyEvent));
    });
    req.on('error', reject);
    req.end();
  });
}

const eventOf = (answer: Answer) => JSON.parse(answer.text) as APIGatewayProxyEvent;
const resultAnswer = (result: unknown) => call('/v1/parity?do=result', { method: 'POST', body: JSON.stringify(result) });

/** The stack's gateway response of this type: its status and its envelope, as the twin must answer them. */
function expectGatewayResponse(answer: Answer, type: string): void {
  const response = GATEWAY_RESPONSES.find((candidate) => candidate.type.responseType === type)!;
  expect({ status: answer.status, body: JSON.parse(answer.text) }).toEqual({
    status: Number(response.statusCode),
    body: envelope(Number(response.statusCode), response.detail),
  });
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('access-control-allow-origin')).toBe('*');
}

describe('function timeouts', () => {
  it('answers 502 when the function has not answered at its timeout (the manifest’s 10 s, scaled)', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = await call('/v1/parity?do=hang', {}, hurried);
    spy.mockRestore();

    expectGatewayResponse(answer, 'DEFAULT_5XX');
    expect(answer.status).toBe(502);
  });

  it('answers 504 at the 29 s integration timeout for a function whose own timeout is longer', async () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const answer = await call('/v1/parity/slow?do=hang', { method: 'POST' }, hurried);
    spy.mockRestore();

    expectGatewayResponse(answer, 'INTEGRATION_TIMEOUT');
    expect(answer.status).toBe(504);
  });

  it('still answers a function that answers within its timeout', async () => {
    expect((await call('/v1/parity', {}, hurried)).status).toBe(200);
  });
});

describe('failed and malformed results', () => {
  let spy: jest.SpyInstance;
  beforeEach(() => {
    spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => spy.mockRestore());

  it('answers 502 for a function that throws', async () => {
    expectGatewayResponse(await call('/v1/parity?do=throw'), 'DEFAULT_5XX');
  });

  it.each([
    ['not an object', 'hello'],
    ['null (a function that returned nothing)', null],
    ['an array', [200]],
    ['no statusCode', { body: 'x' }],
    ['a statusCode that is a string', { statusCode: '200', body: 'x' }],
    ['a statusCode that is not an integer', { statusCode: 200.5, body: 'x' }],
    ['a statusCode out of 100-599', { statusCode: 600, body: 'x' }],
    ['a body that is not a string', { statusCode: 200, body: { a: 1 } }],
    ['headers that are not an object', { statusCode: 200, headers: 'x', body: '' }],
    ['a header value that is an object', { statusCode: 200, headers: { a: { b: 1 } }, body: '' }],
    ['multiValueHeaders values that are not lists', { statusCode: 200, multiValueHeaders: { a: 'b' }, body: '' }],
    ['isBase64Encoded that is not a boolean', { statusCode: 200, body: '', isBase64Encoded: 'yes' }],
    ['an unknown key', { statusCode: 200, body: '', cookies: ['a=b'] }],
  ])('answers 502 for a result with %s', async (_, result) => {
    const answer = await resultAnswer(result);

    expectGatewayResponse(answer, 'DEFAULT_5XX');
    expect(answer.status).toBe(502);
  });

  it('answers a well-formed result: numbers and booleans as header values, no body as an empty one', async () => {
    const answer = await resultAnswer({ statusCode: 201, headers: { 'X-Count': 3, 'X-Flag': true } });

    expect(answer.status).toBe(201);
    expect(answer.headers.get('x-count')).toBe('3');
    expect(answer.headers.get('x-flag')).toBe('true');
    expect(answer.text).toBe('');
  });

  it('merges multiValueHeaders with headers: every value of both, a value given in both once', async () => {
    const answer = await resultAnswer({
      statusCode: 200,
      headers: { 'X-Tag': 'b', 'X-Single': 'one' },
      multiValueHeaders: { 'X-Tag': ['a', 'b'], 'Set-Cookie': ['a=1', 'b=2'] },
      body: 'ok',
    });

    expect(answer.status).toBe(200);
    expect(answer.headers.get('x-tag')).toBe('a, b');
    expect(answer.headers.get('x-single')).toBe('one');
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
  });

  it('sends a base64 body as its text, since the API declares no binary media types', async () => {
    const encoded = Buffer.from([0, 1, 2, 255]).toString('base64');

    const answer = await resultAnswer({ statusCode: 200, headers: { 'Content-Type': 'image/png' }, body: encoded, isBase64Encoded: true });

    expect(answer.status).toBe(200);
    expect(answer.text).toBe(encoded);
  });

  it('decodes a base64 body to its bytes for an Accept that matches a binary media type', async () => {
    const binary = await startGateway({
      routes: ROUTE_SET,
      root: ROOT,
      port: 0,
      limiter: null,
      authorizerCache: allowingCache(),
      binaryMediaTypes: ['image/*'],
    });
    try {
      const bytes = Buffer.from([0, 1, 2, 255]);
      const body = JSON.stringify({ statusCode: 200, body: bytes.toString('base64'), isBase64Encoded: true });

      const asImage = await call('/v1/parity?do=result', { method: 'POST', body, headers: { Accept: 'image/png' } }, binary);
      const asJson = await call('/v1/parity?do=result', { method: 'POST', body, headers: { Accept: 'application/json' } }, binary);

      expect(asImage.bytes.equals(bytes)).toBe(true);
      expect(asJson.text).toBe(bytes.toString('base64'));
    } finally {
      await binary.stop();
    }
  });
});

describe('payload sizes', () => {
  let spy: jest.SpyInstance;
  beforeEach(() => {
    spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => spy.mockRestore());

  it('refuses a body over API Gateway’s 10 MB with 413, on an API route and on the webhook', async () => {
    const body = 'x'.repeat(11 * MB);

    expectGatewayResponse(await call('/v1/parity', { method: 'POST', body }), 'REQUEST_TOO_LARGE');
    expectGatewayResponse(await call(WEBHOOKS[0]!.path, { method: 'POST', body }), 'REQUEST_TOO_LARGE');
  });

  it('answers 500 when the event is over Lambda’s 6 MB (a 7 MB body): Lambda refuses the invocation', async () => {
    const answer = await call('/v1/parity', { method: 'POST', body: 'x'.repeat(7 * MB) });

    expectGatewayResponse(answer, 'INTEGRATION_FAILURE');
    expect(answer.status).toBe(500);
  });

  it('hands a body over 1 MiB and under the limits to the function, the webhook’s too (its receiver has its own limit)', async () => {
    const body = 'x'.repeat(2 * MB);

    const write = await call('/v1/parity', { method: 'POST', body });
    const webhook = await call(WEBHOOKS[0]!.path, { method: 'POST', body });

    expect(write.status).toBe(200);
    expect(eventOf(write).body).toHaveLength(2 * MB);
    expect(webhook.status).toBe(200);
    expect(eventOf(webhook).body).toHaveLength(2 * MB);
  });

  it('answers 502 for a result over Lambda’s 6 MB', async () => {
    expectGatewayResponse(await call('/v1/parity?do=big'), 'DEFAULT_5XX');
  });
});

describe('query strings', () => {
  it('splits the query string on ; as well as &', async () => {
    const event = eventOf(await call('/v1/parity?a=1;b=2&c=3;a=4'));

    expect(event.queryStringParameters).toEqual({ a: '4', b: '2', c: '3' });
    expect(event.multiValueQueryStringParameters).toEqual({ a: ['1', '4'], b: ['2'], c: ['3'] });
  });

  it.each(['|', '{', '}'])('refuses a raw %s in the query string with 400, before the function or the authorizer', async (character) => {
    const answer = await fetch(`${gateway.url}/v1/parity?filter=a${character}b`, { signal: AbortSignal.timeout(5000) });
    const bytes = Buffer.from(await answer.arrayBuffer());

    expectGatewayResponse({ status: answer.status, headers: answer.headers, text: bytes.toString('utf8'), bytes }, 'DEFAULT_4XX');
  });

  it('takes the same characters percent-encoded', async () => {
    const event = eventOf(await call('/v1/parity?filter=a%7Cb%7B%7D'));

    expect(event.queryStringParameters).toEqual({ filter: 'a|b{}' });
  });
});

describe('percent-encoded path parameters on GET /v1/customers/{identifier}', () => {
  it.each([
    ['%40', 'ada%40example.com', 'ada@example.com'],
    ['a raw @', 'ada@example.com', 'ada@example.com'],
    ['%2B', 'ada%2Btag%40example.com', 'ada+tag@example.com'],
    ['a raw +', 'ada+tag@example.com', 'ada+tag@example.com'],
    ['%2F', 'a%2Fb', 'a/b'],
    ['%25', '100%25', '100%'],
    ['%2540 (decoded once)', 'ada%2540example.com', 'ada%40example.com'],
  ])('delivers %s as sent, and the endpoint reads it decoded once', async (_, sent, decoded) => {
    const event = eventOf(await call(`/v1/parity/customers/${sent}`));
    const read = await call(`/v1/customers/${sent}`);

    expect(event.path).toBe(`/v1/parity/customers/${sent}`);
    expect(event.pathParameters).toEqual({ identifier: sent });
    expect(event.resource).toBe('/v1/parity/customers/{identifier}');
    expect({ status: read.status, body: JSON.parse(read.text) }).toEqual({ status: 200, body: { identifier: decoded } });
  });

  it('answers 400 in the envelope, never a 500, for a % that is not a valid escape', async () => {
    for (const sent of ['100%', 'ada%zz', '%E0%A4%A']) {
      const read = await call(`/v1/customers/${sent}`);

      expect(read.status).toBe(400);
      expect(JSON.parse(read.text)).toEqual(envelope(400, `The path segment '${sent}' is not valid percent-encoding`));
    }
  });
});

describe('the mock methods’ media type', () => {
  it.each([
    ['a 405 on an API path', 'DELETE', '/v1/parity'],
    ['a 405 on the webhook', 'PUT', WEBHOOKS[0]!.path],
    ['a 405 on a shopper path', 'PUT', SHOPPER_ROUTES[0]!.path],
    ['the preflight of a shopper path', 'OPTIONS', SHOPPER_ROUTES[0]!.path],
  ])('answers %s with 415 for another Content-Type, and as before for JSON or none', async (_, method, path) => {
    const other = await call(path, { method, body: 'a=b', headers: { 'Content-Type': 'application/x-www-form-urlencoded' } });
    const json = await call(path, { method, body: '{}', headers: { 'Content-Type': 'application/json; charset=utf-8' } });
    const none = await call(path, { method });

    expectGatewayResponse(other, 'UNSUPPORTED_MEDIA_TYPE');
    expect(json.status).toBe(method === 'OPTIONS' ? 204 : 405);
    expect(none.status).toBe(method === 'OPTIONS' ? 204 : 405);
  });
});

describe('the edge’s headers and domain', () => {
  it('adds what CloudFront and API Gateway add, replacing the caller’s values, and appends to X-Forwarded-For', async () => {
    const event = await eventWithHost('/v1/parity', {
      Host: 'evil.example',
      'X-Forwarded-For': '203.0.113.9',
      'X-Forwarded-Proto': 'https',
      'CloudFront-Viewer-Country': 'FR',
    });
    const { host, hostname, port } = new URL(gateway.url);

    expect(event.headers).toMatchObject({
      Host: host,
      'X-Forwarded-For': '203.0.113.9, 127.0.0.1',
      'X-Forwarded-Port': port,
      'X-Forwarded-Proto': 'http',
      'CloudFront-Forwarded-Proto': 'http',
      'CloudFront-Is-Desktop-Viewer': 'true',
      'CloudFront-Is-Mobile-Viewer': 'false',
      'CloudFront-Is-SmartTV-Viewer': 'false',
      'CloudFront-Is-Tablet-Viewer': 'false',
      'CloudFront-Viewer-Country': 'US',
      Via: expect.stringMatching(/^1\.1 [0-9a-f]+\.cloudfront\.net \(CloudFront\)$/),
      'X-Amz-Cf-Id': expect.any(String),
      'X-Amzn-Trace-Id': expect.stringMatching(/^Root=1-[0-9a-f]{8}-[0-9a-f]{24}$/),
    });
    expect(event.multiValueHeaders.Host).toEqual([host]);
    expect(Object.keys(event.headers).filter((name) => name.toLowerCase() === 'x-forwarded-proto')).toEqual(['X-Forwarded-Proto']);
    expect(event.requestContext).toMatchObject({ domainName: host, domainPrefix: hostname.split('.')[0] });
  });

  it('gives the admin page its own path as the caller asked for it, whatever Host and X-Forwarded-Proto it sent', async () => {
    const event = await eventWithHost('/admin?shop=demo.myshopify.com', { Host: 'evil.example', 'X-Forwarded-Proto': 'https' });

    expect(event.requestContext.path).toBe('/admin');
    expect(pagePath(event)).toBe('/admin');
  });
});

it('holds the twin’s details to the stack’s gateway responses', () => {
  const detailOf = (type: string) => GATEWAY_RESPONSES.find((response) => response.type.responseType === type)?.detail;

  expect(detailOf('DEFAULT_5XX')).toBe(DETAILS.unexpected);
  expect(detailOf('INTEGRATION_FAILURE')).toBe(DETAILS.unexpected);
  expect(detailOf('INTEGRATION_TIMEOUT')).toBe(DETAILS.integrationTimeout);
  expect(detailOf('REQUEST_TOO_LARGE')).toBe(DETAILS.requestTooLarge);
  expect(detailOf('UNSUPPORTED_MEDIA_TYPE')).toBe(DETAILS.unsupportedMediaType);
  expect(detailOf('DEFAULT_4XX')).toBe(DETAILS.requestUnprocessable);
});
