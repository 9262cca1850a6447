// The endpoints' chain as createHandler composes it: the middlewares run in their fixed order, so the
// scope check answers before the body is read, the body before the Idempotency-Key, and every refusal is
// logged with the request's context and flushed metrics.
import type { HandlerOptions, HttpResult } from '../../../shared/http/handler';
import { captured, fakeContext, fakeEvent, withAuthorizer } from '../../support/lambda-fakes';

const WRITE = fakeEvent({
  httpMethod: 'POST',
  resource: '/v1/customers/{identifier}/points',
  pathParameters: { identifier: '1001' },
  headers: { 'Idempotency-Key': '' },
  body: '{"x":',
});

function answer(event = WRITE, options: HandlerOptions = { jsonBody: true, idempotent: true }, result?: () => Promise<HttpResult>) {
  return captured(async () => {
    const { createHandler } = await import('../../../shared/http/handler');
    const run = jest.fn(result ?? (async () => ({ statusCode: 200, body: {} })));
    const response = await createHandler(run, options)(event, fakeContext());
    return { response, ran: run.mock.calls.length > 0 };
  });
}

describe('createHandler', () => {
  it('refuses a read-only key before reading the body', async () => {
    const { result, logs } = await answer(withAuthorizer(WRITE, { shopId: 'shop-a', scope: 'read', keyId: 'abcd1234' }));

    expect(result).toMatchObject({ ran: false, response: { statusCode: 403 } });
    expect(logs).toEqual([expect.objectContaining({ level: 'WARN', status: 403, route: 'POST /v1/customers/{identifier}/points' })]);
  });

  it('refuses a body that is not JSON before looking at the Idempotency-Key', async () => {
    const { result, logs } = await answer();

    expect(result).toMatchObject({ ran: false, response: { statusCode: 400 } });
    expect(logs).toEqual([
      expect.objectContaining({ level: 'INFO', detail: 'Request body is not valid JSON', shop: 'shop-a', customer: '1001' }),
    ]);
  });

  it('checks the Idempotency-Key of an idempotent route once the body is read', async () => {
    const { result } = await answer({ ...WRITE, body: '{"adjustment":5}' });

    expect(result).toMatchObject({ ran: false, response: { statusCode: 400 } });
    expect(JSON.parse(result.response.body).errors[0].detail).toMatch(/^Idempotency-Key must be/);
  });

  it('passes the parsed body to the endpoint and flushes its metrics after the answer', async () => {
    const { result, metrics } = await answer({ ...WRITE, headers: {}, body: '{"adjustment":5}' }, { jsonBody: true }, async () => {
      const { countMetric } = await import('../../../shared/observability/powertools');
      countMetric('PointsAdjusted');
      return { statusCode: 201, body: { ok: true } };
    });

    expect(result).toMatchObject({ ran: true, response: { statusCode: 201, body: '{"ok":true}' } });
    expect(metrics).toEqual([expect.objectContaining({ PointsAdjusted: 1 })]);
  });
});
