// Idempotency-Key on write endpoints: the header's name and what makes two requests the same request (a
// hash of the method, route, path and body, object keys in any order). The chain's step that claims the
// key, replays or refuses a retry and stores the answer is ./middleware/idempotency.ts.
import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { loggablePathParameter } from './middleware/path-parameters';

export const IDEMPOTENCY_HEADER = 'Idempotency-Key';

/** JSON with object keys sorted at every level, so {"a":1,"b":2} and {"b":2,"a":1} hash alike. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The request's hash. Path parameters count decoded, as the endpoint reads them: `ada%40example.com` and
 * `ada@example.com` are the same request (API Gateway hands each over as it was sent).
 */
export function requestHash(event: APIGatewayProxyEvent, body: unknown): string {
  const path = Object.fromEntries(
    Object.entries(event.pathParameters ?? {}).map(([name, value]) => [name, loggablePathParameter(value ?? '')]),
  );
  return createHash('sha256')
    .update(canonicalJson({ method: event.httpMethod, resource: event.resource, path, body }))
    .digest('hex');
}
