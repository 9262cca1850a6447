// API keys, stored only as the SHA-256 hash of the key value.
import { createHash } from 'node:crypto';
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from './client';
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
  created_at: string;
}

export function hashApiKey(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
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

export async function putApiKey(record: ApiKeyRecord): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...keys.apiKey(record.key_hash), ...record } }));
}
