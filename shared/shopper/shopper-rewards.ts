// A member's rewards (GET /shopper/member/rewards): the codes they bought and can still use, newest first,
// each with the reward's name, the discount it gives and its end date, read from the reward history.
import { getCustomer } from '../data/customer-repository';
import { listUnusedRewardCodes, type UnusedRewardCode } from '../data/history-repository';
import { customerNotFound } from '../domain/errors';
import type { ShopCatalog } from '../domain/shop';

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
  return { codes: codes.entries, total: codes.total };
}
