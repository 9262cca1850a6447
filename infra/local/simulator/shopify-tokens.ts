// The tokens and signatures Shopify makes, made as Shopify makes them, for the twin's platform simulator (its
// `POST /_session_tokens` and `POST /_id_tokens`, the pages it hosts, its app proxy) and the tests. The service
// only verifies them (shared/shopper/session-token.ts, shared/staff/id-token.ts, shared/platform/app-proxy-signature.ts):
// nothing in production mints one.
import { SignJWT } from 'jose';
import { appProxySignature } from '../../../shared/platform/app-proxy-signature';
import { type AppCredentials, SESSION_TOKEN_LIFETIME_SECONDS } from '../../../shared/shopper/session-token';
import { ID_TOKEN_LIFETIME_SECONDS } from '../../../shared/staff/id-token';

/**
 * A customer session token as Shopify mints it (the twin's `POST /_session_tokens`, the tests): HS256 with
 * the app's secret, valid `SESSION_TOKEN_LIFETIME_SECONDS` from `nowMs` (real time).
 */
export async function mintSessionToken(
  app: AppCredentials,
  shopDomain: string,
  customerId: string | null,
  nowMs: number = Date.now(),
): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000);
  const jwt = new SignJWT({ dest: shopDomain, ...(customerId === null ? {} : { sub: `gid://shopify/Customer/${customerId}` }) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(`https://${shopDomain}`)
    .setAudience(app.clientId)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + SESSION_TOKEN_LIFETIME_SECONDS)
    .setJti(crypto.randomUUID());
  return jwt.sign(new TextEncoder().encode(app.clientSecret));
}

/**
 * An admin ID token as Shopify mints it for a staff user (the twin's `POST /_id_tokens`, the tests): HS256
 * with the app's secret, valid `lifetimeSeconds` from `nowMs` (real time).
 */
export async function mintIdToken(
  app: AppCredentials,
  shopDomain: string,
  userId: string,
  nowMs: number = Date.now(),
  lifetimeSeconds: number = ID_TOKEN_LIFETIME_SECONDS,
): Promise<string> {
  const issuedAt = Math.floor(nowMs / 1000);
  return new SignJWT({ dest: `https://${shopDomain}`, sid: crypto.randomUUID() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(`https://${shopDomain}/admin`)
    .setAudience(app.clientId)
    .setSubject(userId)
    .setIssuedAt(issuedAt)
    .setNotBefore(issuedAt)
    .setExpirationTime(issuedAt + lifetimeSeconds)
    .setJti(crypto.randomUUID())
    .sign(new TextEncoder().encode(app.clientSecret));
}

/** The query string with Shopify's `signature` appended: what the app proxy forwards. */
export function signAppProxyQuery(pairs: ReadonlyArray<readonly [string, string]>, secret: string): string {
  const encoded = pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`);
  return [...encoded, `signature=${appProxySignature(pairs, secret)}`].join('&');
}
