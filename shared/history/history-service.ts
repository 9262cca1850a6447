// History use cases: a customer's earning and reward history, one page at a time or one entry,
// always within the caller's shop and the customer named in the path.
import type { StoredCustomer } from '../data/customer-repository';
import {
  type EarningHistoryQuery,
  getEarningEntry,
  getRewardEntry,
  type HistoryPage,
  listEarningEntries,
  listRewardEntries,
  type RewardHistoryQuery,
} from '../data/history-repository';
import type { EarningEntry, RewardEntry } from '../domain/history';
import { resolveCustomer } from '../customers/customer-service';
import { DomainError, echoed, notFound } from '../domain/errors';

const earningEntryNotFound = (id: string): DomainError => notFound(`Earning history entry '${echoed(id)}' not found`);
const rewardEntryNotFound = (id: string): DomainError => notFound(`Reward history entry '${echoed(id)}' not found`);

// A sort key holds at most 1024 bytes; a longer id cannot name an entry, and DynamoDB would refuse the read.
const MAX_ENTRY_ID_BYTES = 1000;

export async function listEarningHistory(
  shopId: string,
  identifier: string,
  query: EarningHistoryQuery,
): Promise<HistoryPage<EarningEntry>> {
  const customer = await resolveCustomer(shopId, identifier);
  return listEarningEntries(shopId, customer.record.platform_customer_id, query);
}

export async function listRewardHistory(shopId: string, identifier: string, query: RewardHistoryQuery): Promise<HistoryPage<RewardEntry>> {
  const customer = await resolveCustomer(shopId, identifier);
  return listRewardEntries(shopId, customer.record.platform_customer_id, query);
}

/** The customer, or null: a single-entry read answers an unknown customer with the entry's 404. */
async function findCustomer(shopId: string, identifier: string): Promise<StoredCustomer | null> {
  try {
    return await resolveCustomer(shopId, identifier);
  } catch (error) {
    if (error instanceof DomainError && error.kind === 'not_found') return null;
    throw error;
  }
}

async function findEntry<T>(
  shopId: string,
  identifier: string,
  id: string,
  read: (shopId: string, customerId: string, id: string) => Promise<T | null>,
): Promise<T | null> {
  if (Buffer.byteLength(id) > MAX_ENTRY_ID_BYTES) return null;
  const customer = await findCustomer(shopId, identifier);
  return customer ? read(shopId, customer.record.platform_customer_id, id) : null;
}

export async function getEarningHistoryEntry(shopId: string, identifier: string, id: string): Promise<EarningEntry> {
  const entry = await findEntry(shopId, identifier, id, getEarningEntry);
  if (!entry) throw earningEntryNotFound(id);
  return entry;
}

export async function getRewardHistoryEntry(shopId: string, identifier: string, id: string): Promise<RewardEntry> {
  const entry = await findEntry(shopId, identifier, id, getRewardEntry);
  if (!entry) throw rewardEntryNotFound(id);
  return entry;
}
