// The two writes that decide a reward code's end, against DynamoDB Local: a redemption's refund and the order
// that uses its code are written under the same condition on the entry (active, never refunded), so whichever
// commits second is refused, whatever each read before; and the refund is refused as a whole when the profile
// changed since it was read.
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { readItem } from '../../shared/data/item-reads';
import { earningEntryKey } from '../../shared/data/items/earning-entry';
import { rewardEntryItem, rewardEntryKey } from '../../shared/data/items/reward-entry';
import { writeOrderEffects } from '../../shared/data/order-repository';
import { writeRedemptionRefund } from '../../shared/data/purchase-repository';
import { batchPut } from '../../shared/data/shop-repository';
import { approvedEntry, type PurchaseRecord, type RewardEntry } from '../../shared/domain/history';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'refund-race';
const NOW = '2026-06-01T00:00:00.000Z';
let table: Awaited<ReturnType<typeof createTestTable>>;
let nextId = 100;

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

/** A member with 1000 points after spending 500 on an active reward. */
async function memberWithReward(): Promise<{ id: string; purchase: PurchaseRecord }> {
  const id = String((nextId += 1));
  await createCustomer(
    customerRecord({ shop_id: SHOP, platform_customer_id: id, referral_code: `RACE${id}`, current_points: 1000, redeemed_points: 500 }),
  );
  const purchase: PurchaseRecord = {
    id: `r-${id}`,
    shop_id: SHOP,
    customer_id: id,
    reward_id: 'five-off',
    reward_name: '$5 off',
    reward_discount_type: 'fixed',
    points_spent: 500,
    discount_code: `LOYAL-${id}`,
    status: 'active',
    is_refunded: false,
    discount_code_redeemed_at: null,
    redeemed_at: NOW,
    expires_at: null,
    created_at: NOW,
    updated_at: NOW,
    platform_discount_id: null,
    discount: { type: 'fixed', value: 5, minimum_spend: 0 },
    counted: false,
  };
  await batchPut([rewardEntryItem(SHOP, id, purchase as RewardEntry)]);
  return { id, purchase };
}

const refundWrite = async (id: string, purchase: PurchaseRecord) => {
  const customer = (await getCustomer(SHOP, id, true))!;
  const next = { ...customer.record, current_points: customer.record.current_points + 500, redeemed_points: 0 };
  const entry = approvedEntry(
    { id: `refund-${purchase.id}`, earning_rule_id: null, action: 'reward_refund', points: 500, base_points: 500, points_multiplier: 1 },
    NOW,
  );
  return { write: () => writeRedemptionRefund({ customer, next, purchase, entry, now: NOW }) };
};

const orderUsing = (id: string, purchase: PurchaseRecord) =>
  writeOrderEffects({
    shopId: SHOP,
    customerId: id,
    orderId: `o-${id}`,
    customer: null,
    order: { version: null, next: { order_id: `o-${id}` } },
    newEntries: [],
    pendingChanges: [],
    usedRewards: [{ id: purchase.id, redeemedAt: NOW }],
    now: NOW,
  });

const entryOf = async (id: string, purchase: PurchaseRecord) => readItem(rewardEntryKey(SHOP, id, purchase.id));

describe('a redemption refund against the order that uses its code', () => {
  it('the refund first: the order, which read the entry active before, is refused and marks nothing used', async () => {
    const { id, purchase } = await memberWithReward();
    const refund = await refundWrite(id, purchase);

    expect(await refund.write()).toEqual({ outcome: 'refunded' });
    expect(await orderUsing(id, purchase)).toBe(false);

    expect(await entryOf(id, purchase)).toMatchObject({ status: 'active', is_refunded: true });
    expect((await getCustomer(SHOP, id, true))!.record).toMatchObject({ current_points: 1500, redeemed_points: 0 });
  });

  it('the order first: the refund, which read the entry active before, is refused with the entry as it is now', async () => {
    const { id, purchase } = await memberWithReward();
    const refund = await refundWrite(id, purchase);

    expect(await orderUsing(id, purchase)).toBe(true);
    const outcome = await refund.write();

    expect(outcome).toMatchObject({ outcome: 'entry_changed', current: { status: 'used', is_refunded: false } });
    expect(await entryOf(id, purchase)).toMatchObject({ status: 'used', is_refunded: false });
    expect((await getCustomer(SHOP, id, true))!.record).toMatchObject({ current_points: 1000, redeemed_points: 500 });
    expect(await readItem(earningEntryKey(SHOP, id, `refund-${purchase.id}`))).toBeNull();
  });

  it('a profile changed since it was read: a conflict, nothing written', async () => {
    const { id, purchase } = await memberWithReward();
    const other: PurchaseRecord = { ...purchase, id: `r2-${id}` };
    await batchPut([rewardEntryItem(SHOP, id, other as RewardEntry)]);
    const stale = await refundWrite(id, purchase);
    expect(await (await refundWrite(id, other)).write()).toEqual({ outcome: 'refunded' });

    expect(await stale.write()).toEqual({ outcome: 'conflict' });
    expect(await entryOf(id, purchase)).toMatchObject({ status: 'active', is_refunded: false });
    expect((await getCustomer(SHOP, id, true))!.record).toMatchObject({ current_points: 1500, redeemed_points: 0 });
  });
});
