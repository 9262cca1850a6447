// The backfill walk of a search index over a shop's members (the e-mail index's and the name index's): every
// member from the list index, a page at a time, their profiles read in one batch, and each member's postings
// written in one transaction conditioned on the profile still holding what they were derived from. A change
// that commits first makes the walk read the profile again; one that commits after replaces the postings as
// the old value's. So the postings are exact whatever runs meanwhile, and writing them twice changes nothing.
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { commit, type Write } from './commit';
import { shopMemberIdPages } from './customer-list';
import { batchGet, readItem } from './item-reads';
import { customerKey } from './items/customer-profile';
import type { Item } from './items/item-type';

/** Members read (from the list index) per page, and members written at once. */
const BACKFILL_PAGE = 100;
const BACKFILL_CONCURRENCY = 8;
const MEMBER_ATTEMPTS = 20;

export interface BackfillProgress {
  members: number;
  postings: number;
}

/** A member's postings from its profile as read, and the check that the profile still holds what they came from. */
export type MemberPostings = (customerId: string, profile: Item) => { check: Write; postings: Write[] };

/**
 * Writes `postingsOf` every member of the shop; `onPage` hears the running totals after each page. `what` names
 * the value in the error of a member whose value kept changing ("address", "names").
 */
export async function backfillMemberPostings(
  shopId: string,
  postingsOf: MemberPostings,
  what: string,
  onPage: (progress: BackfillProgress) => void = () => {},
): Promise<BackfillProgress> {
  const progress: BackfillProgress = { members: 0, postings: 0 };
  for await (const ids of shopMemberIdPages(shopId, BACKFILL_PAGE)) {
    const queue = [...(await batchGet(ids.map((id) => customerKey(shopId, id))))];
    const worker = async () => {
      for (let profile = queue.shift(); profile; profile = queue.shift()) {
        const written = await postMember(shopId, profile, postingsOf, what);
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

/** One member's postings, conditioned on the profile as read; the count written, null when the member is gone. */
async function postMember(shopId: string, first: Item, postingsOf: MemberPostings, what: string): Promise<number | null> {
  let profile: Item | null = first;
  const customerId = String(first.platform_customer_id);
  const written = await retryUntil(MEMBER_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<number | null | undefined> => {
    if (!profile) return null;
    const { check, postings } = postingsOf(customerId, profile);
    if (postings.length === 0) return 0;
    if ((await commit([check, ...postings])).committed) return postings.length;
    // The value changed (or another write was under way): read the profile again.
    profile = await readItem(customerKey(shopId, customerId));
    return undefined;
  });
  if (written === undefined) throw new Error(`The ${what} of customer ${customerId} kept changing; run the backfill again`);
  return written;
}
