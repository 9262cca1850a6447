// The transaction writes of the repositories not yet on named writes, in their old shape: each is now the
// request of an item module's named write (items/customer-profile.ts, items/birthday-timer.ts,
// items/email-gram.ts), and `transactUnlessChanged` is `committedUnlessRefused` (commit.ts) over unnamed
// writes. A repository on named writes imports the item modules and commit.ts instead; this module goes
// once none imports it.
import type { CustomerRecord } from '../domain/customer';
import { committedUnlessRefused, namedWrite, type TransactItem } from './commit';
import { followBirthday } from './items/birthday-timer';
import { type StoredCustomer, writeMemberFigures, writeProfileAtVersion } from './items/customer-profile';
import { followAddress } from './items/email-gram';

export type { TransactItem };

/** `committedUnlessRefused` over writes that have no name yet: false when a condition failed or another transaction got in first. */
export async function transactUnlessChanged(items: TransactItem[]): Promise<boolean> {
  return committedUnlessRefused(items.map((item) => namedWrite('unnamed write', item)));
}

/** The request of `writeMemberFigures`. */
export const memberProfilePut = (current: StoredCustomer, next: CustomerRecord): TransactItem => writeMemberFigures(current, next).request;

/** The request of `writeProfileAtVersion`. */
export const profilePutAtVersion = (current: StoredCustomer, next: CustomerRecord, options: { returnOld?: boolean } = {}): TransactItem =>
  writeProfileAtVersion(current, next, options).request;

/** The requests of `followBirthday`. */
export const birthdayTimerWrites = (next: CustomerRecord, previousDate: string | null): TransactItem[] =>
  followBirthday(next, previousDate).map((write) => write.request);

/** The requests of `followAddress`. */
export const emailPostingWrites = (shopId: string, customerId: string, before: string | null, after: string | null): TransactItem[] =>
  followAddress(shopId, customerId, before, after).map((write) => write.request);
