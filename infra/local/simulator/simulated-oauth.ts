// Shopify's client credentials grant for the simulated shops that carry a client_id: POST
// /admin/oauth/access_token (or /{shop}/admin/oauth/access_token, as https://{shop_domain}/... is) grants
// opaque tokens for the right pair, the Admin API accepts a shop's own unexpired tokens only, and
// /_oauth/tokens lists the grants or expires them all at once. Tokens live in real time, never the twin's
// domain clock, so moving PUT /_clock does not expire them.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SHOPIFY_ACCESS_SCOPES } from '../../../shared/platform/shopify-app';
import { readBody, sendJson } from '../http-server';
import type { SimulatedShops } from './simulated-shops';
import { methodNotAllowed } from './simulator-http';

/** One grant as GET /_oauth/tokens lists it: never the token itself. */
export interface OAuthTokenGrant {
  shop: string;
  issued_at: string;
  expires_at: string;
}

export interface SimulatedOAuth {
  /** Whether the Admin API takes a request of this shop with this X-Shopify-Access-Token. */
  accepts(shopId: string, token: string | undefined): boolean;
  /** Every grant so far, oldest first. */
  grants(): OAuthTokenGrant[];
  /** Every token granted so far expires now, as if its time had run out; answers the grants. */
  expireAll(): OAuthTokenGrant[];
  /** POST [/{shop}]/admin/oauth/access_token; `shopId` null for the bare path. */
  handleGrant(req: IncomingMessage, res: ServerResponse, shopId: string | null): Promise<void>;
  /** GET or DELETE /_oauth/tokens. */
  handleTokens(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export interface SimulatedOAuthOptions {
  shops: SimulatedShops;
  /** The lifetime in force when a token is granted (PUT /_faults token_lifetime_seconds). */
  lifetimeSeconds: () => number;
  /** Real time in ms since the epoch; default Date.now. Tests move it instead of sleeping. */
  realNow?: () => number;
}

/** Shopify's answer to every Admin API request without a valid token. */
export const INVALID_TOKEN_BODY = { errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' };

// What the store granted the app: every scope the service asks for.
const GRANTED_SCOPE = SHOPIFY_ACCESS_SCOPES.map((entry) => entry.scope).join(',');

interface Token {
  shop: string;
  issuedAt: number;
  expiresAt: number;
}

/** The grant's fields, form-encoded as Shopify documents it, or as JSON. */
function grantFields(body: string, contentType: string | undefined): Record<string, string> | null {
  const looksJson = contentType?.includes('json') || body.trimStart().startsWith('{');
  if (!looksJson) return Object.fromEntries(new URLSearchParams(body));
  try {
    const parsed = JSON.parse(body) as unknown;
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
    return Object.fromEntries(Object.entries(parsed).flatMap(([key, value]) => (typeof value === 'string' ? [[key, value]] : [])));
  } catch {
    return null;
  }
}

/** Compares secrets in constant time (hashing first makes the lengths equal). */
function sameSecret(given: string, expected: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function oauthError(res: ServerResponse, error: string, description: string): void {
  sendJson(res, 400, { error, error_description: description });
}

export function createSimulatedOAuth(options: SimulatedOAuthOptions): SimulatedOAuth {
  const { shops, lifetimeSeconds } = options;
  const realNow = options.realNow ?? Date.now;
  // Grant order is kept so that tests can count the grants a burst of calls caused.
  const tokens = new Map<string, Token>();

  const grants = (): OAuthTokenGrant[] =>
    [...tokens.values()].map((token) => ({
      shop: token.shop,
      issued_at: new Date(token.issuedAt).toISOString(),
      expires_at: new Date(token.expiresAt).toISOString(),
    }));

  const expireAll = (): OAuthTokenGrant[] => {
    const now = realNow();
    for (const token of tokens.values()) token.expiresAt = Math.min(token.expiresAt, now);
    return grants();
  };

  return {
    accepts(shopId, token) {
      // A shop without client credentials keeps the simulator's old rule: any token will do.
      if (!shops.credentials(shopId)) return Boolean(token);
      const granted = token ? tokens.get(token) : undefined;
      return granted !== undefined && granted.shop === shopId && realNow() < granted.expiresAt;
    },
    grants,
    expireAll,

    async handleGrant(req, res, shopId) {
      if (req.method !== 'POST') return methodNotAllowed(res, 'POST');
      if (shopId !== null && !shops.has(shopId)) return sendJson(res, 404, { errors: 'Not Found' });
      const fields = grantFields(await readBody(req), req.headers['content-type']);
      if (!fields) return oauthError(res, 'invalid_request', 'The body must be form-encoded or a JSON object');
      if (!fields.grant_type) return oauthError(res, 'invalid_request', 'grant_type is missing');
      if (fields.grant_type !== 'client_credentials') {
        return oauthError(res, 'unsupported_grant_type', `The grant type '${fields.grant_type}' is not supported; use client_credentials`);
      }
      const clientId = fields.client_id ?? '';
      // The bare path finds the shop by its app; one app installed in several shops needs the shop's path.
      const owners = shopId === null ? shops.shopsWithClientId(clientId) : [];
      if (owners.length > 1) {
        return oauthError(
          res,
          'invalid_request',
          `client_id belongs to several shops (${owners.join(', ')}): ask at /{shop}/admin/oauth/access_token`,
        );
      }
      const shop = shopId ?? owners[0];
      const credentials = shop === undefined ? null : shops.credentials(shop);
      if (!shop || !credentials || credentials.clientId !== clientId || !sameSecret(fields.client_secret ?? '', credentials.clientSecret)) {
        return oauthError(
          res,
          'invalid_client',
          'Client authentication failed due to unknown client, no client authentication included, or unsupported authentication method.',
        );
      }
      const lifetime = lifetimeSeconds();
      const issuedAt = realNow();
      const accessToken = `shpat_${randomBytes(16).toString('hex')}`;
      tokens.set(accessToken, { shop, issuedAt, expiresAt: issuedAt + lifetime * 1000 });
      sendJson(res, 200, { access_token: accessToken, scope: GRANTED_SCOPE, expires_in: lifetime });
    },

    async handleTokens(req, res) {
      if (req.method === 'GET') return sendJson(res, 200, { tokens: grants() });
      if (req.method === 'DELETE') return sendJson(res, 200, { tokens: expireAll() });
      methodNotAllowed(res, 'GET, DELETE');
    },
  };
}
