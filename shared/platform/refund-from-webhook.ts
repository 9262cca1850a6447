// A refunds/create webhook's REST payload (a Refund, not its order) as a PlatformRefund: which order, and how
// much of its subtotal went back, so the engine can shrink the order's eligible amount.
import * as z from 'zod/mini';
import { addAmounts } from './decimal-amounts';
import type { PlatformRefund } from './port';
import { amount, numericId, parsePayload, timestamp } from './webhook-payload-fields';

const restRefundSchema = z.object({
  id: numericId,
  order_id: numericId,
  created_at: timestamp,
  refund_line_items: z.optional(z.nullable(z.array(z.object({ subtotal: amount })))),
});

/**
 * Maps the payload, or throws PlatformPayloadError. The subtotal is the sum of the refunded line items'
 * subtotals (after their discounts, before tax): shipping refunds and order adjustments are not part of
 * the eligible amount, so they are left out.
 */
export function refundFromWebhook(payload: unknown): PlatformRefund {
  const refund = parsePayload(restRefundSchema, payload);
  const lines = refund.refund_line_items ?? [];
  return {
    id: refund.id,
    orderId: refund.order_id,
    subtotal: addAmounts('0', ...lines.map((line) => line.subtotal)),
    createdAt: refund.created_at,
  };
}
