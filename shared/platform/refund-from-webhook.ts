// A refunds/create webhook's REST payload (a Refund, not its order) as a PlatformRefund: which order, which of
// its lines went back and how far the money refunded differed from them, so the engine can shrink the order's
// eligible amount on the same basis.
import * as z from 'zod/mini';
import { restRefundDiscrepanciesSchema, restRefundLineSchema } from './order-from-webhook';
import type { PlatformRefund } from './port';
import { numericId, parsePayload, timestamp } from './webhook-payload-fields';

const restRefundSchema = z.object({
  id: numericId,
  order_id: numericId,
  created_at: timestamp,
  refund_line_items: z.optional(z.nullable(z.array(restRefundLineSchema))),
  order_adjustments: restRefundDiscrepanciesSchema,
});

/**
 * Maps the payload, or throws PlatformPayloadError. The refunded line items and the `refund_discrepancy`
 * adjustments count; shipping refunds (lines or `shipping_refund` adjustments) are not part of the eligible
 * amount, so they are left out. Whether the lines' tax is part of their subtotal depends on the order
 * (`taxes_included`), which the engine already knows.
 */
export function refundFromWebhook(payload: unknown): PlatformRefund {
  const refund = parsePayload(restRefundSchema, payload);
  return {
    id: refund.id,
    orderId: refund.order_id,
    lines: refund.refund_line_items ?? [],
    discrepancies: refund.order_adjustments,
    createdAt: refund.created_at,
  };
}
