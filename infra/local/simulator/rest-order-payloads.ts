// The REST-shaped bodies of the simulator's webhooks (orders/paid, orders/updated, orders/cancelled: an Order;
// refunds/create: a Refund), written with the field types of Shopify's example payloads for these topics: ids
// as JSON numbers, money as decimal strings except a refund line's `subtotal` and `total_tax` (JSON numbers,
// as Shopify writes them), every `*_set` as shop and presentment money. test/unit/simulator-payload-shapes.test.ts
// compares them with Shopify's samples field by field.
import { formatMinorUnits } from '../../../shared/domain/money';
import { customerGid } from '../../../shared/platform/shopify-ids';
import {
  financialStatus,
  lineSubtotal,
  orderTaxMinor,
  recordedReferralCode,
  refundedMinor,
  refundedMoneyMinor,
  refundedTaxMinor,
  refundMoneyMinor,
  type SimulatedLine,
  type SimulatedOrder,
  type SimulatedRefund,
  type SimulatedRefundLine,
} from './simulated-orders';

export { financialStatus } from './simulated-orders';

const LINE_ITEM_TITLE = 'Simulated item';
const GIFT_CARD_TITLE = 'Simulated gift card';
const TAX_TITLE = 'Tax';
const SHIPPING_TITLE = 'Standard';
const GATEWAY = 'bogus';

function money(minor: number, currency: string): string {
  return formatMinorUnits(minor, currency);
}

/** Money as a JSON number, as Shopify writes a refund line's `subtotal` and `total_tax` (195.67). */
function moneyNumber(minor: number, currency: string): number {
  return Number(money(minor, currency));
}

/** Shopify's `*_set` pair; the simulator sells in the shop's currency only, so both sides agree. */
function moneySet(minor: number, currency: string) {
  const amount = money(minor, currency);
  return { shop_money: { amount, currency_code: currency }, presentment_money: { amount, currency_code: currency } };
}

/** A tax line's rate: its tax over the amount it was charged on, to four decimals (0.2 for 20 %). */
function taxRate(tax: number, charged: number): number {
  return charged <= 0 ? 0 : Math.round((tax / charged) * 10_000) / 10_000;
}

function restTaxLine(tax: number, charged: number, currency: string) {
  return {
    channel_liable: false,
    price: money(tax, currency),
    price_set: moneySet(tax, currency),
    rate: taxRate(tax, charged),
    title: TAX_TITLE,
  };
}

/** What the line's tax was charged on: its subtotal, less the tax itself when prices include it. */
function taxedAmount(order: SimulatedOrder, line: SimulatedLine): number {
  return lineSubtotal(line) - (order.taxesIncluded ? line.tax : 0);
}

function restCustomer(order: SimulatedOrder) {
  const customer = order.customer;
  if (!customer) return null;
  return {
    id: Number(customer.id),
    email: customer.email || null,
    created_at: customer.created_at,
    updated_at: customer.created_at,
    first_name: customer.first_name || null,
    last_name: customer.last_name || null,
    state: 'enabled',
    note: null,
    verified_email: true,
    multipass_identifier: null,
    tax_exempt: false,
    phone: null,
    currency: order.currency,
    tax_exemptions: [],
    admin_graphql_api_id: customerGid(customer.id),
  };
}

/** Units of the line that refunds gave back. */
function unitsRefunded(order: SimulatedOrder, lineIndex: number): number {
  return order.refunds
    .flatMap((refund) => refund.lines)
    .filter((refundLine) => refundLine.lineIndex === lineIndex)
    .reduce((sum, refundLine) => sum + refundLine.quantity, 0);
}

/**
 * A line item. The simulator models no products: a line is a custom item (no product, variant or SKU, as
 * Shopify writes a custom item) with a price, a quantity, one tax line and one discount allocation.
 */
function restLineItem(order: SimulatedOrder, lineIndex: number) {
  const { currency } = order;
  const line = order.lines[lineIndex]!;
  const title = line.giftCard ? GIFT_CARD_TITLE : LINE_ITEM_TITLE;
  const current = line.quantity - unitsRefunded(order, lineIndex);
  return {
    id: line.id,
    admin_graphql_api_id: `gid://shopify/LineItem/${line.id}`,
    attributed_staffs: [],
    current_quantity: current,
    fulfillable_quantity: current,
    fulfillment_service: 'manual',
    fulfillment_status: null,
    gift_card: line.giftCard,
    grams: 0,
    name: title,
    price: money(line.price, currency),
    price_set: moneySet(line.price, currency),
    product_exists: false,
    product_id: null,
    properties: [],
    quantity: line.quantity,
    requires_shipping: !line.giftCard,
    // Not part of a bundle.
    sales_line_item_group_id: null,
    sku: null,
    taxable: line.tax > 0,
    title,
    // Shopify leaves this at zero for checkout discounts and reports them in discount_allocations.
    total_discount: money(0, currency),
    total_discount_set: moneySet(0, currency),
    variant_id: line.variantId ? Number(line.variantId) : null,
    variant_inventory_management: null,
    variant_title: null,
    vendor: null,
    tax_lines: line.tax > 0 ? [restTaxLine(line.tax, taxedAmount(order, line), currency)] : [],
    duties: [],
    discount_allocations:
      line.discount > 0
        ? [{ amount: money(line.discount, currency), amount_set: moneySet(line.discount, currency), discount_application_index: 0 }]
        : [],
  };
}

function restRefundLineItem(order: SimulatedOrder, refundLine: SimulatedRefundLine) {
  const { currency } = order;
  return {
    id: refundLine.id,
    line_item_id: order.lines[refundLine.lineIndex]!.id,
    location_id: null,
    quantity: refundLine.quantity,
    restock_type: 'no_restock',
    subtotal: moneyNumber(refundLine.subtotal, currency),
    subtotal_set: moneySet(refundLine.subtotal, currency),
    total_tax: moneyNumber(refundLine.tax, currency),
    total_tax_set: moneySet(refundLine.tax, currency),
    line_item: restLineItem(order, refundLine.lineIndex),
  };
}

export function restRefundPayload(order: SimulatedOrder, refund: SimulatedRefund) {
  const { currency } = order;
  const amount = refundMoneyMinor(order, refund);
  return {
    id: refund.id,
    order_id: order.id,
    created_at: refund.createdAt,
    note: null,
    // Made through the API by an app, not by a staff member.
    user_id: null,
    processed_at: refund.createdAt,
    duties: [],
    total_duties_set: moneySet(0, currency),
    additional_fees: [],
    total_additional_fees_set: moneySet(0, currency),
    return: null,
    restock: false,
    refund_shipping_lines: [],
    admin_graphql_api_id: `gid://shopify/Refund/${refund.id}`,
    // The money refunded apart from the lines, as Shopify records it: the lines' value minus the money refunded.
    order_adjustments: refund.adjustments.map((adjustment) => ({
      id: adjustment.id,
      order_id: order.id,
      refund_id: refund.id,
      amount: money(adjustment.amount, currency),
      tax_amount: money(0, currency),
      kind: 'refund_discrepancy',
      reason: 'Refund discrepancy',
      amount_set: moneySet(adjustment.amount, currency),
      tax_amount_set: moneySet(0, currency),
    })),
    refund_line_items: refund.lines.map((refundLine) => restRefundLineItem(order, refundLine)),
    transactions:
      amount > 0
        ? [
            {
              id: refund.id,
              order_id: order.id,
              kind: 'refund',
              gateway: GATEWAY,
              status: 'success',
              message: 'Bogus Gateway: Forced success',
              created_at: refund.createdAt,
              test: true,
              authorization: null,
              location_id: null,
              user_id: null,
              parent_id: null,
              processed_at: refund.createdAt,
              device_id: null,
              error_code: null,
              source_name: 'external',
              receipt: {},
              amount: money(amount, currency),
              currency,
              payment_id: `#${order.number}.${order.refunds.indexOf(refund) + 2}`,
              // Nothing of a refund awaits settlement; Shopify writes this pair with `currency`, not `currency_code`.
              total_unsettled_set: {
                presentment_money: { amount: money(0, currency), currency },
                shop_money: { amount: money(0, currency), currency },
              },
              manual_payment_gateway: false,
              amount_rounding: null,
              admin_graphql_api_id: `gid://shopify/OrderTransaction/${refund.id}`,
            },
          ]
        : [],
  };
}

/**
 * The order's discount applications: one when a line carries a discount (the order's first code other than a
 * free-shipping one, else a manual discount), and the free-shipping code's on the shipping line (100 % of it, as
 * Shopify writes a free-shipping code), after it.
 */
function discountApplications(order: SimulatedOrder, discounts: number) {
  const applications: Array<Record<string, unknown>> = [];
  if (discounts > 0) {
    const value = money(discounts, order.currency);
    const shared = { target_type: 'line_item', value, value_type: 'fixed_amount', allocation_method: 'across', target_selection: 'all' };
    const code = order.discountCodes.find((candidate) => candidate !== order.shippingCode);
    applications.push(
      code === undefined
        ? { ...shared, type: 'manual', title: 'Simulated discount', description: 'Simulated discount' }
        : { ...shared, type: 'discount_code', code },
    );
  }
  if (order.shippingCode !== null) {
    applications.push({
      target_type: 'shipping_line',
      type: 'discount_code',
      value: '100.0',
      value_type: 'percentage',
      allocation_method: 'each',
      target_selection: 'all',
      code: order.shippingCode,
    });
  }
  return applications;
}

/** The order's tax lines: one, the sum of its lines' tax, when there is any. */
function orderTaxLines(order: SimulatedOrder, tax: number) {
  if (tax === 0) return [];
  const charged = order.lines.reduce((sum, line) => sum + (line.tax > 0 ? taxedAmount(order, line) : 0), 0);
  return [restTaxLine(tax, charged, order.currency)];
}

export function restOrderPayload(order: SimulatedOrder) {
  const figures = orderFigures(order);
  return {
    ...orderFieldsToDiscountCodes(order, figures),
    ...orderFieldsToUserId(order, figures),
    customer: restCustomer(order),
    discount_applications: discountApplications(order, figures.discounts),
    fulfillments: [],
    line_items: order.lines.map((_line, index) => restLineItem(order, index)),
    payment_terms: null,
    refunds: order.refunds.map((refund) => restRefundPayload(order, refund)),
    returns: [],
    shipping_lines: shippingLines(order, figures),
  };
}

/** The order's amounts the payload's fields are written from (minor units). */
function orderFigures(order: SimulatedOrder) {
  const tax = orderTaxMinor(order);
  // The shipping line's price after a free-shipping code, and before it (`price`, `total_shipping_price_set`).
  const shipping = order.total - order.subtotal - (order.taxesIncluded ? 0 : tax);
  return {
    lineItemsPrice: order.lines.reduce((sum, line) => sum + line.price * line.quantity, 0),
    discounts: order.lines.reduce((sum, line) => sum + line.discount, 0),
    tax,
    shipping,
    shippingPrice: shipping + order.shippingDiscount,
    currentSubtotal: order.subtotal - refundedMinor(order),
    currentTotal: order.total - refundedMoneyMinor(order),
    currentTax: tax - refundedTaxMinor(order),
    email: order.customer?.email || null,
  };
}

type OrderFigures = ReturnType<typeof orderFigures>;

/** The Order's fields in Shopify's order, `id` to `discount_codes`. */
function orderFieldsToDiscountCodes(order: SimulatedOrder, figures: OrderFigures) {
  const { currency } = order;
  const { discounts, shipping, currentSubtotal, currentTotal, currentTax, email } = figures;
  const lineDiscountCode = order.discountCodes.find((code) => code !== order.shippingCode);
  return {
    id: order.id,
    admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
    app_id: null,
    browser_ip: null,
    buyer_accepts_marketing: false,
    cancel_reason: order.cancelReason,
    cancelled_at: order.cancelledAt,
    cart_token: null,
    checkout_id: null,
    checkout_token: null,
    closed_at: null,
    confirmation_number: null,
    confirmed: true,
    contact_email: email,
    created_at: order.createdAt,
    currency,
    // Refunds give back lines only, never shipping.
    current_shipping_price_set: moneySet(shipping, currency),
    current_subtotal_price: money(currentSubtotal, currency),
    current_subtotal_price_set: moneySet(currentSubtotal, currency),
    current_total_additional_fees_set: null,
    current_total_discounts: money(discounts + order.shippingDiscount, currency),
    current_total_discounts_set: moneySet(discounts + order.shippingDiscount, currency),
    current_total_duties_set: null,
    current_total_price: money(currentTotal, currency),
    current_total_price_set: moneySet(currentTotal, currency),
    current_total_tax: money(currentTax, currency),
    current_total_tax_set: moneySet(currentTax, currency),
    customer_locale: 'en',
    device_id: order.pos?.deviceId ?? null,
    discount_codes: order.discountCodes.map((code) =>
      code === order.shippingCode
        ? { code, amount: money(order.shippingDiscount, currency), type: 'shipping' }
        : { code, amount: money(code === lineDiscountCode ? discounts : 0, currency), type: 'fixed_amount' },
    ),
  };
}

/** The Order's fields in Shopify's order, `duties_included` to `user_id`. */
function orderFieldsToUserId(order: SimulatedOrder, figures: OrderFigures) {
  const { currency } = order;
  const { discounts, tax, shippingPrice, lineItemsPrice, email } = figures;
  return {
    duties_included: false,
    email,
    estimated_taxes: false,
    financial_status: financialStatus(order),
    fulfillment_status: null,
    landing_site: order.landingSite,
    landing_site_ref: recordedReferralCode(order),
    location_id: order.pos?.locationId ?? null,
    merchant_of_record_app_id: null,
    name: order.name,
    note: null,
    note_attributes: order.noteAttributes,
    number: order.number - 1000,
    order_number: order.number,
    original_total_additional_fees_set: null,
    original_total_duties_set: null,
    payment_gateway_names: [GATEWAY],
    phone: null,
    po_number: null,
    presentment_currency: currency,
    processed_at: order.processedAt,
    reference: null,
    referring_site: null,
    source_identifier: null,
    // `web` for the online store's checkout; `pos` for Shopify POS, whose payload also names its till (location,
    // device, staff user) and has no landing page.
    source_name: order.sourceName,
    source_url: null,
    subtotal_price: money(order.subtotal, currency),
    subtotal_price_set: moneySet(order.subtotal, currency),
    tags: '',
    tax_exempt: false,
    tax_lines: orderTaxLines(order, tax),
    taxes_included: order.taxesIncluded,
    test: order.test,
    total_cash_rounding_payment_adjustment_set: moneySet(0, currency),
    total_cash_rounding_refund_adjustment_set: moneySet(0, currency),
    total_discounts: money(discounts + order.shippingDiscount, currency),
    total_discounts_set: moneySet(discounts + order.shippingDiscount, currency),
    total_line_items_price: money(lineItemsPrice, currency),
    total_line_items_price_set: moneySet(lineItemsPrice, currency),
    // The simulator does not track part payments: an order not paid owes its whole total.
    total_outstanding: money(order.payment === 'paid' ? 0 : order.total, currency),
    total_price: money(order.total, currency),
    total_price_set: moneySet(order.total, currency),
    total_shipping_price_set: moneySet(shippingPrice, currency),
    total_tax: money(tax, currency),
    total_tax_set: moneySet(tax, currency),
    total_tip_received: money(0, currency),
    total_weight: 0,
    updated_at: order.updatedAt,
    user_id: order.pos?.userId ?? null,
  };
}

/** The shipping line, when the order paid for shipping before its codes. */
function shippingLines(order: SimulatedOrder, { discounts, shipping, shippingPrice }: OrderFigures) {
  const { currency } = order;
  return shippingPrice > 0
    ? [
        {
          id: order.shippingLineId,
          carrier_identifier: null,
          code: SHIPPING_TITLE,
          current_discounted_price_set: moneySet(shipping, currency),
          discounted_price: money(shipping, currency),
          discounted_price_set: moneySet(shipping, currency),
          is_removed: false,
          phone: null,
          price: money(shippingPrice, currency),
          price_set: moneySet(shippingPrice, currency),
          requested_fulfillment_service_id: null,
          source: 'shopify',
          title: SHIPPING_TITLE,
          tax_lines: [],
          discount_allocations:
            order.shippingDiscount > 0
              ? [
                  {
                    amount: money(order.shippingDiscount, currency),
                    amount_set: moneySet(order.shippingDiscount, currency),
                    discount_application_index: discounts > 0 ? 1 : 0,
                  },
                ]
              : [],
        },
      ]
    : [];
}
