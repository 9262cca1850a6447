// Applies what the platform says about an order (a paid, refunded or cancelled snapshot, or one refund) to
// the member: merge into the order's state, plan the difference from what was applied, write it in one
// transaction conditional on the profile's and the order's versions, retry from a fresh read on a lost
// race; the events are committed in that transaction. The same state applied twice computes nothing and writes nothing.
import {
  activeRewardEntriesWithCodes,
  earningEntryStatuses,
  findOrderCustomer,
  findReferralCodeOwner,
  readOrderContext,
  writeOrderEffects,
} from '../data/order-repository';
import {
  completeFriendReferral,
  findFriendReferralByCode,
  findFriendReferralByEmail,
  friendEmailHashKey,
} from '../data/referral-repository';
import { isValidEmailAddress } from '../config/email-address';
import { mailboxKey } from '../domain/email-identity';
import type { CustomerRecord } from '../domain/customer';
import { failed } from '../domain/errors';
import { type MovedPoints, movePoints, tierProgramOf } from '../domain/member-points';
import { formatMinorUnits, minorDigits } from '../domain/money';
import { countedAmountMinor } from '../domain/order-amount';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../domain/shop';
import { resolveTier } from '../domain/tiers';
import { giveBatches } from '../domain/points-ledger';
import { withMemberFacts } from '../domain/events';
import type { DomainEvent, OrderCountedEvent } from '../domain/events';
import { logger } from '../observability/powertools';
import { refundTakes } from '../platform/eligible-amount';
import type { PlatformOrder, PlatformRefund } from '../platform/port';
import { activeCampaign } from '../domain/earning-rule-points';
import { nowIso } from '../runtime/clock';
import { CONTENTION_BACKOFF, retryUntil } from '../runtime/retry';
import {
  type AppliedEffects,
  decimalToMinor,
  type FrozenContext,
  mergeOrderSnapshot,
  mergeRefund,
  NOTHING_APPLIED,
  type OrderEffectsPlan,
  type OrderFacts,
  type OrderSnapshot,
  orderTarget,
  paymentState,
  planOrderEffects,
  referralCodeOf,
  sameState,
} from './order-state';
import { awardReferrer } from './referral-award';

/** The order item: merged facts, the frozen pricing context and what was applied. */
export interface OrderRecord {
  shop_id: string;
  customer_id: string;
  order_id: string;
  facts: OrderFacts;
  frozen: FrozenContext;
  applied: AppliedEffects;
  /** Decided once, when the order first counted: the member had no counted order before it. */
  first_order: boolean;
  /** The order's discount codes have been matched against the member's active rewards. */
  reward_codes_used: boolean;
  /** One of them was a reward code of this program (the program's loyalty orders); absent on older items: false. */
  reward_code_used?: boolean;
  created_at: string;
  updated_at: string;
}

/** `applied`: effects written; `state_updated`: a newer snapshot merged that changes no effect. */
export type ApplyOutcome = 'applied' | 'state_updated' | 'unchanged' | 'not_member' | 'before_enrolment' | 'unknown_order' | 'guest';

// As for manual adjustments: enough rounds for dozens of concurrent writers of one customer.
const MAX_ATTEMPTS = 120;

export function snapshotOf(order: PlatformOrder): OrderSnapshot {
  const digits = minorDigits(order.currency);
  const updatedAt = new Date(order.updatedAt).toISOString();
  const payment = paymentState(order.financialStatus);
  const cancelledAt = order.cancelledAt ? new Date(order.cancelledAt).toISOString() : null;
  return {
    order_id: order.id,
    name: order.name,
    processed_at: new Date(order.processedAt).toISOString(),
    updated_at: updatedAt,
    currency: order.currency,
    subtotal_minor: decimalToMinor(order.eligibleSubtotal, digits),
    refunded_minor: decimalToMinor(order.refundedEligible, digits),
    refunds: order.refunds && Object.fromEntries(order.refunds.map((refund) => [refund.id, decimalToMinor(refund.taken, digits)])),
    // A voided or expired payment ends the order as a cancellation does, from the state that says so.
    cancelled_at: cancelledAt ?? (payment === 'void' ? updatedAt : null),
    discount_codes: order.discountCodes,
    referral_code: referralCodeOf(order.landingSite, order.noteAttributes, order.referralCode),
    taxes_included: order.taxesIncluded,
    awaiting_payment: payment === 'awaiting',
    test: order.test,
    source_name: order.sourceName ?? null,
  };
}

/**
 * Whether applying `order` again would find nothing to do against its stored order item, without reading the
 * member: the snapshot is not newer and merges into the same facts, no entry of the order is pending (the
 * approval job may have approved it since), its discount codes were matched, and it is not a first order
 * whose referral an unchanged replay retries. Order reconciliation leaves such orders alone; any other goes
 * through applyOrder as before.
 */
export function alreadyApplied(record: OrderRecord, order: PlatformOrder): boolean {
  const facts = mergeOrderSnapshot(record.facts, snapshotOf(order));
  if (!sameState(facts, record.facts)) return false;
  if (Object.values(record.applied.rules).some((rule) => rule.pending)) return false;
  if (!record.reward_codes_used && facts.discount_codes.length > 0) return false;
  const mayRefer = facts.referral_code !== null || facts.discount_codes.length > 0;
  return !(record.first_order && record.applied.order_count === 1 && mayRefer);
}

/** orders/paid, orders/cancelled, orders/updated and reconciliation: the order's snapshot. */
export async function applyOrder(shop: ShopCatalog, order: PlatformOrder): Promise<ApplyOutcome> {
  if (order.customerId === null) return 'guest';
  const snapshot = snapshotOf(order);
  return applyChange(shop, order.customerId, order.id, (facts) => mergeOrderSnapshot(facts, snapshot), true);
}

/**
 * refunds/create: one refund of an order a member placed, known by its id (one the order already lists, or an
 * earlier delivery of it, changes nothing); an order not seen yet is left to reconciliation.
 */
export async function applyRefund(shop: ShopCatalog, refund: PlatformRefund): Promise<ApplyOutcome> {
  const customerId = await findOrderCustomer(shop.settings.id, refund.orderId);
  if (!customerId) return 'unknown_order';
  return applyChange(shop, customerId, refund.orderId, (facts) => {
    if (!facts) return null;
    const digits = minorDigits(facts.currency);
    return mergeRefund(facts, {
      refund_id: refund.id,
      minor: decimalToMinor(refundTakes(refund, facts.taxes_included === true), digits),
      created_at: new Date(refund.createdAt).toISOString(),
    });
  });
}

/** The pricing context the member held before this order counted (tier, campaign at the paid time, rules). */
function freeze(shop: ShopCatalog, customer: CustomerRecord, paidAt: string): FrozenContext {
  const vipSettings = shop.settings.vip_settings;
  return {
    tier: resolveTier(customer, shop.tiers, vipSettings),
    campaign: activeCampaign(shop.campaigns, new Date(paidAt)),
    vip_settings: vipSettings,
    rules: shop.earningRules
      .filter((rule) => rule.is_active && rule.action === 'purchase')
      .map((rule) => ({ id: rule.id, category: rule.category, points_to_give: rule.points_to_give, spend_unit: rule.spend_unit ?? null })),
  };
}

/** What the attempts of one change learned: the record committed, the order as last read, its owner, the member's address. */
interface ChangeAttempts {
  committed?: { record: OrderRecord };
  // The order as last read: an unchanged replay needs no second read to retry the referral below.
  lastRead?: OrderRecord;
  owner: string | null;
  // The member's address as last read: a referral made to it completes with the first order's award.
  memberEmail: string | null;
}

type OrderContext = Awaited<ReturnType<typeof readOrderContext<OrderRecord>>>;

async function applyChange(
  shop: ShopCatalog,
  customerId: string,
  orderId: string,
  merge: (facts: OrderFacts | null) => OrderFacts | null,
  followOwner = false,
): Promise<ApplyOutcome> {
  const attempts: ChangeAttempts = { owner: null, memberEmail: null };
  const outcome = await retryUntil(MAX_ATTEMPTS, CONTENTION_BACKOFF, () =>
    attemptChange(shop, { customerId, orderId, merge, followOwner }, attempts),
  );
  if (outcome === 'elsewhere') return applyChange(shop, attempts.owner!, orderId, merge);
  if (outcome === undefined) throw failed(`Order ${orderId} could not be applied after repeated write conflicts`);
  const { committed } = attempts;
  if (committed) {
    logger.info('Order applied', { order: orderId, customer: customerId, applied: committed.record.applied });
  }
  // The referral is the referrer's, in its own transaction, made once by a guard item: also retried on replays
  // of the first order, in case the process stopped between the two commits.
  const current = committed?.record ?? (outcome === 'unchanged' ? attempts.lastRead : undefined);
  if (current?.first_order && current.applied.order_count === 1) {
    await awardFirstOrderReferral(shop, { id: customerId, email: attempts.memberEmail }, current);
  }
  return outcome;
}

/** One read-plan-write of a change: its outcome, or undefined when the write met a conflict (another attempt follows). */
async function attemptChange(
  shop: ShopCatalog,
  {
    customerId,
    orderId,
    merge,
    followOwner,
  }: { customerId: string; orderId: string; merge: (facts: OrderFacts | null) => OrderFacts | null; followOwner: boolean },
  attempts: ChangeAttempts,
): Promise<ApplyOutcome | 'elsewhere' | undefined> {
  const shopId = shop.settings.id;
  const { customer, order } = await readOrderContext<OrderRecord>(shopId, customerId, orderId);
  attempts.lastRead = order?.record;
  attempts.memberEmail = customer?.record.email ?? null;
  // The profile went first and the partition follows (a customer merge moving it, an erasure deleting it):
  // the queue tries again once the order is where it belongs, rather than the change being lost.
  if (!customer && order) throw failed(`Order ${orderId} is being moved or erased with its customer; try again`);
  // An order already counted for another member stays that member's: the platform gives a merged-away
  // customer's orders to the kept customer before customers/merge moves their items here.
  if (!order && followOwner) {
    attempts.owner = await findOrderCustomer(shopId, orderId);
    if (attempts.owner !== null && attempts.owner !== customerId) return 'elsewhere';
  }
  // Orders of non-members and excluded members change nothing, and an order never enrols anyone.
  if (!customer || customer.record.status !== 'member') return 'not_member';
  const facts = merge(order?.record.facts ?? null);
  if (!facts) return 'unknown_order';
  // An order paid before the customer joined is not the program's to reward (it may be seen again later).
  if (!order && Date.parse(facts.processed_at) < Date.parse(customer.record.created_at)) return 'before_enrolment';

  const now = nowIso();
  const change = await planChange(shop, customerId, { customer, order }, facts, now);
  const factsChanged = !sameState(facts, order?.record.facts ?? null);
  if (order && change.plan.empty && !factsChanged && !change.checkCodes) return 'unchanged';
  const record = orderRecordOf(shop, { customerId, orderId }, { customer, order }, { facts, now, ...change });
  if (!(await writeChange(shop, { customer, order }, record, change, now))) return undefined;
  attempts.committed = { record };
  return change.plan.empty && change.usedRewards.length === 0 && order ? 'state_updated' : 'applied';
}

/** The order's target under its frozen pricing, the plan of its difference, and the reward codes it used. */
async function planChange(shop: ShopCatalog, customerId: string, { customer, order }: OrderContext, facts: OrderFacts, now: string) {
  const shopId = shop.settings.id;
  const earningSettings = shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS;
  const frozen = order?.record.frozen ?? freeze(shop, customer!.record, facts.processed_at);
  const applied = order?.record.applied ?? NOTHING_APPLIED;
  const digits = minorDigits(facts.currency);
  const target = orderTarget(facts, frozen, shop.settings.loyalty_mode, digits, earningSettings.count_test_orders === true);
  const pendingIds = Object.values(applied.rules).flatMap((rule) => (rule.pending ? [rule.pending.entry_id] : []));
  const statuses = pendingIds.length ? await earningEntryStatuses(shopId, customerId, pendingIds) : new Map<string, string>();
  const approvedSince = new Set(pendingIds.filter((id) => statuses.get(id) === 'approved'));
  const plan = planOrderEffects({
    shopId,
    facts,
    target,
    applied,
    currentPoints: customer!.record.current_points,
    earningSettings,
    now,
    approvedSince,
  });
  const checkCodes = !(order?.record.reward_codes_used ?? false) && facts.discount_codes.length > 0;
  const usedRewards = checkCodes
    ? (await activeRewardEntriesWithCodes(shopId, customerId, facts.discount_codes)).map((reward) => ({
        ...reward,
        redeemedAt: facts.processed_at,
      }))
    : [];
  return { frozen, target, plan, checkCodes, usedRewards };
}

type PlannedChange = Awaited<ReturnType<typeof planChange>>;

/** The order's record after the change. */
function orderRecordOf(
  shop: ShopCatalog,
  { customerId, orderId }: { customerId: string; orderId: string },
  { customer, order }: OrderContext,
  { facts, now, frozen, target, plan, usedRewards }: PlannedChange & { facts: OrderFacts; now: string },
): OrderRecord {
  return {
    shop_id: shop.settings.id,
    customer_id: customerId,
    order_id: orderId,
    facts,
    frozen,
    applied: plan.applied,
    // Decided when the order first counts (an order awaiting payment is recorded before it does).
    first_order:
      (order?.record.first_order ?? false) ||
      (order?.record.applied.order_count !== 1 && customer!.record.orders_count === 0 && target.order_count === 1),
    reward_codes_used: (order?.record.reward_codes_used ?? false) || facts.discount_codes.length > 0,
    reward_code_used: (order?.record.reward_code_used ?? false) || usedRewards.length > 0,
    created_at: order?.record.created_at ?? now,
    updated_at: now,
  };
}

/** Writes the change in one transaction (the member's points moved, the order, its entries, its events): whether it was written. */
async function writeChange(shop: ShopCatalog, { customer, order }: OrderContext, record: OrderRecord, change: PlannedChange, now: string) {
  const { plan, usedRewards } = change;
  const member = customer!;
  const earningSettings = shop.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS;
  // Points approved at once are batches of their own (points-ledger.ts); take-backs consume from the front.
  const move = plan.empty ? null : moveOf(shop, member.record, plan, now);
  const ledger = move ? giveBatches(member.record, move.next, plan.newEntries, earningSettings, now) : null;
  const nextCustomer = ledger?.record ?? null;
  const counted = countedEventOf(shop, member.record, nextCustomer ?? member.record, order?.record ?? null, record, now);
  const events = [...eventsOf(shop, member.record, plan, usedRewards, now), ...(counted ? [counted] : []), ...(move?.events ?? [])];
  return writeOrderEffects({
    shopId: shop.settings.id,
    customerId: record.customer_id,
    orderId: record.order_id,
    customer: nextCustomer ? { current: member, next: nextCustomer } : null,
    order: { version: order?.version ?? null, next: { ...record } },
    newEntries: ledger?.entries ?? plan.newEntries,
    pendingChanges: plan.pendingChanges,
    usedRewards: usedRewards.map(({ id, redeemedAt }) => ({ id, redeemedAt })),
    now,
    events: withMemberFacts(events, nextCustomer ?? member.record, shop.tiers),
  });
}

/**
 * The referral of a member's first counted order: the referral code it carries (note attribute, recorded
 * visit, landing page), else the referral whose friend's code it was paid with (POST /v1/referrals), which
 * counts as referred by that referral's member (wherever a merge moved it) without any landing page or
 * note. Once the referrer's award is made (or there is no award to make), the friend's referral of that
 * referrer completes, found by the code the order was paid with or, for a friend who came through the
 * referral link without the code, by the member's mailbox. Completion is conditional on the referral being
 * `active`, so a redelivery, which runs this again, completes it once.
 */
async function awardFirstOrderReferral(shop: ShopCatalog, member: { id: string; email: string | null }, order: OrderRecord): Promise<void> {
  const shopId = shop.settings.id;
  const { referral_code: carried, discount_codes: codes } = order.facts;
  const byCode = codes.length > 0 ? await friendReferralOfCodes(shopId, codes) : null;
  const referrerId = carried ? await findReferralCodeOwner(shopId, carried) : (byCode?.referrer_id ?? null);
  if (!referrerId) return;
  const outcome = await awardReferrer(shop, member.id, referrerId, order.order_id);
  if (outcome === 'self_referral') return;
  const friend = byCode?.referrer_id === referrerId ? byCode : await friendReferralOfMailbox(shopId, member.email);
  if (!friend || friend.referrer_id !== referrerId) return;
  await completeFriendReferral(shopId, friend, { friendId: member.id, orderId: order.order_id, at: nowIso() });
}

/** The referral made to a member's mailbox, or null (also when the shop never referred a friend: no key, nothing looked up). */
async function friendReferralOfMailbox(shopId: string, email: string | null) {
  // The platform's address is kept as given, but never trusted: one the validator refuses matches no referral.
  if (!email || !isValidEmailAddress(email.trim())) return null;
  const hashKey = await friendEmailHashKey(shopId, false);
  return hashKey ? findFriendReferralByEmail(shopId, mailboxKey(hashKey, email)) : null;
}

/** The first of an order's discount codes that is a referred friend's, with its referral. */
async function friendReferralOfCodes(shopId: string, codes: readonly string[]) {
  for (const code of codes) {
    const referral = await findFriendReferralByCode(shopId, code);
    if (referral) return referral;
  }
  return null;
}

/** The member's balance after the plan (balance, lifetime points, spend, orders), the tier they reach and its event. */
function moveOf(shop: ShopCatalog, record: CustomerRecord, plan: OrderEffectsPlan, now: string): MovedPoints {
  // Spend is kept to the cent, so a float sum of deltas never drifts.
  const scale = shop.settings.loyalty_mode === 'store_credit' ? 1 : 10 ** minorDigits(shop.settings.currency);
  return movePoints(
    record,
    {
      points: plan.pointsDelta,
      lifetime: plan.lifetimeDelta,
      spend: { delta: plan.spendDelta, scale },
      orders: plan.orderCountDelta,
      send_email: true,
      now,
    },
    tierProgramOf(shop),
  );
}

/**
 * `order.counted` when the order counts differently after this change (first paid, refunded, cancelled): what
 * it counted for before and after, on its paid day (the program's figures, docs/admin.md#figures).
 */
function countedEventOf(
  shop: ShopCatalog,
  before: CustomerRecord,
  after: CustomerRecord,
  previous: OrderRecord | null,
  next: OrderRecord,
  now: string,
): OrderCountedEvent | null {
  const countedBefore = previous?.applied.order_count === 1;
  const counted = next.applied.order_count === 1;
  const minorBefore = previous && countedBefore ? countedAmountMinor(previous.facts) : 0;
  const minor = counted ? countedAmountMinor(next.facts) : 0;
  if (countedBefore === counted && minorBefore === minor) return null;
  const currency = next.facts.currency;
  return {
    type: 'order.counted',
    shop_id: shop.settings.id,
    customer_id: before.platform_customer_id,
    occurred_at: now,
    order_id: next.order_id,
    order_number: next.facts.name,
    paid_at: next.facts.processed_at,
    currency,
    counted,
    counted_before: countedBefore,
    eligible_amount: formatMinorUnits(minor, currency),
    eligible_amount_before: formatMinorUnits(minorBefore, currency),
    reward_code_used: next.reward_code_used === true,
    orders_count_before: before.orders_count,
    orders_count: after.orders_count,
  };
}

/** The points and reward events of the plan; the tier's comes with the move. */
function eventsOf(
  shop: ShopCatalog,
  before: CustomerRecord,
  plan: OrderEffectsPlan,
  usedRewards: Array<{ id: string; code: string; redeemedAt: string }>,
  now: string,
): DomainEvent[] {
  const base = { shop_id: shop.settings.id, customer_id: before.platform_customer_id, occurred_at: now };
  const events: DomainEvent[] = [];
  for (const entry of plan.newEntries) {
    const type =
      entry.points < 0 || entry.action === 'refund' ? 'points.removed' : entry.status === 'pending' ? 'points.pending' : 'points.approved';
    events.push({
      type,
      ...base,
      earning_history_entry_id: entry.id,
      action: entry.action,
      points: entry.points,
      order_id: entry.order_id,
      points_due_at: entry.points_due_at,
      points_given_at: entry.points_given_at,
    });
  }
  for (const change of plan.pendingChanges) {
    const type = change.status === 'rejected' ? 'points.removed' : 'points.pending';
    events.push({
      type,
      ...base,
      earning_history_entry_id: change.entry_id,
      status: change.status,
      points: change.points,
      points_before: change.points_before,
    });
  }
  for (const reward of usedRewards) {
    events.push({
      type: 'reward.used',
      ...base,
      reward_history_entry_id: reward.id,
      discount_code: reward.code,
      discount_code_redeemed_at: reward.redeemedAt,
    });
  }
  return events;
}
