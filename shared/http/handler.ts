// Builds every endpoint's Lambda handler from one middy chain, in a fixed order: the observability every
// function starts with (shared/observability/event-handler.ts: tracer when on, logger with state cleared
// per request, metrics), then one module of ./middleware per concern: the staff answers' CORS headers, log
// context, error envelope, the staff
// identity (on a route's /admin/api twin), scope check, JSON body; then the endpoint itself (./middleware/endpoint.ts: the invocation's deadline,
// idempotency and the endpoint's own function). Handlers stay a few lines long.
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { observedChain } from '../observability/event-handler';
import { endpoint, type HttpRequest, type HttpResult } from './middleware/endpoint';
import { errorEnvelope } from './middleware/error-envelope';
import { jsonBody } from './middleware/json-body';
import { logContext } from './middleware/log-context';
import { scopeCheck } from './middleware/scope-check';
import { staffCors } from './middleware/staff-cors';
import { type IdentifyStaff, staffIdentity } from './middleware/staff-identity';

export { type Caller, callerFrom } from './middleware/caller';
export type { IdentifyStaff } from './middleware/staff-identity';
export { type HttpRequest, type HttpResult, jsonResponse } from './middleware/endpoint';

export interface HandlerOptions {
  /** Parse the request body as JSON (write endpoints). */
  jsonBody?: boolean;
  /** Honour the Idempotency-Key header (runs after the scope check and body parsing). */
  idempotent?: boolean;
  /**
   * Verifies the staff user of a request for the route's /admin/api twin (shared/staff hands it in); without
   * it the handler refuses every staff request.
   */
  staff?: IdentifyStaff;
}

export function createHandler(
  run: (request: HttpRequest) => Promise<HttpResult>,
  options: HandlerOptions = {},
): middy.MiddyfiedHandler<APIGatewayProxyEvent, APIGatewayProxyResult, Error, Context> {
  const chain = observedChain<APIGatewayProxyEvent, APIGatewayProxyResult>()
    .use(staffCors())
    .use(logContext())
    .use(errorEnvelope())
    .use(staffIdentity(options.staff))
    .use(scopeCheck());
  if (options.jsonBody) chain.use(jsonBody());
  return chain.handler(endpoint(run, { idempotent: options.idempotent }));
}
