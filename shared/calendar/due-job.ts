// The shape every clock-driven job shares: for each shop, page through the due-work index partitions of
// its kinds up to the run's "now", handle each item (read fresh, decide, write conditionally, retry on a
// lost race) and count what happened. Handling an item takes it out of the due range, so a run that
// stops half-way is resumed by the next run, which finds only what is still due.
import { type CalendarChange, readItem, writeCalendarChange } from '../data/calendar-repository';
import { type DueKind, queryDue } from '../data/due-work';
import type { Item } from '../data/item-reads';
import type { ItemKey } from '../data/keys';
import { listShopIds } from '../data/shop-repository';
import { failed } from '../domain/errors';
import type { ShopCatalog } from '../domain/shop';
import { logger } from '../observability/powertools';
import { now as clockNow } from '../runtime/clock';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { customerOfKey } from '../data/items/customer-profile';
import { shopCatalog } from '../shops/shop-catalog';

/** What a job did in one run; the twin's `POST /_jobs/run` and the functions' logs show it per job. */
export interface JobSummary {
  shops: number;
  /** Due items read from the index. */
  due: number;
  /** Items whose member, entry or code changed (the job's own count, e.g. entries approved). */
  changed: number;
  /** Shops whose run failed; their due work stays due for the next run. */
  failed: number;
  /** True when the run stopped at its time budget with work left (the next run goes on). */
  more: boolean;
}

/** What handling one due item decided: a change written (its events committed with it), or nothing to do. */
export type DueOutcome = { changed: boolean };

export interface DueJobContext {
  shop: ShopCatalog;
  shopId: string;
  /** The run's clock time: everything due up to it is handled. */
  at: Date;
  /** The same, as the ISO timestamp entries and events carry. */
  now: string;
  kind: DueKind;
  /** The member the due item belongs to (from its partition key). */
  customerId: string;
}

export interface DueJob {
  name: string;
  /** The partitions the job reads, with how far ahead of `now` each is due (reminders look ahead). */
  kinds: (shop: ShopCatalog, now: Date) => Array<{ kind: DueKind; until: string }>;
  /** Reads the item, decides, writes; undefined when a concurrent write won and it must be read again. */
  handle: (key: ItemKey, context: DueJobContext) => Promise<DueOutcome | undefined>;
}

export interface RunOptions {
  /** Real milliseconds the run may take before it stops paging (Lambda's timeout keeps real time). */
  budgetMs?: number;
  /** Items handled at once within a page. */
  concurrency?: number;
  pageSize?: number;
  /** Only these shops (default: every shop). */
  shopIds?: string[];
  /** Stop paging once this many items were handled (tests and the bench stop a run half-way with it). */
  maxItems?: number;
}

// As for other member writes: enough rounds for a member that is busy while the job runs.
const MAX_ATTEMPTS = 60;

export async function runDueJob(job: DueJob, options: RunOptions = {}): Promise<JobSummary> {
  const started = Date.now();
  const budgetMs = options.budgetMs ?? Infinity;
  const now = clockNow();
  const summary: JobSummary = { shops: 0, due: 0, changed: 0, failed: 0, more: false };
  for (const shopId of options.shopIds ?? (await listShopIds())) {
    summary.shops += 1;
    try {
      const shop = await shopCatalog(shopId);
      for (const { kind, until } of job.kinds(shop, now)) {
        let start: Record<string, unknown> | null = null;
        do {
          if (Date.now() - started > budgetMs || summary.due >= (options.maxItems ?? Infinity)) {
            summary.more = true;
            return summary;
          }
          const page = await queryDue(shopId, kind, until, options.pageSize ?? 100, start);
          summary.due += page.keys.length;
          const outcomes = await inPool(page.keys, options.concurrency ?? 8, (key) =>
            handleOne(job, key, { shop, shopId, at: now, now: now.toISOString(), kind, customerId: customerOfKey(key) }),
          );
          summary.changed += outcomes.filter((outcome) => outcome.changed).length;
          start = page.next;
        } while (start);
      }
    } catch (error) {
      summary.failed += 1;
      logger.error('Scheduled job failed for a shop', { job: job.name, shop: shopId, error: error as Error });
    }
  }
  return summary;
}

async function handleOne(job: DueJob, key: ItemKey, context: DueJobContext): Promise<DueOutcome> {
  const outcome = await retryUntil(MAX_ATTEMPTS, CONTENTION_BACKOFF, () => job.handle(key, context));
  if (!outcome) throw failed(`${job.name}: ${key.sk} kept changing under the job`);
  return outcome;
}

/** The due item as stored, read consistently; null when it is gone or no longer carries due work. */
export async function readDueItem(key: ItemKey): Promise<Item | null> {
  const item = await readItem(key);
  return item && item.due_pk !== undefined ? item : null;
}

/**
 * Bookkeeping that changes no member's points (an item leaving or moving in the due work, a profile's
 * deadline rewritten): not counted as a change; undefined when a concurrent write won (read again).
 */
export async function tidy(change: CalendarChange): Promise<DueOutcome | undefined> {
  return (await writeCalendarChange(change)) ? { changed: false } : undefined;
}

/** Runs `work` over `items` with at most `size` at once, results in input order. */
async function inPool<T, R>(items: readonly T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < items.length; index = next++) results[index] = await work(items[index]!);
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}
