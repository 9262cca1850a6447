// The scheduled jobs' reads and writes: an item found in the due-work index read consistently, and one
// transaction per member change (profile conditional on its version, new entries conditional on not
// existing, due items conditional on still being in the state the job read: the item modules' named
// writes), so a job run twice, or two runs at once, change a member once.
import type { CustomerRecord } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { LedgerEntry } from '../domain/points-ledger';
import { committedUnlessRefused, type Write } from './commit';
import type { StoredCustomer } from './items/customer-profile';
import { recordEarningEntry } from './items/earning-entry';
import { writeMemberBalance } from './items/member-balance';

/** The jobs read each item they found in the due-work index as stored, consistently. */
export { readItem } from './item-reads';

export interface CalendarChange {
  shopId: string;
  customerId: string;
  /** The profile as read and its next figures (written only if still at that version and a member). */
  customer?: { current: StoredCustomer; next: CustomerRecord };
  /** New earning entries (approvals of their own, expiries, birthday points): never written twice. */
  newEntries?: LedgerEntry[];
  /** The item modules' named writes on the due items (an entry approved, a batch closed, a timer moved). */
  writes?: Write[];
  /** The change's events, committed with it. */
  events?: readonly DomainEvent[];
}

/** Writes the change in one transaction; false when something changed since it was read (the caller reads again). */
export async function writeCalendarChange(change: CalendarChange): Promise<boolean> {
  return committedUnlessRefused(
    [
      ...(change.customer ? [writeMemberBalance(change.customer.current, change.customer.next)] : []),
      ...(change.newEntries ?? []).map((entry) => recordEarningEntry(change.shopId, change.customerId, entry)),
      ...(change.writes ?? []),
    ],
    { events: change.events },
  );
}
