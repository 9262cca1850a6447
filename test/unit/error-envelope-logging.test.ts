// What the middy chain logs about a request it answers with an error: refusals (4XX) at INFO or WARN, failures
// (5XX, errors nothing mapped) at ERROR with the stack and one ServerErrors metric per request, so that an
// ERROR line and the routes' error alarms mean something went wrong on our side.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { notPermitted, unavailable, unprocessable } from '../../shared/domain/errors';
import { ApiError } from '../../shared/http/errors';
import { outcomeLevel } from '../../shared/http/middleware/error-envelope';
import type { HandlerOptions, HttpResult } from '../../shared/http/handler';
import { maskEmailsIn } from '../../shared/observability/powertools';
import { captured, fakeContext, type LogLine } from '../support/lambda-fakes';

const context = fakeContext();

function eventFor(method: 'GET' | 'POST', resource: string, overrides: Partial<APIGatewayProxyEvent> = {}): APIGatewayProxyEvent {
  return {
    httpMethod: method,
    resource,
    path: resource,
    headers: { Authorization: 'super_secret_key_123' },
    pathParameters: { identifier: 'ada.lovelace%40example.com', id: 'five-off' },
    body: method === 'POST' ? '{}' : null,
    requestContext: { authorizer: { shopId: 'shop-a', scope: 'full', keyId: 'abcd1234' } },
    ...overrides,
  } as unknown as APIGatewayProxyEvent;
}

const GET_CUSTOMER = eventFor('GET', '/v1/customers/{identifier}');
const PURCHASE = eventFor('POST', '/v1/rewards/{id}/purchase');

/** The error modules as the handler under test loads them (each request runs on a fresh module registry). */
interface ErrorModules {
  domain: typeof import('../../shared/domain/errors');
  http: typeof import('../../shared/http/errors');
}
type Thrown = (errors: ErrorModules) => Error;

/**
 * Runs one request through a handler built by createHandler, with Powertools logging at INFO and metrics on,
 * and returns the status answered, the JSON log lines and the EMF metric records it wrote.
 */
async function answer(
  run: (errors: ErrorModules) => Promise<HttpResult>,
  event: APIGatewayProxyEvent = GET_CUSTOMER,
  options: HandlerOptions = {},
): Promise<{ status: number; logs: LogLine[]; metrics: LogLine[] }> {
  const { result, logs, metrics } = await captured(async () => {
    const { createHandler } = await import('../../shared/http/handler');
    const errors = { domain: await import('../../shared/domain/errors'), http: await import('../../shared/http/errors') };
    return (await createHandler(() => run(errors), options)(event, context)).statusCode;
  });
  return { status: result, logs, metrics };
}

const throwing =
  (thrown: Thrown) =>
  async (errors: ErrorModules): Promise<HttpResult> => {
    throw thrown(errors);
  };
const levels = (logs: LogLine[]) => logs.map((line) => line.level);
const serverErrors = (metrics: LogLine[]) => metrics.filter((line) => 'ServerErrors' in line);

describe('the error envelope logs a refused request as what it is', () => {
  it.each([
    ['a 404 (an unknown customer)', ({ domain }) => domain.customerNotFound('ada.lovelace@example.com'), 404],
    ['a 400 (a domain validation)', ({ domain }) => domain.invalid('Entry rewards cannot be purchased'), 400],
    ['a 400 (a query parameter)', ({ http }) => http.badRequest('page[size] must be a positive integer'), 400],
    ['a 422 (a business rule)', ({ domain }) => domain.unprocessable('Insufficient Points', 'Customer has 50 points, 500 required'), 422],
    [
      'a 403 of the domain (an excluded customer)',
      ({ domain }) => domain.notPermitted('Customer is excluded from the loyalty program'),
      403,
    ],
  ] satisfies Array<[string, Thrown, number]>)('%s at INFO, nothing at ERROR, no server error counted', async (_label, thrown, status) => {
    const result = await answer(throwing(thrown));

    expect(result.status).toBe(status);
    expect(levels(result.logs)).toEqual(['INFO']);
    expect(result.logs[0]).toMatchObject({ message: 'Request refused', status, shop: 'shop-a', route: 'GET /v1/customers/{identifier}' });
    expect(serverErrors(result.metrics)).toEqual([]);
  });

  it('a body that is not JSON (400) at INFO', async () => {
    const badBody = eventFor('POST', '/v1/rewards/{id}/purchase', { body: '{"x":' });
    const result = await answer(async () => ({ statusCode: 201, body: {} }), badBody, { jsonBody: true });

    expect(result.status).toBe(400);
    expect(result.logs).toEqual([expect.objectContaining({ level: 'INFO', status: 400, detail: 'Request body is not valid JSON' })]);
  });

  it.each([
    ['a read-only key used to write (403)', PURCHASE, async () => ({ statusCode: 201, body: {} }), 403],
    [
      'an Idempotency-Key still being processed (409)',
      GET_CUSTOMER,
      throwing(({ http }) => new http.ApiError(409, 'still processing')),
      409,
    ],
    ['an Idempotency-Key reused for another request (422)', GET_CUSTOMER, throwing(({ http }) => new http.ApiError(422, 'reused')), 422],
    ['a caller without identity (401)', GET_CUSTOMER, throwing(({ http }) => http.unauthorized('Invalid or revoked API key')), 401],
  ] satisfies Array<[string, APIGatewayProxyEvent, (errors: ErrorModules) => Promise<HttpResult>, number]>)(
    '%s at WARN, nothing at ERROR',
    async (_label, event, run, status) => {
      const readOnly = { ...event, requestContext: { authorizer: { shopId: 'shop-a', scope: 'read', keyId: 'abcd1234' } } };
      const result = await answer(run, readOnly as unknown as APIGatewayProxyEvent);

      expect(result.status).toBe(status);
      expect(levels(result.logs)).toEqual(['WARN']);
      expect(result.logs[0]).toMatchObject({ message: 'Request refused', status });
      expect(serverErrors(result.metrics)).toEqual([]);
    },
  );

  it('logs the detail with e-mails masked, and never the key', async () => {
    const result = await answer(throwing(({ domain }) => domain.customerNotFound('ada.lovelace@example.com')));

    expect(result.logs[0]).toMatchObject({ title: 'Not Found', detail: "Customer 'a***@example.com' not found" });
    expect(JSON.stringify(result.logs)).not.toContain('lovelace');
    expect(JSON.stringify(result.logs)).not.toContain('super_secret_key_123');
  });
});

describe('the error envelope logs a failed request at ERROR and counts it', () => {
  it('an unknown thrown error (500): ERROR with the stack, one ServerErrors for the route, a bare 500 to the caller', async () => {
    const result = await answer(
      throwing(() => new Error('connect ECONNREFUSED 10.1.2.3:443')),
      PURCHASE,
    );

    expect(result.status).toBe(500);
    expect(levels(result.logs)).toEqual(['ERROR']);
    expect(result.logs[0]).toMatchObject({
      message: 'Unhandled error',
      status: 500,
      route: 'POST /v1/rewards/{id}/purchase',
      error: { message: 'connect ECONNREFUSED 10.1.2.3:443', stack: expect.stringContaining('error-envelope-logging.test.ts') },
    });
    expect(serverErrors(result.metrics)).toEqual([
      expect.objectContaining({ ServerErrors: 1, Route: 'purchaseReward', service: 'loyalty-api' }),
    ]);
    expect(JSON.stringify(serverErrors(result.metrics)[0]!._aws)).toContain('"Dimensions":[["service","Route"]]');
  });

  it.each([
    ['the platform unreachable (503)', 'Unable to connect to the platform. Please try again.', 503],
    ['a failure past the retries (500)', 'The purchase could not be completed. Please try again.', 500],
  ])('%s: ERROR with title, detail and stack, one ServerErrors', async (_label, detail, status) => {
    const result = await answer(
      throwing(({ domain }) => (status === 503 ? domain.unavailable(detail) : domain.failed(detail))),
      PURCHASE,
    );

    expect(result.status).toBe(status);
    expect(levels(result.logs)).toEqual(['ERROR']);
    expect(result.logs[0]).toMatchObject({
      message: 'Request failed',
      status,
      detail,
      error: { stack: expect.any(String) },
    });
    expect(serverErrors(result.metrics)).toEqual([expect.objectContaining({ ServerErrors: 1, Route: 'purchaseReward' })]);
  });

  it('logs nothing and counts nothing for a request answered normally', async () => {
    const result = await answer(async () => ({ statusCode: 200, body: {} }));

    expect(result.status).toBe(200);
    expect(levels(result.logs).filter((level) => level !== 'INFO' && level !== 'DEBUG')).toEqual([]);
    expect(serverErrors(result.metrics)).toEqual([]);
  });
});

describe('outcome levels and masking', () => {
  it('gives ERROR to every 5XX, WARN to the edge refusals an operator should see, INFO to the rest', () => {
    expect(outcomeLevel(new Error('x'), 500)).toBe('ERROR');
    expect(outcomeLevel(unavailable('x'), 503)).toBe('ERROR');
    expect(outcomeLevel(new ApiError(503, 'x'), 503)).toBe('ERROR');
    for (const status of [401, 403, 409, 422, 429]) expect(outcomeLevel(new ApiError(status, 'x'), status)).toBe('WARN');
    for (const status of [400, 404, 405, 413, 415]) expect(outcomeLevel(new ApiError(status, 'x'), status)).toBe('INFO');
    expect(outcomeLevel(notPermitted('x'), 403)).toBe('INFO');
    expect(outcomeLevel(unprocessable('Insufficient Points', 'x'), 422)).toBe('INFO');
  });

  it('masks every e-mail in a text and leaves the rest', () => {
    expect(maskEmailsIn("Customer 'ada.lovelace@example.com' not found")).toBe("Customer 'a***@example.com' not found");
    expect(maskEmailsIn('a@b.co and grace@navy.mil, then 1001')).toBe('a***@b.co and g***@navy.mil, then 1001');
    expect(maskEmailsIn('Reward five-off not found')).toBe('Reward five-off not found');
  });
});
