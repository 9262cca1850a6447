// What the jobs share when they change a member: new figures with the tier they reach, the tier event,
// and the item updates that take an item out of the due-work index or move it.
import type { DueKind } from '../data/due-work';
import { dueAttributes } from '../data/due-work';
import type { ItemUpdate } from '../data/calendar-repository';
import type { StoredCustomer } from '../data/customer-repository';
import { type DueOutcome, tidy } from './due-job';
import type { ItemKey } from '../data/keys';
import { keys } from '../data/keys';
import type { CustomerRecord } from '../domain/customer';
import type { ShopCatalog } from '../domain/shop';
import { resolveTier } from '../domain/tiers';
import type { DomainEvent } from '../events/domain-events';

/** The record with its balance and lifetime points moved, and the tier those figures reach. */
export function withPoints(shop: ShopCatalog, record: CustomerRecord, points: number, lifetime: number, now: string): CustomerRecord {
  const figures = {
    ...record,
    current_points: Math.max(0, record.current_points + points),
    lifetime_points: record.lifetime_points + lifetime,
  };
  const tier = resolveTier(figures, shop.tiers, shop.settings.vip_settings);
  return { ...figures, vip_tier_id: tier?.id ?? null, updated_at: now };
}

/** `tier.changed` when the figures moved the member to another tier. */
export function tierEvents(shop: ShopCatalog, before: CustomerRecord, after: CustomerRecord, now: string): DomainEvent[] {
  const from = resolveTier(before, shop.tiers, shop.settings.vip_settings)?.id ?? null;
  const to = resolveTier(after, shop.tiers, shop.settings.vip_settings)?.id ?? null;
  if (from === to) return [];
  return [
    {
      type: 'tier.changed',
      shop_id: after.shop_id,
      customer_id: after.platform_customer_id,
      from_tier_id: from,
      to_tier_id: to,
      send_email: true,
      occurred_at: now,
    },
  ];
}

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
