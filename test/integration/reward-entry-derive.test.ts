// One derivation for a reward entry's puts and updates, against DynamoDB Local: after each named write of
// the purchase saga (record the pending purchase, activate, refund, leave the unsettled purchases, refund an
// active entry) the stored item is exactly the item a put of the entry as it now is would write, so its
// place in the reconciler's index and in the code-expiry job's due work never depends on which write
// brought it there.
import { readItem } from '../../shared/data/item-reads';
import {
  activateRewardEntry,
  leaveUnsettledPurchases,
  recordPendingPurchase,
  refundActiveRewardEntry,
  refundPendingPurchase,
  rewardEntryItem,
  rewardEntryKey,
} from '../../shared/data/items/reward-entry';
import { commit, commitOne } from '../../shared/data/commit';
import type { PurchaseRecord } from '../../shared/domain/history';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'derive-shop';
const MADE = '2026-06-01T00:00:00.000Z';
const LATER = '2026-06-01T00:05:00.000Z';
let table: Awaited<ReturnType<typeof createTestTable>>;
let nextId = 0;

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

function pending(expiresAt: string | null): PurchaseRecord {
  nextId += 1;
  return {
    id: `p-${nextId}`,
    shop_id: SHOP,
    customer_id: `c-${nextId}`,
    reward_id: 'five-off',
    reward_name: '$5 off',
    reward_discount_type: 'fixed',
    points_spent: 500,
    discount_code: `LOYAL-${nextId}`,
    status: 'pending',
    is_refunded: false,
    discount_code_redeemed_at: null,
    redeemed_at: MADE,
    expires_at: expiresAt,
    created_at: MADE,
    updated_at: MADE,
    platform_discount_id: null,
    discount: { type: 'fixed', value: 5, minimum_spend: 0 },
    counted: false,
  };
}

const stored = (purchase: PurchaseRecord) => readItem(rewardEntryKey(SHOP, purchase.customer_id, purchase.id));
const asPut = (purchase: PurchaseRecord) => rewardEntryItem(SHOP, purchase.customer_id, purchase);

test('a pending purchase waits in the unsettled purchases since it was made, and nothing is due', async () => {
  const purchase = pending('2026-07-01T00:00:00.000Z');
  expect(await commit([recordPendingPurchase(purchase)])).toEqual({ committed: true });
  const item = await stored(purchase);
  expect(item).toEqual(asPut(purchase));
  expect(item).toMatchObject({ unsettled_pk: 'PENDING_PURCHASES', unsettled_since: MADE });
  expect(item).not.toHaveProperty('due_pk');
});

test('activated, it leaves the unsettled purchases and its code waits for its expiry; refunded on request, it leaves the due work', async () => {
  const purchase = pending('2026-07-01T00:00:00.000Z');
  await commit([recordPendingPurchase(purchase)]);
  expect((await commitOne(activateRewardEntry(purchase, 'gid://discount/1', LATER))).committed).toBe(true);
  const active: PurchaseRecord = { ...purchase, status: 'active', platform_discount_id: 'gid://discount/1', updated_at: LATER };
  expect(await stored(purchase)).toEqual(asPut(active));
  expect(await stored(purchase)).toMatchObject({ due_pk: `SHOP#${SHOP}#DUE#code`, due_at: `2026-07-01T00:00:00.000Z#${purchase.id}` });
  expect((await commitOne(activateRewardEntry(purchase, 'gid://discount/2', LATER))).committed).toBe(false);

  const refund = refundActiveRewardEntry(SHOP, purchase.customer_id, active, LATER);
  expect(await commit([refund])).toEqual({ committed: true });
  const refunded = { ...active, is_refunded: true, refund_reason: 'refunded_by_request' };
  expect(await stored(purchase)).toEqual(asPut(refunded));
  expect(await stored(purchase)).not.toHaveProperty('due_pk');
  const again = await commit([refundActiveRewardEntry(SHOP, purchase.customer_id, active, LATER)]);
  expect(again.committed).toBe(false);
  if (!again.committed && again.refusal.kind === 'condition') {
    expect(again.refusal.failed).toEqual([refund.name]);
    expect(again.refusal.current(refund.name)).toEqual(asPut(refunded));
  } else throw new Error('the second refund was not refused by its condition');
});

test('refunded while its code may exist, it stays unsettled since the refund until the code is known gone', async () => {
  const purchase = pending(null);
  await commit([recordPendingPurchase(purchase)]);
  expect(await commit([refundPendingPurchase(purchase, 'platform_unreachable', true, LATER)])).toEqual({ committed: true });
  const refunded: PurchaseRecord = {
    ...purchase,
    status: 'refunded',
    is_refunded: true,
    refund_reason: 'platform_unreachable',
    updated_at: LATER,
    code_cleanup: true,
  };
  expect(await stored(purchase)).toEqual(asPut(refunded));
  expect(await stored(purchase)).toMatchObject({ unsettled_pk: 'PENDING_PURCHASES', unsettled_since: LATER });

  const done = '2026-06-01T00:10:00.000Z';
  expect((await commitOne(leaveUnsettledPurchases(refunded, done))).committed).toBe(true);
  expect(await stored(purchase)).toEqual(asPut({ ...refunded, code_cleanup: false, updated_at: done }));
  expect(await stored(purchase)).not.toHaveProperty('unsettled_pk');
  expect((await commitOne(leaveUnsettledPurchases(refunded, done))).committed).toBe(false);
});

test('refunded with its code known not to exist, it leaves the unsettled purchases at once', async () => {
  const purchase = pending(null);
  await commit([recordPendingPurchase(purchase)]);
  await commit([refundPendingPurchase(purchase, 'platform_error', false, LATER)]);
  const refunded: PurchaseRecord = {
    ...purchase,
    status: 'refunded',
    is_refunded: true,
    refund_reason: 'platform_error',
    updated_at: LATER,
  };
  expect(await stored(purchase)).toEqual(asPut(refunded));
  expect(await stored(purchase)).not.toHaveProperty('unsettled_pk');
});
