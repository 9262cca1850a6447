// Query-string conventions of the spec: page[number], page[size], sort with '-', filter[...].
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { badRequest } from './errors';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface Page {
  number: number;
  size: number;
  offset: number;
}

export interface Sort<F extends string> {
  field: F;
  descending: boolean;
}

/**
 * The last value of each query parameter (API Gateway keeps all of them in the multi-value map).
 * A prototype-free object: a parameter called `__proto__` or `valueOf` is just a name.
 */
export function queryParameters(event: APIGatewayProxyEvent): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const [name, values] of Object.entries(event.multiValueQueryStringParameters ?? {})) {
    const last = values?.[values.length - 1];
    if (last !== undefined) out[name] = last;
  }
  for (const [name, value] of Object.entries(event.queryStringParameters ?? {})) {
    if (!Object.hasOwn(out, name) && value !== undefined) out[name] = value;
  }
  return out;
}

export function positiveInteger(name: string, text: string): number {
  if (!/^\d+$/.test(text.trim()) || Number(text) < 1 || !Number.isSafeInteger(Number(text))) {
    throw badRequest(`${name} must be a positive integer`);
  }
  return Number(text);
}

/** page[size] above the maximum is served at the maximum (meta.per_page says so), not refused. */
export function parsePage(query: Record<string, string>): Page {
  const number = query['page[number]'] === undefined ? 1 : positiveInteger('page[number]', query['page[number]']);
  const requested = query['page[size]'] === undefined ? DEFAULT_PAGE_SIZE : positiveInteger('page[size]', query['page[size]']);
  const size = Math.min(requested, MAX_PAGE_SIZE);
  return { number, size, offset: (number - 1) * size };
}

export function parseSort<F extends string>(query: Record<string, string>, allowed: readonly F[], fallback: string): Sort<F> {
  const text = (query.sort ?? fallback).trim();
  const descending = text.startsWith('-');
  const field = descending ? text.slice(1) : text;
  if (!(allowed as readonly string[]).includes(field)) {
    throw badRequest(`Invalid sort '${text}'. Allowed: ${allowed.join(', ')} (prefix '-' for descending)`);
  }
  return { field: field as F, descending };
}

/** The filter[...] parameters; any filter the endpoint does not document is refused. */
export function parseFilters<F extends string>(query: Record<string, string>, allowed: readonly F[]): Partial<Record<F, string>> {
  const filters: Partial<Record<F, string>> = {};
  for (const [name, value] of Object.entries(query)) {
    const match = /^filter\[(.*)\]$/.exec(name);
    if (!match) continue;
    const field = match[1]!;
    if (!(allowed as readonly string[]).includes(field)) {
      const list = allowed.length > 0 ? `Allowed: ${allowed.map((f) => `filter[${f}]`).join(', ')}` : 'This endpoint has no filters';
      throw badRequest(`Unknown filter '${name}'. ${list}`);
    }
    filters[field as F] = value;
  }
  return filters;
}

/** List meta of the spec: total, page, per_page, total_pages. */
export function pageMeta(total: number, page: Page) {
  return { total, page: page.number, per_page: page.size, total_pages: Math.ceil(total / page.size) };
}
