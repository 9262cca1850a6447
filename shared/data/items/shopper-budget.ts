// A shop's shopper budget (docs/decisions.md, "Each shop its own shopper budget"): one counter per shop, class
// of shopper route (read, write) and fixed window, counting the verified shoppers' requests of that window.
// Short-lived, removed by the table's TTL a minute after its window; with the readers' grant, the only item
// the read-only shopper functions write.
import { TTL_ATTRIBUTE } from '../table';
import type { Write } from '../write';
import { defineItem } from './define-item';
import type { ItemKey } from './item-type';

export const shopperBudgetKey = (shopId: string, routeClass: string, windowStart: number | string): ItemKey => ({
  pk: `SHOP#${shopId}#SHOPPERBUDGET#${routeClass}`,
  sk: `AT#${windowStart}`,
});

export const shopperBudget = defineItem({
  name: 'shopper budget window (TTL)',
  key: shopperBudgetKey,
  placeholder: ['<shop>', '<read or write>', '<window start>'],
  indexed: [TTL_ATTRIBUTE],
  derived: [TTL_ATTRIBUTE],
});

/** IAM pattern of the budget partitions: the only items the read-only shopper functions write. */
export const SHOPPER_BUDGET_PARTITIONS = 'SHOP#*#SHOPPERBUDGET#*';

/** How long a window's counter outlives its window before the table's TTL removes it. */
export const SHOPPER_BUDGET_TTL_SECONDS = 60;

/** The counter's attribute. */
export const SHOPPER_REQUESTS = 'requests';

/**
 * One more request in the window starting at `windowStart` (epoch seconds, real time), only while the window
 * has counted fewer than `limit`; the counter expires SHOPPER_BUDGET_TTL_SECONDS after `windowEnd`.
 */
export const takeShopperBudget = (shopId: string, routeClass: string, windowStart: number, windowEnd: number, limit: number): Write =>
  shopperBudget.update("take from the shop's shopper budget", shopperBudgetKey(shopId, routeClass, windowStart), {
    add: { [SHOPPER_REQUESTS]: 1 },
    setIfAbsent: { [TTL_ATTRIBUTE]: windowEnd + SHOPPER_BUDGET_TTL_SECONDS },
    condition: 'attribute_not_exists(#count) OR #count < :limit',
    names: { '#count': SHOPPER_REQUESTS },
    values: { ':limit': limit },
  });
