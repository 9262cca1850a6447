// The member profile's writes of a purchase (beside customer-profile.ts, which owns the profile's key and
// its derived attributes): "deduct points" when a reward is bought and "give points back" when the
// purchase is refunded. Both are updates in place, not puts of a profile read before: a purchase never reads
// the profile first. The profile's due work (the inactivity deadline) is what `profileDue` derives for the
// profile after the write, so each write is conditional on the fields that derivation read.
import type { PurchaseRecord } from '../../domain/history';
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import { customerKey, profileDueUpdate, storedCustomerOf } from './customer-profile';
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
  const due = profileDueUpdate({
    shop_id: shopId,
    platform_customer_id: customerId,
    status: 'member',
    current_points: left === 'none' ? 0 : points,
    points_expire_at: inactivityDeadline,
    points_expiry_reminded_for: null,
  });
  return namedWrite('deduct points', {
    Update: {
      TableName: tableName(),
      Key: customerKey(shopId, customerId),
      UpdateExpression:
        'SET current_points = current_points - :points, redeemed_points = redeemed_points + :points, #version = #version + :one, ' +
        `updated_at = :now, points_last_activity_at = :now, last_activity_at = :now, points_expire_at = :deadline${due.set ? `, ${due.set}` : ''}` +
        (due.remove ? ` REMOVE ${due.remove}` : ''),
      ConditionExpression: `#status = :member AND ${ENOUGH[left]}`,
      ExpressionAttributeNames: { '#status': 'status', '#version': 'version' },
      ExpressionAttributeValues: {
        ':points': points,
        ':one': 1,
        ':now': purchase.created_at,
        ':member': 'member',
        ':deadline': inactivityDeadline,
        ...due.values,
      },
      ...(left === 'some' ? { ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
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
  const set =
    'SET current_points = current_points + :points, redeemed_points = redeemed_points - :points, #version = #version + :one, updated_at = :now';
  const base = {
    TableName: tableName(),
    Key: customerKey(shopId, customerId),
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const,
  };
  const values = { ':points': points, ':one': 1, ':now': now, ':member': 'member' };
  if (!read) {
    return namedWrite('give points back', {
      Update: {
        ...base,
        UpdateExpression: set,
        ConditionExpression:
          'attribute_exists(due_pk) OR attribute_not_exists(points_expire_at) OR attribute_type(points_expire_at, :null) OR #status <> :member',
        ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
        ExpressionAttributeValues: { ...values, ':null': 'NULL' },
      },
    });
  }
  const { record } = storedCustomerOf(read);
  const due = profileDueUpdate({ ...record, current_points: record.current_points + points });
  const reminded = record.points_expiry_reminded_for ?? null;
  return namedWrite('give points back', {
    Update: {
      ...base,
      UpdateExpression: `${set}${due.set ? `, ${due.set}` : ''}${due.remove ? ` REMOVE ${due.remove}` : ''}`,
      ConditionExpression:
        'attribute_not_exists(due_pk) AND #status = :member AND points_expire_at = :deadline AND ' +
        (reminded === null
          ? '(attribute_not_exists(points_expiry_reminded_for) OR attribute_type(points_expiry_reminded_for, :null))'
          : 'points_expiry_reminded_for = :reminded'),
      ExpressionAttributeNames: { '#version': 'version', '#status': 'status' },
      ExpressionAttributeValues: {
        ...values,
        ':deadline': record.points_expire_at ?? null,
        ...(reminded === null ? { ':null': 'NULL' } : { ':reminded': reminded }),
        ...due.values,
      },
    },
  });
}
