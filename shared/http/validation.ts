// Request-body validation with zod: the first problem becomes a 400 that names the field.
import type * as z from 'zod/mini';
import { badRequest } from './errors';

/** Accepts a flat body or its JSON:API form `{ data: { attributes: { ... } } }`. */
export function unwrapAttributes(body: unknown): unknown {
  if (isObject(body) && isObject(body.data) && isObject(body.data.attributes)) return body.data.attributes;
  return body;
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function parseBody<S extends z.ZodMiniType>(schema: S, body: unknown): z.output<S> {
  if (!isObject(body)) throw badRequest('Request body must be a JSON object');
  const result = schema.safeParse(unwrapAttributes(body));
  if (!result.success) {
    const issue = result.error.issues[0]!;
    const field = issue.path.map(String).join('.');
    throw badRequest(field && !issue.message.startsWith(field) ? `${field}: ${issue.message}` : issue.message);
  }
  return result.data;
}
