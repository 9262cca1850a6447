// Builds every endpoint's Lambda handler from one middy chain, in a fixed order: tracer (when on), logger
// (state cleared per request), metrics, log context, error envelope, scope check, JSON body, then
// idempotency and the endpoint's own function. Handlers stay a few lines long.
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import httpJsonBodyParser from '@middy/http-json-body-parser';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { badRequest, DETAILS, forbidden, unauthorized } from './errors';
import { errorEnvelope } from './error-envelope';
import { scopeAllows, type KeyScope } from '../domain/api-key';
import { requiredScope } from './routes';
import { withIdempotency } from './idempotency';
import type { IdempotencyClaim } from '../data/idempotency-repository';
import { withInvocationDeadline } from '../runtime/invocation';
import { loggableIdentifier, logger, publishMetrics } from '../observability/powertools';
import { traceHandler } from '../observability/tracing';

export interface Caller {
  shopId: string;
  scope: KeyScope;
}

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

export interface HandlerOptions {
  /** Parse the request body as JSON (write endpoints). */
  jsonBody?: boolean;
  /** Honour the Idempotency-Key header (runs after the scope check and body parsing). */
  idempotent?: boolean;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

export function jsonResponse(statusCode: number, body: unknown): APIGatewayProxyResult {
  return { statusCode, headers: JSON_HEADERS, body: JSON.stringify(body) };
}

/** The authorizer's context as API Gateway hands it to the integration. */
export function callerFrom(event: APIGatewayProxyEvent): Caller {
  const context = event.requestContext?.authorizer ?? {};
  const shopId = context.shopId;
  const scope = context.scope;
  // Only reachable if the gateway was misconfigured to skip the authorizer.
  if (typeof shopId !== 'string' || (scope !== 'full' && scope !== 'read')) throw unauthorized(DETAILS.invalidKey);
  return { shopId, scope };
}

/** Path parameters may arrive percent-encoded (an e-mail's `@` as `%40`); decode them once, here. */
function decodePathParameter(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** An absent or blank body is not JSON; say so plainly instead of letting the parser guess. */
const requireBody = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const body = request.event.body;
    if (body === null || body === undefined || (typeof body === 'string' && body.trim() === '')) {
      throw badRequest('Request body must be a JSON object');
    }
  },
});

/** Every log line of the request names its shop, route, key id and customer (never the key, never a full e-mail). */
const logContext = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const context = request.event.requestContext?.authorizer ?? {};
    const identifier = request.event.pathParameters?.identifier;
    logger.appendKeys({
      route: `${request.event.httpMethod} ${request.event.resource}`,
      shop: typeof context.shopId === 'string' ? context.shopId : undefined,
      keyId: typeof context.keyId === 'string' ? context.keyId : undefined,
      // Which customer, for operators; an e-mail identifier is masked.
      customer: identifier ? loggableIdentifier(decodePathParameter(identifier)) : undefined,
    });
  },
});

/** Read-only keys may only GET: refused before anything is read or written. */
const scopeCheck = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  before: async (request) => {
    const caller = callerFrom(request.event);
    if (!scopeAllows(caller.scope, requiredScope(request.event.httpMethod))) throw forbidden(DETAILS.readOnlyKey);
  },
});

// Parse whatever Content-Type the caller sent: a JSON body sent as text/plain (or curl's default
// form type) is still answered on its merits, and a non-JSON body gets a 400, never a 415.
// (`disableContentTypeCheck` exists in the package's code but not in its 6.x type declarations.)
const BODY_PARSER_OPTIONS = { disableContentTypeCheck: true } as Parameters<typeof httpJsonBodyParser>[0];

export function createHandler(
  run: (request: HttpRequest) => Promise<HttpResult>,
  options: HandlerOptions = {},
): middy.MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  const chain = middy<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(traceHandler())
    .use(injectLambdaContext(logger, { clearState: true }))
    .use(publishMetrics())
    .use(logContext())
    .use(errorEnvelope())
    .use(scopeCheck());
  if (options.jsonBody) chain.use(requireBody()).use(httpJsonBodyParser(BODY_PARSER_OPTIONS));
  return chain.handler(async (event, context) => {
    const pathParameters = event.pathParameters ?? {};
    const caller = callerFrom(event);
    const body = event.body as unknown;
    // How long the function may still run: platform calls stay within it, and an Idempotency-Key is
    // held in progress that long (after it, the invocation is known to be stopped).
    const remainingMs = context.getRemainingTimeInMillis();
    const respond = async (idempotency?: IdempotencyClaim) => {
      const path = (name: string) => decodePathParameter(pathParameters[name] ?? '');
      const result = await run({ caller, event, body, path, ...(idempotency ? { idempotency } : {}) });
      return jsonResponse(result.statusCode, result.body);
    };
    return withInvocationDeadline(remainingMs, () =>
      options.idempotent ? withIdempotency(caller.shopId, event, body, remainingMs, respond) : respond(),
    );
  });
}
