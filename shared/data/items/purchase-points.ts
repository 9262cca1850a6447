// The member profile's writes of a purchase (beside customer-profile.ts, which owns the profile's key and
// its derived attributes): "deduct points" when a reward is bought and "give points back" when the
// purchase is refunded. Both are updates in place, not puts of a profile read before: a purchase never reads
// the profile first. The profile's due work (the inactivity deadline) is what `profileDue` derives for the
// profile after the write, so each write is conditional on the fields that derivation read.
import type { PurchaseRecord } from '../../domain/history';
import type { Write } from '../write';
import { customerKey, customerProfile, profileDue, storedCustomerOf } from './customer-profile';
import { dueChange } from './due';
import type { Item } from './item-type';

/**
 * What a deduction assumes of the balance it leaves: some points (the inactivity deadline's due work
 * stays), none (nothing is due), or either (no inactivity expiry: nothing is due whatever is left).
 */
export type BalanceLeft = 'some' | 'none' | 'any';

const ENOUGH: Record<BalanceLeft, string> = {
  some: 'current_points > :points',
  none: 'current_points = :points',
  any: 'current_points >= :points',
};

/**
 * The purchase's points deducted from a member that has enough (leaving `left`): spending is activity, so
 * with inactivity expiry (`inactivityDeadline`) a new period starts, not reminded yet. Assuming some points
 * are left, a refusal answers the profile as it is: whether the member spends exactly the whole balance.
 */
export function deductPoints(purchase: PurchaseRecord, inactivityDeadline: string | null, left: BalanceLeft): Write {
  const { shop_id: shopId, customer_id: customerId, points_spent: points } = purchase;
  // The profile after the deduction as far as its due work goes: a member in a new period, not reminded yet.
  const due = dueChange(
    profileDue({
      shop_id: shopId,
      platform_customer_id: customerId,
      status: 'member',
      current_points: left === 'none' ? 0 : points,
      points_expire_at: inactivityDeadline,
      points_expiry_reminded_for: null,
    }),
  );
  const now = purchase.created_at;
  return customerProfile.update('deduct points', customerKey(shopId, customerId), {
    set: { updated_at: now, points_last_activity_at: now, last_activity_at: now, points_expire_at: inactivityDeadline, ...due.set },
    remove: due.remove,
    add: { current_points: -points, redeemed_points: points, version: 1 },
    condition: `#status = :member AND ${ENOUGH[left]}`,
    values: { ':points': points, ':member': 'member' },
    returnOld: left === 'some',
  });
}

/** Whether a refused deduction that assumed points are left would spend exactly the whole balance of `profile`. */
export const spendsWholeBalance = (purchase: PurchaseRecord, profile: Item | null): boolean =>
  profile?.status === 'member' && profile.current_points === purchase.points_spent;

/**
 * The purchase's points given back (and its redemption). Nothing due changes while the profile is in the due
 * work already, has no inactivity deadline, or is no member: the first write (`read` null) is conditional on
 * that and answers the profile when refused. Otherwise the profile spent its whole balance, and what
 * `profileDue` derives for it with the points back is written too, conditional on the fields it read.
 */
export function givePointsBack(purchase: PurchaseRecord, now: string, read: Item | null): Write {
  const { shop_id: shopId, customer_id: customerId, points_spent: points } = purchase;
  const back = { set: { updated_at: now }, add: { current_points: points, redeemed_points: -points, version: 1 }, returnOld: true };
  if (!read) {
    return customerProfile.update('give points back', customerKey(shopId, customerId), {
      ...back,
      condition:
        'attribute_exists(due_pk) OR attribute_not_exists(points_expire_at) OR attribute_type(points_expire_at, :null) OR #status <> :member',
      values: { ':member': 'member', ':null': 'NULL' },
    });
  }
  const { record } = storedCustomerOf(read);
  const due = dueChange(profileDue({ ...record, current_points: record.current_points + points }));
  const reminded = record.points_expiry_reminded_for ?? null;
  return customerProfile.update('give points back', customerKey(shopId, customerId), {
    ...back,
    set: { ...back.set, ...due.set },
    remove: due.remove,
    condition:
      'attribute_not_exists(due_pk) AND #status = :member AND points_expire_at = :deadline AND ' +
      (reminded === null
        ? '(attribute_not_exists(points_expiry_reminded_for) OR attribute_type(points_expiry_reminded_for, :null))'
        : 'points_expiry_reminded_for = :reminded'),
    values: {
      ':member': 'member',
      ':deadline': record.points_expire_at ?? null,
      ...(reminded === null ? { ':null': 'NULL' } : { ':reminded': reminded }),
    },
  });
}
