// Shop configuration items (settings, rules, campaigns, tiers, rewards), the shop's counters, its registry
// entry and domain lookup, and the reconciliation watermark (the items themselves: items/shop.ts).
import { BatchWriteCommand, GetCommand } from '@aws-sdk/lib-dynamodb';
import type { ShopCatalog } from '../domain/shop';
import { BATCH_BACKOFF, retryUntil } from '../runtime/retry';
import { documentClient, tableName } from './client';
import { commitOne } from './commit';
import { BATCH_ATTEMPTS, type Item, queryAll } from './item-reads';
import {
  catalogItems,
  catalogOf,
  markUninstalled,
  moveOrderWatermark,
  orderWatermarkKey,
  setShopCounts,
  shopCountersKey,
  shopDomainKey,
  shopIdentityItems,
  shopPk,
  shopRegistryKey,
} from './items/shop';

/** Reads the whole configuration of a shop in one query; null when the shop has no settings item. */
export async function readShopCatalog(shopId: string): Promise<ShopCatalog | null> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': shopPk(shopId) },
  });
  return catalogOf(items);
}

/** Writes (overwrites) a shop's configuration items. */
export async function putShopCatalog(catalog: ShopCatalog): Promise<void> {
  await batchPut(catalogItems(catalog));
}

/** Puts items in batches of 25, retrying unprocessed ones with backoff. */
export async function batchPut(items: Item[]): Promise<void> {
  for (let start = 0; start < items.length; start += 25) {
    let pending = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    const written = await retryUntil(BATCH_ATTEMPTS, BATCH_BACKOFF, async () => {
      const result = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      return pending.length === 0 ? true : undefined;
    });
    if (!written) throw new Error('BatchWrite left items unprocessed after retries');
  }
}

export interface ShopCounters {
  member: number;
  excluded: number;
}

/** Enrolled customers per loyalty status, kept exact by the enrol and update transactions. */
export async function readShopCounters(shopId: string): Promise<ShopCounters> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: shopCountersKey(shopId) }));
  return {
    member: Number(result.Item?.member_count ?? 0),
    excluded: Number(result.Item?.excluded_count ?? 0),
  };
}

export async function setShopCounters(shopId: string, counters: ShopCounters): Promise<void> {
  await commitOne(setShopCounts(shopId, counters));
}

/** Registers the shop for scheduled jobs and maps its platform domain to it (webhooks find their shop so). */
export async function putShopIdentity(shopId: string, shopDomain: string): Promise<void> {
  await batchPut(shopIdentityItems(shopId, shopDomain));
}

/** The shop a platform domain belongs to, or null for a domain no shop has. */
export async function findShopByDomain(shopDomain: string): Promise<string | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: shopDomainKey(shopDomain) }));
  return typeof result.Item?.shop_id === 'string' ? result.Item.shop_id : null;
}

/** Every registered shop's id. */
export async function listShopIds(): Promise<string[]> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': shopRegistryKey('').pk } });
  return items.map((item) => String(item.shop_id));
}

/** Clock time up to which order reconciliation has read the shop's changed orders, or null before its first run. */
export async function readOrderWatermark(shopId: string): Promise<string | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: orderWatermarkKey(shopId), ConsistentRead: true }),
  );
  return typeof result.Item?.watermark === 'string' ? result.Item.watermark : null;
}

export async function writeOrderWatermark(shopId: string, watermark: string): Promise<void> {
  await commitOne(moveOrderWatermark(shopId, watermark));
}

/**
 * Marks the shop disconnected (app/uninstalled). Only the settings item changes: reads go on, and applying
 * the configuration again overwrites the settings without the mark. False when the shop has no settings.
 */
export async function markShopUninstalled(shopId: string, at: string): Promise<boolean> {
  return (await commitOne(markUninstalled(shopId, at))).committed;
}
