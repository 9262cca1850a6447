// REQUEST authorizer: no identity sources and no result cache, so a missing header still reaches it
// and a revoked key fails on its next request. Missing header -> Unauthorized (401 "Missing
// Authorization header"); unknown or revoked key -> Deny (gateway response rewritten to 401).
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticate } from '../../shared/auth/authenticate';
import { headerValue } from '../../shared/http/headers';

export const UNAUTHORIZED = 'Unauthorized';

function policy(principalId: string, effect: 'Allow' | 'Deny', resource: string): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] },
  };
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  const result = await authenticate(headerValue(event.headers, 'authorization'));
  // API Gateway turns exactly this message into its UNAUTHORIZED (401) gateway response.
  if (!result.ok && result.reason === 'missing') throw new Error(UNAUTHORIZED);
  if (!result.ok) return policy('anonymous', 'Deny', event.methodArn);
  return {
    ...policy(result.keyId, 'Allow', event.methodArn),
    context: { shopId: result.shopId, scope: result.scope, keyName: result.keyName, keyId: result.keyId },
    ...(result.usageIdentifierKey ? { usageIdentifierKey: result.usageIdentifierKey } : {}),
  };
};
