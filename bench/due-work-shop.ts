// Seeds a shop for the scheduled-jobs figures: every member has work in the due-work index for every
// job, 1 % of them due at the bench's clock and the rest due later, written with the production item
// builders so the index attributes are exactly what the jobs would find in a real table.
import { customerItem } from '../shared/data/items/customer-profile';
import { birthdayTimerItem } from '../shared/data/items/birthday-timer';
import { earningEntryItem, type EntryDueState } from '../shared/data/items/earning-entry';
import { rewardEntryItem } from '../shared/data/items/reward-entry';
import type { Item } from '../shared/data/item-reads';
import { batchPut, putShopCatalog, setShopCounters } from '../shared/data/shop-repository';
import type { CustomerRecord } from '../shared/domain/customer';
import type { RewardEntry } from '../shared/domain/history';
import { addDays } from '../shared/domain/dates';
import { type LedgerEntry } from '../shared/domain/points-ledger';
import type { EarningSettings } from '../shared/domain/shop';

/** The bench's clock: every due time is placed around it. */
export const JOBS_NOW = '2027-06-15T12:00:00.000Z';

/** Batch expiry after a year, reminders 30 days ahead, order points pending 14 days. */
export const JOBS_EARNING_SETTINGS: EarningSettings = {
  pending_days: 14,
  points_expiry: { mode: 'batch', days: 365 },
  expiry_reminder_days: 30,
};

/** Which member (by index modulo 100) is due for which job: five disjoint 1 % slices. */
export const DUE_SLOT = { approval: 0, expiry: 1, reminder: 2, code: 3, birthday: 4 } as const;

/** Items per member: profile, pending order entry, open batch, active reward code, birthday timer. */
export const ITEMS_PER_MEMBER = 5;

const BATCH_POINTS = 100;
const PENDING_POINTS = 50;
const HOUR_MS = 3_600_000;
const CONCURRENCY = 16;
const CHUNK = 200;

const past = (ms: number) => new Date(Date.parse(JOBS_NOW) - ms).toISOString();
/** A day of the year ahead: spreads the not-yet-due work over the index as real shops would. */
const later = (days: number) => addDays(JOBS_NOW, days);

/** The members' items. Not due for a job means due later than the job looks (after the reminder window for batches). */
function memberItems(shopId: string, i: number): Item[] {
  const slot = i % 100;
  const id = String(2_000_000 + i);
  const spread = Math.floor(i / 100);

  const birthday = slot === DUE_SLOT.birthday ? JOBS_NOW : later(1 + (spread % 360));
  // A leap year of birth, so a 29 February timer has a real date of birth behind it.
  const dateOfBirth = `1992-${birthday.slice(5, 10)}`;
  const record: CustomerRecord = {
    shop_id: shopId,
    platform_customer_id: id,
    email: `member${i}@jobs.example`,
    first_name: 'Member',
    last_name: String(i),
    current_points: BATCH_POINTS,
    lifetime_points: BATCH_POINTS,
    redeemed_points: 0,
    status: 'member',
    date_of_birth: dateOfBirth,
    anniversary_date: null,
    referral_code: `J${i}`,
    total_spend: 0,
    orders_count: 1,
    vip_tier_id: null,
    platform_created_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    points_batch_total: BATCH_POINTS,
    points_last_activity_at: null,
    points_expire_at: null,
    points_expiry_reminded_for: null,
    birthday_awarded_year: 2026,
  };

  const pendingDue = slot === DUE_SLOT.approval ? past(HOUR_MS) : later(1 + (spread % 13));
  const pending: LedgerEntry = {
    id: `order-${id}`,
    earning_rule_id: 'per-dollar',
    action: 'purchase',
    points: PENDING_POINTS,
    base_points: PENDING_POINTS,
    points_multiplier: 1,
    status: 'pending',
    order_id: `order-${id}`,
    order_number: `#${i}`,
    points_due_at: pendingDue,
    points_given_at: null,
    points_expiry_at: null,
    created_at: addDays(pendingDue, -JOBS_EARNING_SETTINGS.pending_days),
    updated_at: addDays(pendingDue, -JOBS_EARNING_SETTINGS.pending_days),
  };

  // Expiry due: reminded already, past its date. Reminder due: expiring inside the 30-day window.
  // Neither: expiring after the window, still waiting for its reminder.
  const expiry = slot === DUE_SLOT.expiry ? past(HOUR_MS) : slot === DUE_SLOT.reminder ? later(10) : later(31 + (spread % 330));
  const givenAt = addDays(expiry, -365);
  const batch: LedgerEntry & EntryDueState = {
    id: `signup-${id}`,
    earning_rule_id: 'signup',
    action: 'signup',
    points: BATCH_POINTS,
    base_points: BATCH_POINTS,
    points_multiplier: 1,
    status: 'approved',
    order_id: null,
    order_number: null,
    points_due_at: null,
    points_given_at: givenAt,
    points_expiry_at: expiry,
    created_at: givenAt,
    updated_at: givenAt,
    batch_offset: 0,
    ...(slot === DUE_SLOT.expiry ? { expiry_reminded: true } : {}),
  };

  const codeExpires = slot === DUE_SLOT.code ? past(HOUR_MS) : later(1 + (spread % 60));
  const redeemedAt = addDays(codeExpires, -90);
  const code: RewardEntry = {
    id: `code-${id}`,
    reward_id: 'five-off',
    reward_name: '$5 off',
    reward_discount_type: 'fixed_amount',
    points_spent: 500,
    discount_code: `JOBS-${i}`,
    status: 'active',
    is_refunded: false,
    discount_code_redeemed_at: null,
    redeemed_at: redeemedAt,
    expires_at: codeExpires,
    created_at: redeemedAt,
    updated_at: redeemedAt,
  };

  return [
    customerItem(record, 1),
    earningEntryItem(shopId, id, pending),
    earningEntryItem(shopId, id, batch),
    rewardEntryItem(shopId, id, code),
    birthdayTimerItem(shopId, id, birthday.slice(0, 10)),
  ];
}

/** Writes shop `jobs-<members>` (configuration and members); returns its id. The caller's table must be empty of it. */
export async function seedDueWorkShop(members: number): Promise<string> {
  const shopId = `jobs-${members}`;
  await putShopCatalog({
    settings: {
      id: shopId,
      name: `Jobs ${members}`,
      loyalty_mode: 'points',
      currency: 'USD',
      referral_base_url: 'https://jobs.example/',
      vip_settings: { entry_method: 'points', entry_methods_extra: [], entry_logic: 'OR', points_multiplier_mode: null },
      earning_settings: JOBS_EARNING_SETTINGS,
    },
    earningRules: [
      {
        id: 'birthday',
        name: 'Birthday',
        description: null,
        action: 'birthday',
        category: 'birthday',
        is_active: true,
        points_to_give: 100,
        customer_facing_label: 'Birthday',
        call_to_action_url: null,
        created_at: '2026-01-01T00:00:00.000Z',
      },
    ],
    campaigns: [],
    tiers: [],
    rewards: [],
  });
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < members) {
        const start = next;
        next += CHUNK;
        const end = Math.min(members, start + CHUNK);
        await batchPut(Array.from({ length: end - start }, (_, offset) => memberItems(shopId, start + offset)).flat());
      }
    }),
  );
  await setShopCounters(shopId, { member: members, excluded: 0 });
  return shopId;
}
