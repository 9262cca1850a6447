// The body of POST /v1/rewards/{id}/purchase.
import { z } from 'zod';
import { parseBody } from '../http/validation';

const points = (field: string) =>
  z.number({ error: `${field} must be an integer` }).int({ error: `${field} must be an integer` }).optional();

export const purchaseBodySchema = z
  .object({
    customer_identifier: z
      .string({ error: (issue) => (issue.input === undefined ? 'customer_identifier is required' : 'customer_identifier must be a string') })
      .trim()
      .min(1, { error: 'customer_identifier is required' }),
    points: points('points'),
    // The older name of `points`, still accepted.
    points_to_redeem: points('points_to_redeem'),
  })
  .transform(({ customer_identifier, points, points_to_redeem }) => ({
    customerIdentifier: customer_identifier,
    points: points ?? points_to_redeem ?? null,
  }));

export type PurchaseInput = z.output<typeof purchaseBodySchema>;

export function parsePurchaseBody(body: unknown): PurchaseInput {
  return parseBody(purchaseBodySchema, body);
}
