// The local commerce platform: one HTTP server speaking the Shopify Admin GraphQL subset per shop, with the
// client credentials grant for shops that carry an app's client_id, their customer session tokens, order
// controls that deliver signed webhooks to the twin, each shop's storefront, admin, customer account and checkout pages, fault injection (requests left hanging are dropped on
// stop) and a list of created codes.
import type { ServerResponse } from 'node:http';
import { SHOPIFY_API_VERSION } from '../../../shared/platform/shopify-api-version';
import { createSimulatedDiscountCodes, type SimulatedDiscountCode } from './simulated-discount-codes';
import { createSimulatedOrders, type SimulatedCustomer } from './simulated-orders';
import { createSimulatedStoreCredit } from './simulated-store-credit';
import { createSimulatedShops, type SimulatedShop } from './simulated-shops';
import { createSimulatedOAuth, type OAuthTokenGrant } from './simulated-oauth';
import { createSessionTokens } from './simulated-session-tokens';
import { createIdTokens } from './simulated-id-tokens';
import { APP_BRIDGE_STAND_IN_PATH, createSimulatedAdmin } from './simulated-admin';
import { createFaults, type FaultSettings } from './simulator-faults';
import { createGraphqlEndpoint } from './simulator-graphql';
import { methodNotAllowed, serve } from './simulator-http';
import { sendJson } from '../http-server';
import { decimalToMinor, formatMinorUnits, minorDigits } from '../../../shared/domain/money';
import { createOrderControls } from './simulator-order-controls';
import { createSimulatedStorefront } from './simulated-storefront';
import { createSimulatedCustomerAccount } from './simulated-customer-account';
import { createSimulatedCheckout } from './simulated-checkout';
import { createSimulatedPos } from './simulated-pos';
import { createSimulatedKlaviyo, type KlaviyoRecords } from './simulated-klaviyo';
import { createWebhookDeliveries, type WebhookSent, type WebhookDelivery } from './webhook-deliveries';

export type { FaultMode, FaultModes, FaultSettings } from './simulator-faults';
export type { OAuthTokenGrant } from './simulated-oauth';
export type { SimulatedDiscountCode } from './simulated-discount-codes';
export type { SimulatedCustomer } from './simulated-orders';
export type { SimulatedShop } from './simulated-shops';
export type { WebhookDelivery } from './webhook-deliveries';
export type { KlaviyoRecords, RecordedKlaviyoEvent, RecordedKlaviyoProfile } from './simulated-klaviyo';

export interface PlatformSimulatorOptions {
  /** 0 picks a free port. */
  port?: number;
  host?: string;
  shops: Record<string, SimulatedShop>;
  /** Where webhooks go, e.g. http://127.0.0.1:3000/webhooks/shopify; null (default) records them unsent. */
  webhookUrl?: string | null;
  /** The clock that stamps orders, refunds and deliveries; default real time. */
  now?: () => Date;
  /**
   * Real time in ms since the epoch, by which access tokens expire; default Date.now. Never the domain
   * clock (`now`): moving the twin's clock does not expire tokens. Tests move it instead of sleeping.
   */
  realNow?: () => number;
  /** How long a delivery waits for the receiver's answer; default 5000 ms, as Shopify. */
  deliveryTimeoutMs?: number;
  /** Keep the created discount codes in this JSON file across restarts (the twin's `--persist`). */
  codesFile?: string;
  /** Keep the store credit accounts and their transactions in this JSON file across restarts (`--persist`). */
  storeCreditFile?: string;
  /** The Klaviyo private keys the configuration's shops hold: each an account of the simulator's Klaviyo. */
  klaviyoKeys?: readonly string[];
}

export interface PlatformSimulator {
  url: string;
  port: number;
  /** The Admin GraphQL URL of one shop, as the Shopify adapter expects it. */
  graphqlEndpoint(shopId: string): string;
  faults(): FaultSettings;
  setFaults(update: Partial<FaultSettings>): FaultSettings;
  /** The access tokens granted so far, oldest first (GET /_oauth/tokens). */
  oauthTokens(): OAuthTokenGrant[];
  /** Every token granted so far expires now (DELETE /_oauth/tokens). */
  expireOAuthTokens(): OAuthTokenGrant[];
  discountCodes(): SimulatedDiscountCode[];
  /** Requests the `hang` fault holds open now (answered never; dropped when the simulator stops). */
  hungRequests(): number;
  /** Resolves once `count` requests are kept by the `hold` fault (they go on when the mode changes). */
  whenHeld(count: number): Promise<void>;
  /** Adds a customer to a shop (creating the shop if needed), replacing one with the same id. */
  addCustomer(shopId: string, customer: SimulatedCustomer): void;
  /** Points deliveries at the twin once its port is known (or null to stop sending). */
  setWebhookUrl(url: string | null): void;
  /** Where the storefronts' app proxy forwards (`{api}/shopper`), once the twin's port is known. */
  setAppProxyUrl(url: string | null): void;
  /** Where the admins frame the app's home (`{api}/admin`), once the twin's port is known. */
  setAdminAppUrl(url: string | null): void;
  /** A shop's admin with the app open: `{url}/admin/{shop id}/`. */
  adminUrl(shopId: string): string;
  /** App Bridge's stand-in, which the twin's /admin loads instead of Shopify's CDN. */
  appBridgeUrl: string;
  /** A shop's storefront: `{url}/storefront/{shop id}/`. */
  storefrontUrl(shopId: string): string;
  /** Where the customer account extension calls the service (`{api}`), once the twin's port is known. */
  setAccountServiceUrl(url: string | null): void;
  /** A shop's customer account with the app's extension: `{url}/account/{shop id}/`. */
  accountUrl(shopId: string): string;
  /** A shop's checkout of one product with the app's checkout extensions: `{url}/checkout/{shop id}/?variant=41002&quantity=1`. */
  checkoutUrl(shopId: string): string;
  /** A shop's POS with the app's POS extension, for staff user `userId`: `{url}/pos/{shop id}/?user_id=…`. */
  posUrl(shopId: string, userId?: string): string;
  /** Sends any topic (e.g. customers/redact) signed as the shop's deliveries are, and waits for the answer. */
  deliverWebhook(shopId: string, topic: string, payload: unknown): Promise<WebhookSent>;
  webhooks(): WebhookDelivery[];
  /** The simulator's Klaviyo base URL (`{url}/klaviyo`), where the twin points the Klaviyo consumer. */
  klaviyoUrl: string;
  /** What the simulator's Klaviyo recorded (GET /_klaviyo). */
  klaviyo(): KlaviyoRecords;
  stop(): Promise<void>;
}

const GRAPHQL_PATH = new RegExp(`^/([^/]+)/admin/api/${SHOPIFY_API_VERSION}/graphql\\.json$`);
// https://{shop_domain}/admin/oauth/access_token: the shop in the path, or found by the client id.
const ACCESS_TOKEN_PATH = /^(?:\/([^/]+))?\/admin\/oauth\/access_token$/;

export async function startPlatformSimulator(options: PlatformSimulatorOptions): Promise<PlatformSimulator> {
  const urls: LateUrls = { appProxy: null, adminApp: null, accountService: null };
  const parts = createParts(options, urls);
  const server = await serve(route(parts), options.port ?? 0, options.host ?? '127.0.0.1');
  return simulatorOf(server, parts, urls);
}

/** The twin's URLs the simulator's pages call, set once the twin listens. */
interface LateUrls {
  appProxy: string | null;
  adminApp: string | null;
  accountService: string | null;
}

type SimulatorParts = ReturnType<typeof createParts>;

/** Every simulated part of the platform, wired to the shops, codes, orders and deliveries they share. */
function createParts(options: PlatformSimulatorOptions, urls: LateUrls) {
  const now = options.now ?? (() => new Date());
  const realNow = options.realNow ?? Date.now;
  const shops = createSimulatedShops(options.shops);
  const codes = createSimulatedDiscountCodes(now, options.codesFile);
  const orders = createSimulatedOrders(
    now,
    (shop, text) => {
      const code = codes.find(shop, text);
      if (code?.kind !== 'free_product' || code.product_variant_id === null) return undefined;
      return { variantId: code.product_variant_id, amount: decimalToMinor(String(code.amount), minorDigits(shops.currency(shop))) };
    },
    (shop, text) => {
      const code = codes.find(shop, text);
      if (code?.kind !== 'free_shipping') return undefined;
      return { cap: code.cap === null ? null : decimalToMinor(String(code.cap), minorDigits(shops.currency(shop))) };
    },
  );
  const storeCredit = createSimulatedStoreCredit(
    now,
    (shop, customerId) => shops.customer(shop, customerId) !== undefined,
    options.storeCreditFile,
  );
  const faults = createFaults();
  const oauth = createSimulatedOAuth({ shops, lifetimeSeconds: () => faults.current().token_lifetime_seconds, realNow: options.realNow });
  const deliveries = createWebhookDeliveries({ url: options.webhookUrl ?? null, now, timeoutMs: options.deliveryTimeoutMs });
  const orderControls = createOrderControls(shops, orders, deliveries);
  const klaviyoKeys = new Set(options.klaviyoKeys ?? []);
  const serviceUrl = () => urls.accountService;
  return {
    shops,
    codes,
    storeCredit,
    faults,
    oauth,
    deliveries,
    orderControls,
    graphql: createGraphqlEndpoint({ shops, codes, orders, storeCredit }, faults, oauth),
    storefront: createSimulatedStorefront({ shops, appProxyUrl: () => urls.appProxy, realNow }),
    sessionTokens: createSessionTokens(shops, options.realNow),
    klaviyo: createSimulatedKlaviyo({ keys: () => klaviyoKeys, faults }),
    idTokens: createIdTokens(shops, options.realNow),
    account: createSimulatedCustomerAccount({ shops, serviceUrl, realNow }),
    // The checkout extensions call the same service as the account extension (setAccountServiceUrl).
    checkout: createSimulatedCheckout({ shops, codes, orders, deliveries, serviceUrl, realNow, now }),
    // The shop counter: the POS extension calls the same service as the account extension.
    pos: createSimulatedPos({ shops, serviceUrl, realNow, code: (shop, text) => codes.find(shop, text), orders: orderControls }),
    admin: createSimulatedAdmin({ shops, appUrl: () => urls.adminApp, realNow }),
  };
}

/** GET /_store_credit?shop=&customer_id=[&currency=]: the account in the shop's currency unless another is named. */
function storeCreditControl({ shops, storeCredit }: SimulatorParts, res: ServerResponse, query: URLSearchParams) {
  const shop = query.get('shop');
  const customerId = query.get('customer_id');
  if (!shop || !customerId) return sendJson(res, 400, { error: 'shop and customer_id are required, e.g. ?shop=demo&customer_id=1001' });
  if (!shops.has(shop)) return sendJson(res, 404, { error: `No shop '${shop}'` });
  const currency = query.get('currency') ?? shops.currency(shop);
  const account = storeCredit.accounts(shop, customerId).find((entry) => entry.currency === currency);
  sendJson(res, 200, {
    balance: formatMinorUnits(account?.balance ?? 0, currency),
    currency,
    transactions: (account?.transactions ?? []).map((transaction) => ({
      id: transaction.id,
      amount: formatMinorUnits(transaction.kind === 'credit' ? transaction.amount : -transaction.amount, currency),
      created_at: transaction.created_at,
      expires_at: transaction.expires_at,
    })),
  });
}

/** The simulator's one request handler: its control paths, then each part in turn, then the Admin GraphQL API. */
function route(parts: SimulatorParts): Parameters<typeof serve>[0] {
  const { faults, oauth, sessionTokens, idTokens, codes, graphql } = parts;
  const pages = [parts.klaviyo, parts.orderControls, parts.admin, parts.storefront, parts.account, parts.checkout, parts.pos];
  return async (req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname === '/_faults') return faults.handle(req, res);
    if (pathname === '/_oauth/tokens') return oauth.handleTokens(req, res);
    if (pathname === '/_session_tokens') return sessionTokens(req, res);
    if (pathname === '/_id_tokens') return idTokens(req, res);
    const tokenPath = ACCESS_TOKEN_PATH.exec(pathname);
    if (tokenPath) return oauth.handleGrant(req, res, tokenPath[1] === undefined ? null : decodeURIComponent(tokenPath[1]));
    if (pathname === '/_discount_codes') {
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
      return sendJson(res, 200, { discount_codes: codes.list() });
    }
    if (pathname === '/_store_credit') {
      if (req.method !== 'GET') return methodNotAllowed(res, 'GET');
      return storeCreditControl(parts, res, new URL(req.url ?? '/', 'http://localhost').searchParams);
    }
    for (const part of pages) if (await part.handle(req, res, pathname)) return;
    const shop = GRAPHQL_PATH.exec(pathname)?.[1];
    if (shop !== undefined) return graphql(req, res, decodeURIComponent(shop));
    sendJson(res, 404, { errors: 'Not Found' });
  };
}

function simulatorOf(server: Awaited<ReturnType<typeof serve>>, parts: SimulatorParts, urls: LateUrls): PlatformSimulator {
  const { faults, oauth, codes, shops, deliveries, klaviyo } = parts;
  return {
    url: server.url,
    port: server.port,
    graphqlEndpoint: (shopId) => `${server.url}/${encodeURIComponent(shopId)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    faults: () => faults.current(),
    setFaults: (update) => faults.set(update),
    oauthTokens: () => oauth.grants(),
    expireOAuthTokens: () => oauth.expireAll(),
    discountCodes: () => codes.list(),
    hungRequests: () => faults.hungCount(),
    whenHeld: (count) => faults.whenHeld(count),
    addCustomer: (shopId, customer) => shops.addCustomer(shopId, customer),
    setWebhookUrl: (url) => deliveries.setUrl(url),
    setAppProxyUrl: (url) => {
      urls.appProxy = url;
    },
    setAdminAppUrl: (url) => {
      urls.adminApp = url;
    },
    adminUrl: (shopId) => `${server.url}/admin/${encodeURIComponent(shopId)}/`,
    appBridgeUrl: `${server.url}${APP_BRIDGE_STAND_IN_PATH}`,
    storefrontUrl: (shopId) => `${server.url}/storefront/${encodeURIComponent(shopId)}/`,
    setAccountServiceUrl: (url) => {
      urls.accountService = url;
    },
    accountUrl: (shopId) => `${server.url}/account/${encodeURIComponent(shopId)}/`,
    checkoutUrl: (shopId) => `${server.url}/checkout/${encodeURIComponent(shopId)}/?variant=41002&quantity=1`,
    posUrl: (shopId, userId = '42') => `${server.url}/pos/${encodeURIComponent(shopId)}/?user_id=${encodeURIComponent(userId)}`,
    deliverWebhook: (shopId, topic, payload) => deliveries.deliver(shops.identity(shopId), topic, payload),
    webhooks: () => deliveries.list(),
    klaviyoUrl: `${server.url}/klaviyo`,
    klaviyo: () => klaviyo.records(),
    // A request held by the `hang` fault would otherwise keep its connection (and the stop) waiting.
    stop: async () => {
      faults.dropHung();
      faults.releaseHeld();
      await server.stop();
    },
  };
}
