// Idempotency-Key on write endpoints: the header's name and what makes two requests the same request (a
// hash of the method, route, path and body, object keys in any order). The chain's step that claims the
// key, replays or refuses a retry and stores the answer is ./middleware/idempotency.ts.
import { createHash } from 'node:crypto';
import type { APIGatewayProxyEvent } from 'aws-lambda';

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

export function requestHash(event: APIGatewayProxyEvent, body: unknown): string {
  return createHash('sha256')
    .update(canonicalJson({ method: event.httpMethod, resource: event.resource, path: event.pathParameters ?? {}, body }))
    .digest('hex');
}
