// API key authentication: the bare key in the Authorization header, looked up by its SHA-256 hash.
import { findApiKey } from '../data/api-key-repository';
import { hashApiKey, isWellFormedApiKey, type KeyScope } from '../domain/api-key';

export type Authentication =
  | { ok: true; shopId: string; scope: KeyScope; keyName: string; keyId: string; usageIdentifierKey: string | null }
  | { ok: false; reason: 'missing' | 'invalid' | 'bearer' | 'token' | 'ambiguous' };

/**
 * Reads the key fresh on every call. The gateway caches the authorizer's answer in front of it and drops
 * it on every key write (docs/decisions.md), so a revocation still applies to the next request.
 * The value is used exactly as sent: `Bearer <key>` is not a key and fails without a read, as every value
 * outside the keys' shape does, with its own reason so the answer can say the bare key is expected.
 */
/** OAuth's scheme in front of a value (any case, as HTTP schemes are case-insensitive). */
const BEARER = /^\s*bearer\s/i;
/** A JWT (three base64url parts), bare or as a bearer: a Shopify token (an admin ID token, a customer session token), never a key. */
const JWT = /^\s*(?:bearer\s+)?[\w-]+\.[\w-]+\.[\w-]*\s*$/i;

/**
 * The request's key: every value of its Authorization headers, under any spelling. More than one is
 * ambiguous (API Gateway would pass on the last, so a read key followed by a full key would write) and is
 * refused without a read, whatever the values are.
 */
export async function authenticateRequest(authorizations: readonly string[]): Promise<Authentication> {
  if (authorizations.length > 1) return { ok: false, reason: 'ambiguous' };
  return authenticate(authorizations[0]);
}

export async function authenticate(authorization: string | undefined): Promise<Authentication> {
  if (authorization === undefined || authorization.trim() === '') return { ok: false, reason: 'missing' };
  // What cannot be a key is refused without a table read: an anonymous flood costs no DynamoDB call.
  if (!isWellFormedApiKey(authorization)) {
    return { ok: false, reason: JWT.test(authorization) ? 'token' : BEARER.test(authorization) ? 'bearer' : 'invalid' };
  }
  const keyHash = hashApiKey(authorization);
  const key = await findApiKey(keyHash);
  if (!key || key.status !== 'active') return { ok: false, reason: 'invalid' };
  return {
    ok: true,
    shopId: key.shop_id,
    scope: key.scope,
    keyName: key.name,
    // Enough of the hash to tell keys apart in logs and throttling, useless for guessing the key.
    keyId: keyHash.slice(0, 16),
    usageIdentifierKey: key.usage_identifier_key,
  };
}
