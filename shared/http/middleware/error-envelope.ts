// The middy chain's error envelope: whatever the endpoint or a middleware after this one throws is
// answered in the spec's envelope and logged at the level its outcome calls for
// (docs/operate.md#what-is-logged-at-which-level). A request refused for the caller's reasons (4XX) is not
// an error: INFO, or WARN where an operator should look (the caller's credentials or key scope,
// Idempotency-Key misuse, rate limits). A request we failed (5XX, or an error nothing mapped) is an ERROR,
// with its stack, and counted in the ServerErrors metric the routes' error alarms watch. Details are logged
// with e-mails masked; keys and tokens never reach an error's detail.
import type middy from '@middy/core';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { DomainError } from '../../domain/errors';
import { countServerError, logger, maskEmailsIn } from '../../observability/powertools';
import { ApiError, toErrorResponse } from '../errors';
import { JSON_HEADERS } from '../headers';
import { mirroredResource, ROUTES, SHOPPER_ROUTES } from '../../runtime/entry-points';

export type OutcomeLevel = 'INFO' | 'WARN' | 'ERROR';

/**
 * Refusals of the HTTP edge an operator should look at: 401 (no caller identity reached the handler), 403
 * (a read-only key used to write), 409 and 422 (an Idempotency-Key still in flight, or reused for another
 * request), 429. The domain's refusals (invalid, not found, not permitted, a business rule) are INFO.
 */
const EDGE_WARNINGS: ReadonlySet<number> = new Set([401, 403, 409, 422, 429]);

/** The level an answered error is logged at: ERROR for 5XX, WARN for the edge's refusals above, else INFO. */
export function outcomeLevel(error: unknown, statusCode: number): OutcomeLevel {
  if (statusCode >= 500) return 'ERROR';
  if (error instanceof ApiError && EDGE_WARNINGS.has(statusCode)) return 'WARN';
  return 'INFO';
}

/** The manifest name of the route an event is for (the ServerErrors metric's dimension); a staff route counts as the route it mirrors. */
function routeName(event: APIGatewayProxyEvent): string {
  const resource = mirroredResource(event.resource ?? '');
  return [...ROUTES, ...SHOPPER_ROUTES].find((route) => route.method === event.httpMethod && route.path === resource)?.name ?? 'unknown';
}

export const errorEnvelope = (): middy.MiddlewareObj<APIGatewayProxyEvent, APIGatewayProxyResult> => ({
  onError: async (request) => {
    const error = request.error;
    const { statusCode, body, headers } = toErrorResponse(error);
    const level = outcomeLevel(error, statusCode);
    if (!(error instanceof ApiError) && !(error instanceof DomainError)) {
      // Internals go to the log only, never into the response body.
      logger.error('Unhandled error', { status: statusCode, error: error as Error });
    } else {
      const { title, detail } = body.errors[0]!;
      const fields = { status: statusCode, title, detail: maskEmailsIn(detail) };
      if (level === 'ERROR') logger.error('Request failed', { ...fields, error });
      else if (level === 'WARN') logger.warn('Request refused', fields);
      else logger.info('Request refused', fields);
    }
    if (level === 'ERROR') countServerError(routeName(request.event));
    request.response = { statusCode, headers: { ...headers, ...JSON_HEADERS }, body: JSON.stringify(body) };
  },
});
