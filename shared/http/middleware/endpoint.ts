// The innermost step of the chain, the endpoint itself: it hands the endpoint's function the caller, the
// parsed body and the decoded path parameters, runs it within the invocation's deadline (platform calls
// stay within what the function has left) and, on idempotent routes, under its Idempotency-Key, and answers
// its result as JSON.
import { actingAs } from '../../runtime/acting-staff';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import type { IdempotencyClaim } from '../../data/idempotency-repository';
import { withInvocationDeadline } from '../../runtime/invocation';
import { JSON_HEADERS } from '../headers';
import { type Caller, callerFrom } from './caller';
import { withIdempotency } from './idempotency';
import { decodePathParameter } from './path-parameters';

export interface HttpRequest {
  caller: Caller;
  event: APIGatewayProxyEvent;
  /** Parsed JSON body (undefined for handlers without a body). */
  body: unknown;
  /** A decoded path parameter; 404s never reach here because the route matched. */
  path(name: string): string;
  /** The request's claim on its Idempotency-Key (idempotent routes called with the header). */
  idempotency?: IdempotencyClaim;
}

export interface HttpResult {
  statusCode: number;
  body: unknown;
}

export interface EndpointOptions {
  /** Honour the Idempotency-Key header. */
  idempotent?: boolean;
}

export function jsonResponse(statusCode: number, body: unknown): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS }, body: JSON.stringify(body) };
}

/** The Lambda handler function at the end of the chain, running `run` for one request. */
export function endpoint(
  run: (request: HttpRequest) => Promise<HttpResult>,
  options: EndpointOptions = {},
): (event: APIGatewayProxyEvent, context: Context) => Promise<APIGatewayProxyResult> {
  return async (event, context) => {
    const pathParameters = event.pathParameters ?? {};
    const caller = callerFrom(event);
    const body = event.body as unknown;
    // How long the function may still run: platform calls stay within it, and an Idempotency-Key is
    // held in progress that long (after it, the invocation is known to be stopped).
    const remainingMs = context.getRemainingTimeInMillis();
    const respond = async (idempotency?: IdempotencyClaim) => {
      const path = (name: string) => decodePathParameter(pathParameters[name] ?? '');
      const work = () => run({ caller, event, body, path, ...(idempotency ? { idempotency } : {}) });
      // A staff request's commits record who made them (shared/data/items/staff-audit.ts).
      const result = caller.actor
        ? await actingAs({ actor: caller.actor, request: `${event.httpMethod} ${event.resource}` }, work)
        : await work();
      return jsonResponse(result.statusCode, result.body);
    };
    return withInvocationDeadline(remainingMs, () =>
      options.idempotent
        ? caller.actor
          ? // A staff request's key is the staff user's: another user's key of the same value is another request.
            withIdempotency(
              caller.shopId,
              event,
              body,
              remainingMs,
              respond,
              `${event.httpMethod} ${event.resource} staff:${caller.actor.id}`,
            )
          : withIdempotency(caller.shopId, event, body, remainingMs, respond)
        : respond(),
    );
  };
}
