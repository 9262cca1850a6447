// The shopper routes' edge: who the shopper is (SURFACES-CONTRACT.md), verified before anything else of the
// request is read, and what the routes read of a request once it is: a redemption's points and the
// activity's page. A customer id anywhere in the path, query or body is never read: the shopper is the
// customer the app proxy signature or the session token names, and no one else.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import * as z from 'zod/mini';
import { unauthorized } from '../http/errors';
import { headerValue } from '../http/headers';
import { positiveInteger } from '../http/query';
import { createShopperHandler, type Shopper, type ShopperHandlerOptions, type ShopperRequest } from '../http/shopper-handler';
import type { HttpResult } from '../http/handler';
import { parseBody } from '../http/validation';
import { APP_PROXY_PARAMETERS, verifyAppProxy } from './app-proxy';
import { verifySessionToken } from './session-token';
import { shopAppOf, type ShopApp } from './shopper-apps';

export const SIGN_IN_DETAIL = 'Sign in to your account to join the program, see your points and redeem rewards';

const NO_IDENTITY =
  "No shopper identity: call through the shop's app proxy (/apps/loyalty/...) or send a customer session token as 'Authorization: Bearer <token>'";

/**
 * What the shopper routes read of a proxied query (the activity's page), each value short and without `=`: the
 * route itself answers a value that is no page number with its 400. With every key fixed and the customer id
 * digits only, such a value cannot move where the signed customer's pair ends (shared/shopper/app-proxy.ts).
 */
export const SHOPPER_QUERY_KEYS = { 'page[number]': /^[^=]{0,20}$/, 'page[size]': /^[^=]{0,20}$/ } as const;

/** The query's pairs as API Gateway hands them over: every value of a repeated key, in the order sent. */
function queryPairs(event: APIGatewayProxyEvent): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  const multi = event.multiValueQueryStringParameters;
  if (multi) {
    for (const [key, values] of Object.entries(multi)) for (const value of values ?? []) pairs.push([key, value]);
    return pairs;
  }
  for (const [key, value] of Object.entries(event.queryStringParameters ?? {})) if (value !== undefined) pairs.push([key, value]);
  return pairs;
}

/**
 * The verified shopper. A request with any of the app proxy's parameters is verified as one (its
 * signature covers the whole query); otherwise the `Authorization: Bearer` session token. Each refusal is a 401
 * naming what failed.
 */
export async function identifyShopper(event: APIGatewayProxyEvent): Promise<Shopper> {
  const realNow = Date.now();
  const apps = new Map<string, ShopApp>();
  const appOf = async (shopDomain: string) => {
    const app = await shopAppOf(shopDomain);
    if (!('refused' in app)) apps.set(shopDomain, app);
    return app;
  };
  const pairs = queryPairs(event);
  if (pairs.some(([key]) => (APP_PROXY_PARAMETERS as readonly string[]).includes(key))) {
    const result = await verifyAppProxy(pairs, appOf, realNow, SHOPPER_QUERY_KEYS);
    if (!result.verified) throw unauthorized(result.reason);
    return { shopId: apps.get(result.shopDomain)!.shopId, shopDomain: result.shopDomain, customerId: result.customerId, via: 'app_proxy' };
  }
  const authorization = headerValue(event.headers, 'authorization');
  if (authorization === undefined || authorization.trim() === '') throw unauthorized(NO_IDENTITY);
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (!bearer) throw unauthorized("The Authorization header must be 'Bearer <customer session token>'");
  const result = await verifySessionToken(bearer[1]!, appOf, realNow);
  if (!result.verified) throw unauthorized(result.reason);
  return {
    shopId: apps.get(result.shopDomain)!.shopId,
    shopDomain: result.shopDomain,
    customerId: result.customerId,
    via: 'session_token',
  };
}

/** A shopper route's handler: the shopper verified first, then `run`. */
export function shopperHandler(run: (request: ShopperRequest) => Promise<HttpResult>, options: ShopperHandlerOptions = {}) {
  return createShopperHandler(identifyShopper, run, options);
}

/** The signed-in customer, or a 401 asking a guest to sign in. */
export function signedInCustomer(shopper: Shopper): string {
  if (shopper.customerId === null) throw unauthorized(SIGN_IN_DETAIL);
  return shopper.customerId;
}

// Only `points` is read: whatever else the body holds (a customer id, say) is ignored.
export const redeemBodySchema = z.object({ points: z.optional(z.int({ error: 'points must be an integer' })) });

/** The body of POST /shopper/rewards/{id}/redeem: `{}`, or `{ "points": N }` for a flexible reward. */
export function parseRedeemBody(body: unknown): { points: number | null } {
  return { points: parseBody(redeemBodySchema, body).points ?? null };
}

export const ACTIVITY_PAGE = { default: 10, max: 50 } as const;

/** The activity's page: `page[number]`, `page[size]` (default 10; above 50 read as 50). */
export function parseActivityPage(query: Record<string, string>): { number: number; size: number; offset: number } {
  const number = query['page[number]'] === undefined ? 1 : positiveInteger('page[number]', query['page[number]']);
  const requested = query['page[size]'] === undefined ? ACTIVITY_PAGE.default : positiveInteger('page[size]', query['page[size]']);
  const size = Math.min(requested, ACTIVITY_PAGE.max);
  return { number, size, offset: (number - 1) * size };
}
