// The orders the simulator holds: created paid (or awaiting payment), with line items that carry their own
// price, quantity, tax and discount; paid later or voided; refunded by amount or by whole units of lines,
// returning the lines' money or another sum (the difference a refund discrepancy, as Shopify records it);
// cancelled. Each change is stamped with the injected clock. Amounts are kept in minor units so refunds add
// up to the cent.
import { formatMinorUnits, minorDigits } from '../../../shared/domain/money';
import { BadRequest, NotFound } from './simulator-http';

export interface SimulatedCustomer {
  id: string;
  email: string;
  first_name: string;
  last_name: string;
  created_at: string | null;
}

/** What Shopify's `financial_status` says before any refund: how much of the order was paid. */
export type PaymentStatus = 'paid' | 'pending' | 'authorized' | 'partially_paid' | 'voided';

/** The statuses an order may be created with; `voided` is reached only by voiding one. */
export const CREATABLE_PAYMENT_STATUSES = ['paid', 'pending', 'authorized', 'partially_paid'] as const;

export interface SimulatedLine {
  id: number;
  /** Minor units of one unit's price, before discounts. */
  price: number;
  quantity: number;
  giftCard: boolean;
  /** Minor units of the line's tax (all its units, one tax line); part of the price when taxes are included. */
  tax: number;
  /** Minor units of the discount allocated to the line (all its units, one allocation). */
  discount: number;
  /** The product variant's numeric id, when the order names one (a free-product code applies to it). */
  variantId?: string | null;
}

export interface SimulatedRefundLine {
  id: number;
  /** Position of the refunded line in the order's `lines`. */
  lineIndex: number;
  /** Whole units given back; 0 for part of a line's money that returns no whole unit. */
  quantity: number;
  /** Minor units of the line's subtotal (after its discount) given back. */
  subtotal: number;
  /** Minor units of the line's tax given back with it. */
  tax: number;
}

/** A `refund_discrepancy` order adjustment: minor units of the lines' money minus the money refunded. */
export interface SimulatedAdjustment {
  id: number;
  amount: number;
}

export interface SimulatedRefund {
  id: number;
  createdAt: string;
  lines: SimulatedRefundLine[];
  /** Present when the money refunded differs from the lines' (none when it is the lines' money). */
  adjustments: SimulatedAdjustment[];
}

export interface SimulatedOrder {
  shop: string;
  id: number;
  /** 1001, 1002, ... per shop; `name` is `#${number}`. */
  number: number;
  name: string;
  currency: string;
  customer: SimulatedCustomer | null;
  /** Minor units: the subtotal after discounts (the lines' price × quantity − discount), and the order's total. */
  subtotal: number;
  total: number;
  taxesIncluded: boolean;
  lines: SimulatedLine[];
  /** Id of the shipping line that carries what the total holds beyond the subtotal and the added tax. */
  shippingLineId: number;
  /** What a free-shipping code took off the shipping line (minor units; 0 without one): the total is net of it. */
  shippingDiscount: number;
  /** The free-shipping code that took it, or null. */
  shippingCode: string | null;
  payment: PaymentStatus;
  test: boolean;
  discountCodes: string[];
  landingSite: string | null;
  landingSiteRef: string | null;
  noteAttributes: Array<{ name: string; value: string }>;
  /** Shopify's `source_name`: `web` for the online store's checkout, `pos` for Shopify POS. */
  sourceName: string;
  /** A POS order's till (`source_name` `pos`): its location, device and the staff user who rang it up; null otherwise. */
  pos: { locationId: number; deviceId: number; userId: number | null } | null;
  createdAt: string;
  processedAt: string;
  updatedAt: string;
  cancelledAt: string | null;
  cancelReason: string | null;
  refunds: SimulatedRefund[];
}

/** One line of a new order as `POST /_orders` takes it: decimal strings of the shop's currency. */
export interface NewLine {
  price: string;
  quantity: number;
  gift_card?: boolean | undefined;
  tax?: string | undefined;
  discount?: string | undefined;
  variant_id?: string | undefined;
}

export interface NewOrder {
  shop: string;
  currency: string;
  customer: SimulatedCustomer | null;
  subtotal_price?: string | undefined;
  total_price?: string | undefined;
  taxes_included?: boolean | undefined;
  line_items?: NewLine[] | undefined;
  financial_status?: (typeof CREATABLE_PAYMENT_STATUSES)[number] | undefined;
  test?: boolean | undefined;
  discount_codes?: string[] | undefined;
  landing_site?: string | null | undefined;
  landing_site_ref?: string | null | undefined;
  note_attributes?: Array<{ name: string; value: string }> | undefined;
  /** `web` when absent. */
  source_name?: string | undefined;
  /** A POS order's till (source_name `pos`): defaults to location 1 and device 1, no staff user. */
  location_id?: number | undefined;
  device_id?: number | undefined;
  user_id?: number | null | undefined;
}

/** The simulator's one POS location and device, where a POS order names none. */
export const DEFAULT_POS_TILL = { locationId: 1, deviceId: 1 } as const;

/**
 * What a refund gives back: an amount of the subtotal, or whole units of given lines, or neither (money
 * only); and `amount`, the money refunded when it is not the lines' money (Shopify then records the
 * difference as a `refund_discrepancy` order adjustment).
 */
export type RefundRequest = ({ subtotal: string } | { lines: Array<{ index: number; quantity: number }> } | { amount: string }) & {
  amount?: string | undefined;
};

export interface SimulatedOrders {
  create(input: NewOrder): SimulatedOrder;
  /** Records a refund of the order's remaining subtotal, by amount or by units of its lines. */
  refund(orderId: string, request: RefundRequest): { order: SimulatedOrder; refund: SimulatedRefund };
  /** A pending, authorized or partially paid order becomes paid. */
  pay(orderId: string): SimulatedOrder;
  /** A pending or authorized order's payment is voided. */
  void(orderId: string): SimulatedOrder;
  cancel(orderId: string): SimulatedOrder;
  get(orderId: string): SimulatedOrder;
  /** The order with that id, or undefined. */
  find(orderId: string): SimulatedOrder | undefined;
  /** The refund with that id and its order, or undefined. */
  findRefund(refundId: string): { order: SimulatedOrder; refund: SimulatedRefund } | undefined;
  list(shop: string): SimulatedOrder[];
}

/** Minor units of a line's subtotal: price × quantity less its discount. */
export function lineSubtotal(line: SimulatedLine): number {
  return line.price * line.quantity - line.discount;
}

function refundLines(order: SimulatedOrder): SimulatedRefundLine[] {
  return order.refunds.flatMap((refund) => refund.lines);
}

/**
 * The referral code Shopify records for the order's visit (REST `landing_site_ref`, GraphQL's visit
 * `referralCode`): the one given, else the `ref`, `source` or `r` parameter of the landing page.
 */
export function recordedReferralCode(order: Pick<SimulatedOrder, 'landingSite' | 'landingSiteRef'>): string | null {
  if (order.landingSiteRef !== null) return order.landingSiteRef;
  if (order.landingSite === null) return null;
  const params = new URL(order.landingSite, 'https://landing.invalid').searchParams;
  return params.get('ref') ?? params.get('source') ?? params.get('r');
}

/** Minor units of what the order's subtotal has lost to refunds. */
export function refundedMinor(order: SimulatedOrder): number {
  return refundLines(order).reduce((sum, line) => sum + line.subtotal, 0);
}

/** Minor units of the tax refunds gave back. */
export function refundedTaxMinor(order: SimulatedOrder): number {
  return refundLines(order).reduce((sum, line) => sum + line.tax, 0);
}

/** Minor units of what a refund's lines are worth: their subtotals, plus their tax when prices exclude it. */
function refundLinesMoneyMinor(order: SimulatedOrder, lines: ReadonlyArray<Omit<SimulatedRefundLine, 'id'>>): number {
  return lines.reduce((sum, line) => sum + line.subtotal + (order.taxesIncluded ? 0 : line.tax), 0);
}

/** Minor units of money a refund returned: what its lines are worth less its refund discrepancies. */
export function refundMoneyMinor(order: SimulatedOrder, refund: SimulatedRefund): number {
  return refundLinesMoneyMinor(order, refund.lines) - refund.adjustments.reduce((sum, adjustment) => sum + adjustment.amount, 0);
}

/** Minor units of money all refunds returned. */
export function refundedMoneyMinor(order: SimulatedOrder): number {
  return order.refunds.reduce((sum, refund) => sum + refundMoneyMinor(order, refund), 0);
}

/** Minor units of the order's tax: the sum of its lines' tax. */
export function orderTaxMinor(order: SimulatedOrder): number {
  return order.lines.reduce((sum, line) => sum + line.tax, 0);
}

/**
 * The order's `financial_status`: the payment status until the order is paid, then paid, partially_refunded
 * or refunded by what refunds returned of the total.
 */
export function financialStatus(order: SimulatedOrder): PaymentStatus | 'partially_refunded' | 'refunded' {
  if (order.payment !== 'paid') return order.payment;
  const refunded = refundedMoneyMinor(order);
  if (refunded === 0) return 'paid';
  return refunded >= order.total ? 'refunded' : 'partially_refunded';
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

const decimal = formatMinorUnits;

/**
 * The part of `amount` that the first `upTo` of `whole` units (or minor units of money) carry, rounded; the
 * difference of two such parts is what the units between them carry, so the parts of all units add up to
 * `amount` exactly.
 */
function share(amount: number, upTo: number, whole: number): number {
  return whole === 0 ? 0 : Math.round((amount * upTo) / whole);
}

// Shopify order ids are large and unique across shops; names count per shop from #1001.
const FIRST_ORDER_ID = 5_000_000_001;
const FIRST_ORDER_NUMBER = 1001;

/** A free-product code of the shop: its variant and the amount it takes off one unit (minor units). */
export type FreeProductLookup = (shop: string, code: string) => { variantId: string; amount: number } | undefined;

/** A free-shipping code of the shop: the most of the shipping price it covers (minor units), null for any price. */
export type FreeShippingLookup = (shop: string, code: string) => { cap: number | null } | undefined;

/**
 * `freeProduct` finds the shop's free-product codes, which an order's `discount_codes` apply to their variant's line;
 * `freeShipping` its free-shipping codes, which take the shipping line's price (up to the cap) off the total.
 */
export function createSimulatedOrders(
  now: () => Date,
  freeProduct?: FreeProductLookup,
  freeShipping?: FreeShippingLookup,
): SimulatedOrders {
  const book = new OrderBook(now, freeProduct, freeShipping);
  return {
    get: (orderId) => book.get(orderId),
    find: (orderId) => book.orders.get(orderId),
    findRefund: (refundId) => book.refunds.get(refundId),
    list: (shop) => [...book.orders.values()].filter((order) => order.shop === shop),
    create: (input) => book.create(input),
    refund: (orderId, request) => book.refund(orderId, request),
    pay: (orderId) => book.pay(orderId),
    void: (orderId) => book.void(orderId),
    cancel: (orderId) => book.cancel(orderId),
  };
}

/** The simulator's orders and refunds, with the counters their ids and names come from. */
class OrderBook {
  readonly orders = new Map<string, SimulatedOrder>();
  readonly refunds = new Map<string, { order: SimulatedOrder; refund: SimulatedRefund }>();
  private readonly numbers = new Map<string, number>();
  private nextId = FIRST_ORDER_ID;
  // Line items, refunds and refund lines take ids from one counter, as Shopify's are unique across the shop too.
  private nextChildId = 9_000_000_001;

  constructor(
    private readonly now: () => Date,
    private readonly freeProduct?: FreeProductLookup,
    private readonly freeShipping?: FreeShippingLookup,
  ) {}

  get(orderId: string): SimulatedOrder {
    const order = this.orders.get(orderId);
    if (!order) throw new NotFound(`No order with id '${orderId}'`);
    return order;
  }

  private newLines(input: NewOrder): SimulatedLine[] {
    const { currency } = input;
    if (input.line_items === undefined) {
      if (input.subtotal_price === undefined) throw new BadRequest('subtotal_price: is required unless line_items are given');
      // One line carrying the whole subtotal: the simulator does not model products, only amounts.
      const price = toMinor(input.subtotal_price, currency, 'subtotal_price');
      return [{ id: this.nextChildId++, price, quantity: 1, giftCard: false, tax: 0, discount: 0 }];
    }
    if (input.line_items.length === 0) throw new BadRequest('line_items: must hold at least one line (or leave it out)');
    return input.line_items.map((line, index) => {
      const field = `line_items[${index}]`;
      const price = toMinor(line.price, currency, `${field}.price`);
      const discount = line.discount === undefined ? 0 : toMinor(line.discount, currency, `${field}.discount`);
      const tax = line.tax === undefined ? 0 : toMinor(line.tax, currency, `${field}.tax`);
      if (!Number.isSafeInteger(price * line.quantity)) throw new BadRequest(`${field}: price × quantity is too large`);
      if (discount > price * line.quantity) {
        throw new BadRequest(`${field}.discount: ${line.discount} is more than the line's price × quantity`);
      }
      if (input.taxes_included && tax > price * line.quantity - discount) {
        throw new BadRequest(`${field}.tax: ${line.tax} is more than the line's price × quantity − discount, which includes the tax`);
      }
      return {
        id: this.nextChildId++,
        price,
        quantity: line.quantity,
        giftCard: line.gift_card ?? false,
        tax,
        discount,
        variantId: line.variant_id ?? null,
      };
    });
  }

  /** A free-product code takes one unit's price (at most the code's amount) off the first line of its variant without a discount. */
  private applyFreeProducts(input: NewOrder, lines: SimulatedLine[]) {
    for (const code of input.discount_codes ?? []) {
      const found = this.freeProduct?.(input.shop, code);
      const line = found && lines.find((entry) => entry.variantId === found.variantId && entry.discount === 0);
      if (found && line) line.discount = Math.min(line.price, found.amount);
    }
    return lines;
  }

  /** The order's subtotal and total, checked against those given, and what a free-shipping code takes off. */
  private totals(input: NewOrder, lines: SimulatedLine[]) {
    const { currency } = input;
    const subtotal = lines.reduce((sum, line) => sum + lineSubtotal(line), 0);
    if (input.line_items !== undefined && input.subtotal_price !== undefined) {
      const given = toMinor(input.subtotal_price, currency, 'subtotal_price');
      if (given !== subtotal) {
        throw new BadRequest(
          `subtotal_price: ${input.subtotal_price} does not match the line items (price × quantity − discount: ${decimal(subtotal, currency)})`,
        );
      }
    }
    const taxesIncluded = input.taxes_included ?? false;
    const addedTax = taxesIncluded ? 0 : lines.reduce((sum, line) => sum + line.tax, 0);
    const least = subtotal + addedTax;
    const total = input.total_price === undefined ? least : toMinor(input.total_price, currency, 'total_price');
    if (total < least) {
      throw new BadRequest(
        addedTax === 0
          ? 'total_price: must be at least subtotal_price (shipping and tax only add to it)'
          : `total_price: must be at least subtotal_price plus the lines' tax, ${decimal(least, currency)} (shipping only adds to it)`,
      );
    }
    // The shipping price is what `total_price` holds beyond the subtotal and added tax; a free-shipping code
    // takes it off (up to its cap), so the order's total is what the buyer paid.
    const { freeShipping } = this;
    const shippingCode = (input.discount_codes ?? []).find((code) => freeShipping?.(input.shop, code) !== undefined) ?? null;
    const cap = shippingCode === null ? null : freeShipping!(input.shop, shippingCode)!.cap;
    const shippingDiscount = shippingCode === null ? 0 : cap === null ? total - least : Math.min(total - least, cap);
    return { subtotal, total, taxesIncluded, shippingCode, shippingDiscount };
  }

  create(input: NewOrder): SimulatedOrder {
    const lines = this.applyFreeProducts(input, this.newLines(input));
    const { subtotal, total, taxesIncluded, shippingCode, shippingDiscount } = this.totals(input, lines);
    const number = this.numbers.get(input.shop) ?? FIRST_ORDER_NUMBER;
    this.numbers.set(input.shop, number + 1);
    const at = this.now().toISOString();
    const order: SimulatedOrder = {
      shop: input.shop,
      id: this.nextId++,
      number,
      name: `#${number}`,
      currency: input.currency,
      customer: input.customer,
      subtotal,
      total: total - shippingDiscount,
      taxesIncluded,
      lines,
      shippingLineId: this.nextChildId++,
      shippingDiscount,
      shippingCode: shippingDiscount > 0 ? shippingCode : null,
      payment: input.financial_status ?? 'paid',
      test: input.test ?? false,
      discountCodes: input.discount_codes ?? [],
      landingSite: input.landing_site ?? null,
      landingSiteRef: input.landing_site_ref ?? null,
      noteAttributes: input.note_attributes ?? [],
      sourceName: input.source_name ?? 'web',
      pos:
        input.source_name === 'pos'
          ? {
              locationId: input.location_id ?? DEFAULT_POS_TILL.locationId,
              deviceId: input.device_id ?? DEFAULT_POS_TILL.deviceId,
              userId: input.user_id ?? null,
            }
          : null,
      createdAt: at,
      processedAt: at,
      updatedAt: at,
      cancelledAt: null,
      cancelReason: null,
      refunds: [],
    };
    this.orders.set(String(order.id), order);
    return order;
  }

  refund(orderId: string, request: RefundRequest): { order: SimulatedOrder; refund: SimulatedRefund } {
    const order = this.get(orderId);
    if (order.payment !== 'paid') {
      throw new BadRequest(`Order ${order.name} is ${order.payment}: only a paid order can be refunded (pay it first)`);
    }
    const parts =
      'subtotal' in request ? refundAmount(order, request.subtotal) : 'lines' in request ? refundUnits(order, request.lines) : [];
    const linesMoney = refundLinesMoneyMinor(order, parts);
    const money = request.amount === undefined ? linesMoney : toMinor(request.amount, order.currency, 'amount');
    const left = order.total - refundedMoneyMinor(order);
    if (request.amount !== undefined && money > left) {
      throw new BadRequest(
        `amount: ${request.amount} is more than the ${decimal(left, order.currency)} of order ${order.name} not yet refunded`,
      );
    }
    if (parts.length === 0 && money <= 0) throw new BadRequest('amount: must be more than zero for a refund of no line');
    const refund: SimulatedRefund = {
      id: this.nextChildId++,
      createdAt: this.now().toISOString(),
      lines: parts.map((part) => ({ id: this.nextChildId++, ...part })),
      adjustments: money === linesMoney ? [] : [{ id: this.nextChildId++, amount: linesMoney - money }],
    };
    order.refunds.push(refund);
    this.refunds.set(String(refund.id), { order, refund });
    this.touch(order);
    return { order, refund };
  }

  pay(orderId: string): SimulatedOrder {
    const order = this.get(orderId);
    if (order.cancelledAt !== null) throw new BadRequest(`Order ${order.name} is cancelled: it cannot be paid`);
    if (order.payment === 'paid') throw new BadRequest(`Order ${order.name} is already paid`);
    if (order.payment === 'voided') throw new BadRequest(`Order ${order.name} is voided: it cannot be paid`);
    order.payment = 'paid';
    return this.touch(order);
  }

  void(orderId: string): SimulatedOrder {
    const order = this.get(orderId);
    if (order.payment !== 'pending' && order.payment !== 'authorized') {
      throw new BadRequest(
        `Order ${order.name} is ${financialStatus(order)}: only a pending or authorized order can be voided${order.payment === 'paid' ? ' (refund it instead)' : ''}`,
      );
    }
    order.payment = 'voided';
    return this.touch(order);
  }

  cancel(orderId: string): SimulatedOrder {
    const order = this.get(orderId);
    if (order.cancelledAt !== null) throw new BadRequest(`Order ${order.name} is already cancelled`);
    const at = this.now().toISOString();
    order.cancelledAt = at;
    order.cancelReason = 'customer';
    order.updatedAt = at;
    return order;
  }

  private touch(order: SimulatedOrder) {
    order.updatedAt = this.now().toISOString();
    return order;
  }
}

/** What is left of each line: units not given back by a unit refund, subtotal and tax not refunded. */
function lineLeft(order: SimulatedOrder, index: number) {
  const line = order.lines[index]!;
  const refunded = refundLines(order).filter((refundLine) => refundLine.lineIndex === index);
  const units = refunded.reduce((sum, refundLine) => sum + refundLine.quantity, 0);
  const subtotal = refunded.reduce((sum, refundLine) => sum + refundLine.subtotal, 0);
  const tax = refunded.reduce((sum, refundLine) => sum + refundLine.tax, 0);
  return {
    units: line.quantity - units,
    unitsRefunded: units,
    subtotal: lineSubtotal(line) - subtotal,
    subtotalRefunded: subtotal,
    tax: line.tax - tax,
    taxRefunded: tax,
  };
}

/** An amount of the subtotal, taken from the lines in order; each part brings its share of the line's tax. */
function refundAmount(order: SimulatedOrder, amount: string): Array<Omit<SimulatedRefundLine, 'id'>> {
  const wanted = toMinor(amount, order.currency, 'subtotal');
  if (wanted <= 0) throw new BadRequest('subtotal: must be more than zero');
  const left = order.subtotal - refundedMinor(order);
  if (wanted > left) {
    throw new BadRequest(`subtotal: ${amount} is more than the ${decimal(left, order.currency)} left to refund of order ${order.name}`);
  }
  const parts: Array<Omit<SimulatedRefundLine, 'id'>> = [];
  let rest = wanted;
  order.lines.forEach((line, lineIndex) => {
    const before = lineLeft(order, lineIndex);
    if (rest === 0 || before.subtotal <= 0) return;
    const subtotal = Math.min(rest, before.subtotal);
    rest -= subtotal;
    const emptied = subtotal === before.subtotal;
    // The tax goes back in proportion to the money, all of what is left when the line is emptied.
    const tax = emptied
      ? before.tax
      : Math.min(before.tax, share(line.tax, before.subtotalRefunded + subtotal, lineSubtotal(line)) - before.taxRefunded);
    parts.push({ lineIndex, quantity: emptied ? before.units : 0, subtotal, tax: Math.max(0, tax) });
  });
  return parts;
}

/** Whole units of lines: the unit price less the units' share of the discount, and their share of the tax. */
function refundUnits(order: SimulatedOrder, wanted: Array<{ index: number; quantity: number }>) {
  const seen = new Set<number>();
  return wanted.map(({ index, quantity }, position) => {
    const field = `line_items[${position}]`;
    const line = order.lines[index];
    if (!line) {
      throw new BadRequest(`${field}.index: order ${order.name} has no line ${index} (its lines are 0 to ${order.lines.length - 1})`);
    }
    if (seen.has(index)) throw new BadRequest(`${field}.index: line ${index} is named twice`);
    seen.add(index);
    const before = lineLeft(order, index);
    if (quantity > before.units) {
      throw new BadRequest(`${field}.quantity: ${quantity} is more than the ${before.units} unit(s) of line ${index} not yet refunded`);
    }
    const after = before.unitsRefunded + quantity;
    const discount = share(line.discount, after, line.quantity) - share(line.discount, before.unitsRefunded, line.quantity);
    const subtotal = line.price * quantity - discount;
    if (subtotal > before.subtotal) {
      throw new BadRequest(
        `${field}: ${quantity} unit(s) of line ${index} come to ${decimal(subtotal, order.currency)}, more than the ${decimal(before.subtotal, order.currency)} of it left to refund`,
      );
    }
    const tax = Math.min(before.tax, share(line.tax, after, line.quantity) - share(line.tax, before.unitsRefunded, line.quantity));
    return { lineIndex: index, quantity, subtotal, tax };
  });
}
