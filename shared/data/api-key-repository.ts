// API keys, stored only as the SHA-256 hash of the key value: the `KEY#<hash>` item the authorizer
// reads, and a listing item in the shop's partition (`APIKEY#<key id>`) for operators. Every write
// touches both in one transaction, so the listing never disagrees with what the authorizer sees.
// This module: the authorizer's read and storing keys; the operators' side is api-key-listing-repository.ts.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { ApiKeyConflictError, keyIdOf, type ApiKeyInput, type ApiKeyRecord } from '../domain/api-key';
import { publishApiKeyChanges } from './api-key-changes';
import { documentClient, tableName } from './client';
import { commit } from './commit';
import { apiKeyKey, apiKeyOf, createApiKeyWrites, putApiKeyWrites } from './items/api-key';

/**
 * Strongly consistent read, so a revocation is seen by the very next request that reaches the
 * authorizer; cached answers in front of it are flushed on every key write (api-key-changes.ts).
 */
export async function findApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: apiKeyKey(keyHash), ConsistentRead: true }));
  return result.Item ? apiKeyOf(keyHash, result.Item) : null;
}

/**
 * Stores a brand-new key; refuses to overwrite anything (a clash of 48-bit ids within a shop, or a
 * key value already stored), so a generated key can never silently replace another.
 */
export async function createApiKey(input: ApiKeyInput): Promise<ApiKeyRecord> {
  const record: ApiKeyRecord = { ...input, key_id: keyIdOf(input.key_hash), usage_key_id: input.usage_key_id ?? null };
  const outcome = await commit(createApiKeyWrites(record));
  if (!outcome.committed) {
    if (outcome.refusal.kind === 'condition') {
      throw new ApiKeyConflictError(`Key id '${record.key_id}' is already in use in shop '${record.shop_id}': create the key again`);
    }
    throw new Error(`Key id '${record.key_id}' of shop '${record.shop_id}' was not stored: another write held it`);
  }
  publishApiKeyChanges([record.key_hash]);
  return record;
}

/**
 * Writes or overwrites a key (configuration files, tests). Idempotent: the fields given replace the
 * stored ones, while the first `created_at` and an existing usage-plan key are kept unless a usage key
 * is given, so re-applying a file neither re-dates keys nor orphans their API Gateway keys.
 * A key already held by another shop is refused rather than moved.
 */
export async function putApiKey(input: ApiKeyInput): Promise<void> {
  const writes = putApiKeyWrites(input);
  const outcome = await commit(writes);
  if (!outcome.committed) {
    if (outcome.refusal.kind === 'condition' && outcome.refusal.failed.includes(writes[0].name)) {
      throw new ApiKeyConflictError(`API key '${input.name}' is already registered to another shop than '${input.shop_id}'`);
    }
    throw new Error(`API key '${input.name}' of shop '${input.shop_id}' was not written: another write held it`);
  }
  publishApiKeyChanges([input.key_hash]);
}
