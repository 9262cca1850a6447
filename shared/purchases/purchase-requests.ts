// The body of POST /v1/rewards/{id}/purchase.
import * as z from 'zod/mini';
import { parseBody } from '../http/validation';

const points = (field: string) => z.optional(z.int({ error: `${field} must be an integer` }));

export const purchaseBodySchema = z.pipe(
  z.object({
    customer_identifier: z
      .string({
        error: (issue) => (issue.input === undefined ? 'customer_identifier is required' : 'customer_identifier must be a string'),
      })
      .check(z.trim(), z.minLength(1, { error: 'customer_identifier is required' })),
    points: points('points'),
    // The older name of `points`, still accepted.
    points_to_redeem: points('points_to_redeem'),
  }),
  z.transform(
    ({
      customer_identifier,
      points,
      points_to_redeem,
    }: {
      customer_identifier: string;
      points?: number | undefined;
      points_to_redeem?: number | undefined;
    }) => ({
      customerIdentifier: customer_identifier,
      points: points ?? points_to_redeem ?? null,
    }),
  ),
);

export type PurchaseInput = z.output<typeof purchaseBodySchema>;

export function parsePurchaseBody(body: unknown): PurchaseInput {
  return parseBody(purchaseBodySchema, body);
}
