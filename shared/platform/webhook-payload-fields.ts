// Field schemas shared by the REST webhook payload mappers, accepting what Shopify writes: ids as JSON
// numbers of any size (parseWebhookJson keeps those beyond 2^53 as their digits), money as a decimal string
// in most places and a JSON number in others, timestamps with the shop's offset. A payload that breaks them
// is reported path by path, never half applied; fields the mappers do not name are ignored.
import { isSafeNumber, parse } from 'lossless-json';
import * as z from 'zod/mini';
import { amountFromNumber, DECIMAL_AMOUNT } from '../domain/money';
import { PlatformPayloadError } from './port';

const INTEGER = /^-?\d+$/;

/**
 * A webhook body as a JSON value, losing no id: an integer JSON number beyond 2^53 (Shopify's sample order
 * is 820982911946154508) becomes the string of its digits; every other number is a JavaScript number.
 */
export function parseWebhookJson(body: string): unknown {
  try {
    return parse(body, null, (text: string) => (INTEGER.test(text) && !isSafeNumber(text) ? text : Number(text)));
  } catch {
    throw new PlatformPayloadError(['(payload): is not valid JSON']);
  }
}

/** A numeric id as JSON number (of any size, see parseWebhookJson) or string, returned as its digits ("5001"). */
export const numericId = z.pipe(
  z.union([z.int().check(z.nonnegative()), z.string().check(z.regex(/^\d{1,32}$/, 'must be a numeric id'))]),
  z.transform((id: number | string) => String(id)),
);

/** Money as Shopify writes it: a decimal string ("120.00") or, in some payloads, a JSON number (195.67). */
export const amount = z.pipe(
  z.union([
    z.string().check(z.regex(DECIMAL_AMOUNT, 'must be a decimal amount such as "120.00"')),
    z.number().check(z.refine((value) => amountFromNumber(value) !== null, 'must be a decimal amount such as 120.5')),
  ]),
  z.transform((value: string | number) => (typeof value === 'number' ? amountFromNumber(value)! : value)),
);

/** An ISO 8601 timestamp with any offset, returned in UTC with milliseconds ("2020-12-27T08:23:56+11:00" -> "…21:23:56.000Z"). */
export const timestamp = z.pipe(
  z.string().check(z.refine((text) => !Number.isNaN(Date.parse(text)), 'must be an ISO 8601 timestamp')),
  z.transform((text: string) => new Date(text).toISOString()),
);

/** Parses with the schema or throws PlatformPayloadError naming every problem as `path: message`. */
export function parsePayload<S extends z.ZodMiniType>(schema: S, payload: unknown): z.output<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  throw new PlatformPayloadError(
    result.error.issues.map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : '(payload)'}: ${issue.message}`),
  );
}
