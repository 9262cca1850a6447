// The e-mail search index's upkeep outside the member writes: the shop's index marker (written for a
// new shop, whose every member gets postings from its enrolment on, and by the backfill once a shop's
// earlier members have theirs), the postings of members enrolled in bulk, and the backfill's walk over a shop's members, which writes each member's
// postings as its profile has them. Every write is idempotent, so a stopped backfill is simply run again.
import { BatchWriteCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { BATCH_BACKOFF, CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { commit } from './commit';
import { documentClient, tableName } from './client';
import { shopMemberIdPages } from './customer-list';
import { emailIndexReady } from './email-search';
import { BATCH_ATTEMPTS, batchDelete, batchGet, readItem } from './items';
import { checkProfileAddress, customerKey, normalisedEmail } from './items/customer-profile';
import { emailIndexMarkerItem, emailPostingItems, emailPostingKeys, markEmailIndexed, postAddress } from './items/email-gram';
import type { Item } from './items/item-type';
import { markNamesIndexed } from './items/name-token';
import { checkNewShop } from './items/shop';

export { emailIndexReady };

/**
 * Writes the e-mail and name index markers of a shop that has no settings yet, in one transaction with that
 * check: a new shop's members all get postings from their enrolment, so its indexes are complete from the start. A shop
 * that already exists (members from before the index, perhaps) is left to the backfill. True when written.
 */
export async function markNewShopIndexed(shopId: string, now: string): Promise<boolean> {
  const newShop = checkNewShop(shopId);
  const outcome = await commit([newShop, markEmailIndexed(shopId, now, 'new shop'), markNamesIndexed(shopId, now, 'new shop')]);
  if (outcome.committed) return true;
  if (outcome.refusal.kind === 'condition' && outcome.refusal.failed.includes(newShop.name)) return false;
  throw new Error(`Marking the e-mail index of new shop ${shopId}: the transaction was in conflict with another`);
}

/** Writes the shop's index marker: every member the shop had before the index now has its postings. */
export async function markEmailIndexComplete(shopId: string, now: string): Promise<void> {
  await documentClient().send(new PutCommand({ TableName: tableName(), Item: emailIndexMarkerItem(shopId, now, 'backfill') }));
}

/**
 * The e-mail search postings of members about to be enrolled in bulk (an import, a configuration
 * file's members), put before their transactions in
 * BatchWriteItem calls of 25 (docs/decisions.md, "An import writes a new member's e-mail postings
 * before its profile"): a posting without its profile is never a match (a search verifies every candidate
 * against the profile's own address), while a profile without its postings would be missed, so the
 * postings go first and the profile's transaction after them.
 */
export async function putEmailPostings(shopId: string, members: ReadonlyArray<{ customerId: string; email: string }>): Promise<void> {
  const items = members.flatMap(({ customerId, email }) => emailPostingItems(shopId, customerId, normalisedEmail(email)));
  for (let start = 0; start < items.length; start += 25) {
    let pending: Array<Record<string, unknown>> = items.slice(start, start + 25).map((Item) => ({ PutRequest: { Item } }));
    const written = await retryUntil(BATCH_ATTEMPTS, BATCH_BACKOFF, async () => {
      const result = await documentClient().send(new BatchWriteCommand({ RequestItems: { [tableName()]: pending } }));
      pending = (result.UnprocessedItems?.[tableName()] ?? []) as typeof pending;
      return pending.length === 0 ? true : undefined;
    });
    if (!written) throw new Error('BatchWrite left e-mail postings unprocessed after retries');
  }
}

/** Deletes the postings `putEmailPostings` put for a member whose transaction was then refused as erased. */
export async function deleteEmailPostings(shopId: string, customerId: string, email: string): Promise<void> {
  await batchDelete(emailPostingKeys(shopId, customerId, normalisedEmail(email)));
}

/** Members read (from the list index) per page of the backfill, and members written at once. */
const BACKFILL_PAGE = 100;
const BACKFILL_CONCURRENCY = 8;
const MEMBER_ATTEMPTS = 20;

export interface BackfillProgress {
  members: number;
  postings: number;
}

/**
 * Writes the postings of every member of the shop. Each member's are one transaction conditioned on the
 * profile still having the address they were derived from: a change of address that commits first makes
 * the walk read the profile again, one that commits after deletes them as the old address's. So the
 * postings are exact whatever runs meanwhile, and writing them twice changes nothing. `onPage` hears the
 * running totals after each page.
 */
export async function backfillShopPostings(
  shopId: string,
  onPage: (progress: BackfillProgress) => void = () => {},
): Promise<BackfillProgress> {
  const progress: BackfillProgress = { members: 0, postings: 0 };
  for await (const ids of shopMemberIdPages(shopId, BACKFILL_PAGE)) {
    const profiles = await batchGet(ids.map((id) => customerKey(shopId, id)));
    const queue = [...profiles];
    const worker = async () => {
      for (let profile = queue.shift(); profile; profile = queue.shift()) {
        const written = await postMember(shopId, profile);
        if (written === null) continue;
        progress.members += 1;
        progress.postings += written;
      }
    };
    await Promise.all(Array.from({ length: BACKFILL_CONCURRENCY }, worker));
    onPage({ ...progress });
  }
  return progress;
}

/** One member's postings, conditioned on its address as read; the count written, null when the member is gone. */
async function postMember(shopId: string, first: Item): Promise<number | null> {
  let profile: Item | null = first;
  const customerId = String(first.platform_customer_id);
  const written = await retryUntil(MEMBER_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<number | null | undefined> => {
    if (!profile) return null;
    const emailLc = normalisedEmail(String(profile.email ?? ''));
    const postings = postAddress(shopId, customerId, emailLc);
    if (postings.length === 0) return 0;
    const outcome = await commit([checkProfileAddress(shopId, customerId, emailLc), ...postings]);
    if (outcome.committed) return postings.length;
    // The address changed (or another write was under way): read the profile again.
    profile = await readItem(customerKey(shopId, customerId));
    return undefined;
  });
  if (written === undefined) throw new Error(`The address of customer ${customerId} kept changing; run the backfill again`);
  return written;
}
