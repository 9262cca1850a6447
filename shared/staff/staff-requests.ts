// The staff routes' edge (SURFACES-CONTRACT.md, "Staff routes"): who the staff user is, verified from the
// admin ID token App Bridge sends as `Authorization: Bearer <token>` before anything else of the request is
// read, and the handler every /v1 route is built with, which also serves the route's /admin/api twin.
//
// A missing, expired or forged ID token (a bearer value that is no JWT at all included) is refused with
// `X-Shopify-Retry-Invalid-Session-Request: 1`, which tells App Bridge to fetch a fresh token and send the
// request again. A credential of another kind (an API
// key, a customer session token) is refused without it: a fresh ID token is not what that caller lacks. Nor
// is a shop with legacy credentials: it has no app, so no token of it can ever be verified.
import type { APIGatewayProxyEvent } from 'aws-lambda';
import { decodeJwt } from 'jose';
import { isWellFormedApiKey } from '../domain/api-key';
import { ApiError } from '../http/errors';
import { createHandler as createHttpHandler, type HandlerOptions, type HttpRequest, type HttpResult } from '../http/handler';
import { headerValue, headerValues } from '../http/headers';
import { shopAppOf } from '../shopper/shopper-apps';
import { looksLikeIdToken, verifyIdToken } from './id-token';

/** The header Shopify's App Bridge reads on a 401: `1` asks it to fetch a new ID token and retry. */
export const RETRY_INVALID_SESSION_HEADER = 'X-Shopify-Retry-Invalid-Session-Request';

const retry = (detail: string) => new ApiError(401, detail, undefined, { [RETRY_INVALID_SESSION_HEADER]: '1' });
const refuse = (detail: string) => new ApiError(401, detail);

export const STAFF_DETAILS = {
  missing: "Missing Authorization header: /admin/api takes App Bridge's ID token as 'Authorization: Bearer <ID token>'",
  apiKey: "An API key authorizes /v1 only: /admin/api takes App Bridge's ID token as 'Authorization: Bearer <ID token>'",
  notIdToken:
    "The bearer token is not an admin ID token (a customer session token authorizes /shopper only): /admin/api takes App Bridge's ID token",
  notJwt: "The bearer token is not a JWT: /admin/api takes App Bridge's ID token as 'Authorization: Bearer <ID token>'",
  notBearer: "The Authorization header on /admin/api must be 'Bearer <ID token>'",
  ambiguous: 'Send exactly one Authorization header: this request carries more than one',
  legacy: 'has legacy credentials (no client_id and client_secret): it has no embedded app, so its staff cannot be verified',
} as const;

/** Whether the value decodes as a JWT (three base64url parts, a JSON payload), signature unchecked. */
function isJwt(token: string): boolean {
  try {
    decodeJwt(token);
    return true;
  } catch {
    return false;
  }
}

/** The shop's app by its domain; a shop with legacy credentials told in the staff's words. */
async function appOf(shopDomain: string) {
  const app = await shopAppOf(shopDomain);
  if (!('refused' in app) || !app.legacy) return app;
  return { refused: app.refused.replace(/has legacy credentials.*$/, STAFF_DETAILS.legacy), legacy: true };
}

/** The shop and staff user of a staff route's request; each refusal is a 401 naming what failed. */
export async function identifyStaff(event: APIGatewayProxyEvent) {
  const realNow = Date.now();
  if (headerValues(event.multiValueHeaders, 'authorization').length > 1) throw refuse(STAFF_DETAILS.ambiguous);
  const authorization = headerValue(event.headers, 'authorization')?.trim();
  if (authorization === undefined || authorization === '') throw retry(STAFF_DETAILS.missing);
  const bearer = /^Bearer\s+(\S+)$/i.exec(authorization);
  if (!bearer) throw refuse(isWellFormedApiKey(authorization) ? STAFF_DETAILS.apiKey : STAFF_DETAILS.notBearer);
  const token = bearer[1]!;
  if (!looksLikeIdToken(token)) {
    if (isWellFormedApiKey(token)) throw refuse(STAFF_DETAILS.apiKey);
    // No JWT at all: a forged (or mangled) ID token, which App Bridge replaces with a fresh one.
    if (!isJwt(token)) throw retry(STAFF_DETAILS.notJwt);
    throw refuse(STAFF_DETAILS.notIdToken);
  }
  const shops = new Map<string, string>();
  const result = await verifyIdToken(
    token,
    async (shopDomain) => {
      const app = await appOf(shopDomain);
      if (!('refused' in app)) shops.set(shopDomain, app.shopId);
      return app;
    },
    realNow,
  );
  if (!result.verified) throw result.legacy ? refuse(result.reason) : retry(result.reason);
  return { shopId: shops.get(result.shopDomain)!, actor: { type: 'staff' as const, id: result.userId } };
}

/**
 * A /v1 route's handler (shared/http/handler.ts's chain) that also serves the route's /admin/api twin: there
 * the staff user is verified first, the scope is full and `caller.actor` names the staff user.
 */
export function createHandler(run: (request: HttpRequest) => Promise<HttpResult>, options: Omit<HandlerOptions, 'staff'> = {}) {
  return createHttpHandler(run, { ...options, staff: identifyStaff });
}
