// The authorizer's Deny answers carry the 401's detail in their context, which the stack's ACCESS_DENIED
// gateway response and the twin's gateway both print: a `Bearer <key>` value is told the bare key is expected.
import type { APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { DENY_DETAIL, handler } from '../../functions/auth/authorize';
import { DETAILS } from '../../shared/http/errors';

function event(authorization: string): APIGatewayRequestAuthorizerEvent {
  return {
    type: 'REQUEST',
    methodArn: 'arn:aws:execute-api:us-east-1:123456789012:api123/prod/GET/v1/customers',
    headers: { Authorization: authorization },
  } as unknown as APIGatewayRequestAuthorizerEvent;
}

describe('the authorizer’s Deny', () => {
  it.each([
    ['Bearer with a key', 'Bearer demo_full_key_0123456789', DETAILS.bearerPrefix],
    ['bearer in lower case', 'bearer demo_full_key', DETAILS.bearerPrefix],
    ['a value that cannot be a key', 'not a key!', DETAILS.invalidKey],
    ['an admin ID token, as App Bridge sends it', 'Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl', DETAILS.tokenNotKey],
    ['a bare JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI0MiJ9.c2lnbmF0dXJl', DETAILS.tokenNotKey],
  ])('names the detail for %s', async (_case, authorization, detail) => {
    // Act
    const answer = await handler(event(authorization));

    // Assert
    expect(answer.policyDocument.Statement[0]!.Effect).toBe('Deny');
    expect(answer.context).toEqual({ [DENY_DETAIL]: detail });
  });

  it('keeps the detail free of double quotes, which the gateway response template prints as they are', () => {
    expect(DETAILS.bearerPrefix).not.toContain('"');
    expect(DETAILS.invalidKey).not.toContain('"');
    expect(DETAILS.tokenNotKey).not.toContain('"');
  });
});

describe('the authorizer and more than one Authorization header', () => {
  it('denies, with its own detail, whatever the keys are, and under any spelling of the name', async () => {
    // Arrange: API Gateway's REQUEST event: `headers` holds the last value, `multiValueHeaders` all of them.
    const twoHeaders = {
      type: 'REQUEST',
      methodArn: 'arn:aws:execute-api:us-east-1:123456789012:api123/prod/POST/v1/customers',
      headers: { Authorization: 'demo_full_key_0123456789' },
      multiValueHeaders: { authorization: ['demo_read_key_0123456789'], Authorization: ['demo_full_key_0123456789'] },
    } as unknown as APIGatewayRequestAuthorizerEvent;

    // Act
    const answer = await handler(twoHeaders);

    // Assert
    expect(answer.policyDocument.Statement[0]!.Effect).toBe('Deny');
    expect(answer.context).toEqual({ [DENY_DETAIL]: DETAILS.ambiguousAuthorization });
    expect(DETAILS.ambiguousAuthorization).not.toContain('"');
  });
});
