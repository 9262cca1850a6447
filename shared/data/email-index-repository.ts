// The e-mail search index's upkeep outside the member writes: the shop's index marker (written for a
// new shop, whose every member gets postings from its enrolment on, and by the backfill once a shop's
// earlier members have theirs), the postings of members enrolled in bulk, and the backfill's walk over a shop's members, which writes each member's
// postings as its profile has them. Every write is idempotent, so a stopped backfill is simply run again.
import { BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { BATCH_BACKOFF, retryUntil } from '../runtime/retry';
import { commit, commitOne } from './commit';
import { documentClient, tableName } from './client';
import { emailIndexReady } from './email-search';
import { backfillMemberPostings, type BackfillProgress } from './member-postings-backfill';
import { BATCH_ATTEMPTS, batchDelete } from './item-reads';
import { checkProfileAddress, normalisedEmail } from './items/customer-profile';
import { emailPostingItems, emailPostingKeys, markEmailIndexed, postAddress } from './items/email-gram';
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
  await commitOne(markEmailIndexed(shopId, now, 'backfill'));
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

/**
 * Writes the postings of every member of the shop (`loyalty email-index backfill`), each member's conditioned on
 * the profile still having the address they were derived from (shared/data/member-postings-backfill.ts).
 * `onPage` hears the running totals after each page.
 */
export function backfillShopPostings(shopId: string, onPage?: (progress: BackfillProgress) => void): Promise<BackfillProgress> {
  return backfillMemberPostings(
    shopId,
    (customerId, profile) => {
      const emailLc = normalisedEmail(String(profile.email ?? ''));
      return { check: checkProfileAddress(shopId, customerId, emailLc), postings: postAddress(shopId, customerId, emailLc) };
    },
    'address',
    onPage,
  );
}
