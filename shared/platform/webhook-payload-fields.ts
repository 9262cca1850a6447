// Field schemas shared by the REST webhook payload mappers: Shopify writes ids as JSON numbers and money as
// decimal strings; a payload that breaks them is reported path by path, never half applied.
import * as z from 'zod/mini';
import { DECIMAL_AMOUNT } from './decimal-amounts';
import { PlatformPayloadError } from './port';

/** A numeric id as JSON number or string, returned as the string the domain keeps ("5001"). */
export const numericId = z.pipe(
  z.union([z.int().check(z.nonnegative()), z.string().check(z.regex(/^\d{1,32}$/))]),
  z.transform((id: number | string) => String(id)),
);

export const amount = z.string().check(z.regex(DECIMAL_AMOUNT, 'must be a decimal amount such as "120.00"'));

export const timestamp = z.string().check(z.refine((text) => !Number.isNaN(Date.parse(text)), 'must be an ISO 8601 timestamp'));

/** Parses with the schema or throws PlatformPayloadError naming every problem as `path: message`. */
export function parsePayload<S extends z.ZodMiniType>(schema: S, payload: unknown): z.output<S> {
  const result = schema.safeParse(payload);
  if (result.success) return result.data;
  throw new PlatformPayloadError(
    result.error.issues.map((issue) => `${issue.path.length ? issue.path.map(String).join('.') : '(payload)'}: ${issue.message}`),
  );
}
