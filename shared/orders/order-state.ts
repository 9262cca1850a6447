// The order-state merge and the effects an order should have: pure, so that exactly-once processing is a
// property of two functions tested without a database. Deliveries merge into one state per order whatever
// their order (refunds by id, whoever reported them first, cancellation for good, the newest order snapshot
// wins); the effects are then
// recomputed from that state and compared with what was already applied, so a replay changes nothing.
import { addDays } from '../domain/dates';
import type { EarningEntry } from '../domain/history';
import type { Campaign, EarningRule, EarningSettings, LoyaltyMode, VipSettings, VipTier } from '../domain/shop';
import { earningRulePoints } from '../domain/earning-rule-points';
import { purchaseBasePoints } from '../domain/earning-offer';
import { deterministicId } from '../domain/deterministic-id';

import { countedAmountMinor } from '../domain/order-amount';

export { decimalToMinor } from '../domain/money';

export interface OrderRefundFact {
  /** Minor units the refund takes from the eligible amount (its lines less its refund discrepancies). */
  minor: number;
  /** When refunds/create reported it; informational only (a refund is known by its id, not by its time). */
  created_at?: string;
}

/** What is known about one order, merged from every delivery and reconciliation that mentioned it. */
export interface OrderFacts {
  order_id: string;
  name: string;
  processed_at: string;
  currency: string;
  /** Minor units, from the newest order snapshot. */
  subtotal_minor: number;
  /** `updated_at` of the snapshot subtotal, refunded aggregate and codes came from. */
  snapshot_updated_at: string;
  /**
   * The newest snapshot's refunded part of the eligible amount, minor units: the sum of the refunds it lists,
   * or, from a source without a refunds list, subtotal − current subtotal.
   */
  aggregate_refunded_minor: number;
  /** Every refund known by its id: from refunds/create and from the refunds order snapshots list. */
  refunds: Record<string, OrderRefundFact>;
  cancelled_at: string | null;
  discount_codes: string[];
  /** From the `referral_code` note attribute, Shopify's recorded referral code, or the landing page's `ref`. */
  referral_code: string | null;
  /** The newest snapshot's prices include tax: refunded lines count without their tax. Absent on old items: false. */
  taxes_included?: boolean;
  /** The newest snapshot is not paid yet (pending, authorized, partially paid): it counts once it is. Absent: paid. */
  awaiting_payment?: boolean;
  /** A test order: it counts only where the shop counts test orders. Absent: false. */
  test?: boolean;
  /** The channel the order was placed through (`web`, `pos`...), from its first snapshot; absent on older items. */
  source_name?: string | null;
}

/** An order snapshot in minor units, as the processor hands it over (webhook or reconciliation). */
export interface OrderSnapshot {
  order_id: string;
  name: string;
  processed_at: string;
  updated_at: string;
  currency: string;
  /** The eligible amount before refunds. */
  subtotal_minor: number;
  /** What refunds took back of it. */
  refunded_minor: number;
  /** What each refund the snapshot lists takes, by refund id; null when the source gave no refunds list. */
  refunds: Record<string, number> | null;
  /** Cancelled, or its payment voided or expired. */
  cancelled_at: string | null;
  discount_codes: string[];
  referral_code: string | null;
  taxes_included: boolean;
  awaiting_payment: boolean;
  test: boolean;
  /** Shopify's `source_name` (`web`, `pos`...), null when the source gave none. */
  source_name: string | null;
}

export interface RefundSnapshot {
  refund_id: string;
  minor: number;
  created_at: string;
}

/** Adds the refunds not known yet by their id; a refund already known keeps what it was first applied as. */
function withRefunds(known: Record<string, OrderRefundFact>, listed: Record<string, number> | null): Record<string, OrderRefundFact> {
  const added = Object.entries(listed ?? {}).filter(([id]) => !Object.hasOwn(known, id));
  if (added.length === 0) return known;
  return { ...known, ...Object.fromEntries(added.map(([id, minor]) => [id, { minor }])) };
}

/**
 * Merges a snapshot: the subtotal, aggregate and codes keep the newest `updated_at` (an equal one is applied,
 * which is idempotent), cancellation is never undone, and every refund the snapshot lists joins the refunds
 * known by id (an older snapshot's too: a refund happened whatever the snapshot's age), a known one unchanged.
 */
export function mergeOrderSnapshot(facts: OrderFacts | null, snapshot: OrderSnapshot): OrderFacts {
  const newer = !facts || Date.parse(snapshot.updated_at) >= Date.parse(facts.snapshot_updated_at);
  const cancelledAt = facts?.cancelled_at ?? snapshot.cancelled_at;
  const refunds = withRefunds(facts?.refunds ?? {}, snapshot.refunds);
  if (!newer) return { ...facts, cancelled_at: cancelledAt, refunds };
  return {
    order_id: snapshot.order_id,
    name: snapshot.name,
    processed_at: snapshot.processed_at,
    currency: snapshot.currency,
    subtotal_minor: snapshot.subtotal_minor,
    snapshot_updated_at: snapshot.updated_at,
    aggregate_refunded_minor: snapshot.refunded_minor,
    refunds,
    cancelled_at: cancelledAt,
    // The first snapshot's codes and referral decide: a later snapshot of the same order carries the same ones.
    discount_codes: facts?.discount_codes ?? snapshot.discount_codes,
    referral_code: facts?.referral_code ?? snapshot.referral_code,
    taxes_included: snapshot.taxes_included,
    awaiting_payment: snapshot.awaiting_payment,
    test: snapshot.test,
    // The channel is the order's from its first snapshot (an older item's, without one, takes this snapshot's).
    source_name: facts?.source_name ?? snapshot.source_name,
  };
}

/** Financial statuses of a paid order (SHOPIFY-CONTRACT.md, "Only paid money earns"). */
const PAID_STATUSES = new Set(['paid', 'partially_refunded', 'refunded']);
/** Financial statuses of an order whose payment will never come: treated as cancelled. */
const VOID_STATUSES = new Set(['voided', 'expired']);

/**
 * How a financial status counts: `paid`; `void` (voided, expired: as if cancelled); `awaiting` (pending,
 * authorized, partially paid, and any status Shopify may add: recorded, counted once a later state is paid).
 * A source that gives no status (null) reports a paid order, as orders/paid does by its topic.
 */
export function paymentState(financialStatus: string | null): 'paid' | 'void' | 'awaiting' {
  if (financialStatus === null || PAID_STATUSES.has(financialStatus)) return 'paid';
  return VOID_STATUSES.has(financialStatus) ? 'void' : 'awaiting';
}

/** The order counts (points, spend, order count): not cancelled, paid, and not a test order unless the shop counts those. */
export function orderCounts(facts: OrderFacts, countTestOrders: boolean): boolean {
  return facts.cancelled_at === null && facts.awaiting_payment !== true && (facts.test !== true || countTestOrders);
}

/**
 * Merges a refund by its id: a refund already known (from an earlier refunds/create, or listed by an order
 * snapshot or reconciliation) changes nothing, whatever its timestamps say.
 */
export function mergeRefund(facts: OrderFacts, refund: RefundSnapshot): OrderFacts {
  if (Object.hasOwn(facts.refunds, refund.refund_id)) return facts;
  return { ...facts, refunds: { ...facts.refunds, [refund.refund_id]: { minor: refund.minor, created_at: refund.created_at } } };
}

/** The amount that earns and counts as spend, minor units: nothing while the order does not count. */
export function eligibleMinor(facts: OrderFacts, countTestOrders = false): number {
  if (!orderCounts(facts, countTestOrders)) return 0;
  return countedAmountMinor(facts);
}

/** The rule as it was when the order first counted: later edits of the rule do not re-price the order. */
export type FrozenRule = Pick<EarningRule, 'id' | 'category' | 'points_to_give'> & { spend_unit: number | null };

/** The multiplier context the member held before the order counted, frozen with the rules. */
export interface FrozenContext {
  tier: VipTier | null;
  campaign: Campaign | null;
  vip_settings: VipSettings;
  rules: FrozenRule[];
}

export interface RuleTarget {
  rule_id: string;
  base_points: number;
  points: number;
  multiplier: number;
}

export interface OrderTarget {
  rules: RuleTarget[];
  /** In the unit of total_spend: currency units in points shops, minor units in store-credit shops. */
  spend: number;
  order_count: 0 | 1;
}

export function minorScale(digits: number): number {
  return 10 ** digits;
}

/** The effects the order's merged state calls for, under the frozen context. */
export function orderTarget(
  facts: OrderFacts,
  frozen: FrozenContext,
  loyaltyMode: LoyaltyMode,
  currencyDigits: number,
  countTestOrders = false,
): OrderTarget {
  const eligible = eligibleMinor(facts, countTestOrders);
  const eligibleMajor = eligible / minorScale(currencyDigits);
  const rules = frozen.rules.map((rule): RuleTarget => {
    // The storefront's figure for a price comes from the same two functions (domain/earning-offer.ts).
    const base = purchaseBasePoints(rule, eligibleMajor, eligible > 0);
    const priced = earningRulePoints(
      { ...rule, points_to_give: base },
      { tier: frozen.tier, campaign: frozen.campaign, vipSettings: frozen.vip_settings },
    );
    return {
      rule_id: rule.id,
      base_points: base,
      points: priced.points,
      multiplier: (priced.tier_boost ?? 1) * (priced.campaign_boost ?? 1),
    };
  });
  return {
    rules,
    spend: loyaltyMode === 'store_credit' ? eligible : eligibleMajor,
    order_count: orderCounts(facts, countTestOrders) ? 1 : 0,
  };
}

/** What one rule has done for the order so far. */
export interface AppliedRule {
  /** Approved points the order counts for this rule, net of what was taken back (as asked, not as removable). */
  credited: number;
  credited_base: number;
  /** The entry still waiting for approval, as this order last wrote it. */
  pending: { entry_id: string; points: number; base_points: number } | null;
  /** Effects written so far; the next one's entry id is derived from it. */
  seq: number;
}

export interface AppliedEffects {
  rules: Record<string, AppliedRule>;
  spend: number;
  order_count: 0 | 1;
}

export const NOTHING_APPLIED: AppliedEffects = { rules: {}, spend: 0, order_count: 0 };

/** A deterministic entry id per shop, order, rule and effect: a conditional put of it can never duplicate. */
export function orderEntryId(shopId: string, orderId: string, ruleId: string, seq: number): string {
  return deterministicId({ joined: [shopId, orderId, ruleId, seq] }, { as: 'uuid-5' });
}

/** An entry an order writes; a take-back also records how much it asked for when the balance had less. */
export type OrderEntry = EarningEntry & { requested_points?: number };

export interface PendingEntryChange {
  entry_id: string;
  /** `pending` with new points, or `rejected`. */
  status: 'pending' | 'rejected';
  points: number;
  base_points: number;
  /** The entry's points before the change (what leaves the pending points). */
  points_before: number;
}

export interface OrderEffectsPlan {
  /** New entries (awards, take-backs), each with a deterministic id. */
  newEntries: OrderEntry[];
  /** Changes to this order's pending entries, conditional on their still being pending. */
  pendingChanges: PendingEntryChange[];
  /** Change of the spendable balance (approved awards minus what take-backs actually removed). */
  pointsDelta: number;
  lifetimeDelta: number;
  spendDelta: number;
  orderCountDelta: number;
  applied: AppliedEffects;
  /** Nothing to write: a replay or a state that was already applied. */
  empty: boolean;
}

export interface PlanInput {
  shopId: string;
  facts: OrderFacts;
  target: OrderTarget;
  applied: AppliedEffects;
  /** The customer's balance now: take-backs never bring it below zero. */
  currentPoints: number;
  earningSettings: EarningSettings;
  /** Clock time of this processing run. */
  now: string;
  /** Entry ids of pending entries that were approved since this order wrote them (by the approval job). */
  approvedSince?: ReadonlySet<string>;
}

/** When an order's purchase points are given: at once, or pending until they are due. */
export type PurchasePointsTiming = { status: 'approved'; points_due_at: null } | { status: 'pending'; points_due_at: string };

/**
 * When the purchase points of an order paid at `paidAt` are given (EARNING-CONTRACT.md): approved at once when
 * the shop has no return window (`pending_days` 0), else pending until `paidAt` + `pending_days` × 24 h. The
 * order engine writes its entries with it, and the checkout's estimate (POST /shopper/estimate) answers it.
 */
export function purchasePointsTiming(paidAt: string, pendingDays: number): PurchasePointsTiming {
  return pendingDays > 0 ? { status: 'pending', points_due_at: addDays(paidAt, pendingDays) } : { status: 'approved', points_due_at: null };
}

/** Purchase entries' and take-backs' action names (EARNING-CONTRACT.md, "Precise semantics"). */
export const ORDER_ENTRY_ACTIONS = { award: 'purchase', takeBack: 'refund' } as const;

/**
 * Compares the target with what was applied and plans the difference: new or grown awards, pending entries
 * shrunk or rejected, approved points taken back by a `refund` entry recording what was actually removed.
 */
export function planOrderEffects(input: PlanInput): OrderEffectsPlan {
  const { target } = input;
  const ledger: Ledger = { balance: input.currentPoints, pointsDelta: 0, lifetimeDelta: 0, newEntries: [], pendingChanges: [] };
  const entry = orderEntryMaker(input.facts, input.now);
  const rules: Record<string, AppliedRule> = {};
  for (const rule of target.rules) rules[rule.rule_id] = planRule(input, rule, ledger, entry);

  const { newEntries, pendingChanges, pointsDelta, lifetimeDelta } = ledger;
  const spendDelta = target.spend - input.applied.spend;
  const orderCountDelta = target.order_count - input.applied.order_count;
  const applied: AppliedEffects = { rules, spend: target.spend, order_count: target.order_count };
  const empty =
    newEntries.length === 0 &&
    pendingChanges.length === 0 &&
    spendDelta === 0 &&
    orderCountDelta === 0 &&
    sameState(rules, pickRules(input.applied.rules, Object.keys(rules)));
  return { newEntries, pendingChanges, pointsDelta, lifetimeDelta, spendDelta, orderCountDelta, applied, empty };
}

/** What a plan has written so far: its entries and pending changes, and the balance they leave. */
interface Ledger {
  balance: number;
  pointsDelta: number;
  lifetimeDelta: number;
  newEntries: OrderEntry[];
  pendingChanges: PendingEntryChange[];
}

type EntryMaker = (id: string, rule: RuleTarget, fields: Partial<OrderEntry>) => OrderEntry;

/** An entry of this order for a rule: an approved award of nothing given now, unless `fields` say otherwise. */
function orderEntryMaker(facts: PlanInput['facts'], now: string): EntryMaker {
  return (id, rule, fields) => ({
    id,
    earning_rule_id: rule.rule_id,
    action: ORDER_ENTRY_ACTIONS.award,
    points: 0,
    base_points: 0,
    points_multiplier: rule.multiplier,
    status: 'approved',
    order_id: facts.order_id,
    order_number: facts.name,
    order_source_name: facts.source_name ?? null,
    points_due_at: null,
    points_given_at: now,
    points_expiry_at: null,
    created_at: now,
    updated_at: now,
    ...fields,
  });
}

/** One rule's difference between its target and what was applied: the rule's state after the plan. */
function planRule(input: PlanInput, rule: RuleTarget, ledger: Ledger, entry: EntryMaker): AppliedRule {
  const before = input.applied.rules[rule.rule_id] ?? { credited: 0, credited_base: 0, pending: null, seq: 0 };
  const state: AppliedRule = { ...before };
  // A pending entry the approval job approved meanwhile is credited now; its points stand as approved.
  if (state.pending && input.approvedSince?.has(state.pending.entry_id)) {
    state.credited += state.pending.points;
    state.credited_base += state.pending.base_points;
    state.pending = null;
  }
  const owed = rule.points - state.credited;
  const owedBase = rule.base_points - state.credited_base;
  if (state.pending) resizePending(state, owed, owedBase, ledger);
  else if (owed > 0) award(input, rule, state, { owed, owedBase }, ledger, entry);
  if (state.credited > rule.points) takeBack(input, rule, state, ledger, entry);
  return state;
}

/** A pending entry rejected when nothing is owed any more, or resized to what is owed now. */
function resizePending(state: AppliedRule, owed: number, owedBase: number, ledger: Ledger): void {
  const pending = state.pending!;
  if (owed <= 0) {
    ledger.pendingChanges.push({
      entry_id: pending.entry_id,
      status: 'rejected',
      points: pending.points,
      base_points: pending.base_points,
      points_before: pending.points,
    });
    state.pending = null;
  } else if (owed !== pending.points || owedBase !== pending.base_points) {
    ledger.pendingChanges.push({
      entry_id: pending.entry_id,
      status: 'pending',
      points: owed,
      base_points: owedBase,
      points_before: pending.points,
    });
    state.pending = { ...pending, points: owed, base_points: owedBase };
  }
}

/** A new award of what is owed: pending until due when the shop has a return window, else approved at once. */
function award(
  input: PlanInput,
  rule: RuleTarget,
  state: AppliedRule,
  { owed, owedBase }: { owed: number; owedBase: number },
  ledger: Ledger,
  entry: EntryMaker,
): void {
  const { facts } = input;
  const id = orderEntryId(input.shopId, facts.order_id, rule.rule_id, state.seq);
  state.seq += 1;
  const timing = purchasePointsTiming(facts.processed_at, input.earningSettings.pending_days);
  if (timing.status === 'pending') {
    ledger.newEntries.push(
      entry(id, rule, {
        points: owed,
        base_points: owedBase,
        status: 'pending',
        points_due_at: timing.points_due_at,
        points_given_at: null,
      }),
    );
    state.pending = { entry_id: id, points: owed, base_points: owedBase };
    return;
  }
  ledger.newEntries.push(entry(id, rule, { points: owed, base_points: owedBase }));
  state.credited += owed;
  state.credited_base += owedBase;
  ledger.balance += owed;
  ledger.pointsDelta += owed;
  ledger.lifetimeDelta += owed;
}

/** Approved points taken back as asked; what the balance cannot give any more is not owed later. */
function takeBack(input: PlanInput, rule: RuleTarget, state: AppliedRule, ledger: Ledger, entry: EntryMaker): void {
  const asked = state.credited - rule.points;
  const removed = Math.min(asked, ledger.balance);
  const id = orderEntryId(input.shopId, input.facts.order_id, rule.rule_id, state.seq);
  state.seq += 1;
  ledger.newEntries.push(
    entry(id, rule, {
      action: ORDER_ENTRY_ACTIONS.takeBack,
      points: -removed,
      base_points: -(state.credited_base - rule.base_points),
      requested_points: -asked,
    }),
  );
  ledger.balance -= removed;
  ledger.pointsDelta -= removed;
  state.credited = rule.points;
  state.credited_base = rule.base_points;
}

function pickRules(rules: Record<string, AppliedRule>, ids: string[]): Record<string, AppliedRule> {
  return Object.fromEntries(ids.map((id) => [id, rules[id] ?? { credited: 0, credited_base: 0, pending: null, seq: 0 }]));
}

/** Shopify keeps `landing_site` to this many characters: a `ref` running to the cut may be cut short. */
export const LANDING_SITE_LIMIT = 255;

/**
 * The referral code an order carries (SHOPIFY-CONTRACT.md): the `referral_code` note attribute, else the
 * code Shopify recorded for the visit (`landing_site_ref` / `referralCode`), else the landing page's `ref`
 * parameter, unless that parameter runs to the end of a landing page Shopify cut, where it may be cut short.
 */
export function referralCodeOf(
  landingSite: string | null,
  noteAttributes: ReadonlyArray<{ name: string; value: string }>,
  recordedCode: string | null = null,
): string | null {
  const note = noteAttributes.find((attribute) => attribute.name === 'referral_code')?.value.trim();
  if (note) return note;
  if (recordedCode?.trim()) return recordedCode.trim();
  if (!landingSite) return null;
  try {
    const ref = new URL(landingSite, 'https://landing.invalid').searchParams.get('ref')?.trim() || null;
    if (ref && landingSite.length >= LANDING_SITE_LIMIT && /[?&]ref=[^&#]*$/.test(landingSite)) return null;
    return ref;
  } catch {
    return null;
  }
}

/** Deep equality of JSON values regardless of key order (DynamoDB does not keep a map's key order). */
export function sameState(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const aKeys = Object.keys(a).filter((key) => (a as Record<string, unknown>)[key] !== undefined);
  const bKeys = Object.keys(b).filter((key) => (b as Record<string, unknown>)[key] !== undefined);
  if (aKeys.length !== bKeys.length) return false;
  return aKeys.every((key) => sameState((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]));
}
