// The REST-shaped bodies of the simulator's webhooks (orders/paid, orders/cancelled: an Order; refunds/create:
// a Refund), with the fields of Shopify's REST Admin resources the earning engine and a reader of the logs use.
import { formatMinorUnits } from '../../shared/domain/money';
import { customerGid } from '../../shared/platform/shopify-ids';
import { refundedMinor, type SimulatedOrder, type SimulatedRefund } from './simulated-orders';

const LINE_ITEM_TITLE = 'Simulated item';

function money(minor: number, currency: string): string {
  return formatMinorUnits(minor, currency);
}

/** Shopify's `*_set` pair; the simulator sells in the shop's currency only, so both sides agree. */
function moneySet(minor: number, currency: string) {
  const amount = money(minor, currency);
  return { shop_money: { amount, currency_code: currency }, presentment_money: { amount, currency_code: currency } };
}

export function financialStatus(order: SimulatedOrder): 'paid' | 'partially_refunded' | 'refunded' {
  const refunded = refundedMinor(order);
  if (refunded === 0) return 'paid';
  return refunded >= order.total ? 'refunded' : 'partially_refunded';
}

function restCustomer(order: SimulatedOrder) {
  const customer = order.customer;
  if (!customer) return null;
  return {
    id: Number(customer.id),
    email: customer.email || null,
    first_name: customer.first_name || null,
    last_name: customer.last_name || null,
    created_at: customer.created_at,
    admin_graphql_api_id: customerGid(customer.id),
  };
}

/** One line carrying the order's subtotal: the simulator does not model products, only amounts. */
function restLineItem(order: SimulatedOrder) {
  return {
    id: order.lineItemId,
    admin_graphql_api_id: `gid://shopify/LineItem/${order.lineItemId}`,
    title: LINE_ITEM_TITLE,
    name: LINE_ITEM_TITLE,
    quantity: 1,
    price: money(order.subtotal, order.currency),
    price_set: moneySet(order.subtotal, order.currency),
    total_discount: money(0, order.currency),
    product_id: null,
    variant_id: null,
    sku: null,
    taxable: false,
    gift_card: false,
  };
}

export function restRefundPayload(order: SimulatedOrder, refund: SimulatedRefund) {
  const { currency } = order;
  return {
    id: refund.id,
    admin_graphql_api_id: `gid://shopify/Refund/${refund.id}`,
    order_id: order.id,
    created_at: refund.createdAt,
    processed_at: refund.createdAt,
    note: null,
    restock: false,
    user_id: null,
    duties: [],
    order_adjustments: [],
    refund_line_items: [
      {
        id: refund.id,
        line_item_id: refund.lineItemId,
        // The line holds the whole subtotal, so a partial amount returns no whole unit.
        quantity: refund.emptiedLine ? 1 : 0,
        restock_type: 'no_restock',
        location_id: null,
        subtotal: money(refund.subtotal, currency),
        subtotal_set: moneySet(refund.subtotal, currency),
        total_tax: money(0, currency),
        total_tax_set: moneySet(0, currency),
        line_item: restLineItem(order),
      },
    ],
    transactions: [
      {
        id: refund.id,
        order_id: order.id,
        kind: 'refund',
        status: 'success',
        gateway: 'bogus',
        amount: money(refund.subtotal, currency),
        currency,
        created_at: refund.createdAt,
        processed_at: refund.createdAt,
        parent_id: null,
        test: true,
      },
    ],
  };
}

export function restOrderPayload(order: SimulatedOrder) {
  const { currency } = order;
  const refunded = refundedMinor(order);
  const currentSubtotal = order.subtotal - refunded;
  const currentTotal = order.total - refunded;
  return {
    id: order.id,
    admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
    name: order.name,
    number: order.number - 1000,
    order_number: order.number,
    email: order.customer?.email || null,
    created_at: order.createdAt,
    processed_at: order.processedAt,
    updated_at: order.updatedAt,
    cancelled_at: order.cancelledAt,
    cancel_reason: order.cancelReason,
    closed_at: null,
    confirmed: true,
    test: false,
    source_name: 'web',
    currency,
    presentment_currency: currency,
    financial_status: financialStatus(order),
    fulfillment_status: null,
    taxes_included: false,
    subtotal_price: money(order.subtotal, currency),
    subtotal_price_set: moneySet(order.subtotal, currency),
    current_subtotal_price: money(currentSubtotal, currency),
    current_subtotal_price_set: moneySet(currentSubtotal, currency),
    total_price: money(order.total, currency),
    total_price_set: moneySet(order.total, currency),
    current_total_price: money(currentTotal, currency),
    current_total_price_set: moneySet(currentTotal, currency),
    total_line_items_price: money(order.subtotal, currency),
    total_discounts: money(0, currency),
    total_tax: money(0, currency),
    discount_codes: order.discountCodes.map((code) => ({ code, amount: money(0, currency), type: 'fixed_amount' })),
    landing_site: order.landingSite,
    referring_site: null,
    note: null,
    note_attributes: order.noteAttributes,
    tags: '',
    customer: restCustomer(order),
    line_items: [restLineItem(order)],
    refunds: order.refunds.map((refund) => restRefundPayload(order, refund)),
  };
}
