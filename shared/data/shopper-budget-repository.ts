// Each shop's shopper budget (docs/decisions.md, "Each shop its own shopper budget"): a fixed-window counter
// per shop and class of shopper route, shared by every function container, one conditional UpdateItem per
// verified shopper request. It keeps real time, as every rate limit does, never the domain clock
// (runtime/clock.ts): `PUT /_clock` on the twin moves no window.
import { commitOne } from './commit';
import { takeShopperBudget } from './items/shopper-budget';

export interface ShopperBudgetLimit {
  /** Requests per second on average. */
  rateLimit: number;
  /** Requests per window; the window is `burstLimit / rateLimit` seconds. */
  burstLimit: number;
}

/** The window's length in whole seconds (at least one). */
export const budgetWindowSeconds = (limit: ShopperBudgetLimit): number => Math.max(1, Math.round(limit.burstLimit / limit.rateLimit));

/**
 * Takes one request from the shop's budget for `routeClass` in the window `realNowMs` falls in: true when
 * there was room, false when the shop has spent the window's `burstLimit` (the caller answers 429).
 */
export async function spendShopperBudget(
  shopId: string,
  routeClass: string,
  limit: ShopperBudgetLimit,
  realNowMs: number = Date.now(),
): Promise<boolean> {
  const window = budgetWindowSeconds(limit);
  const windowStart = Math.floor(realNowMs / 1000 / window) * window;
  return (await commitOne(takeShopperBudget(shopId, routeClass, windowStart, windowStart + window, limit.burstLimit))).committed;
}
