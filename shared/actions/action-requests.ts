// The body of POST /v1/customers/{identifier}/actions: the action the customer took.
import * as z from 'zod/mini';
import { parseBody } from '../http/validation';

export const earnActionBodySchema = z.object({
  action: z
    .string({ error: (issue) => (issue.input === undefined || issue.input === null ? 'action is required' : 'action must be a string') })
    .check(z.trim(), z.minLength(1, { error: 'action is required' }), z.maxLength(128, { error: 'action must be at most 128 characters' })),
});

export type EarnActionInput = z.output<typeof earnActionBodySchema>;

export function parseEarnActionBody(body: unknown): EarnActionInput {
  return parseBody(earnActionBodySchema, body);
}
