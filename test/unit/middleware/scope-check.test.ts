// The scope check on its own: a read-only key may only GET, and a request without the authorizer's
// context is refused; both before the endpoint runs.
import middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { ApiError } from '../../../shared/http/errors';
import { scopeCheck } from '../../../shared/http/middleware/scope-check';
import { fakeContext, fakeEvent, withAuthorizer } from '../../support/lambda-fakes';

const READ_KEY = { shopId: 'shop-a', scope: 'read', keyId: 'abcd1234' };
const FULL_KEY = { shopId: 'shop-a', scope: 'full', keyId: 'abcd1234' };
const POST = fakeEvent({ httpMethod: 'POST', resource: '/v1/customers', pathParameters: null, body: '{}' });

async function send(event: APIGatewayProxyEvent): Promise<{ ran: boolean; error?: unknown }> {
  let ran = false;
  const handler = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(scopeCheck())
    .handler(async () => {
      ran = true;
      return { statusCode: 200, body: '{}' };
    });
  try {
    await handler(event, fakeContext());
    return { ran };
  } catch (error) {
    return { ran, error };
  }
}

describe('the scope check middleware', () => {
  it('lets a read-only key GET and a full key write', async () => {
    expect(await send(withAuthorizer(fakeEvent(), READ_KEY))).toEqual({ ran: true });
    expect(await send(withAuthorizer(POST, FULL_KEY))).toEqual({ ran: true });
  });

  it.each(['POST', 'PUT', 'PATCH', 'DELETE'])('refuses a read-only key a %s with 403 before the endpoint runs', async (method) => {
    const outcome = await send(withAuthorizer({ ...POST, httpMethod: method }, READ_KEY));

    expect(outcome.ran).toBe(false);
    expect(outcome.error).toBeInstanceOf(ApiError);
    expect(outcome.error).toMatchObject({ statusCode: 403, detail: 'This API key is read-only and cannot perform write operations' });
  });

  it('refuses a request without the authorizer context with 401', async () => {
    const outcome = await send(withAuthorizer(fakeEvent(), undefined));

    expect(outcome.ran).toBe(false);
    expect(outcome.error).toMatchObject({ statusCode: 401 });
  });
});
