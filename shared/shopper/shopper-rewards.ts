// A member's rewards (GET /shopper/member/rewards): the codes they bought and can still use, newest first,
// each with the reward's name, the discount it gives and its end date, read from the reward history.
import { getCustomer } from '../data/customer-repository';
import { listUnusedRewardCodes, type UnusedRewardCode } from '../data/history-repository';
import { customerNotFound } from '../domain/errors';
import type { ShopCatalog } from '../domain/shop';
import { flexibleValue } from '../purchases/purchase-rules';

export interface RewardsPage {
  codes: UnusedRewardCode[];
  total: number;
}

/**
 * The member's unused codes: active, not refunded, not past their end date at `now`. A customer who is not a
 * member: 404. The member and the page are read at once.
 */
export async function memberRewards(
  shop: ShopCatalog,
  customerId: string,
  page: { offset: number; size: number },
  now: string,
): Promise<RewardsPage> {
  const shopId = shop.settings.id;
  const [member, codes] = await Promise.all([
    getCustomer(shopId, customerId),
    listUnusedRewardCodes(shopId, customerId, now, { offset: page.offset, limit: page.size }),
  ]);
  if (!member) throw customerNotFound(customerId);
  return { codes: codes.entries.map((code) => ({ ...code, discount: code.discount ?? catalogDiscount(shop, code) })), total: codes.total };
}

/**
 * The discount of a code recorded without one (an entry brought over from another app): the reward's as the
 * catalog defines it, a flexible reward's for the points spent; null when the reward is gone.
 */
function catalogDiscount(shop: ShopCatalog, code: UnusedRewardCode): UnusedRewardCode['discount'] {
  const reward = shop.rewards.find((candidate) => candidate.id === code.reward_id);
  if (!reward) return null;
  const value =
    reward.redemption_mode === 'flexible' && reward.flexible_config
      ? flexibleValue(code.points_spent, reward.flexible_config.points_per_unit, shop.settings.currency)
      : reward.discount_amount;
  return { type: reward.discount_type, value, minimum_spend: reward.minimum_spend };
}
