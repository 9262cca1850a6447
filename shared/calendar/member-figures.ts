// What the jobs share when they change a member: the member events they publish, and the item updates
// that take an item out of the due-work index or move it. Their points moves are the domain's
// (shared/domain/member-points.ts).
import type { DueKind } from '../data/due-work';
import { dueAttributes } from '../data/due-work';
import type { ItemUpdate } from '../data/calendar-repository';
import type { StoredCustomer } from '../data/customer-repository';
import { type DueOutcome, tidy } from './due-job';
import type { ItemKey } from '../data/keys';
import { keys } from '../data/keys';
import type { DomainEvent } from '../events/domain-events';

/** Takes an item out of the due-work index, if it is still in the partition the job read it from. */
export function leaveDue(shopId: string, key: ItemKey, kind: DueKind, set: Record<string, unknown> = {}): ItemUpdate {
  return {
    key,
    set,
    remove: ['due_pk', 'due_at'],
    condition: '#due_pk = :duePk',
    values: { ':duePk': keys.dueWork(shopId, kind) },
  };
}

/** Moves an item to another due time (and kind), if it is still where the job read it. */
export function moveDue(
  shopId: string,
  key: ItemKey,
  from: DueKind,
  to: DueKind,
  at: string,
  id: string,
  set: Record<string, unknown> = {},
): ItemUpdate {
  return {
    key,
    set: { ...set, ...dueAttributes(shopId, to, at, id) },
    condition: '#due_pk = :duePk',
    values: { ':duePk': keys.dueWork(shopId, from) },
  };
}

/** An event about one member's points or codes, stamped with the run's time. */
export function memberEvent(
  type: 'points.expired' | 'points.expiring_soon' | 'points.approved' | 'reward.expired',
  shopId: string,
  customerId: string,
  now: string,
  fields: Record<string, unknown>,
): DomainEvent {
  return { type, shop_id: shopId, customer_id: customerId, occurred_at: now, ...fields };
}

/**
 * A profile whose inactivity deadline is not due after all (activity moved it, the balance is spent, the
 * mode changed) is rewritten with its true deadline, which moves it in (or out of) the due work.
 */
export async function keepDeadline(customer: StoredCustomer, deadline: string | null): Promise<DueOutcome | undefined> {
  const { record } = customer;
  if ((record.points_expire_at ?? null) === deadline) return { changed: false };
  return tidy({
    shopId: record.shop_id,
    customerId: record.platform_customer_id,
    customer: { current: customer, next: { ...record, points_expire_at: deadline } },
  });
}
