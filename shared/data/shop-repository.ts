// Shop configuration items (settings, rules, campaigns, tiers, rewards) and the shop's counters.
import { BatchWriteCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Campaign, EarningRule, Reward, ShopCatalog, ShopSettings, VipTier } from '../domain/shop';
import { BATCH_BACKOFF, retryUntil } from '../runtime/retry';
import { documentClient, tableName } from './client';
import { BATCH_ATTEMPTS, type Item, queryAll, withoutKeys } from './items';
import type { LoyaltyStatus } from '../domain/customer';
import { keys, SHOP_ITEM_PREFIX } from './keys';

/** Reads the whole configuration of a shop in one query; null when the shop has no settings item. */
export async function readShopCatalog(shopId: string): Promise<ShopCatalog | null> {
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk',
    ExpressionAttributeValues: { ':pk': keys.shopPk(shopId) },
  });
  const settings = items.find((item) => item.sk === 'SETTINGS');
  if (!settings) return null;
  const of = <T>(prefix: string) => items.filter((item) => String(item.sk).startsWith(prefix)).map((item) => withoutKeys<T>(item));
  return {
    settings: withoutKeys<ShopSettings>(settings),
    earningRules: of<EarningRule>(SHOP_ITEM_PREFIX.rule),
    campaigns: of<Campaign>(SHOP_ITEM_PREFIX.campaign),
    tiers: of<VipTier>(SHOP_ITEM_PREFIX.tier),
    rewards: of<Reward>(SHOP_ITEM_PREFIX.reward),
  };
}

/** Writes (overwrites) a shop's configuration items. */
export async function putShopCatalog(catalog: ShopCatalog): Promise<void> {
  const shopId = catalog.settings.id;
  const items: Item[] = [
    { ...keys.shopSettings(shopId), ...catalog.settings },
    ...catalog.earningRules.map((rule) => ({ ...keys.earningRule(shopId, rule.id), ...rule })),
    ...catalog.campaigns.map((campaign) => ({ ...keys.campaign(shopId, campaign.id), ...campaign })),
    ...catalog.tiers.map((tier) => ({ ...keys.vipTier(shopId, tier.id), ...tier })),
    ...catalog.rewards.map((reward) => ({ ...keys.reward(shopId, reward.id), ...reward })),
  ];
  await batchPut(items);
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

const COUNTER_ATTRIBUTE: Record<LoyaltyStatus, string> = { member: 'member_count', excluded: 'excluded_count' };

export function counterAttribute(status: LoyaltyStatus): string {
  return COUNTER_ATTRIBUTE[status];
}

/** Enrolled customers per loyalty status, kept exact by the enrol and update transactions. */
export async function readShopCounters(shopId: string): Promise<ShopCounters> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.shopCounters(shopId) }));
  return {
    member: Number(result.Item?.member_count ?? 0),
    excluded: Number(result.Item?.excluded_count ?? 0),
  };
}

export async function setShopCounters(shopId: string, counters: ShopCounters): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.shopCounters(shopId),
      UpdateExpression: 'SET member_count = :m, excluded_count = :e',
      ExpressionAttributeValues: { ':m': counters.member, ':e': counters.excluded },
    }),
  );
}

/** Registers the shop for scheduled jobs and maps its platform domain to it (webhooks find their shop so). */
export async function putShopIdentity(shopId: string, shopDomain: string): Promise<void> {
  await batchPut([
    { ...keys.shopRegistry(shopId), shop_id: shopId, shop_domain: shopDomain.toLowerCase() },
    { ...keys.shopDomain(shopDomain), shop_id: shopId },
  ]);
}

/** The shop a platform domain belongs to, or null for a domain no shop has. */
export async function findShopByDomain(shopDomain: string): Promise<string | null> {
  const result = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.shopDomain(shopDomain) }));
  return typeof result.Item?.shop_id === 'string' ? result.Item.shop_id : null;
}

/** Every registered shop's id. */
export async function listShopIds(): Promise<string[]> {
  const items = await queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.shopRegistry('').pk } });
  return items.map((item) => String(item.shop_id));
}

/** Clock time up to which order reconciliation has read the shop's changed orders, or null before its first run. */
export async function readOrderWatermark(shopId: string): Promise<string | null> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: keys.orderWatermark(shopId), ConsistentRead: true }),
  );
  return typeof result.Item?.watermark === 'string' ? result.Item.watermark : null;
}

export async function writeOrderWatermark(shopId: string, watermark: string): Promise<void> {
  await documentClient().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: keys.orderWatermark(shopId),
      UpdateExpression: 'SET watermark = :watermark',
      ExpressionAttributeValues: { ':watermark': watermark },
    }),
  );
}

/**
 * Marks the shop disconnected (app/uninstalled). Only the settings item changes: reads go on, and applying
 * the configuration again overwrites the settings without the mark. False when the shop has no settings.
 */
export async function markShopUninstalled(shopId: string, at: string): Promise<boolean> {
  try {
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.shopSettings(shopId),
        UpdateExpression: 'SET uninstalled_at = if_not_exists(uninstalled_at, :at)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':at': at },
      }),
    );
    return true;
  } catch (error) {
    if ((error as { name?: string }).name === 'ConditionalCheckFailedException') return false;
    throw error;
  }
}
