// The staff identity step of the endpoints' chain: on a route's /admin/api twin, the staff user is verified
// before the body is read, full scope, the key authorizer's context never read; a refusal's headers (App
// Bridge's retry header) reach the answer; a /v1 request never meets the staff step; a handler built without
// it refuses every staff request. And the Idempotency-Key of a staff write is the staff user's.
import type { Claim, OnceKey, Settled } from '../../../shared/data/claims';
import type { HandlerOptions, HttpRequest, HttpResult } from '../../../shared/http/handler';
import { captured, fakeContext, fakeEvent, withAuthorizer } from '../../support/lambda-fakes';

const STAFF_WRITE = fakeEvent({
  httpMethod: 'POST',
  resource: '/admin/api/v1/customers/{identifier}/points',
  pathParameters: { identifier: '1001' },
  headers: {},
  body: '{"x":',
});

const STAFF_USER = { shopId: 'shop-a', actor: { type: 'staff' as const, id: '42' } };

function answer(event: typeof STAFF_WRITE, options: HandlerOptions, result?: (request: HttpRequest) => Promise<HttpResult>) {
  return captured(async () => {
    const { createHandler } = await import('../../../shared/http/handler');
    const run = jest.fn(result ?? (async () => ({ statusCode: 200, body: {} })));
    const response = await createHandler(run, options)(event, fakeContext());
    return { response, request: run.mock.calls[0]?.[0] as HttpRequest | undefined };
  });
}

describe('the staff identity step', () => {
  it('verifies the staff user before the body: a refusal answers 401 with its headers, the body never read', async () => {
    const staff = jest.fn(async () => {
      // The module registry the handler runs in (captured() gives each test a fresh one).
      const { ApiError } = await import('../../../shared/http/errors');
      throw new ApiError(401, 'The ID token has expired', undefined, { 'X-Shopify-Retry-Invalid-Session-Request': '1' });
    });
    const { result, logs } = await answer(STAFF_WRITE, { jsonBody: true, staff });

    expect(result.request).toBeUndefined();
    expect(result.response.statusCode).toBe(401);
    expect(result.response.headers).toMatchObject({ 'X-Shopify-Retry-Invalid-Session-Request': '1', 'Content-Type': 'application/json' });
    expect(JSON.parse(result.response.body).errors[0].detail).toBe('The ID token has expired');
    expect(logs).toEqual([expect.objectContaining({ level: 'WARN', status: 401 })]);
  });

  it('hands the endpoint the staff caller with full scope, never the authorizer context', async () => {
    const event = withAuthorizer({ ...STAFF_WRITE, body: '{"adjustment":1}' }, { shopId: 'smuggled', scope: 'read' });
    const { result, logs } = await answer(event, { jsonBody: true, staff: async () => STAFF_USER }, async () => {
      const { logger } = await import('../../../shared/observability/powertools');
      logger.info('working');
      return { statusCode: 200, body: {} };
    });

    expect(result.request?.caller).toEqual({ shopId: 'shop-a', scope: 'full', actor: { type: 'staff', id: '42' } });
    expect(logs).toContainEqual(expect.objectContaining({ message: 'working', shop: 'shop-a', staffUser: '42' }));
  });

  it('refuses a staff request in a handler built without the step', async () => {
    const { result } = await answer({ ...STAFF_WRITE, body: '{}' }, { jsonBody: true });

    expect(result.response.statusCode).toBe(401);
    expect(result.response.headers).not.toHaveProperty('X-Shopify-Retry-Invalid-Session-Request');
  });

  it('leaves a /v1 request to the key authorizer: the staff step never runs', async () => {
    const staff = jest.fn(async () => STAFF_USER);
    const event = withAuthorizer(
      { ...STAFF_WRITE, resource: '/v1/customers/{identifier}/points', body: '{}' },
      { shopId: 'shop-b', scope: 'full' },
    );
    const { result } = await answer(event, { jsonBody: true, staff });

    expect(staff).not.toHaveBeenCalled();
    expect(result.request?.caller).toEqual({ shopId: 'shop-b', scope: 'full' });
  });

  it("keys a staff write's Idempotency-Key to the staff user", async () => {
    const claims: unknown[] = [];
    jest.doMock('../../../shared/data/claims', () => ({
      once: async (key: OnceKey<unknown>, _leaseMs: number, work: (claim: Claim) => Promise<Settled<unknown, unknown>>) => {
        claims.push(key.key);
        return { ran: true, result: (await work({ key: key.key, claimId: 'c', resumed: null })).result };
      },
    }));
    const event = { ...STAFF_WRITE, headers: { 'Idempotency-Key': 'k1' }, body: '{"adjustment":1}' };
    await answer(event, { jsonBody: true, idempotent: true, staff: async () => STAFF_USER });
    jest.dontMock('../../../shared/data/claims');

    expect(claims).toEqual([
      { pk: 'SHOP#shop-a#IDEMPOTENCY#POST /admin/api/v1/customers/{identifier}/points staff:42#k1', sk: 'IDEMPOTENCY' },
    ]);
  });
});
