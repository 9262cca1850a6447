// Expiry reminders: `points.expiring_soon` (customer, points, expiry date) from the first run at or after
// `expiry - expiry_reminder_days` while the batch (or the inactive balance) still holds points, once per
// batch or per inactivity period. Sending moves the item from its `-remind` to its `-expire` partition
// in the same conditional write, so a second run finds nothing to send.
import { writeCalendarChange } from '../data/calendar-repository';
import { getCustomer } from '../data/customer-repository';
import { withoutKeys } from '../data/item-reads';
import { markBatchReminded } from '../data/items/earning-entry';
import type { ItemKey } from '../data/keys';
import { addDays } from '../domain/dates';
import { batchPositionOf, batchRemaining, inactivityDeadline, type LedgerEntry } from '../domain/points-ledger';
import { withMemberFacts } from '../domain/events';
import { DEFAULT_EARNING_SETTINGS, type EarningSettings } from '../domain/shop';
import { type DueJob, type DueJobContext, type DueOutcome, readDueItem } from './due-job';
import { keepDeadline, memberEvent } from './member-events';

const settingsOf = (settings: EarningSettings | undefined) => settings ?? DEFAULT_EARNING_SETTINGS;

export const expiryRemindersJob: DueJob = {
  name: 'expiry_reminders',
  // The partitions are sorted by the expiry itself: what expires within the reminder window is due now.
  kinds: (shop, now) => {
    const until = addDays(now.toISOString(), settingsOf(shop.settings.earning_settings).expiry_reminder_days);
    return [
      { kind: 'batch-remind', until },
      { kind: 'inactivity-remind', until },
    ];
  },
  handle: (key, context) => (context.kind === 'batch-remind' ? remindBatch(key, context) : remindInactive(context)),
};

async function remindBatch(key: ItemKey, { shop, shopId, now, customerId }: DueJobContext): Promise<DueOutcome | undefined> {
  const [item, customer] = await Promise.all([readDueItem(key), getCustomer(shopId, customerId, true)]);
  if (!item) return { changed: false };
  const batch = withoutKeys<LedgerEntry>(item);
  const expiry = batch.points_expiry_at;
  // Past its date, it is the expiry job's (which ran first, unless the member is excluded: frozen).
  if (!expiry || expiry <= now) return { changed: false };
  if (!customer || customer.record.status !== 'member') return { changed: false };
  const points = batchRemaining(customer.record, batchPositionOf(batch));
  // A batch already spent needs no reminder; it still waits for its date, where nothing is left to expire.
  const events =
    points === 0
      ? []
      : [
          memberEvent('points.expiring_soon', shopId, customerId, now, {
            points,
            points_expiry_at: expiry,
            earning_history_entry_id: batch.id,
          }),
        ];
  const reminded = { shopId, customerId, writes: [markBatchReminded(shopId, key, batch)] };
  if (!(await writeCalendarChange({ ...reminded, events: withMemberFacts(events, customer.record, shop.tiers) }))) return undefined;
  return { changed: points > 0 };
}

async function remindInactive({ shop, shopId, now, customerId }: DueJobContext): Promise<DueOutcome | undefined> {
  const customer = await getCustomer(shopId, customerId, true);
  if (!customer || customer.record.status !== 'member') return { changed: false };
  const settings = settingsOf(shop.settings.earning_settings);
  const record = customer.record;
  const deadline = inactivityDeadline(record, settings);
  if (deadline !== null && deadline <= now) return { changed: false };
  const windowStart = deadline === null ? null : addDays(deadline, -settings.expiry_reminder_days);
  // Not due after all (activity moved the deadline, or no balance): the profile gets its true deadline.
  if (deadline === null || windowStart! > now || record.points_expiry_reminded_for === deadline) {
    return keepDeadline(customer, deadline);
  }
  const next = { ...record, points_expire_at: deadline, points_expiry_reminded_for: deadline };
  const events = [
    memberEvent('points.expiring_soon', shopId, customerId, now, {
      points: record.current_points,
      points_expiry_at: deadline,
      reason: 'inactivity',
    }),
  ];
  const written = await writeCalendarChange({
    shopId,
    customerId,
    customer: { current: customer, next },
    events: withMemberFacts(events, next, shop.tiers),
  });
  if (!written) return undefined;
  return { changed: true };
}
