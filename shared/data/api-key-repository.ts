// API keys, stored only as the SHA-256 hash of the key value: the `KEY#<hash>` item the authorizer
// reads, and a listing item in the shop's partition (`APIKEY#<key id>`) for operators. Every write
// touches both in one transaction, so the listing never disagrees with what the authorizer sees.
// This module: the authorizer's read and storing keys; the operators' side is api-key-listing-repository.ts.
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { ApiKeyConflictError, keyIdOf, type ApiKeyInput, type ApiKeyRecord } from '../domain/api-key';
import { publishApiKeyChanges } from './api-key-changes';
import { documentClient, tableName } from './client';
import { cancellationReasons } from './dynamodb-errors';
import { apiKeyItem, apiKeyKey, apiKeyListingItem, apiKeyListingKey, apiKeyOf } from './items/api-key';

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
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Put: {
              TableName: tableName(),
              Item: apiKeyItem(record),
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          { Put: { TableName: tableName(), Item: apiKeyListingItem(record), ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
  } catch (error) {
    if (cancellationReasons(error)?.includes('ConditionalCheckFailed')) {
      throw new ApiKeyConflictError(`Key id '${record.key_id}' is already in use in shop '${record.shop_id}': create the key again`);
    }
    throw error;
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
  const keyId = keyIdOf(input.key_hash);
  const names = { '#name': 'name', '#status': 'status', '#scope': 'scope' };
  const fields = {
    ':key_hash': input.key_hash,
    ':key_id': keyId,
    ':name': input.name,
    ':scope': input.scope,
    ':status': input.status,
    ':created_at': input.created_at,
  };
  const set =
    'SET key_hash = :key_hash, key_id = :key_id, #name = :name, #scope = :scope, #status = :status, created_at = if_not_exists(created_at, :created_at)';
  const keyItem = keepUnlessGiven(
    { expression: `${set}, shop_id = :shop`, values: { ...fields, ':shop': input.shop_id } },
    { usage_identifier_key: input.usage_identifier_key, usage_key_id: input.usage_key_id ?? null },
  );
  const listingItem = keepUnlessGiven({ expression: set, values: fields }, { usage_key_id: input.usage_key_id ?? null });
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          {
            Update: {
              TableName: tableName(),
              Key: apiKeyKey(input.key_hash),
              UpdateExpression: keyItem.expression,
              ConditionExpression: 'attribute_not_exists(pk) OR shop_id = :shop',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: keyItem.values,
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: apiKeyListingKey(input.shop_id, keyId),
              UpdateExpression: listingItem.expression,
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: listingItem.values,
            },
          },
        ],
      }),
    );
  } catch (error) {
    if (cancellationReasons(error)?.[0] === 'ConditionalCheckFailed') {
      throw new ApiKeyConflictError(`API key '${input.name}' is already registered to another shop than '${input.shop_id}'`);
    }
    throw error;
  }
  publishApiKeyChanges([input.key_hash]);
}

/** Adds `attribute = :value` for given values and keeps the stored one (or null) for the rest. */
function keepUnlessGiven(
  update: { expression: string; values: Record<string, unknown> },
  optional: Record<string, string | null>,
): { expression: string; values: Record<string, unknown> } {
  let { expression } = update;
  const values = { ...update.values };
  for (const [attribute, value] of Object.entries(optional)) {
    if (value === null) {
      expression += `, ${attribute} = if_not_exists(${attribute}, :null)`;
      values[':null'] = null;
    } else {
      expression += `, ${attribute} = :${attribute}`;
      values[`:${attribute}`] = value;
    }
  }
  return { expression, values };
}
