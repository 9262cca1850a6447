// What GET /admin answers (SURFACES-CONTRACT.md, "Staff routes"): with a valid `id_token` the app's home for
// the shop the token names; without one App Bridge's bounce, as Shopify's own app libraries do it: first a
// redirect to the same address with `shopify-reload` (the address to come back to, `id_token` left out), then
// the bounce page, on which App Bridge obtains a fresh token and loads that address with it. Never the
// program's data: the page itself holds none, and its API calls carry the token App Bridge adds.
import { SHOP_DOMAIN } from '../shopper/session-token';
import { shopAppOf } from '../shopper/shopper-apps';
import { type IdTokenResult, verifyIdToken } from './id-token';

export type AdminHome =
  /** The app's page for the verified shop; `clientId` is App Bridge's `shopify-api-key`. */
  | { kind: 'page'; shopDomain: string; clientId: string; userId: string }
  /** App Bridge alone, which reloads `shopify-reload` with a fresh ID token. */
  | { kind: 'bounce'; shopDomain: string; clientId: string; reason: string }
  /** Send the browser to `location` (the same page with `shopify-reload`; a path, relative to the API's own address) first. */
  | { kind: 'redirect'; location: string; reason: string }
  /** No shop of this service can be named: nothing to bounce to. */
  | { kind: 'refused'; reason: string };

export interface AdminHomeRequest {
  /** The request's query parameters (the last value of each). */
  query: Readonly<Record<string, string | undefined>>;
  /** The page's own path without its query (`/prod/admin`): the redirect and `shopify-reload` name no host. */
  pagePath: string;
}

/** Verifies the request's `id_token` and says what to answer. `nowMs` is real time, as the token's. */
export async function openAdminHome(request: AdminHomeRequest, nowMs: number = Date.now()): Promise<AdminHome> {
  const token = request.query.id_token;
  let reason = 'The request has no id_token';
  if (token !== undefined && token !== '') {
    const result: IdTokenResult = await verifyIdToken(token, shopAppOf, nowMs);
    if (result.verified) {
      const app = await shopAppOf(result.shopDomain);
      if (!('refused' in app)) return { kind: 'page', shopDomain: result.shopDomain, clientId: app.clientId, userId: result.userId };
      return { kind: 'refused', reason: app.refused };
    }
    reason = result.reason;
  }
  const shopDomain = (request.query.shop ?? '').toLowerCase();
  if (!SHOP_DOMAIN.test(shopDomain)) return { kind: 'refused', reason: `${reason}, and the shop parameter names no shop domain` };
  const app = await shopAppOf(shopDomain);
  if ('refused' in app) return { kind: 'refused', reason: app.refused };
  if (request.query['shopify-reload'] !== undefined) return { kind: 'bounce', shopDomain, clientId: app.clientId, reason };
  const kept = new URLSearchParams();
  for (const [name, value] of Object.entries(request.query)) if (name !== 'id_token' && value !== undefined) kept.set(name, value);
  const reload = `${request.pagePath}?${kept.toString()}`;
  kept.set('shopify-reload', reload);
  return { kind: 'redirect', location: `${request.pagePath}?${kept.toString()}`, reason };
}
