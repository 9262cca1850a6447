// Points expiry, both modes of EARNING-CONTRACT.md. `batch`: a batch whose points_expiry_at has passed
// loses what is left of it (derived from the member's running totals, points-ledger.ts) through an
// `expiry` entry recording the amount. `inactivity`: the whole balance goes `days` after the member's last
// earning or spending. Excluded members' points are frozen: their due work waits a day at a time.
import { writeCalendarChange } from '../data/calendar-repository';
import { getCustomer, type StoredCustomer } from '../data/customer-repository';
import { dueTimeOf, type DueKind } from '../data/due-work';
import { withoutKeys } from '../data/item-reads';
import { closeBatch, postponeEntryDue } from '../data/items/earning-entry';
import type { ItemKey } from '../data/keys';
import { approvedEntry, type EarningEntry } from '../domain/history';
import { addDays } from '../domain/dates';
import { movePoints, tierProgramOf } from '../domain/member-points';
import { batchPositionOf, expiringPoints, inactivityDeadline, type LedgerEntry } from '../domain/points-ledger';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { withMemberFacts } from '../domain/events';
import { orderEntryId } from '../orders/order-state';
import { type DueJob, type DueJobContext, type DueOutcome, readDueItem, tidy } from './due-job';
import { keepDeadline, memberEvent } from './member-events';

/** The `action` of an entry that removes expired points. */
export const EXPIRY_ACTION = 'expiry';

export const pointsExpiryJob: DueJob = {
  name: 'points_expiry',
  // A batch whose reminder never went out (the clock jumped past it) expires all the same.
  kinds: (_shop, now) =>
    (['batch-expire', 'batch-remind', 'inactivity-expire', 'inactivity-remind'] as const).map((kind) => ({
      kind,
      until: now.toISOString(),
    })),
  handle: (key, context) => (context.kind.startsWith('batch') ? expireBatch(key, context) : expireInactive(context)),
};

/** The entry that removes what expired: its id derives from what expired, so it is written once. */
function expiryEntry(shop: ShopCatalog, customerId: string, source: string, points: number, now: string): EarningEntry {
  return approvedEntry(
    {
      id: orderEntryId(shop.settings.id, `expiry:${customerId}`, source, 0),
      earning_rule_id: null,
      action: EXPIRY_ACTION,
      points: -points,
      base_points: -points,
      points_multiplier: 1,
    },
    now,
  );
}

async function expireBatch(key: ItemKey, { shop, shopId, now, customerId, kind }: DueJobContext): Promise<DueOutcome | undefined> {
  const [item, customer] = await Promise.all([readDueItem(key), getCustomer(shopId, customerId, true)]);
  if (!item) return { changed: false };
  const batch = withoutKeys<LedgerEntry>(item);
  if (!batch.points_expiry_at || batch.points_expiry_at > now || dueTimeOf(String(item.due_at)) > now) return { changed: false };
  const settings = shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS;
  // Gone, or the shop no longer expires batches: the batch leaves the due work without expiring.
  if (!customer || settings.points_expiry?.mode !== 'batch') {
    return tidy({ shopId, customerId, writes: [closeBatch(shopId, key, kind as DueKind)] });
  }
  if (customer.record.status !== 'member') return frozen(shopId, customer, key, kind as DueKind, batch, now);

  const removed = expiringPoints(customer.record, batchPositionOf(batch));
  const move = movePoints(customer.record, { points: -removed, lifetime: 0, send_email: true, now }, tierProgramOf(shop));
  const next = move.next;
  const entry = { ...expiryEntry(shop, customerId, `batch:${batch.id}`, removed, now), expired_batch_id: batch.id };
  const events = [
    memberEvent('points.expired', shopId, customerId, now, {
      points: removed,
      earning_history_entry_id: entry.id,
      batch_entry_id: batch.id,
      points_expiry_at: batch.points_expiry_at,
    }),
    ...move.events,
  ];
  const written = await writeCalendarChange({
    shopId,
    customerId,
    // Written even when nothing is left, so the decision holds against any concurrent change of the member.
    customer: { current: customer, next: removed > 0 ? next : { ...customer.record } },
    newEntries: removed > 0 ? [entry] : [],
    writes: [closeBatch(shopId, key, kind as DueKind, { expired_points: removed, updated_at: now })],
    events: removed > 0 ? withMemberFacts(events, next, shop.tiers) : [],
  });
  if (!written) return undefined;
  return { changed: removed > 0 };
}

async function expireInactive({ shop, shopId, now, customerId }: DueJobContext): Promise<DueOutcome | undefined> {
  const customer = await getCustomer(shopId, customerId, true);
  if (!customer || customer.record.status !== 'member') return { changed: false };
  const settings = shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS;
  const deadline = inactivityDeadline(customer.record, settings);
  const record = customer.record;
  // No longer due (no balance, another mode, or activity since): the profile is rewritten with its true deadline.
  if (deadline === null || deadline > now) {
    return keepDeadline(customer, deadline);
  }
  const removed = record.current_points;
  const entry = expiryEntry(shop, customerId, `inactivity:${deadline}`, removed, now);
  const move = movePoints(record, { points: -removed, lifetime: 0, send_email: true, now }, tierProgramOf(shop));
  const next = { ...move.next, points_expire_at: null };
  const events = [
    memberEvent('points.expired', shopId, customerId, now, {
      points: removed,
      earning_history_entry_id: entry.id,
      points_expiry_at: deadline,
      reason: 'inactivity',
    }),
    ...move.events,
  ];
  const written = await writeCalendarChange({
    shopId,
    customerId,
    customer: { current: customer, next },
    newEntries: [entry],
    events: withMemberFacts(events, next, shop.tiers),
  });
  if (!written) return undefined;
  return { changed: true };
}

/** An excluded member's batch waits a day (exclusion suspends expiry; it does not move the batch's date). */
async function frozen(shopId: string, customer: StoredCustomer, key: ItemKey, kind: DueKind, batch: LedgerEntry, now: string) {
  const expiry = batch.points_expiry_at!;
  const later = postponeEntryDue(shopId, key, batch, kind, addDays(now, 1) > expiry ? addDays(now, 1) : expiry);
  return tidy({ shopId, customerId: customer.record.platform_customer_id, writes: [later] });
}
