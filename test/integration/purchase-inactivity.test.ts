// A purchase's writes keep the profile's inactivity due work as profileDue derives it (the one place the
// inactivity deadline's due work is computed): a purchase that spends the whole balance leaves nothing due
// (before, it put the profile in the inactivity partition with no points), and its refund, giving the points
// back, puts the profile back in.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { customerKey, profileDue } from '../../shared/data/items/customer-profile';
import { refundPurchase, reservePurchase } from '../../shared/data/purchase-repository';
import type { PurchaseRecord } from '../../shared/domain/history';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'inactive-shop';
const NOW = '2025-02-01T00:00:00.000Z';
const DEADLINE = '2025-04-02T00:00:00.000Z';

let table: Awaited<ReturnType<typeof createTestTable>>;
let nextId = 100;

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

async function member(points: number, expireAt: string | null = null): Promise<string> {
  const id = String((nextId += 1));
  await createCustomer(
    customerRecord({
      shop_id: SHOP,
      platform_customer_id: id,
      referral_code: `INACT${id}`,
      current_points: points,
      points_expire_at: expireAt,
    }),
  );
  return id;
}

const purchase = (customerId: string, points: number): PurchaseRecord =>
  ({
    id: `p-${customerId}-${points}`,
    shop_id: SHOP,
    customer_id: customerId,
    reward_id: 'five-off',
    reward_name: '$5 off',
    reward_discount_type: 'fixed_amount',
    points_spent: points,
    discount_code: `CODE${customerId}`,
    status: 'pending',
    is_refunded: false,
    discount_code_redeemed_at: null,
    redeemed_at: NOW,
    expires_at: null,
    created_at: NOW,
    updated_at: NOW,
    platform_discount_id: null,
    discount: { type: 'fixed_amount', value: 5, minimum_spend: null },
    counted: false,
  }) as unknown as PurchaseRecord;

/** The profile as stored, and its due work as profileDue derives it from the record. */
async function stored(customerId: string) {
  const item = (
    await documentClient().send(new GetCommand({ TableName: tableName(), Key: customerKey(SHOP, customerId), ConsistentRead: true }))
  ).Item!;
  const { record } = (await getCustomer(SHOP, customerId, true))!;
  return { record, due: item.due_pk === undefined ? null : { due_pk: item.due_pk, due_at: item.due_at }, derived: profileDue(record) };
}

describe('inactivity due work through a purchase', () => {
  it('a purchase that leaves points starts a new period, waiting for its reminder', async () => {
    const id = await member(800);
    expect(await reservePurchase(purchase(id, 500), null, DEADLINE)).toBe('reserved');
    const { record, due, derived } = await stored(id);
    expect(record).toMatchObject({ current_points: 300, points_expire_at: DEADLINE, points_last_activity_at: NOW });
    expect(due).toEqual({ due_pk: `SHOP#${SHOP}#DUE#inactivity-remind`, due_at: `${DEADLINE}#${id}` });
    expect(due).toEqual(derived);
  });

  it('a purchase that spends the whole balance leaves nothing due (it used to wait in inactivity-remind with no points)', async () => {
    const id = await member(500, '2025-03-01T00:00:00.000Z');
    expect((await stored(id)).due).not.toBeNull();
    expect(await reservePurchase(purchase(id, 500), null, DEADLINE)).toBe('reserved');
    const { record, due, derived } = await stored(id);
    expect(record).toMatchObject({ current_points: 0, redeemed_points: 500, points_expire_at: DEADLINE, points_last_activity_at: NOW });
    expect(due).toBeNull();
    expect(derived).toBeNull();
  });

  it('the refund of that purchase puts the member back in the due work with its points', async () => {
    const id = await member(500);
    const bought = purchase(id, 500);
    expect(await reservePurchase(bought, null, DEADLINE)).toBe('reserved');
    expect((await stored(id)).due).toBeNull();
    expect(await refundPurchase(bought, 'code not created', false, NOW)).toBe(true);
    const { record, due, derived } = await stored(id);
    expect(record.current_points).toBe(500);
    expect(due).toEqual({ due_pk: `SHOP#${SHOP}#DUE#inactivity-remind`, due_at: `${DEADLINE}#${id}` });
    expect(due).toEqual(derived);
  });

  it('a refund leaves the due work of a member already in it, and of a balance without a deadline, as it is', async () => {
    const id = await member(800);
    const bought = purchase(id, 500);
    expect(await reservePurchase(bought, null, DEADLINE)).toBe('reserved');
    const before = await stored(id);
    expect(await refundPurchase(bought, 'code not created', false, NOW)).toBe(true);
    expect((await stored(id)).due).toEqual(before.due);

    const plain = await member(500);
    const spent = purchase(plain, 500);
    expect(await reservePurchase(spent, null, null)).toBe('reserved');
    expect(await refundPurchase(spent, 'code not created', false, NOW)).toBe(true);
    const after = await stored(plain);
    expect(after.record.current_points).toBe(500);
    expect(after.due).toBeNull();
    expect(after.derived).toBeNull();
  });

  it('still refuses a purchase the balance does not cover', async () => {
    const id = await member(400);
    expect(await reservePurchase(purchase(id, 500), null, DEADLINE)).toBe('refused_by_customer');
    expect((await stored(id)).record.current_points).toBe(400);
  });
});
