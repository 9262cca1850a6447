// REQUEST authorizer. API Gateway caches its answer per Authorization value (docs/decisions.md), so
// the policy covers the whole stage, and every key write flushes that cache. A missing header ->
// Unauthorized (401 "Missing Authorization header"); an unknown or revoked key -> Deny (rewritten to 401), whose
// context carries the 401's detail: the stack's ACCESS_DENIED gateway response and the twin's gateway both print it.
import type { APIGatewayAuthorizerResult, APIGatewayRequestAuthorizerEvent } from 'aws-lambda';
import { authenticateRequest } from '../../shared/auth/authenticate';
import { stageWideResource } from '../../shared/auth/stage-wide-resource';
import { headerValue, headerValues } from '../../shared/http/headers';
import { DETAILS } from '../../shared/http/errors';

export const UNAUTHORIZED = 'Unauthorized';
/** The Deny answer's context key holding the 401's detail (`$context.authorizer.detail` in the stack). */
export const DENY_DETAIL = 'detail';

function policy(principalId: string, effect: 'Allow' | 'Deny', resource: string): APIGatewayAuthorizerResult {
  return {
    principalId,
    policyDocument: { Version: '2012-10-17', Statement: [{ Action: 'execute-api:Invoke', Effect: effect, Resource: resource }] },
  };
}

export const handler = async (event: APIGatewayRequestAuthorizerEvent): Promise<APIGatewayAuthorizerResult> => {
  // multiValueHeaders holds every Authorization header sent; headers only the last. Without them (an event
  // built by hand), the single header is all there is.
  const sent = headerValues(event.multiValueHeaders, 'authorization');
  const single = headerValue(event.headers, 'authorization');
  const result = await authenticateRequest(sent.length > 0 ? sent : single === undefined ? [] : [single]);
  // API Gateway turns exactly this message into its UNAUTHORIZED (401) gateway response. With the
  // cache on, API Gateway refuses a missing header itself, with the same gateway response.
  if (!result.ok && result.reason === 'missing') throw new Error(UNAUTHORIZED);
  // A cached answer is reused for every method of the stage: it must not name only this one.
  const resource = stageWideResource(event.methodArn);
  if (!result.ok) {
    const detail =
      result.reason === 'bearer'
        ? DETAILS.bearerPrefix
        : result.reason === 'token'
          ? DETAILS.tokenNotKey
          : result.reason === 'ambiguous'
            ? DETAILS.ambiguousAuthorization
            : DETAILS.invalidKey;
    return { ...policy('anonymous', 'Deny', resource), context: { [DENY_DETAIL]: detail } };
  }
  return {
    ...policy(result.keyId, 'Allow', resource),
    context: { shopId: result.shopId, scope: result.scope, keyName: result.keyName, keyId: result.keyId },
    ...(result.usageIdentifierKey ? { usageIdentifierKey: result.usageIdentifierKey } : {}),
  };
};
