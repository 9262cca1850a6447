// The profile writes of a points change, by name: the member's next figures put at the version read
// ("write the member's balance"), and the queue's first requests applied to the balance ("apply queued
// adjustments", pinned to exactly the figures the arithmetic read). The profile's due work follows from
// its figures through `profileDue` (customer-profile.ts), for the put and the update alike.
import type { AdjustmentReceipt, CustomerRecord, QueuedAdjustment } from '../../domain/customer';
import type { Write } from '../write';
import { dueChange } from './due';
import {
  customerKey,
  customerProfile,
  profileDue,
  type StoredCustomer,
  tierActivityAttributes,
  writeMemberBalance,
} from './customer-profile';

/** The profile attribute holding the queue, and the one holding the last commit's receipts. */
export const POINTS_QUEUE = 'points_queue';
export const POINTS_RECEIPTS = 'points_receipts';

/** The profile's next figures, only if it is still at the version read and still a member (customer-profile.ts). */
export { writeMemberBalance };

export const APPLY_QUEUED_ADJUSTMENTS = 'apply queued adjustments';

export interface QueuedAdjustmentsApplied {
  /** The profile as read: the arithmetic started from these figures. */
  read: StoredCustomer;
  /** The figures after every applied request. */
  next: CustomerRecord;
  /** Ids of the queue's first requests, in order, that leave it now (applied or dropped). */
  removedIds: readonly string[];
  receipts: readonly AdjustmentReceipt[];
}

/**
 * The profile's new figures, only while every figure the arithmetic read is unchanged, the customer is
 * still a member and the queue still starts with `removedIds`; those requests leave the queue. The
 * profile as it is comes back with a refusal: the next attempt needs no read.
 */
export function applyQueuedAdjustments(write: QueuedAdjustmentsApplied): Write {
  const { read, next } = write;
  const names: Record<string, string> = { '#queue': POINTS_QUEUE };
  const values: Record<string, unknown> = { ':member': 'member' };
  const conditions = ['attribute_exists(pk)', '#status = :member'];
  const name = (attribute: string) => {
    const key = `#c${Object.keys(names).length}`;
    names[key] = attribute;
    return key;
  };
  const value = (v: unknown) => {
    const key = `:c${Object.keys(values).length}`;
    values[key] = v;
    return key;
  };
  // What the arithmetic read: the balance (floor at zero), the tier's inputs, the batch line, the inactivity
  // deadline and its reminder (the due-work attributes follow from them).
  const pinned = read.record as unknown as Record<string, unknown>;
  for (const attribute of [
    'current_points',
    'lifetime_points',
    'total_spend',
    'orders_count',
    'points_batch_total',
    'points_expire_at',
    'points_expiry_reminded_for',
  ]) {
    const held = pinned[attribute];
    const path = name(attribute);
    if (held === undefined || held === null) {
      conditions.push(`(attribute_not_exists(${path}) OR attribute_type(${path}, ${value('NULL')}))`);
    } else {
      conditions.push(`${path} = ${value(held)}`);
    }
  }
  write.removedIds.forEach((id, index) => conditions.push(`#queue[${index}].#id = ${value(id)}`));
  const figures = next as unknown as Record<string, unknown>;
  const set: Record<string, unknown> = {};
  for (const attribute of [
    'current_points',
    'lifetime_points',
    'vip_tier_id',
    'updated_at',
    'points_batch_total',
    'points_last_activity_at',
    'points_expire_at',
  ]) {
    if (figures[attribute] !== undefined) set[attribute] = figures[attribute];
  }
  set[POINTS_RECEIPTS] = write.receipts;
  // The member list's tier-and-activity entry, as the profile's one derive gives it for the next figures.
  Object.assign(set, tierActivityAttributes(next));
  // The due work as the profile's one derive gives it for the next figures.
  const due = dueChange(profileDue(next));
  Object.assign(set, due.set);
  return customerProfile.update(APPLY_QUEUED_ADJUSTMENTS, customerKey(next.shop_id, next.platform_customer_id), {
    set,
    remove: [...write.removedIds.map((_, index) => `${POINTS_QUEUE}[${index}]`), ...due.remove],
    add: { version: 1 },
    condition: conditions.join(' AND '),
    names,
    values,
    returnOld: true,
  });
}

export const ENQUEUE_ADJUSTMENT = 'queue the adjustment';
export const WITHDRAW_ADJUSTMENT = 'withdraw the queued adjustment';

/**
 * `request` appended to the member's queue, only while the customer exists, is a member and the queue has
 * room. Not a change of the member's balance, so the version stays: writers that put the whole profile keep
 * the queue they read.
 */
export function enqueueAdjustmentWrite(shopId: string, customerId: string, request: QueuedAdjustment, maxQueue: number): Write {
  return customerProfile.update(ENQUEUE_ADJUSTMENT, customerKey(shopId, customerId), {
    append: { [POINTS_QUEUE]: [request] },
    condition: 'attribute_exists(pk) AND #status = :member AND (attribute_not_exists(#queue) OR size(#queue) < :max)',
    names: { '#queue': POINTS_QUEUE },
    values: { ':member': 'member', ':max': maxQueue },
    returnOld: true,
  });
}

/**
 * The member's request at `index` taken back out of the queue, if it is still there. A new version: a write
 * of the whole profile that read the queue with the request in it is refused instead of putting it back.
 */
export function withdrawAdjustmentWrite(shopId: string, customerId: string, index: number, id: string): Write {
  return customerProfile.update(WITHDRAW_ADJUSTMENT, customerKey(shopId, customerId), {
    remove: [`${POINTS_QUEUE}[${index}]`],
    add: { version: 1 },
    condition: `#queue[${index}].#id = :id`,
    names: { '#queue': POINTS_QUEUE },
    values: { ':id': id },
    returnOld: true,
  });
}
