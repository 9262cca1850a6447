// The reward history entry item (`REDEEM#<id>` in the customer's partition), which is also the purchase the
// saga writes: its sparse local-index attributes (created, points spent), its due work (an active code's
// expiry), its place in the unsettled purchases index while the saga has not settled it, the item written
// for an entry and the entry read back.
import type { RewardEntry, RewardStatus } from '../../domain/history';
import { customerPk } from './customer-profile';
import { namedWrite, type Write } from '../write';
import { type DueAttributes, dueAttributes, DUE_ATTRIBUTES, dueChange, STILL_DUE, stillDueValues } from './due';
import { type Item, type ItemKey, type ItemType, recordOf } from './item-type';
import { updateRequest } from './update';

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

// ---- named writes of the order and the code-expiry job -----------------------------------------------
// A used or expired code has nothing due (rewardDue): these writes take it out of the due work.

/**
 * An order used the entry's code: it becomes `used`, only while active and not refunded (the condition a
 * redemption's refund writes under: of an order using the code and its refund, only one commits).
 */
export function useRewardCode(shopId: string, customerId: string, id: string, redeemedAt: string, now: string): Write {
  const due = dueChange(null);
  return namedWrite(
    'use a reward code',
    updateRequest(rewardEntryKey(shopId, customerId, id), {
      set: { status: 'used', discount_code_redeemed_at: redeemedAt, updated_at: now, ...due.set },
      remove: due.remove,
      condition: '#status = :active AND (attribute_not_exists(#is_refunded) OR #is_refunded = :false)',
      values: { ':active': 'active', ':false': false },
    }),
  );
}

/** The code's end date passed: the entry becomes `expired`, if it is still active and in the code-expiry work. */
export function expireRewardCode(shopId: string, key: ItemKey, now: string): Write {
  const due = dueChange(null);
  return namedWrite(
    'expire a reward code',
    updateRequest(key, {
      set: { status: 'expired', updated_at: now, ...due.set },
      remove: due.remove,
      condition: `${STILL_DUE} AND #status = :active`,
      values: { ...stillDueValues(shopId, 'code'), ':active': 'active' },
    }),
  );
}

/** A code used or refunded meanwhile only leaves the code-expiry work, if it is still there. */
export function leaveCodeExpiryWork(shopId: string, key: ItemKey): Write {
  const due = dueChange(null);
  return namedWrite(
    'leave the code expiry work',
    updateRequest(key, { set: due.set, remove: due.remove, condition: STILL_DUE, values: stillDueValues(shopId, 'code') }),
  );
}
