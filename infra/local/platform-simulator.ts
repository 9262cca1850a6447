// The local commerce platform: one HTTP server speaking the Shopify Admin GraphQL subset per shop, with order
// controls that deliver signed webhooks to the twin, fault injection and a list of created codes.
import { SHOPIFY_API_VERSION } from '../../shared/platform/shopify-api-version';
import { createSimulatedDiscountCodes, type SimulatedDiscountCode } from './simulated-discount-codes';
import { createSimulatedOrders, type SimulatedCustomer } from './simulated-orders';
import { createSimulatedShops, type SimulatedShop } from './simulated-shops';
import { createFaults, type FaultModes } from './simulator-faults';
import { createGraphqlEndpoint } from './simulator-graphql';
import { methodNotAllowed, serve } from './simulator-http';
import { sendJson } from './http-server';
import { createOrderControls } from './simulator-order-controls';
import { createWebhookDeliveries, type DeliveryOutcome, type WebhookDelivery } from './webhook-deliveries';

export type { FaultMode, FaultModes } from './simulator-faults';
export type { SimulatedDiscountCode } from './simulated-discount-codes';
export type { SimulatedCustomer } from './simulated-orders';
export type { SimulatedShop } from './simulated-shops';
export type { WebhookDelivery } from './webhook-deliveries';

export interface PlatformSimulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  shops: Record<string, SimulatedShop>;
  /** Where webhooks go, e.g. http://127.0.0.1:3000/webhooks/shopify; null (default) records them unsent. */
  webhookUrl?: string | null;
  /** The clock that stamps orders, refunds and deliveries; default real time. */
  now?: () => Date;
  /** How long a delivery waits for the receiver's answer; default 5000 ms, as Shopify. */
  deliveryTimeoutMs?: number;
  /** Keep the created discount codes in this JSON file across restarts (the twin's `--persist`). */
  codesFile?: string;
}

export interface PlatformSimulator {
  url: string;
  port: number;
  /** The Admin GraphQL URL of one shop, as the Shopify adapter expects it. */
  graphqlEndpoint(shopId: string): string;
  faults(): FaultModes;
  setFaults(modes: Partial<FaultModes>): FaultModes;
  discountCodes(): SimulatedDiscountCode[];
  /** Adds a customer to a shop (creating the shop if needed), replacing one with the same id. */
  addCustomer(shopId: string, customer: SimulatedCustomer): void;
  /** Points deliveries at the twin once its port is known (or null to stop sending). */
  setWebhookUrl(url: string | null): void;
  /** Sends any topic (e.g. customers/redact) signed as the shop's deliveries are, and waits for the answer. */
  deliverWebhook(shopId: string, topic: string, payload: unknown): Promise<DeliveryOutcome>;
  webhooks(): WebhookDelivery[];
  stop(): Promise<void>;
}

const GRAPHQL_PATH = new RegExp(`^/([^/]+)/admin/api/${SHOPIFY_API_VERSION}/graphql\\.json$`);

export async function startPlatformSimulator(options: PlatformSimulatorOptions): Promise<PlatformSimulator> {
  const now = options.now ?? (() => new Date());
  const shops = createSimulatedShops(options.shops);
  const codes = createSimulatedDiscountCodes(now, options.codesFile);
  const orders = createSimulatedOrders(now);
  const faults = createFaults();
  const deliveries = createWebhookDeliveries({ url: options.webhookUrl ?? null, now, timeoutMs: options.deliveryTimeoutMs });
  const graphql = createGraphqlEndpoint({ shops, codes, orders }, faults);
  const orderControls = createOrderControls(shops, orders, deliveries);

  const server = await serve(
    async (req, res) => {
      const { pathname } = new URL(req.url ?? '/', 'http://localhost');
      if (pathname === '/_faults') return faults.handle(req, res);
      if (pathname === '/_discount_codes') {
        if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
        return sendJson(res, 200, { discount_codes: codes.list() });
      }
      if (await orderControls.handle(req, res, pathname)) return;
      const shop = GRAPHQL_PATH.exec(pathname)?.[1];
      if (shop !== undefined) return graphql(req, res, decodeURIComponent(shop));
      sendJson(res, 404, { errors: 'Not Found' });
    },
    options.port ?? 0,
    options.host ?? '127.0.0.1',
  );

  return {
    url: server.url,
    port: server.port,
    graphqlEndpoint: (shopId) => `${server.url}/${encodeURIComponent(shopId)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    faults: () => faults.current(),
    setFaults: (modes) => faults.set(modes),
    discountCodes: () => codes.list(),
    addCustomer: (shopId, customer) => shops.addCustomer(shopId, customer),
    setWebhookUrl: (url) => deliveries.setUrl(url),
    deliverWebhook: (shopId, topic, payload) => deliveries.deliver(shops.identity(shopId), topic, payload),
    webhooks: () => deliveries.list(),
    stop: server.stop,
  };
}
