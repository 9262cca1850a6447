// Approval of due pending points: a pending entry whose points_due_at has passed becomes `approved`, given
// at the run's clock time; the balance and lifetime points rise and the tier follows, in one transaction
// per entry, conditional on the entry still pending with the points read (an order refund may shrink it).
import { writeCalendarChange } from '../data/calendar-repository';
import { getCustomer } from '../data/customer-repository';
import { dueTimeOf } from '../data/due-work';
import { approvePendingEntry, leaveApprovalWork, postponeEntryDue } from '../data/items/earning-entry';
import { withoutKeys } from '../data/item-reads';
import { type ItemKey } from '../data/keys';
import { addDays } from '../domain/dates';
import { movePoints, tierProgramOf } from '../domain/member-points';
import { giveBatches, type LedgerEntry } from '../domain/points-ledger';
import { DEFAULT_EARNING_SETTINGS } from '../domain/shop';
import { withMemberFacts } from '../domain/events';
import type { DomainEvent } from '../domain/events';
import { type DueJob, type DueJobContext, type DueOutcome, readDueItem, tidy } from './due-job';

export const pointsApprovalJob: DueJob = {
  name: 'points_approval',
  kinds: (_shop, now) => [{ kind: 'approval', until: now.toISOString() }],
  handle: approveEntry,
};

async function approveEntry(key: ItemKey, { shop, shopId, now, customerId }: DueJobContext): Promise<DueOutcome | undefined> {
  // Both reads at once: nearly every item the index names is still due.
  const [item, customer] = await Promise.all([readDueItem(key), getCustomer(shopId, customerId, true)]);
  if (!item) return { changed: false };
  const entry = withoutKeys<LedgerEntry>(item);
  // Rejected or already approved meanwhile, or the member is gone: it only has to leave the approval work.
  if (entry.status !== 'pending' || !entry.points_due_at || !customer) {
    return tidy({ shopId, customerId, writes: [leaveApprovalWork(shopId, key)] });
  }
  if (dueTimeOf(String(item.due_at)) > now) return { changed: false };

  // Excluded members' points are frozen: the entry waits, and is looked at again a day later.
  if (customer.record.status !== 'member') {
    const later = postponeEntryDue(shopId, key, entry, 'approval', addDays(now, 1));
    return tidy({ shopId, customerId, writes: [later] });
  }

  const settings = shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS;
  const approved: LedgerEntry = { ...entry, status: 'approved', points_given_at: now, updated_at: now };
  const move = movePoints(customer.record, { points: entry.points, lifetime: entry.points, send_email: true, now }, tierProgramOf(shop));
  const ledger = giveBatches(customer.record, move.next, [approved], settings, now);
  const next = ledger.entries[0]!;
  const events: DomainEvent[] = [
    {
      type: 'points.approved',
      shop_id: shopId,
      customer_id: customerId,
      occurred_at: now,
      earning_history_entry_id: entry.id,
      action: entry.action,
      points: entry.points,
      order_id: entry.order_id,
      points_given_at: now,
      points_expiry_at: next.points_expiry_at,
      // The points leave the pending points (the program's figures): an order's points credited at once do not.
      from_pending: true,
    },
    ...move.events,
  ];
  const written = await writeCalendarChange({
    shopId,
    customerId,
    customer: { current: customer, next: ledger.record },
    // Still pending with the points read: an order refund that shrank or rejected it meanwhile wins.
    writes: [approvePendingEntry(shopId, customerId, next, entry.points)],
    events: withMemberFacts(events, ledger.record, shop.tiers),
  });
  if (!written) return undefined;
  return { changed: true };
}
