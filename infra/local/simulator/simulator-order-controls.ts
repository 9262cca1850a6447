// The simulator's order controls (EARNING-CONTRACT.md, "Platform simulator: orders"): create an order (paid,
// or awaiting payment), pay or void it, refund part of it (an amount or whole units of lines), cancel it, send
// any other topic, list and redeliver webhooks. Each call answers after the delivery it caused was answered,
// so the twin's effects are visible when the control call returns.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { restOrderPayload, restRefundPayload } from './rest-order-payloads';
import { CREATABLE_PAYMENT_STATUSES, type SimulatedOrder, type SimulatedOrders } from './simulated-orders';
import type { SimulatedShops } from './simulated-shops';
import { BadRequest, methodNotAllowed, parseWith, readJson } from './simulator-http';
import { sendJson } from '../http-server';
import type { WebhookSent, WebhookDeliveries } from './webhook-deliveries';

const AMOUNT = /^\d{1,12}(?:\.\d+)?$/;
const amount = () => z.string().regex(AMOUNT, 'must be a decimal amount such as "120.00"');

const POS_ID = z.number().int('must be a whole number').min(1, 'must be a positive id').max(Number.MAX_SAFE_INTEGER);

const createOrderSchema = z
  .strictObject({
    shop: z.string().min(1, 'must name a shop'),
    customer_id: z
      .string()
      .regex(/^\d{1,32}$/, 'must be a numeric customer id such as "1001"')
      .nullable()
      .default(null),
    // Required unless line_items are given (checked with the lines, see simulated-orders.ts).
    subtotal_price: amount().optional(),
    total_price: amount().optional(),
    taxes_included: z.boolean().optional(),
    line_items: z
      .array(
        z.strictObject({
          price: amount(),
          quantity: z.number().int('must be a whole number').min(1, 'must be at least 1').max(100_000, 'must be at most 100000'),
          gift_card: z.boolean().optional(),
          tax: amount().optional(),
          discount: amount().optional(),
          variant_id: z
            .string()
            .regex(/^\d{1,20}$/, 'must be a numeric product variant id such as "4401"')
            .optional(),
        }),
      )
      .min(1, 'must hold at least one line (or leave line_items out)')
      .max(1000, 'must hold at most 1000 lines')
      .optional(),
    financial_status: z.enum(CREATABLE_PAYMENT_STATUSES).optional(),
    test: z.boolean().optional(),
    discount_codes: z.array(z.string().min(1, 'must not be empty')).optional(),
    landing_site: z.string().nullable().optional(),
    landing_site_ref: z.string().nullable().optional(),
    note_attributes: z.array(z.strictObject({ name: z.string().min(1, 'must not be empty'), value: z.string() })).optional(),
    // The channel, as Shopify names it: `web` (the default: the online store's checkout), `pos` (Shopify POS), ...
    source_name: z
      .string()
      .regex(/^[a-z0-9_-]{1,64}$/, 'must be a channel name such as "web" or "pos"')
      .default('web'),
    // A POS order's till: where, on which device and by which staff user it was rung up (POS orders only).
    location_id: POS_ID.optional(),
    device_id: POS_ID.optional(),
    user_id: POS_ID.nullable().optional(),
    deliver: z.boolean().default(true),
  })
  .refine(
    (body) => body.source_name === 'pos' || (body.location_id === undefined && body.device_id === undefined && body.user_id === undefined),
    {
      message: 'location_id, device_id and user_id belong to a POS order (source_name "pos")',
    },
  )
  .refine((body) => body.source_name !== 'pos' || (body.landing_site == null && body.landing_site_ref == null), {
    message: 'a POS order has no landing_site or landing_site_ref: it is rung up at the counter, not reached online',
  });

// Any topic, e.g. the privacy webhooks, which no order control causes.
const sendSchema = z.strictObject({
  shop: z.string().min(1, 'must name a shop'),
  topic: z.string().regex(/^[a-z_]+\/[a-z_]+$/, 'must be a topic such as "customers/redact"'),
  payload: z.record(z.string(), z.unknown()),
});

// An amount of the subtotal, or whole units of given lines (`index` into the order's line_items), and the
// money refunded when it is not the lines' (`amount`: alone, money refunded without any line).
const refundSchema = z
  .strictObject({
    subtotal: amount().optional(),
    amount: amount().optional(),
    line_items: z
      .array(
        z.strictObject({
          index: z.number().int('must be a whole number').min(0, 'must be 0 or more'),
          quantity: z.number().int('must be a whole number').min(1, 'must be at least 1'),
        }),
      )
      .min(1, 'must name at least one line')
      .optional(),
    deliver: z.boolean().default(true),
  })
  .refine((body) => body.subtotal === undefined || body.line_items === undefined, {
    message: 'give either subtotal (an amount) or line_items (whole units of lines), not both',
  })
  .refine((body) => body.subtotal !== undefined || body.line_items !== undefined || body.amount !== undefined, {
    message: 'give subtotal (an amount), line_items (whole units of lines) or amount (money refunded without a line)',
  });
// Cancel, pay and void take only `deliver`.
const deliverSchema = z.strictObject({ deliver: z.boolean().default(true) });

const ORDER_PATH = /^\/_orders\/([^/]+)\/(refunds|cancel|pay|void)$/;
const REDELIVER_PATH = /^\/_webhooks\/([^/]+)\/redeliver$/;

type OrderChange = 'cancel' | 'pay' | 'void';

const ORDER_CHANGES: Record<OrderChange, { what: string; topic: string; apply: (orders: SimulatedOrders, id: string) => SimulatedOrder }> =
  {
    cancel: { what: 'cancellation', topic: 'orders/cancelled', apply: (orders, id) => orders.cancel(id) },
    // Shopify raises orders/paid when an order becomes paid, and orders/updated for a voided authorization.
    pay: { what: 'payment', topic: 'orders/paid', apply: (orders, id) => orders.pay(id) },
    void: { what: 'void', topic: 'orders/updated', apply: (orders, id) => orders.void(id) },
  };

export interface OrderControls {
  /** Answers the request when its path is one of the order controls; false when it is not. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
  /**
   * Places an order as `POST /_orders` does, from the same body (checked the same way: BadRequest otherwise), and
   * answers once its webhook was answered: the twin's POS page charges its cart through it.
   */
  place(body: unknown): Promise<{ order: ReturnType<typeof restOrderPayload>; webhook: WebhookSent | null }>;
}

export function createOrderControls(shops: SimulatedShops, orders: SimulatedOrders, deliveries: WebhookDeliveries): OrderControls {
  const controls = new OrderControlPaths(shops, orders, deliveries);
  return {
    place: (input) => controls.place(input),
    handle: (req, res, pathname) => controls.handle(req, res, pathname),
  };
}

class OrderControlPaths {
  constructor(
    private readonly shops: SimulatedShops,
    private readonly orders: SimulatedOrders,
    private readonly deliveries: WebhookDeliveries,
  ) {}

  async handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean> {
    if (pathname === '/_orders') {
      if (req.method === 'POST') await this.createOrder(req, res);
      else if (req.method === 'GET')
        sendJson(res, 200, { orders: allOrders(this.shops, this.orders, new URL(req.url ?? '/', 'http://localhost')) });
      else methodNotAllowed(res, 'GET, POST');
      return true;
    }
    const orderMatch = ORDER_PATH.exec(pathname);
    if (orderMatch) {
      const [, orderId = '', action] = orderMatch;
      if (req.method !== 'POST') methodNotAllowed(res, 'POST');
      else if (action === 'refunds') await this.refundOrder(req, res, decodeURIComponent(orderId));
      else await this.changeOrder(req, res, decodeURIComponent(orderId), action as OrderChange);
      return true;
    }
    if (pathname === '/_webhooks') {
      if (req.method === 'GET') this.listWebhooks(res);
      else methodNotAllowed(res, 'GET');
      return true;
    }
    if (pathname === '/_webhooks/send') {
      if (req.method === 'POST') await this.sendWebhook(req, res);
      else methodNotAllowed(res, 'POST');
      return true;
    }
    const redeliverMatch = REDELIVER_PATH.exec(pathname);
    if (redeliverMatch) {
      if (req.method !== 'POST') methodNotAllowed(res, 'POST');
      else sendJson(res, 200, { webhook: await this.deliveries.redeliver(decodeURIComponent(redeliverMatch[1] ?? '')) });
      return true;
    }
    return false;
  }

  private deliverOrder(order: SimulatedOrder, topic: string, payload: unknown, deliver: boolean): Promise<WebhookSent> | null {
    return deliver ? this.deliveries.deliver(this.shops.identity(order.shop), topic, payload, String(order.id)) : null;
  }

  async place(input: unknown) {
    const { shops } = this;
    const body = parseWith(createOrderSchema, input, 'Invalid order');
    if (!shops.has(body.shop)) throw new BadRequest(`Invalid order: shop: no shop '${body.shop}' on the platform`);
    const customer = body.customer_id === null ? null : shops.customer(body.shop, body.customer_id);
    if (customer === undefined) {
      throw new BadRequest(`Invalid order: customer_id: '${body.customer_id}' is not a customer of shop '${body.shop}' (null for a guest)`);
    }
    const order = this.orders.create({ ...body, customer, currency: shops.currency(body.shop) });
    const payload = restOrderPayload(order);
    // Shopify raises no orders/paid for an order awaiting payment; of the topics the app subscribes to, such
    // an order arrives as orders/updated.
    const topic = order.payment === 'paid' ? 'orders/paid' : 'orders/updated';
    const webhook = await this.deliverOrder(order, topic, payload, body.deliver);
    return { order: payload, webhook };
  }

  private async createOrder(req: IncomingMessage, res: ServerResponse) {
    sendJson(res, 201, await this.place(await readJson(req)));
  }

  private async refundOrder(req: IncomingMessage, res: ServerResponse, orderId: string) {
    this.orders.get(orderId);
    const body = parseWith(refundSchema, await readJson(req), 'Invalid refund');
    // The schema lets at most one of subtotal and line_items through, or amount alone.
    const { order, refund } = this.orders.refund(
      orderId,
      body.line_items
        ? { lines: body.line_items, amount: body.amount }
        : body.subtotal !== undefined
          ? { subtotal: body.subtotal, amount: body.amount }
          : { amount: body.amount! },
    );
    const payload = restRefundPayload(order, refund);
    const webhook = await this.deliverOrder(order, 'refunds/create', payload, body.deliver);
    sendJson(res, 201, { refund: payload, order: restOrderPayload(order), webhook });
  }

  /** Cancel, pay and void: one change of the order, then its payload delivered on the topic that change raises. */
  private async changeOrder(req: IncomingMessage, res: ServerResponse, orderId: string, action: OrderChange) {
    this.orders.get(orderId);
    const { what, topic, apply } = ORDER_CHANGES[action];
    const body = parseWith(deliverSchema, await readJson(req), `Invalid ${what}`);
    const order = apply(this.orders, orderId);
    const payload = restOrderPayload(order);
    const webhook = await this.deliverOrder(order, topic, payload, body.deliver);
    sendJson(res, 200, { order: payload, webhook });
  }

  private async sendWebhook(req: IncomingMessage, res: ServerResponse) {
    const body = parseWith(sendSchema, await readJson(req), 'Invalid webhook');
    if (!this.shops.has(body.shop)) throw new BadRequest(`Invalid webhook: shop: no shop '${body.shop}' on the platform`);
    sendJson(res, 200, { webhook: await this.deliveries.deliver(this.shops.identity(body.shop), body.topic, body.payload) });
  }

  private listWebhooks(res: ServerResponse) {
    sendJson(res, 200, {
      webhooks: this.deliveries.list().map(({ body, attempts, ...delivery }) => ({
        ...delivery,
        status: attempts.at(-1)?.status ?? null,
        attempts,
        payload: JSON.parse(body) as unknown,
      })),
    });
  }
}

/** GET /_orders?shop=<id>: the shop's orders as REST payloads, oldest first. */
function allOrders(shops: SimulatedShops, orders: SimulatedOrders, url: URL): unknown[] {
  const shop = url.searchParams.get('shop');
  if (!shop) throw new BadRequest('GET /_orders needs ?shop=<shop id>');
  if (!shops.has(shop)) throw new BadRequest(`No shop '${shop}' on the platform`);
  return orders.list(shop).map(restOrderPayload);
}
