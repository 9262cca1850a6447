// Who is calling: the shop and key scope the authorizer put in the request's context. The scope check
// refuses on it and every endpoint receives it.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { KeyScope } from '../../domain/api-key';
import { DETAILS, unauthorized } from '../errors';
import { headerValues } from '../headers';

export interface Caller {
  shopId: string;
  scope: KeyScope;
}

/**
 * The authorizer's context as API Gateway hands it to the integration. A request with more than one
 * Authorization header is refused here too (401), not only by the authorizer: the stage's authorizer cache
 * is keyed by the header's last value, so a cached answer for that key would let the request through unseen.
 */
export function callerFrom(event: APIGatewayProxyEvent): Caller {
  if (headerValues(event.multiValueHeaders, 'authorization').length > 1) throw unauthorized(DETAILS.ambiguousAuthorization);
  const context = event.requestContext?.authorizer ?? {};
  const shopId = context.shopId;
  const scope = context.scope;
  // Only reachable if the gateway was misconfigured to skip the authorizer.
  if (typeof shopId !== 'string' || (scope !== 'full' && scope !== 'read')) throw unauthorized(DETAILS.invalidKey);
  return { shopId, scope };
}
