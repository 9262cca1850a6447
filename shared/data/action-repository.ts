// The award of an action rule (POST /v1/customers/{identifier}/actions): one transaction that increments
// the member's counter for the rule's current period only while it stays within the limit, writes the
// member's new figures only while the profile is at the version read (and a member), and puts the approved
// entry only if it does not exist. Past the limit nothing is written, however many requests race: the
// counter's condition, not a read before the write, is what refuses them.
import type { CustomerRecord } from '../domain/customer';
import type { DomainEvent } from '../domain/events';
import type { EarningEntry } from '../domain/history';
import { commit } from './commit';
import { countActionAward } from './items/action-count';
import { storedCustomerOf, type StoredCustomer, writeMemberBalance } from './items/customer-profile';
import { recordEarningEntry } from './items/earning-entry';

export interface ActionAwardWrite {
  /** The profile as read, and its figures after the award. */
  customer: { current: StoredCustomer; next: CustomerRecord };
  entry: EarningEntry;
  /** The rule's counter for the period the award falls in, and the limit it must stay within. */
  counter: { ruleId: string; period: string; endsAt: string | null; times: number };
}

export type ActionAwardOutcome =
  | { written: true }
  /** The counter is at the limit: nothing was written. */
  | { written: false; reason: 'limit_reached' }
  /** The entry exists: this award was written before (a retry of the same request). */
  | { written: false; reason: 'already_written' }
  /** The profile changed since it was read (`current`: as it is now, null when gone), or another transaction held an item. */
  | { written: false; reason: 'changed'; current: StoredCustomer | null }
  | { written: false; reason: 'conflict' };

/** `events`: the award's domain events, committed with it (they exist if and only if the award does). */
export async function writeActionAward(write: ActionAwardWrite, events: readonly DomainEvent[] = []): Promise<ActionAwardOutcome> {
  const { current, next } = write.customer;
  const shopId = next.shop_id;
  const customerId = next.platform_customer_id;
  const counter = countActionAward(shopId, customerId, write.counter);
  // The profile as it is now comes back with a refusal: the next attempt needs no read.
  const member = writeMemberBalance(current, next, { returnOld: true });
  const entry = recordEarningEntry(shopId, customerId, write.entry);
  const outcome = await commit([counter, member, entry], { events });
  if (outcome.committed) return { written: true };
  const { refusal } = outcome;
  if (refusal.kind === 'conflict') return { written: false, reason: 'conflict' };
  if (refusal.failed.includes(entry.name)) return { written: false, reason: 'already_written' };
  if (refusal.failed.includes(counter.name)) return { written: false, reason: 'limit_reached' };
  const old = refusal.current(member.name);
  return { written: false, reason: 'changed', current: old ? storedCustomerOf(old) : null };
}
