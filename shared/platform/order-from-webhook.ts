// An order webhook's REST payload (orders/paid, orders/cancelled, orders/updated) as the platform-neutral
// PlatformOrder that order reconciliation produces from GraphQL too, so one code path earns from both.
import * as z from 'zod/mini';
import { addAmounts, isNegativeAmount, subtractAmounts } from './decimal-amounts';
import { landingSitePath } from './landing-site';
import { type PlatformOrder, PlatformPayloadError } from './port';
import { amount, numericId, parsePayload, timestamp } from './webhook-payload-fields';

const restOrderSchema = z.object({
  id: numericId,
  name: z.string().check(z.minLength(1)),
  customer: z.optional(z.nullable(z.object({ id: numericId }))),
  subtotal_price: amount,
  current_subtotal_price: z.optional(z.nullable(amount)),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code')),
  created_at: z.optional(z.nullable(timestamp)),
  processed_at: z.optional(z.nullable(timestamp)),
  updated_at: timestamp,
  cancelled_at: z.optional(z.nullable(timestamp)),
  discount_codes: z.optional(z.nullable(z.array(z.object({ code: z.string() })))),
  landing_site: z.optional(z.nullable(z.string())),
  note_attributes: z.optional(z.nullable(z.array(z.object({ name: z.string(), value: z.optional(z.nullable(z.unknown())) })))),
  financial_status: z.optional(z.nullable(z.string())),
});

/**
 * Maps the payload, or throws PlatformPayloadError listing what is wrong. The refunded part of the subtotal
 * is `subtotal_price - current_subtotal_price`, the figure GraphQL gives as well; a payload without the
 * current subtotal has had nothing taken back. A note attribute's value is kept as text.
 */
export function orderFromWebhook(payload: unknown): PlatformOrder {
  const order = parsePayload(restOrderSchema, payload);
  const processedAt = order.processed_at ?? order.created_at;
  if (!processedAt) throw new PlatformPayloadError(['processed_at: is required when created_at is absent']);
  const refunded = subtractAmounts(order.subtotal_price, order.current_subtotal_price ?? order.subtotal_price);
  return {
    id: order.id,
    name: order.name,
    customerId: order.customer?.id ?? null,
    subtotal: addAmounts(order.subtotal_price),
    refundedSubtotal: isNegativeAmount(refunded) ? addAmounts('0') : refunded,
    currency: order.currency,
    processedAt,
    updatedAt: order.updated_at,
    cancelledAt: order.cancelled_at ?? null,
    discountCodes: (order.discount_codes ?? []).map((discount) => discount.code),
    landingSite: landingSitePath(order.landing_site),
    noteAttributes: (order.note_attributes ?? []).map((attribute) => ({
      name: attribute.name,
      value: attribute.value === null || attribute.value === undefined ? '' : String(attribute.value),
    })),
    financialStatus: order.financial_status ?? null,
  };
}
