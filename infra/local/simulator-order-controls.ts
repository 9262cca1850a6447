// The simulator's order controls (EARNING-CONTRACT.md, "Platform simulator: orders"): create a paid order,
// refund part of it, cancel it, send any other topic, list and redeliver webhooks. Each call answers after
// the delivery it caused was answered, so the twin's effects are visible when the control call returns.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { restOrderPayload, restRefundPayload } from './rest-order-payloads';
import type { SimulatedOrder, SimulatedOrders } from './simulated-orders';
import type { SimulatedShops } from './simulated-shops';
import { BadRequest, methodNotAllowed, parseWith, readJson } from './simulator-http';
import { sendJson } from './http-server';
import type { DeliveryOutcome, WebhookDeliveries } from './webhook-deliveries';

const AMOUNT = /^\d{1,12}(?:\.\d+)?$/;
const amount = () => z.string().regex(AMOUNT, 'must be a decimal amount such as "120.00"');

const createOrderSchema = z.strictObject({
  shop: z.string().min(1, 'must name a shop'),
  customer_id: z
    .string()
    .regex(/^\d{1,32}$/, 'must be a numeric customer id such as "1001"')
    .nullable()
    .default(null),
  subtotal_price: amount(),
  total_price: amount().optional(),
  discount_codes: z.array(z.string().min(1, 'must not be empty')).optional(),
  landing_site: z.string().nullable().optional(),
  note_attributes: z.array(z.strictObject({ name: z.string().min(1, 'must not be empty'), value: z.string() })).optional(),
  deliver: z.boolean().default(true),
});

// Any topic, e.g. the privacy webhooks, which no order control causes.
const sendSchema = z.strictObject({
  shop: z.string().min(1, 'must name a shop'),
  topic: z.string().regex(/^[a-z_]+\/[a-z_]+$/, 'must be a topic such as "customers/redact"'),
  payload: z.record(z.string(), z.unknown()),
});

const refundSchema = z.strictObject({ subtotal: amount(), deliver: z.boolean().default(true) });
const cancelSchema = z.strictObject({ deliver: z.boolean().default(true) });

const ORDER_PATH = /^\/_orders\/([^/]+)\/(refunds|cancel)$/;
const REDELIVER_PATH = /^\/_webhooks\/([^/]+)\/redeliver$/;

export interface OrderControls {
  /** Answers the request when its path is one of the order controls; false when it is not. */
  handle(req: IncomingMessage, res: ServerResponse, pathname: string): Promise<boolean>;
}

export function createOrderControls(shops: SimulatedShops, orders: SimulatedOrders, deliveries: WebhookDeliveries): OrderControls {
  const deliverOrder = (order: SimulatedOrder, topic: string, payload: unknown, deliver: boolean): Promise<DeliveryOutcome> | null =>
    deliver ? deliveries.deliver(shops.identity(order.shop), topic, payload, String(order.id)) : null;

  const createOrder = async (req: IncomingMessage, res: ServerResponse) => {
    const body = parseWith(createOrderSchema, await readJson(req), 'Invalid order');
    if (!shops.has(body.shop)) throw new BadRequest(`Invalid order: shop: no shop '${body.shop}' on the platform`);
    const customer = body.customer_id === null ? null : shops.customer(body.shop, body.customer_id);
    if (customer === undefined) {
      throw new BadRequest(`Invalid order: customer_id: '${body.customer_id}' is not a customer of shop '${body.shop}' (null for a guest)`);
    }
    const order = orders.create({ ...body, customer, currency: shops.currency(body.shop) });
    const payload = restOrderPayload(order);
    const webhook = await deliverOrder(order, 'orders/paid', payload, body.deliver);
    sendJson(res, 201, { order: payload, webhook });
  };

  const refundOrder = async (req: IncomingMessage, res: ServerResponse, orderId: string) => {
    orders.get(orderId);
    const body = parseWith(refundSchema, await readJson(req), 'Invalid refund');
    const { order, refund } = orders.refund(orderId, body.subtotal);
    const payload = restRefundPayload(order, refund);
    const webhook = await deliverOrder(order, 'refunds/create', payload, body.deliver);
    sendJson(res, 201, { refund: payload, order: restOrderPayload(order), webhook });
  };

  const cancelOrder = async (req: IncomingMessage, res: ServerResponse, orderId: string) => {
    orders.get(orderId);
    const body = parseWith(cancelSchema, await readJson(req), 'Invalid cancellation');
    const order = orders.cancel(orderId);
    const payload = restOrderPayload(order);
    const webhook = await deliverOrder(order, 'orders/cancelled', payload, body.deliver);
    sendJson(res, 200, { order: payload, webhook });
  };

  const sendWebhook = async (req: IncomingMessage, res: ServerResponse) => {
    const body = parseWith(sendSchema, await readJson(req), 'Invalid webhook');
    if (!shops.has(body.shop)) throw new BadRequest(`Invalid webhook: shop: no shop '${body.shop}' on the platform`);
    sendJson(res, 200, { webhook: await deliveries.deliver(shops.identity(body.shop), body.topic, body.payload) });
  };

  const listWebhooks = (res: ServerResponse) =>
    sendJson(res, 200, {
      webhooks: deliveries.list().map(({ body, attempts, ...delivery }) => ({
        ...delivery,
        status: attempts.at(-1)?.status ?? null,
        attempts,
        payload: JSON.parse(body) as unknown,
      })),
    });

  return {
    async handle(req, res, pathname) {
      if (pathname === '/_orders') {
        if (req.method === 'POST') await createOrder(req, res);
        else if (req.method === 'GET')
          sendJson(res, 200, { orders: allOrders(shops, orders, new URL(req.url ?? '/', 'http://localhost')) });
        else methodNotAllowed(res, 'GET, POST');
        return true;
      }
      const orderMatch = ORDER_PATH.exec(pathname);
      if (orderMatch) {
        const [, orderId = '', action] = orderMatch;
        if (req.method !== 'POST') methodNotAllowed(res, 'POST');
        else if (action === 'refunds') await refundOrder(req, res, decodeURIComponent(orderId));
        else await cancelOrder(req, res, decodeURIComponent(orderId));
        return true;
      }
      if (pathname === '/_webhooks') {
        if (req.method === 'GET') listWebhooks(res);
        else methodNotAllowed(res, 'GET');
        return true;
      }
      if (pathname === '/_webhooks/send') {
        if (req.method === 'POST') await sendWebhook(req, res);
        else methodNotAllowed(res, 'POST');
        return true;
      }
      const redeliverMatch = REDELIVER_PATH.exec(pathname);
      if (redeliverMatch) {
        if (req.method !== 'POST') methodNotAllowed(res, 'POST');
        else sendJson(res, 200, { webhook: await deliveries.redeliver(decodeURIComponent(redeliverMatch[1] ?? '')) });
        return true;
      }
      return false;
    },
  };
}

/** GET /_orders?shop=<id>: the shop's orders as REST payloads, oldest first. */
function allOrders(shops: SimulatedShops, orders: SimulatedOrders, url: URL): unknown[] {
  const shop = url.searchParams.get('shop');
  if (!shop) throw new BadRequest('GET /_orders needs ?shop=<shop id>');
  if (!shops.has(shop)) throw new BadRequest(`No shop '${shop}' on the platform`);
  return orders.list(shop).map(restOrderPayload);
}
