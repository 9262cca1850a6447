// The order-state merge and the effects planner, without a database: refunds in any order, duplicates,
// cancellation, older snapshots, pending and approved points, take-backs never below zero.
import {
  type AppliedEffects,
  eligibleMinor,
  type FrozenContext,
  mergeOrderSnapshot,
  mergeRefund,
  NOTHING_APPLIED,
  type OrderFacts,
  type OrderSnapshot,
  orderTarget,
  paymentState,
  planOrderEffects,
  referralCodeOf,
} from '../../shared/orders/order-state';
import type { EarningSettings, VipTier } from '../../shared/domain/shop';

const PAID = '2026-03-01T10:00:00.000Z';
const NOW = '2026-03-02T00:00:00.000Z';
const snapshot = (fields: Partial<OrderSnapshot> = {}): OrderSnapshot => ({
  order_id: '5001',
  name: '#1001',
  processed_at: PAID,
  updated_at: PAID,
  currency: 'USD',
  subtotal_minor: 12000,
  refunded_minor: 0,
  refunds: {},
  cancelled_at: null,
  discount_codes: [],
  referral_code: null,
  taxes_included: false,
  awaiting_payment: false,
  test: false,
  source_name: 'web',
  ...fields,
});
const gold: VipTier = {
  id: 'gold',
  name: 'Gold',
  description: '',
  threshold_points: 0,
  threshold_spend: null,
  threshold_orders: null,
  points_multiplier: 1.5,
  position: 1,
  badge_image_url: null,
  badge_color: '#000',
  reward_ids: [],
  created_at: PAID,
};
const frozen = (fields: Partial<FrozenContext> = {}): FrozenContext => ({
  tier: null,
  campaign: null,
  vip_settings: { entry_method: 'points', entry_methods_extra: [], entry_logic: 'OR', points_multiplier_mode: 'purchase' },
  rules: [{ id: 'per-dollar', category: 'purchase', points_to_give: 1, spend_unit: 1 }],
  ...fields,
});
const approveAtOnce: EarningSettings = { pending_days: 0, points_expiry: null, expiry_reminder_days: 30 };
const returnWindow: EarningSettings = { ...approveAtOnce, pending_days: 14 };

function plan(facts: OrderFacts, applied: AppliedEffects, settings = approveAtOnce, currentPoints = 1000, context = frozen()) {
  return planOrderEffects({
    shopId: 's',
    facts,
    target: orderTarget(facts, context, 'points', 2),
    applied,
    currentPoints,
    earningSettings: settings,
    now: NOW,
  });
}

describe('order state merge', () => {
  it('counts a refund once however often it is delivered', () => {
    const facts = mergeOrderSnapshot(null, snapshot());
    const refund = { refund_id: 'r1', minor: 4000, created_at: '2026-03-01T11:00:00.000Z' };

    const once = mergeRefund(facts, refund);
    const twice = mergeRefund(once, refund);

    expect(eligibleMinor(once)).toBe(8000);
    expect(twice).toEqual(once);
  });

  it('gives the same eligible amount whichever order refunds and the refunded snapshot arrive in', () => {
    const r1 = { refund_id: 'r1', minor: 2000, created_at: '2026-03-01T11:00:00.000Z' };
    const r2 = { refund_id: 'r2', minor: 3000, created_at: '2026-03-01T12:00:00.000Z' };
    const afterBoth = snapshot({ updated_at: '2026-03-01T12:00:00.000Z', refunded_minor: 5000, refunds: { r1: 2000, r2: 3000 } });
    const afterFirst = snapshot({ updated_at: '2026-03-01T11:00:00.000Z', refunded_minor: 2000, refunds: { r1: 2000 } });

    const a = mergeRefund(mergeRefund(mergeOrderSnapshot(null, snapshot()), r1), r2);
    const b = mergeOrderSnapshot(mergeRefund(mergeOrderSnapshot(null, afterBoth), r2), snapshot());
    const c = mergeRefund(mergeOrderSnapshot(null, afterFirst), r2);
    const d = mergeOrderSnapshot(
      mergeOrderSnapshot(mergeRefund(mergeRefund(mergeOrderSnapshot(null, snapshot()), r2), r1), afterBoth),
      afterFirst,
    );

    expect([eligibleMinor(a), eligibleMinor(b), eligibleMinor(c), eligibleMinor(d)]).toEqual([7000, 7000, 7000, 7000]);
  });

  // Shopify's documented order (450789469) was last updated in 2008 and lists a refund created in 2024: by
  // timestamps the refund looked newer than the snapshot that already held it, and counted twice.
  it('knows a refund by its id whatever the timestamps say: an order older than its refund, delivered before or after it', () => {
    const refund = { refund_id: 'r1', minor: 4000, created_at: '2026-03-05T00:00:00.000Z' };
    const listing = snapshot({ updated_at: PAID, refunded_minor: 4000, refunds: { r1: 4000 } });

    const orderFirst = mergeRefund(mergeOrderSnapshot(null, listing), refund);
    const refundFirst = mergeOrderSnapshot(mergeRefund(mergeOrderSnapshot(null, snapshot()), refund), listing);
    const twiceEach = mergeOrderSnapshot(mergeRefund(mergeRefund(orderFirst, refund), refund), listing);

    expect([eligibleMinor(orderFirst), eligibleMinor(refundFirst), eligibleMinor(twiceEach)]).toEqual([8000, 8000, 8000]);
    expect(twiceEach).toEqual(orderFirst);
  });

  it('keeps what a refund was first applied as when the same refund is reported again', () => {
    const facts = mergeRefund(mergeOrderSnapshot(null, snapshot()), { refund_id: 'r1', minor: 4000, created_at: NOW });

    const merged = mergeOrderSnapshot(facts, snapshot({ updated_at: NOW, refunded_minor: 3000, refunds: { r1: 3000 } }));

    expect(merged.refunds).toEqual(facts.refunds);
    expect(eligibleMinor(merged)).toBe(8000);
  });

  it('takes a refund an older snapshot lists too, and never more than the eligible amount', () => {
    const newer = mergeOrderSnapshot(null, snapshot({ updated_at: NOW }));

    const merged = mergeOrderSnapshot(newer, snapshot({ refunded_minor: 9000, refunds: { r1: 9000 } }));
    const overRefunded = mergeRefund(merged, { refund_id: 'r2', minor: 5000, created_at: NOW });

    expect(eligibleMinor(merged)).toBe(3000);
    expect(eligibleMinor(overRefunded)).toBe(0);
  });

  it('counts the refunded amount of a snapshot without a refunds list once, beside refunds known by id', () => {
    const listless = snapshot({ updated_at: NOW, refunded_minor: 5000, refunds: null });
    const refund = { refund_id: 'r1', minor: 5000, created_at: '2026-03-01T11:00:00.000Z' };

    expect(eligibleMinor(mergeRefund(mergeOrderSnapshot(null, listless), refund))).toBe(7000);
    expect(eligibleMinor(mergeOrderSnapshot(null, listless))).toBe(7000);
  });

  it('never lets an older snapshot overwrite a newer one, and never undoes a cancellation', () => {
    const newer = mergeOrderSnapshot(
      null,
      snapshot({ updated_at: '2026-03-01T12:00:00.000Z', refunded_minor: 5000, cancelled_at: '2026-03-01T12:00:00.000Z' }),
    );

    const merged = mergeOrderSnapshot(newer, snapshot());

    expect(merged).toEqual(newer);
    expect(eligibleMinor(merged)).toBe(0);
  });

  it('applies a snapshot with the same updated_at again without changing anything', () => {
    const facts = mergeOrderSnapshot(null, snapshot());
    expect(mergeOrderSnapshot(facts, snapshot())).toEqual(facts);
  });
});

describe('order effects', () => {
  it('awards approved points per whole spend unit when there is no return window', () => {
    const result = plan(mergeOrderSnapshot(null, snapshot({ subtotal_minor: 12099 })), NOTHING_APPLIED);

    expect(result.newEntries).toEqual([
      expect.objectContaining({
        action: 'purchase',
        status: 'approved',
        points: 120,
        base_points: 120,
        points_given_at: NOW,
        order_id: '5001',
        order_number: '#1001',
      }),
    ]);
    expect(result).toMatchObject({ pointsDelta: 120, lifetimeDelta: 120, spendDelta: 120.99, orderCountDelta: 1, empty: false });
  });

  it('awards points per order when the rule has no spend unit, multiplied by the frozen tier', () => {
    const context = frozen({ tier: gold, rules: [{ id: 'per-order', category: 'purchase', points_to_give: 5, spend_unit: null }] });

    const result = plan(mergeOrderSnapshot(null, snapshot()), NOTHING_APPLIED, approveAtOnce, 0, context);

    expect(result.newEntries[0]).toMatchObject({ points: 8, base_points: 5, points_multiplier: 1.5 });
  });

  it("keeps the order's channel (source_name) on its entries, from its first snapshot; an older item without one takes the next", () => {
    const atCounter = mergeOrderSnapshot(null, snapshot({ source_name: 'pos' }));
    const later = mergeOrderSnapshot(atCounter, snapshot({ source_name: 'web', updated_at: NOW, refunded_minor: 5000 }));
    const { source_name: _dropped, ...olderItem } = mergeOrderSnapshot(null, snapshot());

    expect(plan(atCounter, NOTHING_APPLIED).newEntries[0]).toMatchObject({ order_source_name: 'pos', points: 120 });
    expect(later.source_name).toBe('pos');
    expect(mergeOrderSnapshot(olderItem, snapshot({ source_name: 'pos', updated_at: NOW })).source_name).toBe('pos');
    expect(plan(olderItem, NOTHING_APPLIED).newEntries[0]).toMatchObject({ order_source_name: null });
  });

  it('writes nothing when the same state is planned again', () => {
    const facts = mergeOrderSnapshot(null, snapshot());
    const first = plan(facts, NOTHING_APPLIED);

    const again = plan(facts, first.applied, approveAtOnce, 1000 + first.pointsDelta);

    expect(again).toMatchObject({ empty: true, newEntries: [], pendingChanges: [], pointsDelta: 0, spendDelta: 0, orderCountDelta: 0 });
  });

  it('keeps order points pending until the due date of the return window', () => {
    const result = plan(mergeOrderSnapshot(null, snapshot()), NOTHING_APPLIED, returnWindow);

    expect(result.newEntries[0]).toMatchObject({
      status: 'pending',
      points: 120,
      points_due_at: '2026-03-15T10:00:00.000Z',
      points_given_at: null,
    });
    expect(result.pointsDelta).toBe(0);
    expect(result.spendDelta).toBe(120);
  });

  it('shrinks a pending entry on a partial refund and rejects it on a full one', () => {
    const facts = mergeOrderSnapshot(null, snapshot());
    const paid = plan(facts, NOTHING_APPLIED, returnWindow);
    const entryId = paid.newEntries[0]!.id;

    const partly = plan(mergeRefund(facts, { refund_id: 'r1', minor: 4000, created_at: NOW }), paid.applied, returnWindow);
    const fully = plan(mergeRefund(facts, { refund_id: 'r1', minor: 12000, created_at: NOW }), paid.applied, returnWindow);

    expect(partly.pendingChanges).toEqual([{ entry_id: entryId, status: 'pending', points: 80, base_points: 80, points_before: 120 }]);
    expect(partly).toMatchObject({ newEntries: [], pointsDelta: 0, spendDelta: -40 });
    expect(fully.pendingChanges).toEqual([{ entry_id: entryId, status: 'rejected', points: 120, base_points: 120, points_before: 120 }]);
  });

  it('takes approved points back with a refund entry, never below a zero balance', () => {
    const facts = mergeOrderSnapshot(null, snapshot());
    const paid = plan(facts, NOTHING_APPLIED, approveAtOnce, 0);
    const cancelled = mergeOrderSnapshot(facts, snapshot({ updated_at: NOW, cancelled_at: NOW }));

    const result = plan(cancelled, paid.applied, approveAtOnce, 30);

    expect(result.newEntries).toEqual([
      expect.objectContaining({ action: 'refund', status: 'approved', points: -30, requested_points: -120, base_points: -120 }),
    ]);
    expect(result).toMatchObject({ pointsDelta: -30, lifetimeDelta: 0, spendDelta: -120, orderCountDelta: -1 });
    expect(plan(cancelled, result.applied, approveAtOnce, 0).empty).toBe(true);
  });

  it('credits a pending entry the approval job approved, then takes it back on refund', () => {
    const facts = mergeOrderSnapshot(null, snapshot());
    const paid = plan(facts, NOTHING_APPLIED, returnWindow);
    const entryId = paid.newEntries[0]!.id;
    const refunded = mergeRefund(facts, { refund_id: 'r1', minor: 2000, created_at: NOW });

    const result = planOrderEffects({
      shopId: 's',
      facts: refunded,
      target: orderTarget(refunded, frozen(), 'points', 2),
      applied: paid.applied,
      currentPoints: 500,
      earningSettings: returnWindow,
      now: NOW,
      approvedSince: new Set([entryId]),
    });

    expect(result.pendingChanges).toEqual([]);
    expect(result.newEntries).toEqual([expect.objectContaining({ action: 'refund', points: -20 })]);
  });

  it('gives every effect of an order its own deterministic entry id', () => {
    const facts = mergeOrderSnapshot(null, snapshot());
    const first = plan(facts, NOTHING_APPLIED);
    const same = plan(facts, NOTHING_APPLIED);
    const takeBack = plan(mergeRefund(facts, { refund_id: 'r1', minor: 100, created_at: NOW }), first.applied);

    expect(same.newEntries[0]!.id).toBe(first.newEntries[0]!.id);
    expect(takeBack.newEntries[0]!.id).not.toBe(first.newEntries[0]!.id);
  });

  it('counts spend in minor units in store-credit shops', () => {
    const facts = mergeOrderSnapshot(null, snapshot());
    expect(orderTarget(facts, frozen(), 'store_credit', 2).spend).toBe(12000);
  });
});

describe('paid money only (SHOPIFY-CONTRACT.md, "What an order earns")', () => {
  const LATER = '2026-03-03T10:00:00.000Z';

  it('reads financial statuses as paid, awaiting payment or void; no status is a paid order', () => {
    expect(['paid', 'partially_refunded', 'refunded', null].map(paymentState)).toEqual(['paid', 'paid', 'paid', 'paid']);
    expect(['pending', 'authorized', 'partially_paid', 'some_new_status'].map(paymentState)).toEqual([
      'awaiting',
      'awaiting',
      'awaiting',
      'awaiting',
    ]);
    expect(['voided', 'expired'].map(paymentState)).toEqual(['void', 'void']);
  });

  it('records an order awaiting payment without effects, and counts it once a newer state is paid', () => {
    const waiting = mergeOrderSnapshot(null, snapshot({ awaiting_payment: true }));
    expect(orderTarget(waiting, frozen(), 'points', 2)).toEqual({
      rules: [{ rule_id: 'per-dollar', base_points: 0, points: 0, multiplier: 1 }],
      spend: 0,
      order_count: 0,
    });

    const paid = mergeOrderSnapshot(waiting, snapshot({ updated_at: LATER }));
    expect(orderTarget(paid, frozen(), 'points', 2)).toMatchObject({ spend: 120, order_count: 1 });
    // An older "pending" state arriving late does not undo the payment.
    expect(mergeOrderSnapshot(paid, snapshot({ awaiting_payment: true })).awaiting_payment).toBe(false);
  });

  it('counts a test order only where the shop counts test orders', () => {
    const facts = mergeOrderSnapshot(null, snapshot({ test: true }));

    expect(orderTarget(facts, frozen(), 'points', 2).order_count).toBe(0);
    expect(eligibleMinor(facts)).toBe(0);
    expect(orderTarget(facts, frozen(), 'points', 2, true)).toMatchObject({ spend: 120, order_count: 1 });
  });
});

describe('referral code of an order', () => {
  const note = [{ name: 'referral_code', value: ' NOTE1 ' }];

  it('prefers the note attribute, then the code Shopify recorded, then the landing page', () => {
    expect(referralCodeOf('/?ref=LAND1', note, 'SHOP1')).toBe('NOTE1');
    expect(referralCodeOf('/?ref=LAND1', [], 'SHOP1')).toBe('SHOP1');
    expect(referralCodeOf('/?ref=LAND1', [], null)).toBe('LAND1');
    expect(referralCodeOf(null, [], '  ')).toBeNull();
  });

  it('ignores a ref that runs to the end of a landing page Shopify cut at 255 characters, and keeps one before the cut', () => {
    const padding = 'x'.repeat(300);
    const cutAtRef = `/products/a?utm=${padding}`.slice(0, 245) + '&ref=ABCDE';
    expect(cutAtRef).toHaveLength(255);
    expect(referralCodeOf(cutAtRef, [], null)).toBeNull();
    expect(referralCodeOf(cutAtRef, [], 'ABCDEFGH')).toBe('ABCDEFGH');

    const refFirst = `/?ref=ABCDEFGH&utm=${padding}`.slice(0, 255);
    expect(referralCodeOf(refFirst, [], null)).toBe('ABCDEFGH');
    // Shorter than the cut: a ref at the end is whole.
    expect(referralCodeOf('/?utm=a&ref=ABCDEFGH', [], null)).toBe('ABCDEFGH');
  });
});
