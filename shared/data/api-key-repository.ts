// API keys, stored only as the SHA-256 hash of the key value: the `KEY#<hash>` item the authorizer
// reads, and a listing item in the shop's partition (`APIKEY#<key id>`) for operators. Both are
// written together.
import { createHash } from 'node:crypto';
import { GetCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
import { queryAll } from './items';
import { keys } from './keys';

export type KeyScope = 'full' | 'read';

export interface ApiKeyRecord {
  key_hash: string;
  shop_id: string;
  name: string;
  scope: KeyScope;
  status: 'active' | 'revoked';
  /** Value of the API Gateway usage-plan key tied to this key (never the loyalty key itself). */
  usage_identifier_key: string | null;
  /** Id of that API Gateway key, so revocation can disable it. */
  usage_key_id?: string | null;
  created_at: string;
}

/** What operators see of a key: never its hash or value. */
export interface ApiKeySummary {
  key_id: string;
  name: string;
  scope: KeyScope;
  status: 'active' | 'revoked';
  created_at: string;
  usage_key_id: string | null;
}

export function hashApiKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** The public id of a key: the first 12 hex digits of its hash (useless for guessing the key). */
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
  return record as ApiKeyRecord;
}

function summaryOf(record: ApiKeyRecord): ApiKeySummary {
  return {
    key_id: keyIdOf(record.key_hash),
    name: record.name,
    scope: record.scope,
    status: record.status,
    created_at: record.created_at,
    usage_key_id: record.usage_key_id ?? null,
  };
}

/** Writes (or overwrites) the key and its listing item in one transaction. */
export async function putApiKey(record: ApiKeyRecord): Promise<void> {
  const summary = summaryOf(record);
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        { Put: { TableName: tableName(), Item: { ...keys.apiKey(record.key_hash), ...record } } },
        { Put: { TableName: tableName(), Item: { ...keys.shopApiKey(record.shop_id, summary.key_id), ...summary, key_hash: record.key_hash } } },
      ],
    }),
  );
}

export async function listApiKeys(shopId: string): Promise<ApiKeySummary[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.shopPk(shopId), ':prefix': 'APIKEY#' },
  });
  return items.map((item) => ({
    key_id: String(item.key_id),
    name: String(item.name),
    scope: item.scope as KeyScope,
    status: item.status as ApiKeySummary['status'],
    created_at: String(item.created_at),
    usage_key_id: (item.usage_key_id as string | null | undefined) ?? null,
  }));
}

/** Revokes a key of the shop; effective at once (the authorizer reads without cache). */
export async function revokeApiKey(shopId: string, keyId: string): Promise<ApiKeySummary> {
  const listing = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.shopApiKey(shopId, keyId), ConsistentRead: true }));
  if (!listing.Item) throw new Error(`Shop '${shopId}' has no API key with id '${keyId}'`);
  const keyHash = String(listing.Item.key_hash);
  await documentClient().send(
    new TransactWriteCommand({
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: keys.apiKey(keyHash),
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
            ExpressionAttributeNames: { '#status': 'status' },
            ExpressionAttributeValues: { ':revoked': 'revoked' },
          },
        },
      ],
    }),
  );
  const revoked = (await listApiKeys(shopId)).find((key) => key.key_id === keyId);
  return revoked!;
}
