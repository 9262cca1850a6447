// The route manifest: the only place an endpoint is declared. The CDK stack creates one function and
// one API Gateway method per entry; the local gateway dispatches to the very same handler modules.

export type HttpMethod = 'GET' | 'POST' | 'PUT';
/** `read`: any key; `write`: full-access keys only (read-only keys get 403 before the handler works). */
export type RouteScope = 'read' | 'write';
/** `strict`: the spec's 6 requests/second per key; `standard`: the generous default. */
export type ThrottleClass = 'strict' | 'standard';

export interface Route {
  /** Stable name: CDK construct ids, log fields and metrics use it. */
  name: string;
  method: HttpMethod;
  /** API Gateway resource path with {params}. */
  path: string;
  /** Handler module, relative to the project root; exports `handler`. */
  handler: string;
  scope: RouteScope;
  throttle: ThrottleClass;
  /** Outside services the handler calls, so the stack grants exactly those. */
  uses?: ReadonlyArray<'platform' | 'events'>;
}

const MANIFEST = [
  { name: 'listCustomers', method: 'GET', path: '/v1/customers', handler: 'functions/customers/list.ts', scope: 'read', throttle: 'standard' },
  { name: 'enrollCustomer', method: 'POST', path: '/v1/customers', handler: 'functions/customers/enroll.ts', scope: 'write', throttle: 'standard', uses: ['platform'] },
  { name: 'getCustomer', method: 'GET', path: '/v1/customers/{identifier}', handler: 'functions/customers/get.ts', scope: 'read', throttle: 'standard' },
  { name: 'updateCustomer', method: 'PUT', path: '/v1/customers/{identifier}', handler: 'functions/customers/update.ts', scope: 'write', throttle: 'standard' },
  { name: 'getCustomerBirthday', method: 'GET', path: '/v1/customers/{identifier}/birthday', handler: 'functions/customers/birthday.ts', scope: 'read', throttle: 'strict' },
  { name: 'getCustomerAnniversary', method: 'GET', path: '/v1/customers/{identifier}/anniversary', handler: 'functions/customers/anniversary.ts', scope: 'read', throttle: 'strict' },
  { name: 'adjustPoints', method: 'POST', path: '/v1/customers/{identifier}/points', handler: 'functions/points/adjust.ts', scope: 'write', throttle: 'standard', uses: ['events'] },
  { name: 'listEarningHistory', method: 'GET', path: '/v1/customers/{identifier}/earning-history', handler: 'functions/history/list-earning.ts', scope: 'read', throttle: 'strict' },
  { name: 'getEarningHistoryEntry', method: 'GET', path: '/v1/customers/{identifier}/earning-history/{id}', handler: 'functions/history/get-earning.ts', scope: 'read', throttle: 'strict' },
  { name: 'listRewardHistory', method: 'GET', path: '/v1/customers/{identifier}/reward-history', handler: 'functions/history/list-rewards.ts', scope: 'read', throttle: 'strict' },
  { name: 'getRewardHistoryEntry', method: 'GET', path: '/v1/customers/{identifier}/reward-history/{id}', handler: 'functions/history/get-reward.ts', scope: 'read', throttle: 'strict' },
  { name: 'purchaseReward', method: 'POST', path: '/v1/rewards/{id}/purchase', handler: 'functions/rewards/purchase.ts', scope: 'write', throttle: 'standard', uses: ['platform'] },
  { name: 'listEarningRules', method: 'GET', path: '/v1/earning-rules', handler: 'functions/earning-rules/list.ts', scope: 'read', throttle: 'standard' },
  { name: 'listVipTiers', method: 'GET', path: '/v1/vip-tiers', handler: 'functions/vip-tiers/list.ts', scope: 'read', throttle: 'standard' },
] as const satisfies readonly Route[];

/** The manifest's route names as a union: a table keyed by it (the OpenAPI docs) must name every route. */
export type RouteName = (typeof MANIFEST)[number]['name'];
export const ROUTES: ReadonlyArray<Route & { name: RouteName }> = MANIFEST;

export const AUTHORIZER_HANDLER = 'functions/authorizer.ts';
/** Scheduled, not routed: settles purchases left pending by a crash. */
export const RECONCILER_HANDLER = 'functions/reconciler.ts';

/** Requests per second and burst per API key, per method, for each throttle class. */
export const THROTTLE_LIMITS: Record<ThrottleClass, { rateLimit: number; burstLimit: number }> = {
  strict: { rateLimit: 6, burstLimit: 6 },
  standard: { rateLimit: 50, burstLimit: 100 },
};
