// The staff answers' CORS headers: every answer of a route's /admin/api twin, a success, a refusal of the ID
// token and a 500 alike, carries `Access-Control-Allow-Origin: *` and exposes App Bridge's retry header, so
// Shopify's admin UI extensions (another origin) can read it; a /v1 answer carries none.
import type { HandlerOptions, HttpRequest, HttpResult } from '../../../shared/http/handler';
import { STAFF_CORS_HEADERS } from '../../../shared/runtime/entry-points';
import { captured, fakeContext, fakeEvent } from '../../support/lambda-fakes';

const STAFF_READ = fakeEvent({
  httpMethod: 'GET',
  resource: '/admin/api/v1/customers/{identifier}',
  pathParameters: { identifier: '1001' },
  headers: {},
});
const STAFF_USER = { shopId: 'shop-a', actor: { type: 'staff' as const, id: '42' } };

async function answer(event: typeof STAFF_READ, options: HandlerOptions, result: (request: HttpRequest) => Promise<HttpResult>) {
  const { result: response } = await captured(async () => {
    const { createHandler } = await import('../../../shared/http/handler');
    return createHandler(result, options)(event, fakeContext());
  });
  return response;
}

describe("the staff answers' CORS headers", () => {
  it('are on every staff answer: a success, a refused ID token, an unexpected error', async () => {
    const ok = await answer(STAFF_READ, { staff: async () => STAFF_USER }, async () => ({ statusCode: 200, body: { data: null } }));
    expect(ok.statusCode).toBe(200);
    expect(ok.headers).toMatchObject({ ...STAFF_CORS_HEADERS, 'Content-Type': 'application/json' });

    const refused = await answer(
      STAFF_READ,
      {
        staff: async () => {
          const { ApiError } = await import('../../../shared/http/errors');
          throw new ApiError(401, 'The ID token has expired', undefined, { 'X-Shopify-Retry-Invalid-Session-Request': '1' });
        },
      },
      async () => ({ statusCode: 200, body: {} }),
    );
    expect(refused.statusCode).toBe(401);
    expect(refused.headers).toMatchObject({ ...STAFF_CORS_HEADERS, 'X-Shopify-Retry-Invalid-Session-Request': '1' });

    const failed = await answer(STAFF_READ, { staff: async () => STAFF_USER }, async () => {
      throw new Error('boom');
    });
    expect(failed.statusCode).toBe(500);
    expect(failed.headers).toMatchObject(STAFF_CORS_HEADERS);
  });

  it('are not on a /v1 answer', async () => {
    const v1 = await answer({ ...STAFF_READ, resource: '/v1/customers/{identifier}' }, {}, async () => ({ statusCode: 200, body: {} }));
    expect(v1.statusCode).toBe(200);
    expect(Object.keys(v1.headers ?? {}).filter((name) => name.startsWith('Access-Control-'))).toEqual([]);
  });
});
