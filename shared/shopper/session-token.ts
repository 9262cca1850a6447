// Shopify's customer session token (a customer account UI extension's `Authorization: Bearer <token>`), as
// SURFACES-CONTRACT.md accepts it: a JWT signed HS256 with the app's secret (the shop's client_secret),
// `aud` the app's client id, `dest` the shop's domain, `exp`/`nbf` with 10 s of leeway in real time (not
// the domain clock), and `sub` a customer gid or absent (a guest). jose verifies the signature, the
// algorithm and the times; this module finds the shop the token names and reads what it says of the shopper.
import { decodeJwt, errors, jwtVerify } from 'jose';

/** Seconds of clock skew the token's `exp` and `nbf` are given, as Shopify's own libraries allow. */
export const SESSION_TOKEN_LEEWAY_SECONDS = 10;
/** How long Shopify's session tokens live (and the twin's). */
export const SESSION_TOKEN_LIFETIME_SECONDS = 5 * 60;

const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/(\d{1,20})$/;
/** A shop's platform domain, as the app proxy's `shop` and the token's `dest` name it (bounded: it becomes a table key). */
export const SHOP_DOMAIN = /^[a-z0-9][a-z0-9-]{0,99}\.myshopify\.com$/;

/** The app of the shop a token names: its client id (the audience) and secret (the signing key). */
export interface AppCredentials {
  clientId: string;
  clientSecret: string;
}

export type SessionTokenResult =
  | { verified: true; shopDomain: string; customerId: string | null }
  /** `reason` is said to the caller as it is: it never carries the token or a secret. */
  | { verified: false; reason: string };

const refused = (reason: string): SessionTokenResult => ({ verified: false, reason });

/**
 * Verifies a session token. `appOf` finds the app of the shop the token's `dest` names: the credentials,
 * or a refusal (an unknown shop, a shop with legacy credentials). `nowMs` is real time.
 */
export async function verifySessionToken(
  token: string,
  appOf: (shopDomain: string) => Promise<AppCredentials | { refused: string }>,
  nowMs: number = Date.now(),
): Promise<SessionTokenResult> {
  let unverified: { dest?: unknown };
  try {
    unverified = decodeJwt(token);
  } catch {
    return refused('The session token is not a JWT');
  }
  // Only to find whose secret verifies it: nothing of the payload is trusted before the signature is.
  const dest = typeof unverified.dest === 'string' ? unverified.dest.toLowerCase() : '';
  if (!SHOP_DOMAIN.test(dest)) return refused("The session token's dest is not a shop domain");
  const app = await appOf(dest);
  if ('refused' in app) return refused(app.refused);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(token, new TextEncoder().encode(app.clientSecret), {
      algorithms: ['HS256'],
      audience: app.clientId,
      clockTolerance: SESSION_TOKEN_LEEWAY_SECONDS,
      currentDate: new Date(nowMs),
      requiredClaims: ['exp', 'dest', 'aud'],
    }));
  } catch (error) {
    return refused(tokenRefusal(error));
  }
  // The signature covers `dest`: a token of another shop signed with this shop's secret cannot exist.
  if (payload.dest !== unverified.dest) return refused("The session token's dest is not the shop it was verified for");
  if (payload.sub === undefined) return { verified: true, shopDomain: dest, customerId: null };
  const customer = typeof payload.sub === 'string' ? CUSTOMER_GID.exec(payload.sub) : null;
  if (!customer) return refused("The session token's sub is not a customer (gid://shopify/Customer/<id>)");
  return { verified: true, shopDomain: dest, customerId: customer[1]! };
}

/** What went wrong, in the caller's words (jose's own messages name claims, never values). */
function tokenRefusal(error: unknown): string {
  if (error instanceof errors.JWTExpired) return 'The session token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return 'The session token is not valid yet';
    if (error.claim === 'aud') return "The session token's aud is not this app's client id";
    return `The session token's ${error.claim} claim is not valid`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed) return 'The session token must be signed with HS256';
  if (error instanceof errors.JWSSignatureVerificationFailed) return "The session token's signature is not the shop's app's";
  return 'The session token is not valid';
}
