// customers/merge: once the platform has merged two customers, the deleted customer's membership folds into
// the kept customer's (figures added, histories, orders and codes moved, both lines of batches laid as one),
// or, when only the deleted customer was a member, the kept customer becomes that member. The figures move in
// one transaction that also writes the merge record and commits the merge's events, so a merge happens once
// however often it is delivered; the items move afterwards, resumably.
import { getCustomer, type StoredCustomer } from '../data/customer-repository';
import {
  commitMerge,
  completeMerge,
  type MergeCommit,
  type MergeKind,
  type MergeRecord,
  moveMergedItems,
  type OpenBatch,
  readIncomingMerges,
  readMergeRecord,
  readOpenBatches,
  relayKeptBatches,
  type RelaidBatch,
  sourceKey,
  writeMergeRecord,
} from '../data/merge-repository';
import type { CustomerRecord } from '../domain/customer';
import { failed } from '../domain/errors';
import { minorDigits } from '../domain/money';
import { batchPositionOf, batchRemaining, inactivityDeadline, type LaidBatch, mergeLedgers } from '../domain/points-ledger';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { resolveTier } from '../domain/tiers';
import { tierEvents, tierProgramOf } from '../domain/member-points';
import { type DomainEvent, memberFacts } from '../domain/events';
import { logger } from '../observability/powertools';
import type { Platform } from '../platform/port';
import { nowIso } from '../runtime/clock';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import { fetchPlatformCustomer } from './customer-service';

/**
 * `merged`: two members are now one (the kept one); `moved`: the kept customer became the deleted customer's
 * member; `already_merged`: this merge was applied before (a redelivery; one left half-way is finished
 * first); `nothing_to_merge`: the deleted customer is no member (only the kept one is, or neither), or both
 * ids are the same customer. Only the first two change anything.
 */
export type MergeOutcome = 'merged' | 'moved' | 'already_merged' | 'nothing_to_merge';

/** Test seams: each is called after its step, so a test can stop a merge there by throwing. */
export interface MergeHooks {
  afterCommit?: () => Promise<void> | void;
  afterRelayout?: () => Promise<void> | void;
  afterPage?: () => Promise<void>;
  /** Writes the merge transaction may hold (lowered to leave re-laid batches to the step after it). */
  transactionLimit?: number;
}

// As for other member writes: enough rounds for members busy while the merge runs.
const MAX_ATTEMPTS = 60;
/** Merges of merged-away customers followed before giving up (a chain longer than this is no real history). */
const MAX_REDIRECTS = 10;

/**
 * Applies the platform's merge of `deletedId` into `keptId` (call it once the merge's status is
 * `completed`). Safe to call any number of times, concurrently, and after a call that stopped anywhere.
 * Throws when the platform cannot give the kept customer's details (a move needs them) or when the table
 * keeps refusing, so the queue delivers it again.
 */
export async function mergeMembers(
  shop: ShopCatalog,
  keptId: string,
  deletedId: string,
  platform: Platform,
  hooks: MergeHooks = {},
): Promise<MergeOutcome> {
  if (keptId === deletedId) return 'nothing_to_merge';
  const shopId = shop.settings.id;
  let committed: MergeRecord | undefined;
  const outcome = await retryUntil(MAX_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<MergeOutcome | undefined> => {
    const earlier = await readMergeRecord(shopId, deletedId);
    if (earlier) {
      await finishMerge(earlier, hooks);
      return earlier.kind === 'nothing' ? 'nothing_to_merge' : 'already_merged';
    }
    // The kept customer may itself have been merged away since (webhooks come in any order): follow it.
    const kept = await followMerges(shopId, keptId);
    if (kept === deletedId) return 'nothing_to_merge';
    // Merges still moving items into either customer finish first: this one lays out the lines they made.
    await finishIncomingMerges(shopId, [kept, deletedId], hooks);
    const [keptCustomer, deletedCustomer] = await Promise.all([getCustomer(shopId, kept, true), getCustomer(shopId, deletedId, true)]);
    const now = nowIso();
    if (!deletedCustomer) {
      // Nothing to fold, but later merges into the deleted id still find where it went.
      return (await writeMergeRecord(mergeRecord(shopId, kept, deletedId, 'nothing', [], now))) ? 'nothing_to_merge' : undefined;
    }
    const commit = keptCustomer
      ? await planMerge(shop, keptCustomer, deletedCustomer, now)
      : await planMove(shop, kept, deletedCustomer, platform, now);
    if (!(await commitMerge({ ...commit, limit: hooks.transactionLimit }))) return undefined;
    committed = commit.record;
    return commit.record.kind === 'moved' ? 'moved' : 'merged';
  });
  if (outcome === undefined) throw failed(`Customer ${deletedId} could not be merged into ${keptId} after repeated write conflicts`);
  if (committed) {
    logger.info('Customers merged', { shop: shopId, kept: committed.kept_id, deleted: deletedId, kind: committed.kind });
    await hooks.afterCommit?.();
    await finishMerge(committed, hooks);
  }
  return outcome;
}

/** The customer `customerId` now is: itself, or the customer it was merged into (and so on). */
async function followMerges(shopId: string, customerId: string): Promise<string> {
  let current = customerId;
  for (let hop = 0; hop < MAX_REDIRECTS; hop += 1) {
    const record = await readMergeRecord(shopId, current);
    if (!record) return current;
    current = record.kept_id;
  }
  throw failed(`Customer ${customerId} was merged more than ${MAX_REDIRECTS} times over`);
}

async function finishIncomingMerges(shopId: string, customerIds: string[], hooks: MergeHooks): Promise<void> {
  const incoming = (await Promise.all(customerIds.map((id) => readIncomingMerges(shopId, id)))).flat();
  for (const from of incoming) {
    const record = await readMergeRecord(shopId, from);
    if (record) await finishMerge(record, hooks);
  }
}

/**
 * Everything after the transaction, each step idempotent: the kept member's batches re-laid (those the
 * transaction had no room for), the deleted customer's items moved page by page, then the record marked
 * done by exactly one call.
 */
async function finishMerge(record: MergeRecord, hooks: MergeHooks): Promise<void> {
  if (record.state === 'done') return;
  await relayKeptBatches(record);
  await hooks.afterRelayout?.();
  const moved = await moveMergedItems(record, hooks.afterPage);
  if (await completeOnce(record)) {
    logger.info('Customer merge finished', { shop: record.shop_id, kept: record.kept_id, deleted: record.deleted_id, moved });
  }
}

/** True for the one call that marked the merge done; a lost race with another write is tried again. */
async function completeOnce(record: MergeRecord): Promise<boolean> {
  const outcome = await retryUntil(MAX_ATTEMPTS, CONTENTION_BACKOFF, async (): Promise<boolean | undefined> => {
    if (await completeMerge(record)) return true;
    const now = await readMergeRecord(record.shop_id, record.deleted_id);
    return now?.state === 'done' ? false : undefined;
  });
  if (outcome === undefined) throw failed(`The merge of customer ${record.deleted_id} could not be marked done`);
  return outcome;
}

/** Both are members: the figures add up on the kept profile, both lines of batches become one. */
async function planMerge(shop: ShopCatalog, kept: StoredCustomer, deleted: StoredCustomer, now: string): Promise<MergeCommit> {
  const shopId = shop.settings.id;
  const [keptBatches, deletedBatches] = await Promise.all([
    readOpenBatches(shopId, kept.record.platform_customer_id),
    readOpenBatches(shopId, deleted.record.platform_customer_id),
  ]);
  const ledger = mergeLedgers(
    { record: kept.record, batches: keptBatches.map(asMergeable) },
    { record: deleted.record, batches: deletedBatches.map(asMergeable) },
  );
  const next = mergedRecord(shop, kept.record, deleted.record, ledger.points_batch_total, now);
  const events = withFacts(shop, next, [
    mergedEvent(next, deleted.record, 'merged', now, kept.record),
    ...tierEvents(kept.record, next, tierProgramOf(shop), { send_email: true, now }),
  ]);
  return {
    record: mergeRecord(shopId, next.platform_customer_id, deleted.record.platform_customer_id, 'merged', ledger.batches.map(relaid), now),
    kept: { current: kept, next },
    deleted,
    events,
    sources: sourcesOf(keptBatches, deletedBatches),
  };
}

/**
 * Only the deleted customer is a member: the kept customer becomes that member, figures, dates, status,
 * referral code and line as they are, with the platform's e-mail and names for the kept customer.
 */
async function planMove(shop: ShopCatalog, keptId: string, deleted: StoredCustomer, platform: Platform, now: string): Promise<MergeCommit> {
  const shopId = shop.settings.id;
  const [customer, batches] = await Promise.all([
    fetchPlatformCustomer(platform, keptId),
    readOpenBatches(shopId, deleted.record.platform_customer_id),
  ]);
  const next: CustomerRecord = {
    ...deleted.record,
    platform_customer_id: keptId,
    email: customer.email,
    first_name: customer.firstName,
    last_name: customer.lastName,
    platform_created_at: customer.createdAt ?? deleted.record.platform_created_at,
    updated_at: now,
  };
  // The line does not change: the open batches keep their places (listed so their move reopens them).
  const open = batches
    .filter(({ entry }) => batchRemaining(deleted.record, batchPositionOf(entry)) > 0)
    .map(({ sk, entry }) => {
      const position = batchPositionOf(entry);
      return relaid({ batch: { ...entry, sk }, from: 'deleted', batch_offset: position.batch_offset, batch_points: position.points });
    });
  // The kept customer becomes a member by the merge.
  const events = withFacts(shop, next, [
    mergedEvent(next, deleted.record, 'moved', now, null),
    { type: 'customer.enrolled', shop_id: shopId, customer_id: keptId, occurred_at: now, source: 'merge', enrolled_at: next.created_at },
  ]);
  return {
    record: mergeRecord(shopId, keptId, deleted.record.platform_customer_id, 'moved', open, now),
    kept: { current: null, next },
    deleted,
    events,
    sources: sourcesOf([], batches),
  };
}

type MergeableEntry = OpenBatch['entry'] & { sk: string };

const asMergeable = ({ sk, entry }: OpenBatch): MergeableEntry => ({ ...entry, sk });

function relaid({ batch, from, batch_offset, batch_points }: LaidBatch<MergeableEntry>): RelaidBatch {
  return {
    sk: batch.sk,
    id: batch.id,
    from,
    batch_offset,
    batch_points,
    points_expiry_at: batch.points_expiry_at!,
    expiry_reminded: batch.expiry_reminded ?? false,
  };
}

function sourcesOf(kept: OpenBatch[], deleted: OpenBatch[]): Map<string, OpenBatch> {
  return new Map([
    ...kept.map((batch) => [sourceKey('kept', batch.sk), batch] as const),
    ...deleted.map((batch) => [sourceKey('deleted', batch.sk), batch] as const),
  ]);
}

function mergeRecord(shopId: string, keptId: string, deletedId: string, kind: MergeKind, batches: RelaidBatch[], now: string): MergeRecord {
  return {
    shop_id: shopId,
    kept_id: keptId,
    deleted_id: deletedId,
    kind,
    state: kind === 'nothing' ? 'done' : 'moving',
    batches,
    created_at: now,
  };
}

/**
 * The kept member after the merge. Its identity stays (e-mail, names, status, referral code, platform
 * dates); the figures add up and the tier follows them; dates it lacks (birthday, anniversary) come from
 * the deleted member, as does the year its birthday was last awarded where they share the date, so no
 * birthday is awarded twice; it has been a member since the earlier enrolment; the later activity sets the
 * inactivity deadline.
 */
function mergedRecord(shop: ShopCatalog, kept: CustomerRecord, deleted: CustomerRecord, batchTotal: number, now: string): CustomerRecord {
  const dateOfBirth = kept.date_of_birth ?? deleted.date_of_birth;
  const awardedYears = [kept, deleted].filter((one) => one.date_of_birth === dateOfBirth).map((one) => one.birthday_awarded_year ?? 0);
  const later = (deleted.points_last_activity_at ?? '') > (kept.points_last_activity_at ?? '') ? deleted : kept;
  const scale = 10 ** minorDigits(shop.settings.currency);
  const figures: CustomerRecord = {
    ...kept,
    current_points: kept.current_points + deleted.current_points,
    lifetime_points: kept.lifetime_points + deleted.lifetime_points,
    redeemed_points: kept.redeemed_points + deleted.redeemed_points,
    // Spend is kept to the cent, so the float sum does not drift.
    total_spend: Math.round((kept.total_spend + deleted.total_spend) * scale) / scale,
    orders_count: kept.orders_count + deleted.orders_count,
    date_of_birth: dateOfBirth,
    birthday_awarded_year: Math.max(...awardedYears) || null,
    anniversary_date: kept.anniversary_date ?? deleted.anniversary_date,
    created_at: deleted.created_at < kept.created_at ? deleted.created_at : kept.created_at,
    points_batch_total: batchTotal,
    points_last_activity_at: later.points_last_activity_at ?? null,
    points_expiry_reminded_for: later.points_expiry_reminded_for ?? null,
    updated_at: now,
  };
  const deadline = inactivityDeadline(figures, shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS);
  const tier = resolveTier(figures, shop.tiers, shop.settings.vip_settings);
  return { ...figures, points_expire_at: deadline, vip_tier_id: tier?.id ?? null };
}

/** The merge's events, each with the kept member's facts after the merge. */
function withFacts(shop: ShopCatalog, kept: CustomerRecord, events: DomainEvent[]): DomainEvent[] {
  const facts = memberFacts(kept, shop.tiers);
  return events.map((event) => ({ ...event, ...facts }));
}

/** `customer.merged`: both ids, how the membership moved, and the deleted member's balance that moved with it. */
function mergedEvent(
  kept: CustomerRecord,
  deleted: CustomerRecord,
  kind: 'merged' | 'moved',
  now: string,
  /** The kept member before the merge; null when the kept customer was no member ('moved'). */
  keptBefore: CustomerRecord | null,
): DomainEvent {
  return {
    type: 'customer.merged',
    shop_id: kept.shop_id,
    customer_id: kept.platform_customer_id,
    deleted_customer_id: deleted.platform_customer_id,
    merge: kind,
    points: deleted.current_points,
    lifetime_points: deleted.lifetime_points,
    redeemed_points: deleted.redeemed_points,
    total_spend: deleted.total_spend,
    orders_count: deleted.orders_count,
    referral_code: kept.referral_code,
    vip_tier_id: kept.vip_tier_id,
    // What the program's figures move (docs/admin.md#figures): two enrolments become one, on the earlier day,
    // and two order counts one.
    deleted_enrolled_at: deleted.created_at,
    kept_enrolled_at_before: keptBefore?.created_at ?? null,
    kept_enrolled_at: kept.created_at,
    kept_orders_count_before: keptBefore?.orders_count ?? 0,
    occurred_at: now,
  };
}
