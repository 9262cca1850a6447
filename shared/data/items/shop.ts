// The shop's own items: settings, counters (members per status), configuration (earning rules, campaigns,
// tiers, rewards) and the reconciliation watermark in the shop's partition, plus the registry item every
// scheduled job visits and the lookup of a platform domain. Keys, the configuration written as items and
// read back.
import type { LoyaltyStatus } from '../../domain/customer';
import type { Campaign, EarningRule, Reward, ShopCatalog, ShopSettings, VipTier } from '../../domain/shop';
import type { Write } from '../write';
import { defineItem } from './define-item';
import { type Item, type ItemKey, type ItemType, recordOf, shopPk } from './item-type';

export { shopPk };

/** Prefixes of item kinds inside a shop partition, used when reading the shop's configuration. */
export const SHOP_ITEM_PREFIX = {
  rule: 'RULE#',
  campaign: 'CAMPAIGN#',
  tier: 'TIER#',
  reward: 'REWARD#',
} as const;

export const shopSettingsKey = (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'SETTINGS' });
export const shopCountersKey = (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'COUNTERS' });
export const earningRuleKey = (shopId: string, id: string): ItemKey => ({ pk: shopPk(shopId), sk: `${SHOP_ITEM_PREFIX.rule}${id}` });
export const campaignKey = (shopId: string, id: string): ItemKey => ({ pk: shopPk(shopId), sk: `${SHOP_ITEM_PREFIX.campaign}${id}` });
export const vipTierKey = (shopId: string, id: string): ItemKey => ({ pk: shopPk(shopId), sk: `${SHOP_ITEM_PREFIX.tier}${id}` });
export const rewardKey = (shopId: string, id: string): ItemKey => ({ pk: shopPk(shopId), sk: `${SHOP_ITEM_PREFIX.reward}${id}` });
/** Clock time up to which order reconciliation has read the platform's changed orders. */
export const orderWatermarkKey = (shopId: string): ItemKey => ({ pk: shopPk(shopId), sk: 'ORDER_WATERMARK' });
/** Every shop, one item each, so scheduled jobs can visit them all. */
export const shopRegistryKey = (shopId: string): ItemKey => ({ pk: 'SHOPS', sk: `SHOP#${shopId}` });
/** Maps a webhook's X-Shopify-Shop-Domain to the shop (written when the configuration is applied). */
export const shopDomainKey = (domain: string): ItemKey => ({ pk: `SHOPDOMAIN#${domain.toLowerCase()}`, sk: 'SHOPDOMAIN' });

export const shopSettings = defineItem({ name: 'shop settings', key: shopSettingsKey, placeholder: ['<shop>'] });
export const shopCounters = defineItem({ name: 'shop counters (members per status)', key: shopCountersKey, placeholder: ['<shop>'] });
export const orderWatermark = defineItem({ name: 'order reconciliation watermark', key: orderWatermarkKey, placeholder: ['<shop>'] });

export const shopItemTypes: readonly ItemType[] = [
  shopSettings.type,
  shopCounters.type,
  { name: 'earning rule', key: earningRuleKey('<shop>', '<id>') },
  { name: 'campaign', key: campaignKey('<shop>', '<id>') },
  { name: 'VIP tier', key: vipTierKey('<shop>', '<id>') },
  { name: 'reward', key: rewardKey('<shop>', '<id>') },
  orderWatermark.type,
  { name: 'shop registry entry (every shop, for the scheduled jobs)', key: shopRegistryKey('<shop>') },
  { name: 'shop domain lookup (webhooks find their shop)', key: shopDomainKey('<domain>') },
];

const COUNTER_ATTRIBUTE: Record<LoyaltyStatus, string> = { member: 'member_count', excluded: 'excluded_count' };

/** The shop counters' attribute of a loyalty status. */
export function counterAttribute(status: LoyaltyStatus): string {
  return COUNTER_ATTRIBUTE[status];
}

/** The shop counters: `delta` more (or fewer) customers of `status`. */
export function countInShop(shopId: string, status: LoyaltyStatus, delta: number): Write {
  return shopCounters.update('count the customer in the shop', shopCountersKey(shopId), { add: { [counterAttribute(status)]: delta } });
}

/** The shop counters: one customer moves from status `from` to `to`. */
export function moveInShopCounts(shopId: string, from: LoyaltyStatus, to: LoyaltyStatus): Write {
  return shopCounters.update("move the customer's count in the shop", shopCountersKey(shopId), {
    add: { [counterAttribute(from)]: -1, [counterAttribute(to)]: 1 },
  });
}

/** The shop counters set to exact figures (the recount of `stats backfill`). */
export function setShopCounts(shopId: string, counters: Record<LoyaltyStatus, number>): Write {
  return shopCounters.update("set the shop's member counts", shopCountersKey(shopId), {
    set: { [counterAttribute('member')]: counters.member, [counterAttribute('excluded')]: counters.excluded },
  });
}

/** Holds only while the shop has no settings yet: a new shop. */
export function checkNewShop(shopId: string): Write {
  return shopSettings.check('check the shop is new', shopSettingsKey(shopId), { condition: 'attribute_not_exists(pk)' });
}

/** The shop marked disconnected (app/uninstalled) at its first uninstall; refused when the shop has no settings. */
export function markUninstalled(shopId: string, at: string): Write {
  return shopSettings.update('mark the shop uninstalled', shopSettingsKey(shopId), {
    setIfAbsent: { uninstalled_at: at },
    condition: 'attribute_exists(pk)',
  });
}

/** How far order reconciliation has read the platform's changed orders. */
export function moveOrderWatermark(shopId: string, watermark: string): Write {
  return orderWatermark.update('move the order watermark', orderWatermarkKey(shopId), { set: { watermark } });
}

/** The items of a shop's configuration. */
export function catalogItems(catalog: ShopCatalog): Item[] {
  const shopId = catalog.settings.id;
  return [
    { ...shopSettingsKey(shopId), ...catalog.settings },
    ...catalog.earningRules.map((rule) => ({ ...earningRuleKey(shopId, rule.id), ...rule })),
    ...catalog.campaigns.map((campaign) => ({ ...campaignKey(shopId, campaign.id), ...campaign })),
    ...catalog.tiers.map((tier) => ({ ...vipTierKey(shopId, tier.id), ...tier })),
    ...catalog.rewards.map((reward) => ({ ...rewardKey(shopId, reward.id), ...reward })),
  ];
}

/** The configuration read back from the items of the shop's partition; null without a settings item. */
export function catalogOf(items: readonly Item[]): ShopCatalog | null {
  const settings = items.find((item) => item.sk === shopSettingsKey('').sk);
  if (!settings) return null;
  const of = <T>(prefix: string) => items.filter((item) => String(item.sk).startsWith(prefix)).map((item) => recordOf<T>(item, {}));
  return {
    settings: recordOf<ShopSettings>(settings, {}),
    earningRules: of<EarningRule>(SHOP_ITEM_PREFIX.rule),
    campaigns: of<Campaign>(SHOP_ITEM_PREFIX.campaign),
    tiers: of<VipTier>(SHOP_ITEM_PREFIX.tier),
    rewards: of<Reward>(SHOP_ITEM_PREFIX.reward),
  };
}

/** The registry entry and the domain lookup of a shop. */
export function shopIdentityItems(shopId: string, shopDomain: string): Item[] {
  return [
    { ...shopRegistryKey(shopId), shop_id: shopId, shop_domain: shopDomain.toLowerCase() },
    { ...shopDomainKey(shopDomain), shop_id: shopId },
  ];
}
