// The log context on its own: every line logged during the request names its route, shop, key id and
// customer, with an e-mail identifier decoded and masked, and never the key.
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { captured, fakeContext, fakeEvent, withAuthorizer } from '../../support/lambda-fakes';

function logOnce(event: APIGatewayProxyEvent) {
  return captured(async () => {
    const { logContext } = await import('../../../shared/http/middleware/log-context');
    const { logger } = await import('../../../shared/observability/powertools');
    const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
      .use(logContext())
      .handler(async () => {
        logger.info('inside');
        return { statusCode: 200, body: '{}' };
      });
    return handler(event, fakeContext());
  });
}

describe('the log context middleware', () => {
  it('names route, shop, key id and the masked customer on the lines logged after it', async () => {
    const { logs } = await logOnce(fakeEvent());

    expect(logs).toEqual([
      expect.objectContaining({
        message: 'inside',
        route: 'GET /v1/customers/{identifier}',
        shop: 'shop-a',
        keyId: 'abcd1234',
        customer: 'a***@example.com',
      }),
    ]);
    expect(JSON.stringify(logs)).not.toContain('lovelace');
    expect(JSON.stringify(logs)).not.toContain('super_secret_key_123');
  });

  it('keeps a platform id as it is, and names no customer or shop that the request does not have', async () => {
    const byId = await logOnce(fakeEvent({ pathParameters: { identifier: '1001' } }));
    expect(byId.logs[0]).toMatchObject({ customer: '1001' });

    const bare = await logOnce(withAuthorizer(fakeEvent({ resource: '/v1/vip-tiers', pathParameters: null }), undefined));
    expect(bare.logs[0]).toMatchObject({ route: 'GET /v1/vip-tiers' });
    expect(bare.logs[0]).not.toHaveProperty('customer');
    expect(bare.logs[0]).not.toHaveProperty('shop');
    expect(bare.logs[0]).not.toHaveProperty('keyId');
  });
});
