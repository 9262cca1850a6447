// API keys, stored only as the SHA-256 hash of the key value: the `KEY#<hash>` item the authorizer
// reads, and a listing item in the shop's partition (`APIKEY#<key id>`) for operators. Every write
// touches both in one transaction, so the listing never disagrees with what the authorizer sees.
import { createHash } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { cancellationReasons } from './customer-repository';
import { queryAll } from './items';
import { keys } from './keys';

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

export function hashApiKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** The public id of a key: 48 bits of its hash, unique enough per shop and useless for guessing the key. */
export function keyIdOf(keyHash: string): string {
  return keyHash.slice(0, 12);
}

/** Strongly consistent read, so a revocation is seen by the very next request. */
export async function findApiKey(keyHash: string): Promise<ApiKeyRecord | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.apiKey(keyHash), ConsistentRead: true }),
  );
  if (!result.Item) return null;
  const { pk: _pk, sk: _sk, ...record } = result.Item;
  return { key_id: keyIdOf(keyHash), ...record } as ApiKeyRecord;
}

/**
 * Stores a brand-new key; refuses to overwrite anything (a clash of 48-bit ids within a shop, or a
 * key value already stored), so a generated key can never silently replace another.
 */
export async function createApiKey(input: ApiKeyInput): Promise<ApiKeyRecord> {
  const record: ApiKeyRecord = { ...input, key_id: keyIdOf(input.key_hash), usage_key_id: input.usage_key_id ?? null };
  const listing = { ...keys.shopApiKey(record.shop_id, record.key_id), ...summaryOf(record), key_hash: record.key_hash };
  try {
    await documentClient().send(
      new TransactWriteCommand({
        TransactItems: [
          { Put: { TableName: tableName(), Item: { ...keys.apiKey(record.key_hash), ...record }, ConditionExpression: 'attribute_not_exists(pk)' } },
          { Put: { TableName: tableName(), Item: listing, ConditionExpression: 'attribute_not_exists(pk)' } },
        ],
      }),
    );
  } catch (error) {
    if (cancellationReasons(error)?.includes('ConditionalCheckFailed')) {
      throw new ApiKeyConflictError(`Key id '${record.key_id}' is already in use in shop '${record.shop_id}': create the key again`);
    }
    throw error;
  }
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
  const set = 'SET key_hash = :key_hash, key_id = :key_id, #name = :name, #scope = :scope, #status = :status, created_at = if_not_exists(created_at, :created_at)';
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
              Key: keys.apiKey(input.key_hash),
              UpdateExpression: keyItem.expression,
              ConditionExpression: 'attribute_not_exists(pk) OR shop_id = :shop',
              ExpressionAttributeNames: names,
              ExpressionAttributeValues: keyItem.values,
            },
          },
          {
            Update: {
              TableName: tableName(),
              Key: keys.shopApiKey(input.shop_id, keyId),
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

/** The shop's keys, oldest first. */
export async function listApiKeys(shopId: string): Promise<ApiKeySummary[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.shopPk(shopId), ':prefix': keys.shopApiKey(shopId, '').sk },
    ConsistentRead: true,
  });
  return items
    .map((item) => ({
      key_id: String(item.key_id),
      name: String(item.name),
      scope: item.scope as KeyScope,
      status: item.status as KeyStatus,
      created_at: String(item.created_at),
      usage_key_id: (item.usage_key_id as string | null | undefined) ?? null,
    }))
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.key_id.localeCompare(b.key_id));
}

/**
 * Revokes a key of the shop; effective at once (the authorizer reads without cache). Revoking a
 * revoked key changes nothing. Returns the key as it now is and whether it was active before.
 */
export async function revokeApiKey(shopId: string, keyId: string): Promise<{ key: ApiKeySummary; wasActive: boolean }> {
  const listing = await readListing(shopId, keyId);
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.apiKey(listing.keyHash),
            UpdateExpression: 'SET #status = :revoked',
            ConditionExpression: 'shop_id = :shop',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':revoked': 'revoked', ':shop': shopId },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.shopApiKey(shopId, keyId),
            UpdateExpression: 'SET #status = :revoked',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':revoked': 'revoked' },
          },
        },
      ],
    }),
  );
  return { key: { ...listing.summary, status: 'revoked' }, wasActive: listing.summary.status === 'active' };
}

/** Ties a key to its API Gateway usage-plan key, or unties it (null) once that key is disabled. */
export async function setUsageKey(shopId: string, keyId: string, usage: UsageKey | null): Promise<void> {
  const listing = await readListing(shopId, keyId);
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.apiKey(listing.keyHash),
            UpdateExpression: 'SET usage_identifier_key = :value, usage_key_id = :id',
            ConditionExpression: 'shop_id = :shop',
            ExpressionAttributeValues: { ':value': usage?.value ?? null, ':id': usage?.id ?? null, ':shop': shopId },
          },
        },
        {
          Update: {
            TableName: tableName(),
            Key: keys.shopApiKey(shopId, keyId),
            UpdateExpression: 'SET usage_key_id = :id',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':id': usage?.id ?? null },
          },
        },
      ],
    }),
  );
}

function summaryOf(record: ApiKeyRecord): ApiKeySummary {
  return {
    key_id: record.key_id,
    name: record.name,
    scope: record.scope,
    status: record.status,
    created_at: record.created_at,
    usage_key_id: record.usage_key_id ?? null,
  };
}

async function readListing(shopId: string, keyId: string): Promise<{ keyHash: string; summary: ApiKeySummary }> {
  // Ids are hex; anything else cannot name a key (and must not reach a sort key unchecked).
  if (!/^[0-9a-f]{12}$/.test(keyId)) throw new UnknownApiKeyError(shopId, keyId);
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.shopApiKey(shopId, keyId), ConsistentRead: true }),
  );
  if (!result.Item) throw new UnknownApiKeyError(shopId, keyId);
  const item = result.Item;
  return {
    keyHash: String(item.key_hash),
    summary: {
      key_id: keyId,
      name: String(item.name),
      scope: item.scope as KeyScope,
      status: item.status as KeyStatus,
      created_at: String(item.created_at),
      usage_key_id: (item.usage_key_id as string | null | undefined) ?? null,
    },
  };
}
