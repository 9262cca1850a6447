// The error envelope on its own: whatever is thrown after it is answered in the spec's envelope, logged at
// its level, and a failure of ours (5XX) is counted once as ServerErrors for the route.
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { captured, fakeContext, fakeEvent } from '../../support/lambda-fakes';

const PURCHASE = fakeEvent({ httpMethod: 'POST', resource: '/v1/rewards/{id}/purchase', pathParameters: { id: 'five-off' } });

/** One request through a chain of the error envelope alone, its handler throwing what `thrown` makes. */
function answer(
  thrown: (modules: {
    domain: typeof import('../../../shared/domain/errors');
    http: typeof import('../../../shared/http/errors');
  }) => Error,
  event = fakeEvent(),
) {
  return captured(async () => {
    const { errorEnvelope } = await import('../../../shared/http/middleware/error-envelope');
    const { publishMetrics } = await import('../../../shared/observability/powertools');
    const modules = { domain: await import('../../../shared/domain/errors'), http: await import('../../../shared/http/errors') };
    const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(publishMetrics())
      .use(errorEnvelope())
      .handler(async () => {
        throw thrown(modules);
      });
    return handler(event, fakeContext());
  });
}

describe('the error envelope middleware', () => {
  it('answers a domain refusal in the envelope with its status, logged at INFO, nothing counted', async () => {
    const { result, logs, metrics } = await answer(({ domain }) => domain.customerNotFound('ada.lovelace@example.com'));

    expect(result).toEqual({
      statusCode: 404,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
      body: JSON.stringify({ errors: [{ status: '404', title: 'Not Found', detail: "Customer 'ada.lovelace@example.com' not found" }] }),
    });
    expect(logs).toEqual([
      expect.objectContaining({ level: 'INFO', message: 'Request refused', status: 404, detail: "Customer 'a***@example.com' not found" }),
    ]);
    expect(metrics).toEqual([]);
  });

  it('logs an edge refusal an operator should see (a read-only key, 403) at WARN', async () => {
    const { result, logs } = await answer(({ http }) => http.forbidden(http.DETAILS.readOnlyKey));

    expect(result.statusCode).toBe(403);
    expect(logs).toEqual([expect.objectContaining({ level: 'WARN', message: 'Request refused', status: 403 })]);
  });

  it('answers an unknown error with a bare 500, logs it at ERROR with its stack and counts one ServerErrors for the route', async () => {
    const { result, logs, metrics } = await answer(() => new Error('connect ECONNREFUSED 10.1.2.3:443'), PURCHASE);

    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('ECONNREFUSED');
    expect(JSON.parse(result.body).errors[0].title).toBe('Internal Server Error');
    expect(logs).toEqual([
      expect.objectContaining({
        level: 'ERROR',
        message: 'Unhandled error',
        status: 500,
        error: expect.objectContaining({ message: 'connect ECONNREFUSED 10.1.2.3:443', stack: expect.any(String) }),
      }),
    ]);
    expect(metrics).toEqual([expect.objectContaining({ ServerErrors: 1, Route: 'purchaseReward' })]);
  });

  it('logs a mapped failure (503) as a failed request at ERROR, with its title and detail', async () => {
    const { result, logs, metrics } = await answer(({ domain }) => domain.unavailable('Unable to connect to the platform.'), PURCHASE);

    expect(result.statusCode).toBe(503);
    expect(logs).toEqual([
      expect.objectContaining({ level: 'ERROR', message: 'Request failed', status: 503, detail: 'Unable to connect to the platform.' }),
    ]);
    expect(metrics).toEqual([expect.objectContaining({ ServerErrors: 1 })]);
  });

  it('counts a 5XX of a route outside the manifest under unknown', async () => {
    const { metrics } = await answer(() => new Error('boom'), fakeEvent({ resource: '/nowhere' }));

    expect(metrics).toEqual([expect.objectContaining({ ServerErrors: 1, Route: 'unknown' })]);
  });
});
