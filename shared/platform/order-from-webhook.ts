// An order webhook's REST payload (orders/paid, orders/cancelled, orders/updated) as the platform-neutral
// PlatformOrder that order reconciliation produces from GraphQL too, so one code path earns from both.
import * as z from 'zod/mini';
import { type EligibleRefundLine, eligibleAmounts } from './eligible-amount';
import { landingSitePath } from './landing-site';
import { type PlatformOrder, PlatformPayloadError } from './port';
import { amount, numericId, parsePayload, timestamp } from './webhook-payload-fields';

const optional = <T extends z.ZodMiniType>(schema: T) => z.optional(z.nullable(schema));
const list = <T extends z.ZodMiniType>(item: T) =>
  z.pipe(
    optional(z.array(item)),
    z.transform((items) => items ?? []),
  );

const restLineSchema = z.object({
  price: amount,
  quantity: z.int().check(z.nonnegative()),
  gift_card: optional(z.boolean()),
  tax_lines: list(z.object({ price: amount })),
  discount_allocations: list(z.object({ amount })),
});

/** A refunded line as both refunds/create and an order's `refunds` write it; shared with refund-from-webhook. */
export const restRefundLineSchema = z.pipe(
  z.object({
    subtotal: amount,
    total_tax: optional(amount),
    line_item: optional(z.object({ gift_card: optional(z.boolean()) })),
  }),
  z.transform((line): EligibleRefundLine => ({
    giftCard: line.line_item?.gift_card === true,
    subtotal: line.subtotal,
    tax: line.total_tax ?? '0',
  })),
);

/** Shopify's kind of the adjustment that records money refunded apart from the lines (`shipping_refund` is the other). */
export const REFUND_DISCREPANCY = 'refund_discrepancy';

/**
 * A refund's `order_adjustments`, as both refunds/create and an order's `refunds` write them, reduced to the
 * amounts of the `refund_discrepancy` ones: `amount` (a string, or a JSON number), else its shop money in
 * `amount_set`. Other kinds (`shipping_refund`) never count and need no amount.
 */
export const restRefundDiscrepanciesSchema = z.pipe(
  z.pipe(
    optional(
      z.array(
        z
          .object({
            kind: z.string(),
            amount: optional(amount),
            amount_set: optional(z.object({ shop_money: z.object({ amount }) })),
          })
          .check(
            z.refine(
              (adjustment) =>
                adjustment.kind !== REFUND_DISCREPANCY ||
                (adjustment.amount !== undefined && adjustment.amount !== null) ||
                Boolean(adjustment.amount_set),
              'a refund_discrepancy needs its amount (amount or amount_set.shop_money.amount)',
            ),
          ),
      ),
    ),
    z.transform((adjustments) => adjustments ?? []),
  ),
  z.transform((adjustments): string[] =>
    adjustments
      .filter((adjustment) => adjustment.kind === REFUND_DISCREPANCY)
      .map((adjustment) => adjustment.amount ?? adjustment.amount_set!.shop_money.amount),
  ),
);

const restOrderSchema = z.object({
  id: numericId,
  name: z.string().check(z.minLength(1)),
  customer: optional(z.object({ id: numericId })),
  subtotal_price: amount,
  current_subtotal_price: optional(amount),
  taxes_included: optional(z.boolean()),
  currency: z.string().check(z.regex(/^[A-Z]{3}$/, 'must be an ISO 4217 currency code')),
  created_at: optional(timestamp),
  processed_at: optional(timestamp),
  updated_at: timestamp,
  cancelled_at: optional(timestamp),
  discount_codes: list(z.object({ code: z.string() })),
  landing_site: optional(z.string()),
  landing_site_ref: optional(z.string()),
  note_attributes: list(z.object({ name: z.string(), value: optional(z.unknown()) })),
  financial_status: optional(z.string()),
  test: optional(z.boolean()),
  source_name: optional(z.string()),
  line_items: list(restLineSchema),
  refunds: optional(
    z.array(z.object({ id: numericId, refund_line_items: list(restRefundLineSchema), order_adjustments: restRefundDiscrepanciesSchema })),
  ),
});

/**
 * Maps the payload, or throws PlatformPayloadError listing what is wrong. The eligible amount and what
 * refunds took back of it come from the line items and the order's `refunds`, each known by its id, with its
 * lines and refund discrepancies (eligible-amount.ts); a payload without `refunds` has had taken back what
 * its current subtotal lost. A note attribute's value is
 * kept as text; timestamps are UTC.
 */
export function orderFromWebhook(payload: unknown): PlatformOrder {
  const order = parsePayload(restOrderSchema, payload);
  const processedAt = order.processed_at ?? order.created_at;
  if (!processedAt) throw new PlatformPayloadError(['processed_at: is required when created_at is absent']);
  const taxesIncluded = order.taxes_included === true;
  const { eligible, refunded, taken } = eligibleAmounts({
    subtotal: order.subtotal_price,
    taxesIncluded,
    lines: order.line_items.map((line) => ({
      giftCard: line.gift_card === true,
      unitPrice: line.price,
      quantity: line.quantity,
      discounts: line.discount_allocations.map((discount) => discount.amount),
      taxes: line.tax_lines.map((tax) => tax.price),
    })),
    refunds: order.refunds
      ? order.refunds.map((refund) => ({ lines: refund.refund_line_items, discrepancies: refund.order_adjustments }))
      : null,
    currentSubtotal: order.current_subtotal_price ?? null,
  });
  return {
    id: order.id,
    name: order.name,
    customerId: order.customer?.id ?? null,
    eligibleSubtotal: eligible,
    refundedEligible: refunded,
    refunds: order.refunds && taken ? order.refunds.map((refund, index) => ({ id: refund.id, taken: taken[index]! })) : null,
    taxesIncluded,
    currency: order.currency,
    processedAt,
    updatedAt: order.updated_at,
    cancelledAt: order.cancelled_at ?? null,
    discountCodes: order.discount_codes.map((discount) => discount.code),
    landingSite: landingSitePath(order.landing_site),
    referralCode: order.landing_site_ref?.trim() || null,
    noteAttributes: order.note_attributes.map((attribute) => ({
      name: attribute.name,
      value: attribute.value === null || attribute.value === undefined ? '' : String(attribute.value),
    })),
    financialStatus: order.financial_status ?? null,
    test: order.test === true,
    sourceName: order.source_name?.trim() || null,
  };
}
