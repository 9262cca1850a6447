// The body of POST /v1/customers/{identifier}/points.
import * as z from 'zod/mini';
import { parseBody } from '../http/validation';

const MAX_ADJUSTMENT = 1_000_000_000;

const adjustmentMessage = (input: unknown) =>
  input === undefined || input === null ? 'adjustment is required' : 'adjustment must be a non-zero integer';

export const adjustPointsBodySchema = z.object({
  // A numeric string ("10") is refused on purpose: the spec types adjustment as an integer.
  adjustment: z.int({ error: (issue) => adjustmentMessage(issue.input) }).check(
    z.refine((value) => value !== 0, { error: 'adjustment cannot be zero' }),
    z.refine((value) => Math.abs(value) <= MAX_ADJUSTMENT, {
      error: `adjustment must be between -${MAX_ADJUSTMENT} and ${MAX_ADJUSTMENT}`,
    }),
  ),
  note: z.pipe(
    z.optional(
      z.nullable(z.string({ error: 'note must be a string' }).check(z.maxLength(1000, { error: 'note must be at most 1000 characters' }))),
    ),
    z.transform((value: string | null | undefined) => value ?? null),
  ),
  update_lifetime_points: z._default(z.boolean({ error: 'update_lifetime_points must be a boolean' }), true),
  send_email: z._default(z.boolean({ error: 'send_email must be a boolean' }), true),
});

export type AdjustPointsInput = z.output<typeof adjustPointsBodySchema>;

export function parseAdjustPointsBody(body: unknown): AdjustPointsInput {
  return parseBody(adjustPointsBodySchema, body);
}
