// The entry-point manifest: the only place an entry point is declared. Every function the stack deploys is
// an entry here: the API routes, the webhooks, the queue consumers, the scheduled jobs, the authorizer and
// the authorizer cache's flusher, each with its handler module, its table access and whatever else it is
// granted. It is data, read by the CDK stack (one function per entry, its permissions from the entry; one
// API Gateway method per route and webhook), the local twin (which dispatches to the very same handler
// modules and runs the jobs in this order), the OpenAPI document and the bench.

import type { KeyScope } from '../domain/api-key';

export type HttpMethod = 'GET' | 'POST' | 'PUT';
/**
 * The key scope a route requires, in the keys' own words: `read` (any key) or `full` (full-access keys
 * only; read-only keys get 403 before the handler works).
 */
export type RouteScope = KeyScope;
/** `strict`: the spec's 6 requests/second per key; `standard`: the generous default. */
export type ThrottleClass = 'strict' | 'standard';
/**
 * Outside services an entry point calls, so the stack grants exactly those: `platform` (the shop's Shopify
 * secret: access token and webhook secrets), `events` (the domain event bus), `deliveryQueue` (sending to
 * the webhook delivery queue), `authorizerCache` (flushing the stage's authorizer cache), `klaviyo` (Klaviyo's
 * API with the key of the shop's secret, and sending to the queue of what Klaviyo refused).
 */
export type OutsideService = 'platform' | 'events' | 'deliveryQueue' | 'authorizerCache' | 'klaviyo';
/** The table through the function's role: reading, reading and writing, or none (the flusher reads its stream). */
export type TableAccess = 'read' | 'write' | 'none';
/**
 * Narrow grants beyond `table`: `listPageBoundaries` (a reader's one write: the customer list's short-lived
 * page boundary and remembered e-mail search items, and only their partitions), `shopperBudget` (a shopper
 * reader's one write: its shop's budget counter, and only the budget partitions), `keyStream` (the table's
 * stream, API key items only), `eventStream` (the table's stream, domain event items only).
 */
export type ExtraGrant = 'listPageBoundaries' | 'shopperBudget' | 'keyStream' | 'eventStream';

/** What every entry point declares, so the stack builds and grants its function from the entry alone. */
export interface EntryPoint {
  /** Stable name, the only one: CDK construct ids, log fields, metrics, alarms and the twin's job counts use it. */
  name: string;
  /** Handler module, relative to the project root; exports `handler`. */
  handler: string;
  /** Table access the function is granted. */
  table: TableAccess;
  /** Outside services the handler calls, so the stack grants exactly those. */
  uses?: readonly OutsideService[];
  /** Narrow grants beyond the table access. */
  grants?: readonly ExtraGrant[];
}

export interface Route extends EntryPoint {
  method: HttpMethod;
  /** API Gateway resource path with {params}. */
  path: string;
  scope: RouteScope;
  throttle: ThrottleClass;
}

const ROUTE_LIST = [
  {
    name: 'listCustomers',
    method: 'GET',
    path: '/v1/customers',
    handler: 'functions/customers/list.ts',
    scope: 'read',
    table: 'read',
    throttle: 'standard',
    // The list remembers page boundaries and e-mail search matches (short-lived items, docs/performance.md).
    grants: ['listPageBoundaries'],
  },
  {
    name: 'enrollCustomer',
    method: 'POST',
    path: '/v1/customers',
    handler: 'functions/customers/enroll.ts',
    scope: 'full',
    table: 'write',
    throttle: 'standard',
    uses: ['platform'],
  },
  {
    name: 'getCustomer',
    method: 'GET',
    path: '/v1/customers/{identifier}',
    handler: 'functions/customers/get.ts',
    scope: 'read',
    table: 'read',
    throttle: 'standard',
  },
  {
    name: 'updateCustomer',
    method: 'PUT',
    path: '/v1/customers/{identifier}',
    handler: 'functions/customers/update.ts',
    scope: 'full',
    table: 'write',
    throttle: 'standard',
  },
  {
    name: 'getCustomerBirthday',
    method: 'GET',
    path: '/v1/customers/{identifier}/birthday',
    handler: 'functions/customers/birthday.ts',
    scope: 'read',
    table: 'read',
    throttle: 'strict',
  },
  {
    name: 'getCustomerAnniversary',
    method: 'GET',
    path: '/v1/customers/{identifier}/anniversary',
    handler: 'functions/customers/anniversary.ts',
    scope: 'read',
    table: 'read',
    throttle: 'strict',
  },
  {
    name: 'adjustPoints',
    method: 'POST',
    path: '/v1/customers/{identifier}/points',
    handler: 'functions/points/adjust.ts',
    scope: 'full',
    table: 'write',
    throttle: 'standard',
    uses: ['events'],
  },
  {
    name: 'earnAction',
    method: 'POST',
    path: '/v1/customers/{identifier}/actions',
    handler: 'functions/customers/actions.ts',
    scope: 'full',
    table: 'write',
    throttle: 'standard',
    uses: ['events'],
  },
  {
    name: 'listEarningHistory',
    method: 'GET',
    path: '/v1/customers/{identifier}/earning-history',
    handler: 'functions/earning-history/list.ts',
    scope: 'read',
    table: 'read',
    throttle: 'strict',
  },
  {
    name: 'getEarningHistoryEntry',
    method: 'GET',
    path: '/v1/customers/{identifier}/earning-history/{id}',
    handler: 'functions/earning-history/get.ts',
    scope: 'read',
    table: 'read',
    throttle: 'strict',
  },
  {
    name: 'listRewardHistory',
    method: 'GET',
    path: '/v1/customers/{identifier}/reward-history',
    handler: 'functions/reward-history/list.ts',
    scope: 'read',
    table: 'read',
    throttle: 'strict',
  },
  {
    name: 'getRewardHistoryEntry',
    method: 'GET',
    path: '/v1/customers/{identifier}/reward-history/{id}',
    handler: 'functions/reward-history/get.ts',
    scope: 'read',
    table: 'read',
    throttle: 'strict',
  },
  {
    name: 'refundReward',
    method: 'POST',
    path: '/v1/customers/{identifier}/reward-history/{id}/refund',
    handler: 'functions/reward-history/refund.ts',
    scope: 'full',
    table: 'write',
    // As purchase: a write that calls the platform (the code's deletion).
    throttle: 'standard',
    uses: ['platform', 'events'],
  },
  {
    name: 'purchaseReward',
    method: 'POST',
    path: '/v1/rewards/{id}/purchase',
    handler: 'functions/rewards/purchase.ts',
    scope: 'full',
    table: 'write',
    throttle: 'standard',
    uses: ['platform'],
  },
  {
    name: 'createReferral',
    method: 'POST',
    path: '/v1/referrals',
    handler: 'functions/referrals/create.ts',
    scope: 'full',
    table: 'write',
    // As purchase: a write that creates a discount code on the platform.
    throttle: 'standard',
    uses: ['platform', 'events'],
  },
  {
    name: 'listReferrals',
    method: 'GET',
    path: '/v1/customers/{identifier}/referrals',
    handler: 'functions/referrals/list.ts',
    scope: 'read',
    table: 'read',
    // The spec's strict class names its own routes; a route beyond the spec takes the default.
    throttle: 'standard',
  },
  {
    name: 'listEarningRules',
    method: 'GET',
    path: '/v1/earning-rules',
    handler: 'functions/earning-rules/list.ts',
    scope: 'read',
    table: 'read',
    throttle: 'standard',
  },
  {
    name: 'listVipTiers',
    method: 'GET',
    path: '/v1/vip-tiers',
    handler: 'functions/vip-tiers/list.ts',
    scope: 'read',
    table: 'read',
    throttle: 'standard',
  },
] as const satisfies readonly Route[];

/** Every route's name: lists keyed by it (OpenAPI operations, bench endpoints) fail to compile when one is missing. */
export type RouteName = (typeof ROUTE_LIST)[number]['name'];

export const ROUTES: ReadonlyArray<Route & { name: RouteName }> = ROUTE_LIST;

/**
 * The staff routes' prefix (SURFACES-CONTRACT.md, "Staff routes"): `/admin/api/v1/...` mirrors every `/v1/...`
 * route, same path below the prefix, authorized by Shopify's admin ID token instead of an API key.
 */
export const STAFF_API_PREFIX = '/admin/api';

/**
 * The `/admin/api` twin of a `/v1` route: served by the route's own function (one Lambda per endpoint), as an
 * API Gateway method of its own without the key authorizer or the usage plan, the function verifying the ID
 * token first in its chain. Staff hold no API key, so no usage plan counts them: each method has a stage
 * method throttle of its own, all shops' staff together.
 */
export interface StaffRoute {
  method: HttpMethod;
  /** `/admin/api` + the route's path. */
  path: string;
  /** The `/v1` route it mirrors: its function, name, scope and grants. */
  route: Route;
  /** Requests per second and burst for this method, all shops and staff together. */
  throttle: { rateLimit: number; burstLimit: number };
}

/**
 * The staff methods' throttles. Staff are people clicking in Shopify's admin: a page asks a few reads at once,
 * a write is one deliberate action. Well above what a support team makes, well below the stage's default.
 */
export const STAFF_THROTTLE = {
  read: { rateLimit: 50, burstLimit: 100 },
  write: { rateLimit: 20, burstLimit: 40 },
} as const;

/** The `/admin/api` twins of `routes`: every route, in the same order. */
export function staffRoutesOf(routes: readonly Route[]): StaffRoute[] {
  return routes.map((route) => ({
    method: route.method,
    path: `${STAFF_API_PREFIX}${route.path}`,
    route,
    throttle: route.method === 'GET' ? STAFF_THROTTLE.read : STAFF_THROTTLE.write,
  }));
}

export const STAFF_ROUTES: readonly StaffRoute[] = staffRoutesOf(ROUTE_LIST);

/**
 * The staff paths Shopify's UI extensions call: the customer page's block (infra/shopify-app/extensions/loyalty-admin)
 * and the POS extension (infra/shopify-app/extensions/loyalty-pos, docs/pos.md) run on a Shopify origin of their own,
 * so their calls, which carry the ID token (POS's session token) in `Authorization`, are cross-origin and
 * preflighted. `OPTIONS` on these paths answers 204 with STAFF_PREFLIGHT_HEADERS without a token (the gateway
 * answers it; no function runs). Only these: the app's home calls its own origin, and a preflight mock on every
 * staff path would spend the stack's resources.
 */
export const CROSS_ORIGIN_STAFF_PATHS: readonly string[] = [
  `${STAFF_API_PREFIX}/v1/customers/{identifier}`,
  // The POS extension: find a customer (by e-mail, by name), the rewards, redeem, undo, adjust, the history.
  `${STAFF_API_PREFIX}/v1/customers`,
  `${STAFF_API_PREFIX}/members`,
  `${STAFF_API_PREFIX}/program`,
  `${STAFF_API_PREFIX}/v1/rewards/{id}/purchase`,
  `${STAFF_API_PREFIX}/v1/customers/{identifier}/reward-history`,
  `${STAFF_API_PREFIX}/v1/customers/{identifier}/reward-history/{id}/refund`,
  `${STAFF_API_PREFIX}/v1/customers/{identifier}/points`,
  `${STAFF_API_PREFIX}/v1/customers/{identifier}/earning-history`,
];

/** The CORS headers of every staff answer, the function's and the gateway's: any origin, no cookies. */
export const STAFF_CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  // Read by Shopify's admin to fetch a fresh ID token and try once more (shared/staff/staff-requests.ts).
  'Access-Control-Expose-Headers': 'X-Shopify-Retry-Invalid-Session-Request',
} as const;

/**
 * The preflight's answer on a CROSS_ORIGIN_STAFF_PATHS path: the block reads with its ID token; the POS extension
 * also writes (a JSON body, an Idempotency-Key on a redemption).
 */
export const STAFF_PREFLIGHT_HEADERS = {
  ...STAFF_CORS_HEADERS,
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
  'Access-Control-Max-Age': '7200',
} as const;

/** Whether an API Gateway resource (the method's path template, set by the gateway, never by the caller) is a staff route's. */
export function isStaffResource(resource: string | null | undefined): boolean {
  return typeof resource === 'string' && resource.startsWith(`${STAFF_API_PREFIX}/`);
}

/** The `/v1` resource a staff resource mirrors (itself for any other). */
export function mirroredResource(resource: string): string {
  return isStaffResource(resource) ? resource.slice(STAFF_API_PREFIX.length) : resource;
}

/**
 * What a route's function uses: its own outside services, and the shops' Shopify secrets, since its `/admin/api`
 * twin verifies the ID token with the shop's app secret.
 */
export function routeUses(route: Route): readonly OutsideService[] {
  return route.uses?.includes('platform') ? route.uses : [...(route.uses ?? []), 'platform'];
}

/** An entry point called by the commerce platform: no API key, no usage plan; the handler authenticates it. */
export interface WebhookRoute extends EntryPoint {
  method: 'POST';
  path: string;
}

/** Webhooks in: the raw body reaches the handler untouched (the HMAC is over its bytes). */
export const WEBHOOKS: readonly WebhookRoute[] = [
  {
    name: 'receiveShopifyWebhook',
    method: 'POST',
    path: '/webhooks/shopify',
    handler: 'functions/webhooks/receive-shopify.ts',
    table: 'read',
    uses: ['platform', 'deliveryQueue'],
  },
];

/**
 * A shopper route (SURFACES-CONTRACT.md): reached by the storefront through Shopify's app proxy or by a
 * customer account extension with a customer session token, never with an API key. Like a webhook it is
 * outside the authorizer and the usage plan (its handler verifies the shopper before reading anything
 * else); it has a stage method throttle of its own, and `OPTIONS` on its path answers the CORS preflight.
 */
export interface ShopperRoute extends EntryPoint {
  method: 'GET' | 'POST';
  path: string;
  /** Requests per second and burst for this method, all shops and shoppers together (SHOPPER_THROTTLE). */
  throttle: { rateLimit: number; burstLimit: number };
  /** A POST that writes nothing (the estimate: a cart in the body): a read in every respect but its method. */
  readOnly?: boolean;
}

/** A shopper route's class: GET and a read-only POST are reads, any other POST a write. */
export type ShopperRouteClass = 'read' | 'write';

/**
 * Each shop's own budget per class of shopper route, counted once the shopper is verified (the handler's
 * chain, shared/http/shopper-handler.ts), in fixed windows of `burstLimit / rateLimit` seconds holding
 * `burstLimit` requests: on average `rateLimit` a second. Reads are what a storefront page asks on every view
 * of the panel; writes (join, redeem) are a shopper's deliberate clicks and each one calls the platform. A
 * shop past its budget gets 429; no other shop does (docs/decisions.md, "Each shop its own shopper budget").
 */
export const SHOPPER_BUDGET: Record<ShopperRouteClass, { rateLimit: number; burstLimit: number }> = {
  read: { rateLimit: 100, burstLimit: 200 },
  write: { rateLimit: 20, burstLimit: 40 },
};

/** The shopper route class of a route (its method, unless it is a read-only POST). */
export const shopperRouteClass = (route: { method: string; readOnly?: boolean }): ShopperRouteClass =>
  route.method === 'GET' || route.readOnly === true ? 'read' : 'write';

/**
 * How many shops may spend their whole shopper budget at once before the stage's method throttle, all shops
 * and callers together, refuses anyone. The method throttle runs before any function, so it bounds what the
 * whole service may cost, not what one shop may ask; one shop is bounded by its budget.
 */
export const SHOPPER_SHOPS_AT_FULL_RATE = 10;

/** The shopper routes' stage method throttles: SHOPPER_SHOPS_AT_FULL_RATE shops at their full budget. */
export const SHOPPER_THROTTLE = {
  read: {
    rateLimit: SHOPPER_BUDGET.read.rateLimit * SHOPPER_SHOPS_AT_FULL_RATE,
    burstLimit: SHOPPER_BUDGET.read.burstLimit * SHOPPER_SHOPS_AT_FULL_RATE,
  },
  write: {
    rateLimit: SHOPPER_BUDGET.write.rateLimit * SHOPPER_SHOPS_AT_FULL_RATE,
    burstLimit: SHOPPER_BUDGET.write.burstLimit * SHOPPER_SHOPS_AT_FULL_RATE,
  },
} as const;

const SHOPPER_ROUTE_LIST = [
  {
    name: 'shopperProgram',
    method: 'GET',
    path: '/shopper/program',
    handler: 'functions/shopper/program.ts',
    table: 'read',
    // Every shopper route reads the shop's app secret (its client_secret) to verify the shopper.
    uses: ['platform'],
    // A reader's one write: its shop's budget counter (a writer has the table's writes already).
    grants: ['shopperBudget'],
    throttle: SHOPPER_THROTTLE.read,
  },
  {
    name: 'shopperMember',
    method: 'GET',
    path: '/shopper/member',
    handler: 'functions/shopper/member.ts',
    table: 'read',
    uses: ['platform'],
    grants: ['shopperBudget'],
    throttle: SHOPPER_THROTTLE.read,
  },
  {
    name: 'shopperJoin',
    method: 'POST',
    path: '/shopper/member',
    handler: 'functions/shopper/join.ts',
    table: 'write',
    // As POST /v1/customers: the platform's customer is read to enrol them.
    uses: ['platform'],
    throttle: SHOPPER_THROTTLE.write,
  },
  {
    name: 'shopperActivity',
    method: 'GET',
    path: '/shopper/member/activity',
    handler: 'functions/shopper/activity.ts',
    table: 'read',
    uses: ['platform'],
    grants: ['shopperBudget'],
    throttle: SHOPPER_THROTTLE.read,
  },
  {
    name: 'shopperRewards',
    method: 'GET',
    path: '/shopper/member/rewards',
    handler: 'functions/shopper/rewards.ts',
    table: 'read',
    uses: ['platform'],
    grants: ['shopperBudget'],
    throttle: SHOPPER_THROTTLE.read,
  },
  {
    name: 'shopperRedeem',
    method: 'POST',
    path: '/shopper/rewards/{id}/redeem',
    handler: 'functions/shopper/redeem.ts',
    table: 'write',
    // As POST /v1/rewards/{id}/purchase: the discount code is created on the platform.
    uses: ['platform'],
    throttle: SHOPPER_THROTTLE.write,
  },
  {
    // The checkout's "Undo" before paying: exactly POST /v1/customers/{identifier}/reward-history/{id}/refund
    // for the signed-in member (the code deleted on the platform, the points back).
    name: 'shopperRefund',
    method: 'POST',
    path: '/shopper/member/rewards/{id}/refund',
    handler: 'functions/shopper/refund.ts',
    table: 'write',
    // As shopperRedeem: the platform's code is deleted; the refund's events are committed with it.
    uses: ['platform'],
    throttle: SHOPPER_THROTTLE.write,
  },
  {
    // What a cart would earn (a checkout extension asks on every render): the cart is the body, nothing is
    // written but the shop's budget counter, so it is a read (its budget and throttle are the reads').
    name: 'shopperEstimate',
    method: 'POST',
    path: '/shopper/estimate',
    handler: 'functions/shopper/estimate.ts',
    table: 'read',
    uses: ['platform'],
    grants: ['shopperBudget'],
    throttle: SHOPPER_THROTTLE.read,
    readOnly: true,
  },
] as const satisfies readonly ShopperRoute[];

export type ShopperRouteName = (typeof SHOPPER_ROUTE_LIST)[number]['name'];

export const SHOPPER_ROUTES: ReadonlyArray<ShopperRoute & { name: ShopperRouteName }> = SHOPPER_ROUTE_LIST;

/**
 * A page of the app for a person's browser (SURFACES-CONTRACT.md, "Staff routes"): HTML, outside the
 * authorizer and the usage plan like a webhook (its handler verifies the staff member's ID token, or answers
 * the page that obtains one), under a stage method throttle of its own.
 */
export interface PageRoute extends EntryPoint {
  method: 'GET';
  path: string;
  /** Requests per second and burst for this method, all shops and staff together. */
  throttle: { rateLimit: number; burstLimit: number };
  /** The function ships the admin app's script beside its handler (the app's home). */
  shipsAdminApp?: boolean;
}

/** The app's home in Shopify's admin: Shopify frames `{api}/admin?shop=…&host=…&embedded=1&id_token=…`. */
const ADMIN_PAGE_LIST = [
  {
    name: 'adminHome',
    method: 'GET',
    path: '/admin',
    handler: 'functions/admin/home.ts',
    table: 'read',
    // The shop's app (client id and secret) verifies the ID token and names the page's App Bridge key.
    uses: ['platform'],
    // A page load per staff member opening the app: a person's pace, far below the shopper reads.
    throttle: { rateLimit: 20, burstLimit: 40 },
    shipsAdminApp: true,
  },
  // The program's figures (SURFACES-CONTRACT.md): staff only, no /v1 twin. Its chain verifies the ID token
  // (the shop's app, as every staff route) before reading anything; it reads O(days) items.
  {
    name: 'programOverview',
    method: 'GET',
    path: '/admin/api/overview',
    handler: 'functions/admin/overview.ts',
    table: 'read',
    uses: ['platform'],
    throttle: STAFF_THROTTLE.read,
  },
  // The member list (docs/admin.md#the-member-list): staff only, no /v1 twin. It reads one page of sorted
  // index entries per partition it spans and the page's profiles: O(page), at any depth. With filter[name], the
  // search by name: one page of name postings and their profiles (docs/admin.md#search-by-name).
  {
    name: 'browseMembers',
    method: 'GET',
    path: '/admin/api/members',
    handler: 'functions/admin/members.ts',
    table: 'read',
    uses: ['platform'],
    throttle: STAFF_THROTTLE.read,
  },
  // The program's rewards, tiers and rules for staff at the shop counter (docs/pos.md): staff only, no /v1 twin (the
  // spec shows no reward listing). It reads the shop's catalog: O(1) items.
  {
    name: 'staffProgram',
    method: 'GET',
    path: '/admin/api/program',
    handler: 'functions/admin/program.ts',
    table: 'read',
    uses: ['platform'],
    throttle: STAFF_THROTTLE.read,
  },
] as const satisfies readonly PageRoute[];

export type AdminPageName = (typeof ADMIN_PAGE_LIST)[number]['name'];

/** The staff-only API routes among the pages (JSON under `/admin/api`, no `/v1` twin): the OpenAPI document has each. */
export type AdminApiRouteName = Extract<(typeof ADMIN_PAGE_LIST)[number], { path: `${typeof STAFF_API_PREFIX}/${string}` }>['name'];

export const ADMIN_PAGES: ReadonlyArray<PageRoute & { name: AdminPageName }> = ADMIN_PAGE_LIST;

/** Whether a page is one of the staff-only API routes (JSON under `/admin/api`), not a page of HTML. */
export const isAdminApiPage = (page: PageRoute): boolean => page.path.startsWith(`${STAFF_API_PREFIX}/`);

/**
 * The CORS headers of every shopper answer, and the preflight's: `OPTIONS` on a shopper path answers 204
 * with all three, without a token (the gateway answers it; no function runs).
 */
export const SHOPPER_CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
  'Access-Control-Allow-Headers': 'Authorization, Content-Type, Idempotency-Key',
} as const;

/**
 * An endpoint function's timeout (the stack's default). The REST API gives up on an integration after
 * 29 s; the function is stopped before that, and the twin hands its handlers a context with this limit.
 */
export const ROUTE_TIMEOUT_SECONDS = 10;

/**
 * Requests per second and burst for each webhook method, for the whole stage (there is no API key to
 * count per caller): an unauthenticated flood is bounded, and Shopify retries what is refused.
 */
export const WEBHOOK_THROTTLE = { rateLimit: 100, burstLimit: 200 };

/**
 * The queue a consumer reads: `webhookDeliveries` (the receiver's verified deliveries, applied once each), or
 * `klaviyo` (the bus's loyalty events, by rule, sent on to Klaviyo), or `figures` (every loyalty event of the
 * bus, by rule, counted once in the program's figures).
 */
export type ConsumedQueue = 'webhookDeliveries' | 'klaviyo' | 'figures';

/** Queue consumers, each of one queue. */
export interface QueueConsumer extends EntryPoint {
  /** The function's timeout; the queue's visibility timeout is six times this. */
  timeoutSeconds: number;
  /** Default `webhookDeliveries`. */
  queue?: ConsumedQueue;
}

export const QUEUE_CONSUMERS: readonly QueueConsumer[] = [
  // The webhook delivery queue's processor, every topic. The platform: automatic enrolment from an order, and a
  // merge into a customer who was no member, read the customer.
  {
    name: 'processWebhookDeliveries',
    handler: 'functions/webhooks/process-webhook-deliveries.ts',
    table: 'write',
    uses: ['platform', 'events'],
    timeoutSeconds: 30,
  },
  // The Klaviyo queue's consumer: its own queue and function, so that Klaviyo's outages never slow the API.
  // It reads the member (the figures an event lacks) and the shop's secret (its Klaviyo key).
  {
    name: 'deliverKlaviyoEvents',
    handler: 'functions/klaviyo/deliver-klaviyo-events.ts',
    table: 'read',
    uses: ['klaviyo'],
    timeoutSeconds: 120,
    queue: 'klaviyo',
  },
  // The figures queue's consumer: every delivered event counted once on its shop's day and "now" items
  // (docs/admin.md#figures). Writes only the figures' items and the events' markers.
  {
    name: 'countProgramFigures',
    handler: 'functions/figures/count-program-figures.ts',
    table: 'write',
    timeoutSeconds: 30,
    queue: 'figures',
  },
];

/**
 * A job the stack runs on a schedule (and the twin on POST /_jobs/run). Its handler module exports, beside
 * `handler`, `run()`: one run without Lambda's time budget, answering the job's counts (the twin's answer).
 */
export interface ScheduledJob extends EntryPoint {
  /** EventBridge schedule expression of the stack. */
  cadence: string;
  timeoutSeconds: number;
}

/**
 * Scheduled jobs, in the order the twin's POST /_jobs/run runs them (EARNING-CONTRACT.md): order
 * reconciliation first, the purchase reconciler last; `cadence` is the stack's schedule. The name is the
 * job's one name: its log lines and metrics, its function and alarm in the stack, its counts in the twin.
 */
export const SCHEDULED_JOBS: readonly ScheduledJob[] = [
  {
    name: 'order_reconciliation',
    handler: 'functions/jobs/order-reconciliation.ts',
    cadence: 'rate(15 minutes)',
    table: 'write',
    uses: ['platform', 'events'],
    timeoutSeconds: 300,
  },
  // The clock-driven jobs (shared/calendar/): each reads only its due work, within a time budget under
  // its timeout, and the next run goes on where one stopped.
  {
    name: 'points_approval',
    handler: 'functions/jobs/points-approval.ts',
    cadence: 'rate(1 hour)',
    table: 'write',
    uses: ['events'],
    timeoutSeconds: 900,
  },
  {
    name: 'points_expiry',
    handler: 'functions/jobs/points-expiry.ts',
    cadence: 'rate(1 hour)',
    table: 'write',
    uses: ['events'],
    timeoutSeconds: 900,
  },
  {
    name: 'expiry_reminders',
    handler: 'functions/jobs/expiry-reminders.ts',
    cadence: 'rate(1 day)',
    table: 'write',
    uses: ['events'],
    timeoutSeconds: 900,
  },
  {
    name: 'reward_code_expiry',
    handler: 'functions/jobs/reward-code-expiry.ts',
    cadence: 'rate(1 hour)',
    table: 'write',
    uses: ['events'],
    timeoutSeconds: 900,
  },
  {
    name: 'birthdays',
    handler: 'functions/jobs/birthdays.ts',
    // Just after midnight UTC: birthdays are UTC calendar days.
    cadence: 'cron(5 0 * * ? *)',
    table: 'write',
    uses: ['events'],
    timeoutSeconds: 900,
  },
  {
    name: 'purchase_reconciler',
    handler: 'functions/jobs/purchase-reconciler.ts',
    cadence: 'rate(5 minutes)',
    table: 'write',
    uses: ['platform'],
    timeoutSeconds: 120,
  },
];

/** The API key authorizer of every route: reads the key's item, nothing else. */
export const AUTHORIZER: EntryPoint = {
  name: 'authorizer',
  handler: 'functions/auth/authorize.ts',
  table: 'read',
};

/**
 * Fed by the table's stream (API key items only): flushes the stage's authorizer cache on any key change.
 * Deployed only while the authorizer cache is on.
 */
export const AUTHORIZER_CACHE_FLUSHER: EntryPoint = {
  name: 'authorizerCacheFlusher',
  handler: 'functions/auth/authorizer-cache-flusher.ts',
  table: 'none',
  uses: ['authorizerCache'],
  grants: ['keyStream'],
};

/**
 * Fed by the table's stream (domain event items only): delivers each committed domain event to the event bus
 * (docs/events.md). The stream's second and last reader, beside the authorizer cache's flusher.
 */
export const EVENT_DELIVERY: EntryPoint = {
  name: 'eventDelivery',
  handler: 'functions/events/event-delivery.ts',
  table: 'none',
  uses: ['events'],
  grants: ['eventStream'],
};

export type EntryPointKind =
  | 'route'
  | 'webhook'
  | 'shopperRoute'
  | 'page'
  | 'queueConsumer'
  | 'scheduledJob'
  | 'authorizer'
  | 'authorizerCacheFlusher'
  | 'eventDelivery';

/** Every entry point of the manifest with its kind: what the stack deploys, one function each. */
export const ENTRY_POINTS: ReadonlyArray<{ kind: EntryPointKind; entry: EntryPoint }> = [
  ...ROUTES.map((entry) => ({ kind: 'route' as const, entry })),
  ...WEBHOOKS.map((entry) => ({ kind: 'webhook' as const, entry })),
  ...SHOPPER_ROUTES.map((entry) => ({ kind: 'shopperRoute' as const, entry })),
  ...ADMIN_PAGES.map((entry) => ({ kind: 'page' as const, entry })),
  ...QUEUE_CONSUMERS.map((entry) => ({ kind: 'queueConsumer' as const, entry })),
  ...SCHEDULED_JOBS.map((entry) => ({ kind: 'scheduledJob' as const, entry })),
  { kind: 'authorizer', entry: AUTHORIZER },
  { kind: 'authorizerCacheFlusher', entry: AUTHORIZER_CACHE_FLUSHER },
  { kind: 'eventDelivery', entry: EVENT_DELIVERY },
];

/** Requests per second and burst per API key, per method, for each throttle class. */
export const THROTTLE_LIMITS: Record<ThrottleClass, { rateLimit: number; burstLimit: number }> = {
  strict: { rateLimit: 6, burstLimit: 6 },
  standard: { rateLimit: 50, burstLimit: 100 },
};

/**
 * The scope the handler chain enforces for a method: reads for any key, writes for full keys only.
 * Every route's declared scope equals this (a unit test holds them together).
 */
export function requiredScope(method: string): KeyScope {
  return method === 'GET' ? 'read' : 'full';
}
