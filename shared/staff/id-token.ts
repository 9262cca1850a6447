// Shopify's admin ID token (App Bridge's `Authorization: Bearer <token>` on every fetch of the embedded app),
// as SURFACES-CONTRACT.md ("Staff routes") accepts it: a JWT signed HS256 with the app's secret (the shop's
// client_secret), `aud` the app's client id, `iss` = `https://{shop}/admin` and `dest` = `https://{shop}`
// naming the same shop, `sub` the staff user's id, `exp`/`nbf` with 10 s of leeway in real time (not the
// domain clock), `jti` and `sid` present. jose verifies the signature, the algorithm and the times; this
// module finds the shop the token names and reads who the staff user is. It follows ../shopper/session-token.ts.
import { decodeJwt, errors, jwtVerify } from 'jose';
import type { AppCredentials } from '../shopper/session-token';

/** Seconds of clock skew the token's `exp` and `nbf` are given, as Shopify's own libraries allow. */
export const ID_TOKEN_LEEWAY_SECONDS = 10;
/** How long an ID token lives (Shopify's: one minute; the twin's simulator mints five, as the brief of its tests). */
export const ID_TOKEN_LIFETIME_SECONDS = 5 * 60;

/** `dest`: the shop's URL (its domain bounded: it becomes a table key). */
const DEST = /^https:\/\/([a-z0-9][a-z0-9-]{0,99}\.myshopify\.com)$/;
/** `iss`: the shop's admin URL. */
const ISS = /^https:\/\/([a-z0-9][a-z0-9-]{0,99}\.myshopify\.com)\/admin$/;
/** `sub`: a staff user's id, as Shopify numbers its users. */
const STAFF_USER_ID = /^\d{1,20}$/;

/** Why a shop's app cannot be found: no shop has the domain, or the shop has legacy credentials (no app secret). */
export type AppRefusal = { refused: string; legacy?: boolean };

export type IdTokenResult =
  | { verified: true; shopDomain: string; userId: string; sessionId: string }
  /**
   * `reason` is said to the caller as it is: it never carries the token or a secret. `legacy`: the shop has
   * no app at all, so no fresh token can succeed.
   */
  | { verified: false; reason: string; legacy?: boolean };

const refused = (reason: string, legacy?: boolean): IdTokenResult => ({ verified: false, reason, ...(legacy ? { legacy } : {}) });

/**
 * Whether a bearer value presents itself as an admin ID token: a JWT whose `iss` or `dest` is in the admin
 * token's form. Nothing of it is trusted: it only tells a forged or stale ID token (which App Bridge should
 * replace and retry) from a credential of another kind (an API key, a customer session token).
 */
export function looksLikeIdToken(token: string): boolean {
  let claims: { iss?: unknown; dest?: unknown };
  try {
    claims = decodeJwt(token);
  } catch {
    return false;
  }
  const text = (value: unknown) => (typeof value === 'string' ? value.toLowerCase() : '');
  return ISS.test(text(claims.iss)) || DEST.test(text(claims.dest));
}

/**
 * Verifies an ID token. `appOf` finds the app of the shop the token names: the credentials, or a refusal (an
 * unknown shop, a shop with legacy credentials). `nowMs` is real time.
 */
export async function verifyIdToken(
  token: string,
  appOf: (shopDomain: string) => Promise<AppCredentials | AppRefusal>,
  nowMs: number = Date.now(),
): Promise<IdTokenResult> {
  let unverified: { iss?: unknown; dest?: unknown };
  try {
    unverified = decodeJwt(token);
  } catch {
    return refused('The ID token is not a JWT');
  }
  // Only to find whose secret verifies it: nothing of the payload is trusted before the signature is.
  const dest = typeof unverified.dest === 'string' ? DEST.exec(unverified.dest.toLowerCase()) : null;
  if (!dest) return refused("The ID token's dest is not a shop's URL (https://{shop}.myshopify.com)");
  const iss = typeof unverified.iss === 'string' ? ISS.exec(unverified.iss.toLowerCase()) : null;
  if (!iss) return refused("The ID token's iss is not a shop's admin URL (https://{shop}.myshopify.com/admin)");
  if (iss[1] !== dest[1]) return refused("The ID token's iss and dest name different shops");
  const shopDomain = dest[1]!;
  const app = await appOf(shopDomain);
  if ('refused' in app) return refused(app.refused, app.legacy);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(app.clientSecret), {
      algorithms: ['HS256'],
      audience: app.clientId,
      clockTolerance: ID_TOKEN_LEEWAY_SECONDS,
      currentDate: new Date(nowMs),
      requiredClaims: ['exp', 'nbf', 'iss', 'dest', 'aud', 'sub', 'jti', 'sid'],
    }));
  } catch (error) {
    return refused(tokenRefusal(error));
  }
  // The signature covers them: what was read before it is what was signed.
  if (payload.dest !== unverified.dest || payload.iss !== unverified.iss) return refused('The ID token is not valid');
  if (typeof payload.sub !== 'string' || !STAFF_USER_ID.test(payload.sub)) return refused("The ID token's sub is not a staff user's id");
  if (typeof payload.jti !== 'string' || payload.jti === '') return refused("The ID token's jti claim is not valid");
  if (typeof payload.sid !== 'string' || payload.sid === '') return refused("The ID token's sid claim is not valid");
  return { verified: true, shopDomain, userId: payload.sub, sessionId: payload.sid };
}

/** What went wrong, in the caller's words (jose's own messages name claims, never values). */
function tokenRefusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The ID token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.reason === 'missing') return `The ID token has no ${error.claim} claim`;
    if (error.claim === 'nbf') return 'The ID token is not valid yet';
    if (error.claim === 'aud') return "The ID token's aud is not this app's client id";
    return `The ID token's ${error.claim} claim is not valid`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The ID token must be signed with HS256';
  if (error instanceof errors.JWSSignatureVerificationFailed) return "The ID token's signature is not the shop's app's";
  return 'The ID token is not valid';
}
