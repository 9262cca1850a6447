// The reward history entry item (`REDEEM#<id>` in the customer's partition), which is also the purchase the
// saga writes: its sparse local-index attributes (created, points spent), its due work (an active code's
// expiry), its place in the unsettled purchases index while the saga has not settled it, the item written
// for an entry and the entry read back.
import type { RewardEntry, RewardStatus } from '../../domain/history';
import { customerPk } from './customer-profile';
import { type DueAttributes, dueAttributes, DUE_ATTRIBUTES } from './due';
import { type Item, type ItemKey, type ItemType, recordOf } from './item-type';

export const REWARD_ENTRY_PREFIX = 'REDEEM#';

export const rewardEntryKey = (shopId: string, customerId: string, id: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${REWARD_ENTRY_PREFIX}${id}`,
});

/** Partition of the unsettled purchases index the reconciler reads (sparse: only unsettled purchases). */
export const UNSETTLED_PURCHASES = 'PENDING_PURCHASES';

const UNSETTLED_ATTRIBUTES = ['unsettled_pk', 'unsettled_since'] as const;

export const rewardEntryType: ItemType = {
  name: 'reward history entry (a purchase)',
  key: rewardEntryKey('<shop>', '<platform id>', '<id>'),
  indexed: ['redeem_created_at', 'redeem_points_spent', ...UNSETTLED_ATTRIBUTES, ...DUE_ATTRIBUTES],
  derived: ['redeem_created_at', 'redeem_points_spent', ...UNSETTLED_ATTRIBUTES, ...DUE_ATTRIBUTES],
};

/**
 * The reward statuses callers may see. The purchase saga parks entries in internal statuses (such as
 * `pending`) while the discount code is created; those are never listed, counted or fetched.
 */
export const VISIBLE_REWARD_STATUSES: readonly RewardStatus[] = ['active', 'used', 'expired'];

/** An active code with an end date is due to expire then. */
export function rewardDue(shopId: string, entry: Pick<RewardEntry, 'id' | 'status' | 'expires_at'>): DueAttributes | null {
  return entry.status === 'active' && entry.expires_at ? dueAttributes(shopId, 'code', entry.expires_at, entry.id) : null;
}

/** A purchase not settled yet, in the reconciler's index since `since` (oldest first). */
export const unsettledAttributes = (since: string) => ({ unsettled_pk: UNSETTLED_PURCHASES, unsettled_since: since });

export function rewardEntryItem(shopId: string, customerId: string, entry: RewardEntry): Item {
  return {
    ...rewardEntryKey(shopId, customerId, entry.id),
    ...entry,
    redeem_created_at: entry.created_at,
    redeem_points_spent: entry.points_spent,
    ...rewardDue(shopId, entry),
  };
}

export const rewardEntryOf = (item: Item): RewardEntry => recordOf<RewardEntry>(item, rewardEntryType);

/** A visible entry read back; null for an entry still in an internal status. */
export function visibleRewardEntryOf(item: Item): RewardEntry | null {
  return (VISIBLE_REWARD_STATUSES as readonly unknown[]).includes(item.status) ? rewardEntryOf(item) : null;
}
