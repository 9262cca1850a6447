// Earning and reward history items: key and sparse-index attributes are composed here only.
import type { EarningEntry, RewardEntry } from '../domain/history';
import type { Item } from './items';
import { keys } from './keys';

/** Sorts after every ISO timestamp, so entries not given yet come last ascending, first descending. */
export const NOT_GIVEN_YET = '~';

export function earningEntryItem(shopId: string, customerId: string, entry: EarningEntry): Item {
  return {
    ...keys.earningEntry(shopId, customerId, entry.id),
    ...entry,
    earn_created_at: entry.created_at,
    earn_points: entry.points,
    earn_given_at: entry.points_given_at ?? NOT_GIVEN_YET,
  };
}

export function rewardEntryItem(shopId: string, customerId: string, entry: RewardEntry): Item {
  return {
    ...keys.rewardEntry(shopId, customerId, entry.id),
    ...entry,
    redeem_created_at: entry.created_at,
    redeem_points_spent: entry.points_spent,
  };
}
