// What an import does to one member, as pure arithmetic (docs/migrate.md): the member enrolled as
// enrolment would (from the platform customer) or its profile as read; the file's balance added (`add`)
// or made the balance (`set`) through the one points move, so lifetime points and the tier follow; the
// `import` earning entry recording what the balance moved, a batch as the earning contract gives any
// approved entry; redeemed points, the date of birth and an exclusion taken from the row; the named tier
// compared with the computed one. And what its undo writes back.
import { type CustomerRecord, type LoyaltyStatus, newMemberRecord } from '../domain/customer';
import type { EarningEntry } from '../domain/history';
import { movePoints, type TierProgram } from '../domain/member-points';
import { giveBatches } from '../domain/points-ledger';
import type { EarningSettings } from '../domain/shop';
import type { ImportMemberRecord } from '../data/import-repository';
import type { ImportMode, MatchedRow } from './import-row';

/** The action of the earning entry an import writes. */
export const IMPORT_ACTION = 'import';

/** The id of an import's entry in a member's history: one per import and member, so it is written once. */
export const importEntryId = (importId: string) => `import-${importId}`;

export interface TierMismatch {
  line: number;
  customerId: string;
  /** The tier the other app had the member in. */
  named: string;
  /** The tier the imported figures reach here, or null for none. */
  computed: string | null;
}

export interface MemberPlan {
  created: boolean;
  next: CustomerRecord;
  entry: EarningEntry | null;
  record: Omit<ImportMemberRecord, 'version'>;
  pointsBefore: number;
  pointsAfter: number;
  tierMismatch: TierMismatch | null;
}

export interface PlanContext {
  shopId: string;
  importId: string;
  mode: ImportMode;
  program: TierProgram;
  settings: EarningSettings;
  now: string;
  /** A fresh referral code for a member the import enrols. */
  referralCode: () => string;
}

/** A member enrolled by an import: the platform customer's details, nothing earned yet. */
function enrolled(matched: MatchedRow, context: PlanContext): CustomerRecord {
  const { customer, row } = matched;
  // Membership dates from the other app when it gives one.
  const record = newMemberRecord(
    context.shopId,
    customer,
    { since: row.enrolledAt ?? context.now, now: context.now },
    context.referralCode(),
  );
  return { ...record, points_batch_total: 0 };
}

export function planMember(matched: MatchedRow, current: CustomerRecord | null, context: PlanContext): MemberPlan {
  const { row } = matched;
  const before = current ?? enrolled(matched, context);
  const delta = context.mode === 'add' ? row.points : row.points - before.current_points;
  const redeemedAfter =
    row.redeemedPoints === null
      ? before.redeemed_points
      : context.mode === 'add'
        ? before.redeemed_points + row.redeemedPoints
        : row.redeemedPoints;
  const status: LoyaltyStatus = row.excluded === true ? 'excluded' : before.status;
  const dateOfBirth = row.dateOfBirth ?? before.date_of_birth;
  // Lifetime points follow what the member earned in the other app: the points it gains here and those it
  // had spent there (which were earned there first).
  const moved = movePoints(
    before,
    {
      points: delta,
      lifetime: Math.max(0, delta) + Math.max(0, redeemedAfter - before.redeemed_points),
      send_email: false,
      now: context.now,
    },
    context.program,
  );
  let next: CustomerRecord = { ...moved.next, redeemed_points: redeemedAfter, status, date_of_birth: dateOfBirth };
  let entry: EarningEntry | null = null;
  if (moved.applied !== 0) {
    const written: EarningEntry = {
      id: importEntryId(context.importId),
      earning_rule_id: null,
      action: IMPORT_ACTION,
      points: moved.applied,
      base_points: moved.applied,
      points_multiplier: 1,
      status: 'approved',
      order_id: null,
      order_number: null,
      points_due_at: null,
      points_given_at: context.now,
      points_expiry_at: null,
      created_at: context.now,
      updated_at: context.now,
    };
    // An approved positive entry is a batch (its expiry in `batch` mode) and counts as activity.
    const given = giveBatches(before, next, [written], context.settings, context.now);
    next = given.record;
    entry = given.entries[0]!;
  }
  const computed = context.program.tiers.find((tier) => tier.id === next.vip_tier_id)?.name ?? null;
  const tierMismatch =
    row.tierName !== null && normalisedTier(row.tierName) !== normalisedTier(computed ?? '')
      ? { line: row.line, customerId: next.platform_customer_id, named: row.tierName, computed }
      : null;
  return {
    created: current === null,
    next,
    entry,
    record: {
      customer_id: next.platform_customer_id,
      line: row.line,
      created: current === null,
      entry_id: entry?.id ?? null,
      points: moved.applied,
      lifetime_added: next.lifetime_points - before.lifetime_points,
      redeemed_change: redeemedAfter !== before.redeemed_points ? { before: before.redeemed_points, after: redeemedAfter } : null,
      birth_change: dateOfBirth !== before.date_of_birth ? { before: before.date_of_birth, after: dateOfBirth } : null,
      status_change: status !== before.status ? { before: before.status, after: status } : null,
      email: current === null ? next.email : null,
      referral_code: current === null ? next.referral_code : null,
      at: context.now,
    },
    pointsBefore: current?.current_points ?? 0,
    pointsAfter: next.current_points,
    tierMismatch,
  };
}

const normalisedTier = (name: string) => name.trim().toLowerCase();

export interface UndoPlan {
  next: CustomerRecord;
  /** Points taken back (or given back, for a `set` that lowered the balance). */
  restored: number;
  /** Imported points already spent since, which could not be taken back. */
  shortfall: number;
  /** Values the import set that changed since, left as they are now. */
  kept: string[];
}

/**
 * The profile after taking one import back: the imported points taken back (never below zero; what was
 * spent since is the shortfall), lifetime points likewise, and each value the import set restored when the
 * member still has the value the import wrote (a value changed since is newer than the import: kept).
 */
export function planUndo(current: CustomerRecord, record: ImportMemberRecord, program: TierProgram, now: string): UndoPlan {
  const lifetimeBack = Math.min(record.lifetime_added, current.lifetime_points);
  const moved = movePoints(current, { points: -record.points, lifetime: -lifetimeBack, send_email: false, now }, program);
  const restored = -moved.applied;
  const shortfall = record.points > 0 ? record.points - restored : 0;
  const kept: string[] = [];
  const next: CustomerRecord = { ...moved.next };
  // Taken from the front of the batch line, as any take-back: the batch total stays (points_batch_total).
  if (record.redeemed_change) {
    if (current.redeemed_points === record.redeemed_change.after) next.redeemed_points = record.redeemed_change.before;
    else kept.push('redeemed_points');
  }
  if (record.birth_change) {
    if (current.date_of_birth === record.birth_change.after) next.date_of_birth = record.birth_change.before;
    else kept.push('date_of_birth');
  }
  if (record.status_change) {
    if (current.status === record.status_change.after) next.status = record.status_change.before as LoyaltyStatus;
    else kept.push('status');
  }
  return { next, restored, shortfall, kept };
}
