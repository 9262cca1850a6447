// Who is calling: on a /v1 route, the shop and key scope the authorizer put in the request's context; on its
// /admin/api twin, the shop and staff user the admin ID token named (verified by ./staff-identity.ts, full
// scope). The scope check refuses on it and every endpoint receives it.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import type { KeyScope } from '../../domain/api-key';
import type { ApiKeyActor, StaffActor } from '../../domain/history';
import { isStaffResource } from '../../runtime/entry-points';
import { DETAILS, unauthorized } from '../errors';
import { headerValues } from '../headers';

export interface Caller {
  shopId: string;
  scope: KeyScope;
  /** The staff user, on a staff route (`/admin/api/...`): who every write there is recorded as made by. */
  actor?: StaffActor;
  /** The API key, on a /v1 route: who a write there is recorded as made by (its history entry's `actor`). */
  keyActor?: ApiKeyActor;
}

/** The staff callers verified in this invocation, by their request's event. */
const staffCallers = new WeakMap<APIGatewayProxyEvent, Caller>();

/** Records the verified staff caller of a staff route's request (./staff-identity.ts only). */
export function setStaffCaller(event: APIGatewayProxyEvent, shopId: string, actor: StaffActor): void {
  staffCallers.set(event, { shopId, scope: 'full', actor });
}

/**
 * The authorizer's context as API Gateway hands it to the integration, or the verified staff user on a staff
 * route (never the other: a staff route has no authorizer, a /v1 route no staff user). A request with more
 * than one Authorization header is refused here too (401), not only by the authorizer: the stage's
 * authorizer cache is keyed by the header's last value, so a cached answer for that key would let the
 * request through unseen.
 */
export function callerFrom(event: APIGatewayProxyEvent): Caller {
  if (headerValues(event.multiValueHeaders, 'authorization').length > 1) throw unauthorized(DETAILS.ambiguousAuthorization);
  if (isStaffResource(event.resource)) {
    const staff = staffCallers.get(event);
    // Only reachable if the handler was built without the staff identity step.
    if (!staff) throw unauthorized('This route is not served to staff');
    return staff;
  }
  const context = event.requestContext?.authorizer ?? {};
  const shopId = context.shopId;
  const scope = context.scope;
  // Only reachable if the gateway was misconfigured to skip the authorizer.
  if (typeof shopId !== 'string' || (scope !== 'full' && scope !== 'read')) throw unauthorized(DETAILS.invalidKey);
  const { keyId, keyName } = context as { keyId?: unknown; keyName?: unknown };
  return {
    shopId,
    scope,
    ...(typeof keyId === 'string' && keyId !== ''
      ? { keyActor: { type: 'api_key' as const, id: keyId, name: typeof keyName === 'string' ? keyName : '' } }
      : {}),
  };
}
