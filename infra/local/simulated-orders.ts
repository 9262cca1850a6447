// The orders the simulator holds: created paid, refunded in part or whole, cancelled, each change stamped
// with the injected clock. Amounts are kept in minor units so refunds add up to the cent.
import { minorDigits } from '../../shared/domain/money';
import { BadRequest, NotFound } from './simulator-http';

export interface SimulatedCustomer {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  created_at: string | null;
}

export interface SimulatedRefund {
  id: number;
  lineItemId: number;
  /** Minor units of the subtotal given back. */
  subtotal: number;
  createdAt: string;
  /** True when this refund took the line's last remaining subtotal. */
  emptiedLine: boolean;
}

export interface SimulatedOrder {
  shop: string;
  id: number;
  /** 1001, 1002, ... per shop; `name` is `#${number}`. */
  number: number;
  name: string;
  currency: string;
  customer: SimulatedCustomer | null;
  /** Minor units: the subtotal after discounts as paid, and the order's total as paid. */
  subtotal: number;
  total: number;
  discountCodes: string[];
  landingSite: string | null;
  noteAttributes: Array<{ name: string; value: string }>;
  lineItemId: number;
  createdAt: string;
  processedAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  refunds: SimulatedRefund[];
}

export interface NewOrder {
  shop: string;
  currency: string;
  customer: SimulatedCustomer | null;
  subtotal_price: string;
  total_price?: string | undefined;
  discount_codes?: string[] | undefined;
  landing_site?: string | null | undefined;
  note_attributes?: Array<{ name: string; value: string }> | undefined;
}

export interface SimulatedOrders {
  create(input: NewOrder): SimulatedOrder;
  /** Records a refund of `subtotal` (a decimal string) of the order's remaining subtotal. */
  refund(orderId: string, subtotal: string): { order: SimulatedOrder; refund: SimulatedRefund };
  cancel(orderId: string): SimulatedOrder;
  get(orderId: string): SimulatedOrder;
  list(shop: string): SimulatedOrder[];
}

/** Minor units of what the order's subtotal has lost to refunds. */
export function refundedMinor(order: SimulatedOrder): number {
  return order.refunds.reduce((sum, refund) => sum + refund.subtotal, 0);
}

/** A decimal string as minor units of the currency; more decimals than the currency has is bad input. */
export function toMinor(amount: string, currency: string, field: string): number {
  const digits = minorDigits(currency);
  const match = /^(\d{1,12})(?:\.(\d+))?$/.exec(amount);
  if (!match) throw new BadRequest(`${field}: must be a non-negative decimal amount such as "120.00"`);
  const fraction = match[2] ?? '';
  if (fraction.replace(/0+$/, '').length > digits) {
    throw new BadRequest(`${field}: ${currency} amounts have at most ${digits} decimals`);
  }
  return Number(match[1]) * 10 ** digits + Number(fraction.slice(0, digits).padEnd(digits, '0') || '0');
}

// Shopify order ids are large and unique across shops; names count per shop from #1001.
const FIRST_ORDER_ID = 5_000_000_001;
const FIRST_ORDER_NUMBER = 1001;

export function createSimulatedOrders(now: () => Date): SimulatedOrders {
  const orders = new Map<string, SimulatedOrder>();
  const numbers = new Map<string, number>();
  let nextId = FIRST_ORDER_ID;
  // Line items and refunds take ids from one counter, as Shopify's are unique across the shop too.
  let nextChildId = 9_000_000_001;

  const get = (orderId: string): SimulatedOrder => {
    const order = orders.get(orderId);
    if (!order) throw new NotFound(`No order with id '${orderId}'`);
    return order;
  };

  return {
    get,
    list: (shop) => [...orders.values()].filter((order) => order.shop === shop),

    create(input) {
      const subtotal = toMinor(input.subtotal_price, input.currency, 'subtotal_price');
      const total = input.total_price === undefined ? subtotal : toMinor(input.total_price, input.currency, 'total_price');
      if (total < subtotal) throw new BadRequest('total_price: must be at least subtotal_price (shipping and tax only add to it)');
      const number = numbers.get(input.shop) ?? FIRST_ORDER_NUMBER;
      numbers.set(input.shop, number + 1);
      const at = now().toISOString();
      const order: SimulatedOrder = {
        shop: input.shop,
        id: nextId++,
        number,
        name: `#${number}`,
        currency: input.currency,
        customer: input.customer,
        subtotal,
        total,
        discountCodes: input.discount_codes ?? [],
        landingSite: input.landing_site ?? null,
        noteAttributes: input.note_attributes ?? [],
        lineItemId: nextChildId++,
        createdAt: at,
        processedAt: at,
        updatedAt: at,
        cancelledAt: null,
        cancelReason: null,
        refunds: [],
      };
      orders.set(String(order.id), order);
      return order;
    },

    refund(orderId, amount) {
      const order = get(orderId);
      const subtotal = toMinor(amount, order.currency, 'subtotal');
      const left = order.subtotal - refundedMinor(order);
      if (subtotal <= 0) throw new BadRequest('subtotal: must be more than zero');
      if (subtotal > left) {
        throw new BadRequest(
          `subtotal: ${amount} is more than the ${(left / 10 ** minorDigits(order.currency)).toFixed(minorDigits(order.currency))} left to refund of order ${order.name}`,
        );
      }
      const at = now().toISOString();
      const refund: SimulatedRefund = {
        id: nextChildId++,
        lineItemId: order.lineItemId,
        subtotal,
        createdAt: at,
        emptiedLine: subtotal === left,
      };
      order.refunds.push(refund);
      order.updatedAt = at;
      return { order, refund };
    },

    cancel(orderId) {
      const order = get(orderId);
      if (order.cancelledAt !== null) throw new BadRequest(`Order ${order.name} is already cancelled`);
      const at = now().toISOString();
      order.cancelledAt = at;
      order.cancelReason = 'customer';
      order.updatedAt = at;
      return order;
    },
  };
}
