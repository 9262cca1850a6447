// API keys as the domain knows them: scopes, statuses, what operators see, and the hash that is the
// only form in which a key is ever stored. Pure: no AWS.
import { deterministicId } from './deterministic-id';

/** `full` keys may write; `read` keys may only read. Routes name the scope they require. */
export type KeyScope = 'full' | 'read';
export type KeyStatus = 'active' | 'revoked';

export interface ApiKeyRecord {
  key_hash: string;
  /** Public id shown to operators: the first 12 hex digits of the hash. */
  key_id: string;
  shop_id: string;
  name: string;
  scope: KeyScope;
  status: KeyStatus;
  /** Value of the API Gateway usage-plan key tied to this key (never the loyalty key itself). */
  usage_identifier_key: string | null;
  /** Id of that API Gateway key, so revocation can disable it. */
  usage_key_id?: string | null;
  created_at: string;
}

/** What callers write: the id follows from the hash. */
export type ApiKeyInput = Omit<ApiKeyRecord, 'key_id'>;

/** What operators see of a key: never its hash or value. */
export interface ApiKeySummary {
  key_id: string;
  name: string;
  scope: KeyScope;
  status: KeyStatus;
  created_at: string;
  usage_key_id: string | null;
}

/** The API Gateway key backing a loyalty key in the cloud. */
export interface UsageKey {
  id: string;
  value: string;
}

/** The shop has no key with that id (or the id is malformed). */
export class UnknownApiKeyError extends Error {
  constructor(shopId: string, keyId: string) {
    super(`Shop '${shopId}' has no API key with id '${keyId}'`);
    this.name = 'UnknownApiKeyError';
  }
}

/** A write that would tie a key to another shop than the one that holds it, or reuse a key id. */
export class ApiKeyConflictError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ApiKeyConflictError';
  }
}

/**
 * The shape of every key the product stores: the CLI issues `lk_` and 43 base64url characters, and a
 * configuration file's keys are held to the same alphabet and bounds. The authorizer refuses anything
 * else before it reads the table, so a flood of made-up values costs no DynamoDB call.
 */
export const API_KEY_SHAPE = { minLength: 8, maxLength: 128, alphabet: /^[A-Za-z0-9_-]+$/ } as const;

/** Whether `value` could be a key of this product (length and alphabet only: says nothing of whether it exists). */
export function isWellFormedApiKey(value: string): boolean {
  return value.length >= API_KEY_SHAPE.minLength && value.length <= API_KEY_SHAPE.maxLength && API_KEY_SHAPE.alphabet.test(value);
}

export function hashApiKey(value: string): string {
  return deterministicId({ text: value }, { as: 'hex', length: 64 });
}

/** The public id of a key: 48 bits of its hash, unique enough per shop and useless for guessing the key. */
export function keyIdOf(keyHash: string): string {
  return keyHash.slice(0, 12);
}

/** Whether a key of `held` scope may call a route that requires `required`. */
export function scopeAllows(held: KeyScope, required: KeyScope): boolean {
  return required === 'read' || held === 'full';
}
