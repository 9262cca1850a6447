// What the jobs share when they change a member: the member events they publish, and the profile's
// deadline kept true. Their points moves are the domain's (shared/domain/member-points.ts); the writes on
// the due items are their item modules' (shared/data/items/).
import type { StoredCustomer } from '../data/customer-repository';
import { type DueOutcome, tidy } from './due-job';
import type { DomainEvent } from '../domain/events';

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
