// The program's figures (SURFACES-CONTRACT.md, "The program's figures"), as pure rules: what each delivered
// domain event adds to a shop's counters (per UTC day, and the shop's figures "now"), what a full read of the
// shop's members and history gives for the same counters (`npx loyalty stats verify`, the backfill), and the
// answer of `GET /admin/api/overview` assembled from the counters of a range of days. Every contribution is an
// addition, so the order in which events arrive never matters; each event is counted once (its marker,
// shared/data/items/program-figures.ts).
import type { CommittedEvent } from './events';
import { decimalToMinor, formatScaled, minorDigits } from './money';
import { countedAmountMinor, type OrderRefunds } from './order-amount';

/** Where issued points come from, as the contract's `in_range.issued` names them. */
export const ISSUED_SOURCES = ['purchase', 'signup', 'birthday', 'referral', 'action', 'manual', 'import', 'refund'] as const;
export type IssuedSource = (typeof ISSUED_SOURCES)[number];

/** The counters of one shop and UTC day. */
export const DAY_COUNTERS = [
  ...ISSUED_SOURCES.map((source) => `issued_${source}` as const),
  'redeemed',
  'expired',
  'clawed_back',
  'redemptions',
  'codes_used',
  'new_members',
  // Members' orders counted on the day they were paid, and those that used a reward code of the program;
  // revenue in the shop currency's minor units.
  'member_orders',
  'member_revenue_minor',
  'loyalty_orders',
  'loyalty_revenue_minor',
] as const;
export type DayCounter = (typeof DAY_COUNTERS)[number];

/**
 * The shop's counters "now": balances and the lifetime totals of the rates (`members_ordered`: members with
 * 1+ counted orders, `members_reordered`: with 2+, imported order counts included). Members and excluded
 * members now are the shop's member counters, which every enrolment and exclusion already keeps for the
 * customer list.
 */
export const NOW_COUNTERS = [
  'points_outstanding',
  'points_pending',
  'lifetime_issued',
  'lifetime_redeemed',
  'members_ordered',
  'members_reordered',
] as const;
export type NowCounter = (typeof NOW_COUNTERS)[number];

export type DayCounts = Partial<Record<DayCounter, number>>;
export type NowCounts = Partial<Record<NowCounter, number>>;

/** One shop's counters: the "now" ones and those of each day (`YYYY-MM-DD`) that has any. */
export interface FigureCounts {
  now: NowCounts;
  days: Map<string, DayCounts>;
}

export const emptyCounts = (): FigureCounts => ({ now: {}, days: new Map() });

/** The earning entry actions that are not a source of issued points of their own name. */
const ACTION_SOURCES: Readonly<Record<string, IssuedSource>> = {
  purchase: 'purchase',
  signup: 'signup',
  birthday: 'birthday',
  referral: 'referral',
  import: 'import',
  manual_adjustment: 'manual',
  reward_refund: 'refund',
};

/** The source an approved entry's `action` counts under: an earning rule's own action (a follow, a review) is `action`. */
export const sourceOfAction = (action: string): IssuedSource => ACTION_SOURCES[action] ?? 'action';

/** The UTC day of an ISO 8601 time. */
export const utcDay = (iso: string): string => new Date(iso).toISOString().slice(0, 10);

function addDay(counts: FigureCounts, iso: string, counter: DayCounter, amount: number): void {
  addToDay(counts, utcDay(iso), counter, amount);
}

function addToDay(counts: FigureCounts, day: string, counter: DayCounter, amount: number): void {
  if (amount === 0) return;
  const row = counts.days.get(day) ?? {};
  row[counter] = (row[counter] ?? 0) + amount;
  // What cancels out leaves nothing behind: an order's count moving within its day is no counter of it.
  if (row[counter] === 0) delete row[counter];
  if (Object.keys(row).length === 0) counts.days.delete(day);
  else counts.days.set(day, row);
}

function addNow(counts: FigureCounts, counter: NowCounter, amount: number): void {
  if (amount === 0) return;
  counts.now[counter] = (counts.now[counter] ?? 0) + amount;
  if (counts.now[counter] === 0) delete counts.now[counter];
}

/** Points given by `source` on the day of `at`: issued, and part of the lifetime total of the redemption rate. */
function issued(counts: FigureCounts, at: string, source: IssuedSource, points: number): void {
  addDay(counts, at, `issued_${source}`, points);
  addNow(counts, 'lifetime_issued', points);
}

const numberOf = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
const stringOf = (value: unknown, fallback: string): string => (typeof value === 'string' && value !== '' ? value : fallback);

/** A member's standing in the repeat purchase rate from its counted orders: 1+ and 2+. */
function orderingMember(counts: FigureCounts, ordersCount: number, sign: 1 | -1): void {
  if (ordersCount >= 1) addNow(counts, 'members_ordered', sign);
  if (ordersCount >= 2) addNow(counts, 'members_reordered', sign);
}

/** An order counted on its paid day: once, for its eligible amount, and as a loyalty order when it used a reward code. */
function countedOrder(counts: FigureCounts, paidAt: string, minor: number, loyalty: boolean, sign: 1 | -1): void {
  addDay(counts, paidAt, 'member_orders', sign);
  addDay(counts, paidAt, 'member_revenue_minor', sign * minor);
  if (!loyalty) return;
  addDay(counts, paidAt, 'loyalty_orders', sign);
  addDay(counts, paidAt, 'loyalty_revenue_minor', sign * minor);
}

/** A decimal amount of an event in minor units of its currency (0 when absent or malformed). */
function minorOfAmount(value: unknown, currency: string): number {
  if (typeof value !== 'string' || !/^-?\d+(\.\d+)?$/.test(value)) return 0;
  return decimalToMinor(value, minorDigits(currency));
}

/** What an event of each type adds to its shop's counters, from the event's own fields (`at`: when it happened). */
const CONTRIBUTIONS: Readonly<Record<string, (counts: FigureCounts, fields: Record<string, unknown>, at: string) => void>> = {
  'points.adjusted': (counts, fields, at) => {
    const applied = numberOf(fields.adjustment);
    addNow(counts, 'points_outstanding', applied);
    if (applied > 0) issued(counts, stringOf(fields.points_given_at, at), 'manual', applied);
    else addDay(counts, stringOf(fields.points_given_at, at), 'clawed_back', -applied);
  },
  'points.earned': (counts, fields, at) => {
    const points = numberOf(fields.points);
    addNow(counts, 'points_outstanding', points);
    // The day the entry gave (or took) the points, as a full read counts it.
    const day = stringOf(fields.points_given_at, at);
    if (points > 0) issued(counts, day, sourceOfAction(stringOf(fields.action, 'action')), points);
    else addDay(counts, day, 'clawed_back', -points);
  },
  'points.approved': (counts, fields, at) => {
    const points = numberOf(fields.points);
    addNow(counts, 'points_outstanding', points);
    issued(counts, stringOf(fields.points_given_at, at), sourceOfAction(stringOf(fields.action, 'purchase')), points);
    if (fields.from_pending === true) addNow(counts, 'points_pending', -points);
  },
  'points.pending': (counts, fields) => {
    // A new pending entry adds its points; a pending entry changed by a refund, the difference.
    addNow(counts, 'points_pending', numberOf(fields.points) - numberOf(fields.points_before));
  },
  'points.removed': (counts, fields, at) => {
    if (fields.status === 'rejected') {
      // A pending entry rejected: its points leave the pending points, the balance never had them.
      addNow(counts, 'points_pending', -numberOf(fields.points_before ?? fields.points));
    } else {
      const taken = Math.abs(numberOf(fields.points));
      addNow(counts, 'points_outstanding', -taken);
      addDay(counts, stringOf(fields.points_given_at, at), 'clawed_back', taken);
    }
  },
  'points.expired': (counts, fields, at) => {
    const points = numberOf(fields.points);
    addNow(counts, 'points_outstanding', -points);
    addDay(counts, stringOf(fields.points_given_at, at), 'expired', points);
  },
  'reward.purchased': (counts, fields, at) => {
    const spent = numberOf(fields.points_spent);
    const day = stringOf(fields.redeemed_at, at);
    addNow(counts, 'points_outstanding', -spent);
    addNow(counts, 'lifetime_redeemed', spent);
    addDay(counts, day, 'redeemed', spent);
    addDay(counts, day, 'redemptions', 1);
  },
  'reward.refunded': (counts, fields, at) => {
    const points = numberOf(fields.points);
    addNow(counts, 'points_outstanding', points);
    issued(counts, stringOf(fields.points_given_at, at), 'refund', points);
  },
  'reward.used': (counts, fields, at) => {
    addDay(counts, stringOf(fields.discount_code_redeemed_at, at), 'codes_used', 1);
  },
  'customer.enrolled': (counts, fields, at) => {
    addDay(counts, stringOf(fields.enrolled_at, at), 'new_members', 1);
  },
  'customer.merged': (counts, fields) => {
    // The deleted member's enrolment goes, and the kept one's moves to the earlier of the two days (a kept
    // customer who was no member enrols with the merge: its `customer.enrolled` counts that); their order
    // counts become one.
    if (typeof fields.deleted_enrolled_at === 'string') addDay(counts, fields.deleted_enrolled_at, 'new_members', -1);
    if (typeof fields.kept_enrolled_at_before === 'string' && typeof fields.kept_enrolled_at === 'string') {
      addDay(counts, fields.kept_enrolled_at_before, 'new_members', -1);
      addDay(counts, fields.kept_enrolled_at, 'new_members', 1);
    }
    const keptOrders = numberOf(fields.kept_orders_count_before);
    const deletedOrders = numberOf(fields.orders_count);
    orderingMember(counts, keptOrders, -1);
    orderingMember(counts, deletedOrders, -1);
    orderingMember(counts, keptOrders + deletedOrders, 1);
  },
  'import.undone': (counts, fields, at) => {
    // `loyalty import undo` took one member back: the balance moved as the event says, the import's entry
    // left the history (what it issued, or for a \`set\` that lowered the balance what it clawed back, comes
    // off its day), and a member the import created is no member any more (its enrolment and order count go).
    addNow(counts, 'points_outstanding', numberOf(fields.points_after) - numberOf(fields.points_before));
    const points = numberOf(fields.points);
    const day = stringOf(fields.points_given_at, at);
    if (points > 0) {
      addDay(counts, day, `issued_${sourceOfAction(stringOf(fields.action, 'import'))}`, -points);
      addNow(counts, 'lifetime_issued', -points);
    } else addDay(counts, day, 'clawed_back', points);
    if (fields.removed === true) {
      if (typeof fields.enrolled_at === 'string') addDay(counts, fields.enrolled_at, 'new_members', -1);
      orderingMember(counts, numberOf(fields.orders_count), -1);
    }
  },
  'order.counted': (counts, fields, at) => {
    // The order's previous count comes off and its new one goes on, both on its paid day: a refund lowers
    // the paid day's revenue, a cancellation takes the order off it.
    const paidAt = stringOf(fields.paid_at, at);
    const currency = stringOf(fields.currency, 'USD');
    const loyalty = fields.reward_code_used === true;
    if (fields.counted_before === true) countedOrder(counts, paidAt, minorOfAmount(fields.eligible_amount_before, currency), loyalty, -1);
    if (fields.counted === true) countedOrder(counts, paidAt, minorOfAmount(fields.eligible_amount, currency), loyalty, 1);
    orderingMember(counts, numberOf(fields.orders_count_before), -1);
    orderingMember(counts, numberOf(fields.orders_count), 1);
  },
};

/**
 * What one delivered event adds to its shop's counters. The event's own fields say everything: the points
 * moved, the day they were given, and whether they left the pending points (docs/events.md). Other types add nothing.
 */
export function contributionOf(event: CommittedEvent): FigureCounts {
  const counts = emptyCounts();
  CONTRIBUTIONS[event.type]?.(counts, event as unknown as Record<string, unknown>, event.occurred_at);
  return counts;
}

/** Adds `more` into `into`. */
export function addCounts(into: FigureCounts, more: FigureCounts): FigureCounts {
  for (const counter of NOW_COUNTERS) addNow(into, counter, more.now[counter] ?? 0);
  for (const [day, row] of more.days) {
    for (const counter of DAY_COUNTERS) addToDay(into, day, counter, row[counter] ?? 0);
  }
  return into;
}

/** What a full read gives: a member's profile figures, and its history entries. */
export interface MemberForFigures {
  status: string;
  current_points: number;
  created_at: string;
  /** Counted orders, imported counts included (absent on old profiles: 0). */
  orders_count?: number;
}
export interface EarningEntryForFigures {
  action: string;
  points: number;
  status: string;
  points_given_at: string | null;
  created_at: string;
}
export interface RewardEntryForFigures {
  points_spent: number;
  status: string;
  redeemed_at: string;
  discount_code_redeemed_at: string | null;
}

/**
 * A member's order as its item keeps it: counted when what was applied counts it (`order_count` 1), on its
 * paid (processed) day, for its eligible amount less refunds; a loyalty order when it used a reward code.
 */
export interface OrderForFigures {
  facts: OrderRefunds & { processed_at: string; subtotal_minor: number };
  applied: { order_count: number };
  /** Absent on items written before the figures counted orders: false. */
  reward_code_used?: boolean;
}

/** The reward entry statuses of a redemption that happened (a purchase still in flight, or failed, is none). */
const REDEEMED_STATUSES = new Set(['active', 'used', 'expired']);

/** The counters recomputed from a full read of the shop's members and history (the figures' definition). */
export function countsOfFullRead(read: {
  members: readonly MemberForFigures[];
  earning: readonly EarningEntryForFigures[];
  rewards: readonly RewardEntryForFigures[];
  orders?: readonly OrderForFigures[];
}): FigureCounts {
  const counts = emptyCounts();
  for (const member of read.members) {
    addNow(counts, 'points_outstanding', member.current_points);
    addDay(counts, member.created_at, 'new_members', 1);
    orderingMember(counts, member.orders_count ?? 0, 1);
  }
  for (const order of read.orders ?? []) {
    if (order.applied.order_count !== 1) continue;
    countedOrder(counts, order.facts.processed_at, countedAmountMinor(order.facts), order.reward_code_used === true, 1);
  }
  for (const entry of read.earning) {
    if (entry.status === 'pending') {
      addNow(counts, 'points_pending', entry.points);
      continue;
    }
    if (entry.status !== 'approved') continue;
    const at = entry.points_given_at ?? entry.created_at;
    if (entry.action === 'expiry') addDay(counts, at, 'expired', Math.abs(entry.points));
    else if (entry.points > 0) issued(counts, at, sourceOfAction(entry.action), entry.points);
    else addDay(counts, at, 'clawed_back', -entry.points);
  }
  for (const reward of read.rewards) {
    if (!REDEEMED_STATUSES.has(reward.status)) continue;
    addDay(counts, reward.redeemed_at, 'redeemed', reward.points_spent);
    addDay(counts, reward.redeemed_at, 'redemptions', 1);
    addNow(counts, 'lifetime_redeemed', reward.points_spent);
    if (reward.discount_code_redeemed_at) addDay(counts, reward.discount_code_redeemed_at, 'codes_used', 1);
  }
  return counts;
}

/** Each counter that differs between what is kept and what a full read gives: `now.members`, `2026-11-02.redeemed`. */
export function differencesOf(kept: FigureCounts, recomputed: FigureCounts): Array<{ figure: string; kept: number; recomputed: number }> {
  const out: Array<{ figure: string; kept: number; recomputed: number }> = [];
  for (const counter of NOW_COUNTERS) {
    const a = kept.now[counter] ?? 0;
    const b = recomputed.now[counter] ?? 0;
    if (a !== b) out.push({ figure: `now.${counter}`, kept: a, recomputed: b });
  }
  const days = [...new Set([...kept.days.keys(), ...recomputed.days.keys()])].sort();
  for (const day of days) {
    for (const counter of DAY_COUNTERS) {
      const a = kept.days.get(day)?.[counter] ?? 0;
      const b = recomputed.days.get(day)?.[counter] ?? 0;
      if (a !== b) out.push({ figure: `${day}.${counter}`, kept: a, recomputed: b });
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------
// The answer.

/** A point's value as an exact ratio of integers (money per point). */
export interface PointValue {
  numerator: bigint;
  denominator: bigint;
}

/** A positive decimal string (`"0.01"`) as an exact ratio. */
export function ratioOfDecimal(value: string): PointValue {
  const match = /^(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) throw new Error(`Not a decimal: ${value}`);
  const fraction = match[2] ?? '';
  return { numerator: BigInt(`${match[1]}${fraction}`), denominator: 10n ** BigInt(fraction.length) };
}

/** `numerator ÷ denominator` rounded half-up to `digits` decimals, as a decimal string (non-negative values). */
function roundedRatio(numerator: bigint, denominator: bigint, digits: number): string {
  const scaled = numerator * 10n ** BigInt(digits);
  const quotient = scaled / denominator;
  const remainder = scaled % denominator;
  const rounded = remainder * 2n >= denominator ? quotient + 1n : quotient;
  return formatScaled(rounded, digits);
}

/** The point value printed with up to 6 decimals (half-up), trailing zeros dropped. */
export function printPointValue(value: PointValue): string {
  const text = roundedRatio(value.numerator, value.denominator, 6);
  return text.includes('.') ? text.replace(/0+$/, '').replace(/\.$/, '') : text;
}

/** `points × value` rounded half-up to the currency's minor unit. */
export function liabilityAmount(points: number, value: PointValue, minorDigits: number): string {
  if (points <= 0) return formatScaled(0n, minorDigits);
  return roundedRatio(BigInt(points) * value.numerator, value.denominator, minorDigits);
}

/** The reward fields the best fixed reward is chosen from (a shop's rewards as configured). */
export interface RewardForValue {
  is_active?: boolean;
  purchasable?: boolean;
  discount_type?: string;
  discount_amount?: number | string | null;
  points_cost?: number | null;
  /** A reward of a tier only (not every member can buy it). */
  tier_restricted?: boolean;
  /** Fixed cost (not a variable points amount). */
  fixed_cost?: boolean;
}

/**
 * The point value (SURFACES-CONTRACT.md): `analytics.point_value` when set; else in `store_credit` mode one
 * minor unit; else the largest `discount_amount ÷ points_cost` among the rewards any member can buy; else 0.
 */
export function pointValueOf(input: {
  configured: string | null | undefined;
  mode: string;
  minorDigits: number;
  rewards: readonly RewardForValue[];
}): PointValue {
  if (input.configured !== null && input.configured !== undefined) return ratioOfDecimal(input.configured);
  if (input.mode === 'store_credit') return { numerator: 1n, denominator: 10n ** BigInt(input.minorDigits) };
  let best: PointValue = { numerator: 0n, denominator: 1n };
  for (const reward of input.rewards) {
    if (reward.is_active === false || reward.purchasable === false || reward.tier_restricted === true || reward.fixed_cost === false)
      continue;
    if (reward.discount_type !== 'fixed' || !reward.points_cost || reward.points_cost <= 0) continue;
    const amount = reward.discount_amount === null || reward.discount_amount === undefined ? null : String(reward.discount_amount);
    if (amount === null || !/^\d+(\.\d+)?$/.test(amount)) continue;
    const ratio = ratioOfDecimal(amount);
    const candidate = { numerator: ratio.numerator, denominator: ratio.denominator * BigInt(reward.points_cost) };
    if (candidate.numerator * best.denominator > best.numerator * candidate.denominator) best = candidate;
  }
  return best;
}

/** A rate given to 4 decimals (0 when the whole is 0). */
const rate = (part: number, whole: number): number => (whole <= 0 ? 0 : Math.round((part / whole) * 10_000) / 10_000);

export interface OverviewAttributes {
  members: { total: number; new: number; excluded: number };
  points_outstanding: number;
  points_pending: number;
  liability: { amount: string; currency: string; point_value: string };
  in_range: {
    issued: Record<IssuedSource, number>;
    redeemed: number;
    expired: number;
    clawed_back: number;
    redemptions: number;
    codes_used: number;
    member_orders: number;
    member_revenue: string;
    loyalty_orders: number;
    loyalty_revenue: string;
  };
  redemption_rate: number;
  repeat_purchase_rate: number;
  daily: Array<{ date: string; issued: number; redeemed: number; expired: number; new_members: number; member_revenue: string }>;
}

/** The overview's attributes from the shop's "now" counters and its day counters in `days`. */
export function overviewOf(input: {
  now: NowCounts;
  members: { member: number; excluded: number };
  days: ReadonlyMap<string, DayCounts>;
  range: readonly string[];
  currency: string;
  minorDigits: number;
  pointValue: PointValue;
}): OverviewAttributes {
  const money = (minor: number) => formatScaled(BigInt(Math.max(0, minor)), input.minorDigits);
  const sum = (counter: DayCounter) => input.range.reduce((total, day) => total + (input.days.get(day)?.[counter] ?? 0), 0);
  const issuedInRange = Object.fromEntries(ISSUED_SOURCES.map((source) => [source, sum(`issued_${source}`)])) as Record<
    IssuedSource,
    number
  >;
  const outstanding = input.now.points_outstanding ?? 0;
  return {
    members: { total: input.members.member + input.members.excluded, new: sum('new_members'), excluded: input.members.excluded },
    points_outstanding: outstanding,
    points_pending: input.now.points_pending ?? 0,
    liability: {
      amount: liabilityAmount(outstanding, input.pointValue, input.minorDigits),
      currency: input.currency,
      point_value: printPointValue(input.pointValue),
    },
    in_range: {
      issued: issuedInRange,
      redeemed: sum('redeemed'),
      expired: sum('expired'),
      clawed_back: sum('clawed_back'),
      redemptions: sum('redemptions'),
      codes_used: sum('codes_used'),
      member_orders: sum('member_orders'),
      member_revenue: money(sum('member_revenue_minor')),
      loyalty_orders: sum('loyalty_orders'),
      loyalty_revenue: money(sum('loyalty_revenue_minor')),
    },
    redemption_rate: rate(input.now.lifetime_redeemed ?? 0, input.now.lifetime_issued ?? 0),
    repeat_purchase_rate: rate(input.now.members_reordered ?? 0, input.now.members_ordered ?? 0),
    daily: input.range.map((date) => {
      const row = input.days.get(date) ?? {};
      return {
        date,
        issued: ISSUED_SOURCES.reduce((total, source) => total + (row[`issued_${source}`] ?? 0), 0),
        redeemed: row.redeemed ?? 0,
        expired: row.expired ?? 0,
        new_members: row.new_members ?? 0,
        member_revenue: money(row.member_revenue_minor ?? 0),
      };
    }),
  };
}
