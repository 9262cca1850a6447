// The operators' side of API keys: listing a shop's keys, revoking one, and tying it to its API Gateway
// usage-plan key. Each change updates the key item and its listing item in one transaction.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { UnknownApiKeyError, type ApiKeySummary, type KeyScope, type KeyStatus, type UsageKey } from '../domain/api-key';
import { publishApiKeyChanges } from './api-key-changes';
import { documentClient, tableName } from './client';
import { queryAll } from './item-reads';
import { commit } from './commit';
import { API_KEY_LISTING_PREFIX, type ApiKeyChange, apiKeyListingKey, changeApiKeyWrites } from './items/api-key';
import { shopPk } from './items/item-type';

/** The shop's keys, oldest first. */
export async function listApiKeys(shopId: string): Promise<ApiKeySummary[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': shopPk(shopId), ':prefix': API_KEY_LISTING_PREFIX },
    ConsistentRead: true,
  });
  return items
    .map((item) => listingSummary(item, String(item.key_id)))
    .sort((a, b) => a.created_at.localeCompare(b.created_at) || a.key_id.localeCompare(b.key_id));
}

/** The hashes of the shop's keys (the key items' own keys), in no particular order. */
export async function listApiKeyHashes(shopId: string): Promise<string[]> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': shopPk(shopId), ':prefix': API_KEY_LISTING_PREFIX },
    ConsistentRead: true,
  });
  return items.map((item) => String(item.key_hash));
}

/**
 * Revokes a key of the shop; effective at once (the write flushes cached authorizer answers). Revoking a
 * revoked key changes nothing. Returns the key as it now is and whether it was active before.
 */
export async function revokeApiKey(shopId: string, keyId: string): Promise<{ key: ApiKeySummary; wasActive: boolean }> {
  const listing = await readListing(shopId, keyId);
  await changeKeyPair(shopId, keyId, listing.keyHash, { revoke: true });
  return { key: { ...listing.summary, status: 'revoked' }, wasActive: listing.summary.status === 'active' };
}

/** Ties a key to its API Gateway usage-plan key, or unties it (null) once that key is disabled. */
export async function setUsageKey(shopId: string, keyId: string, usage: UsageKey | null): Promise<void> {
  const listing = await readListing(shopId, keyId);
  await changeKeyPair(shopId, keyId, listing.keyHash, { usage });
}

/**
 * Changes an existing key and its listing in one transaction: the key item only while it still belongs
 * to the shop, the listing only while it exists, so a write never creates half a key.
 */
async function changeKeyPair(shopId: string, keyId: string, keyHash: string, change: ApiKeyChange): Promise<void> {
  const outcome = await commit(changeApiKeyWrites(shopId, keyId, keyHash, change));
  if (!outcome.committed) {
    const why = outcome.refusal.kind === 'condition' ? `refused by '${outcome.refusal.failed.join("', '")}'` : 'held by another write';
    throw new Error(`Key '${keyId}' of shop '${shopId}' was not changed: ${why}`);
  }
  publishApiKeyChanges([keyHash]);
}

async function readListing(shopId: string, keyId: string): Promise<{ keyHash: string; summary: ApiKeySummary }> {
  // Ids are hex; anything else cannot name a key (and must not reach a sort key unchecked).
  if (!/^[0-9a-f]{12}$/.test(keyId)) throw new UnknownApiKeyError(shopId, keyId);
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: apiKeyListingKey(shopId, keyId), ConsistentRead: true }),
  );
  if (!result.Item) throw new UnknownApiKeyError(shopId, keyId);
  const item = result.Item;
  return {
    keyHash: String(item.key_hash),
    summary: listingSummary(item, keyId),
  };
}

/** A listing item as operators see it. */
function listingSummary(item: Record<string, unknown>, keyId: string): ApiKeySummary {
  return {
    key_id: keyId,
    name: String(item.name),
    scope: item.scope as KeyScope,
    status: item.status as KeyStatus,
    created_at: String(item.created_at),
    usage_key_id: (item.usage_key_id as string | null | undefined) ?? null,
  };
}
