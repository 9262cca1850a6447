// A refunds/create webhook's REST payload (a Refund, not its order) as a PlatformRefund: which order, and
// which of its lines went back, so the engine can shrink the order's eligible amount on the same basis.
import * as z from 'zod/mini';
import { restRefundLineSchema } from './order-from-webhook';
import type { PlatformRefund } from './port';
import { numericId, parsePayload, timestamp } from './webhook-payload-fields';

const restRefundSchema = z.object({
  id: numericId,
  order_id: numericId,
  created_at: timestamp,
  refund_line_items: z.optional(z.nullable(z.array(restRefundLineSchema))),
});

/**
 * Maps the payload, or throws PlatformPayloadError. Only refunded line items count: shipping refunds and
 * order adjustments are not part of the eligible amount, so they are left out. Whether the lines' tax is
 * part of their subtotal depends on the order (`taxes_included`), which the engine already knows.
 */
export function refundFromWebhook(payload: unknown): PlatformRefund {
  const refund = parsePayload(restRefundSchema, payload);
  return { id: refund.id, orderId: refund.order_id, lines: refund.refund_line_items ?? [], createdAt: refund.created_at };
}
