// customers/merge against DynamoDB Local: two members become one and a member moves to a non-member, each
// delivered twice, at once, and stopped half-way; orders, refunds and pending points follow the member;
// batch expiry and reminders after a merge take the right points in the order they were given.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pointsApprovalJob } from '../../shared/calendar/points-approval';
import { runDueJob } from '../../shared/calendar/due-job';
import { pointsExpiryJob } from '../../shared/calendar/points-expiry';
import { expiryRemindersJob } from '../../shared/calendar/expiry-reminders';
import { mergeMembers, type MergeHooks } from '../../shared/customers/merge-customers';
import { createCustomer, findCustomerByEmail, getCustomer } from '../../shared/data/customer-repository';
import { listEarningEntries, listRewardEntries } from '../../shared/data/history-repository';
import { earningEntryItem } from '../../shared/data/items/earning-entry';
import { rewardEntryItem } from '../../shared/data/items/reward-entry';
import { keys } from '../../shared/data/keys';
import { findOrderCustomer, findReferralCodeOwner } from '../../shared/data/order-repository';
import { batchPut, putShopCatalog, readShopCounters } from '../../shared/data/shop-repository';
import type { CustomerRecord } from '../../shared/domain/customer';
import { approvedEntry, type RewardEntry } from '../../shared/domain/history';
import type { EarningRule, EarningSettings, ShopCatalog } from '../../shared/domain/shop';
import { applyOrder, applyRefund } from '../../shared/orders/apply-order';
import { type Platform, type PlatformCustomer, type PlatformOrder, PlatformUnavailableError } from '../../shared/platform/port';
import { adjustPoints } from '../../shared/points/adjust-points';
import { setClock } from '../../shared/runtime/clock';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { customerItems } from '../support/orders';
import { committedEvents } from '../support/committed-events';
import { createTestTable, scanAll } from '../support/test-table';

jest.setTimeout(120_000);

let table: Awaited<ReturnType<typeof createTestTable>>;
let eventsFile: string;

beforeAll(async () => {
  eventsFile = join(mkdtempSync(join(tmpdir(), 'events-')), 'events.jsonl');
  table = await createTestTable({ environment: { EVENTS_LOG_FILE: eventsFile } });
});
afterEach(() => setClock(null));
afterAll(async () => {
  await table.drop();
});

const rule = (overrides: Partial<EarningRule>): EarningRule => ({
  id: 'per-dollar',
  name: 'Place an order',
  description: null,
  action: 'purchase',
  category: 'purchase',
  is_active: true,
  points_to_give: 1,
  customer_facing_label: '',
  call_to_action_url: null,
  created_at: '2025-01-01T00:00:00.000Z',
  spend_unit: 1,
  ...overrides,
});

/** A points shop earning 1 point per dollar, with a silver tier at 250 lifetime points. */
async function shopWith(id: string, earning: Partial<EarningSettings> = {}, rules: EarningRule[] = [rule({})]): Promise<ShopCatalog> {
  const shop = shopCatalog(id, {
    settings: { earning_settings: { pending_days: 0, points_expiry: null, expiry_reminder_days: 7, ...earning } },
    earningRules: rules,
    tiers: [vipTier('silver', { threshold_points: 250 })],
  });
  await putShopCatalog(shop);
  return shop;
}

const enrol = (shop: ShopCatalog, id: string, overrides: Partial<CustomerRecord> = {}) =>
  createCustomer(
    customerRecord({ shop_id: shop.settings.id, platform_customer_id: id, referral_code: `R${shop.settings.id}-${id}`, ...overrides }),
  );

const paidOrder = (id: string, customerId: string, subtotal: string, at: string): PlatformOrder => ({
  id,
  name: `#${id}`,
  customerId,
  eligibleSubtotal: subtotal,
  refundedEligible: '0.00',
  refunds: [],
  taxesIncluded: false,
  currency: 'USD',
  processedAt: at,
  updatedAt: at,
  cancelledAt: null,
  discountCodes: [],
  landingSite: null,
  referralCode: null,
  noteAttributes: [],
  financialStatus: 'paid',
  test: false,
});

/** Places a paid order at `at` (the clock's time too). */
async function order(shop: ShopCatalog, id: string, customerId: string, subtotal: string, at: string) {
  setClock(new Date(at));
  return applyOrder(shop, paidOrder(id, customerId, subtotal, at));
}

async function adjust(shop: ShopCatalog, customerId: string, adjustment: number, at: string) {
  setClock(new Date(at));
  await adjustPoints(shop, customerId, { adjustment, note: null, update_lifetime_points: true, send_email: false });
}

/** A platform that knows `customers` and nothing else. */
function platformWith(...customers: PlatformCustomer[]): Platform {
  const unused = () => Promise.reject(new Error('not used by merges'));
  return {
    getCustomer: async (id) => customers.find((customer) => customer.id === id) ?? null,
    createDiscountCode: unused,
    findDiscountCode: unused,
    deleteDiscountCode: unused,
    listOrdersUpdatedSince: unused,
    creditStoreCredit: unused,
    debitStoreCredit: unused,
    listStoreCreditTransactions: unused,
  };
}
const noPlatform = platformWith();

const profile = async (shop: ShopCatalog, id: string) => (await getCustomer(shop.settings.id, id, true))?.record ?? null;
const figures = (record: CustomerRecord | null) =>
  record && {
    current_points: record.current_points,
    lifetime_points: record.lifetime_points,
    redeemed_points: record.redeemed_points,
    total_spend: record.total_spend,
    orders_count: record.orders_count,
  };

/** The events committed with their change (the table): nothing is published after a commit any more. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- events are loose JSON
const events = async (shop: ShopCatalog, type?: string): Promise<any[]> => committedEvents(shop.settings.id, type);

/** The events the points calendar's jobs committed with their changes (the bus promises no order: sorted). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- events are loose JSON
const committed = async (shop: ShopCatalog, type: string): Promise<any[]> =>
  (await committedEvents(shop.settings.id))
    .filter((event) => event.type === type)
    .sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
const sorted = (rows: unknown[][]) => [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));

const earningHistory = async (shop: ShopCatalog, id: string) =>
  (await listEarningEntries(shop.settings.id, id, { sort: 'created_at', descending: false, offset: 0, limit: 500 })).entries;

const reward = (id: string): RewardEntry => ({
  id,
  reward_id: 'five-off',
  reward_name: '$5 off',
  reward_discount_type: 'fixed',
  points_spent: 100,
  discount_code: `LOYAL-${id}`,
  status: 'active',
  is_refunded: false,
  discount_code_redeemed_at: null,
  redeemed_at: '2027-01-03T00:00:00.000Z',
  expires_at: null,
  created_at: '2027-01-03T00:00:00.000Z',
  updated_at: '2027-01-03T00:00:00.000Z',
});

/** Kept member 1 (120 points from one order, 2 redemptions) and member 2 (150 points from two orders, a reward, a birthday). */
async function twoMembers(shopId: string) {
  const shop = await shopWith(shopId);
  await enrol(shop, '1', { created_at: '2026-06-01T00:00:00.000Z', anniversary_date: '2020-05-05' });
  await enrol(shop, '2', { created_at: '2026-01-01T00:00:00.000Z', date_of_birth: '1990-06-15', birthday_awarded_year: 2026 });
  await order(shop, '5001', '1', '120.00', '2027-01-02T00:00:00.000Z');
  await order(shop, '5002', '2', '100.00', '2027-01-03T00:00:00.000Z');
  await order(shop, '5003', '2', '50.00', '2027-01-04T00:00:00.000Z');
  await batchPut([
    rewardEntryItem(shopId, '2', reward('r-2')),
    { ...keys.redemptionCount(shopId, '2', 'five-off'), redemptions: 1 },
    { ...keys.redemptionCount(shopId, '1', 'five-off'), redemptions: 2 },
  ]);
  setClock(new Date('2027-01-10T00:00:00.000Z'));
  return shop;
}

describe('a merge of two members', () => {
  it('adds their figures once, even when delivered twice, and the kept member keeps its identity', async () => {
    const shop = await twoMembers('two');
    const deleted = (await profile(shop, '2'))!;

    expect(await mergeMembers(shop, '1', '2', noPlatform)).toBe('merged');
    const merged = await getCustomer('two', '1', true);
    expect(await mergeMembers(shop, '1', '2', noPlatform)).toBe('already_merged');

    expect(await getCustomer('two', '1', true)).toEqual(merged);
    expect(figures(merged!.record)).toEqual({
      current_points: 270,
      lifetime_points: 270,
      redeemed_points: 0,
      total_spend: 270,
      orders_count: 3,
    });
    expect(merged!.record).toMatchObject({
      email: 'customer1@example.com',
      last_name: 'Customer 1',
      referral_code: 'Rtwo-1',
      status: 'member',
      vip_tier_id: 'silver',
      // The earlier enrolment, the birthday the kept member lacked (with its award year), its own anniversary.
      created_at: '2026-01-01T00:00:00.000Z',
      date_of_birth: '1990-06-15',
      birthday_awarded_year: 2026,
      anniversary_date: '2020-05-05',
    });
    expect((await customerItems('two', '1')).some((item) => item.sk === 'TIMER#birthday')).toBe(true);

    // The deleted id answers as no member at all, by id, e-mail and referral code; the shop counts one member fewer.
    expect(await getCustomer('two', '2', true)).toBeNull();
    expect(await findCustomerByEmail('two', deleted.email)).toBeNull();
    expect(await findReferralCodeOwner('two', deleted.referral_code)).toBeNull();
    expect(await findReferralCodeOwner('two', 'Rtwo-1')).toBe('1');
    expect((await findCustomerByEmail('two', 'customer1@example.com'))?.record.platform_customer_id).toBe('1');
    expect(await readShopCounters('two')).toEqual({ member: 1, excluded: 0 });

    const customerMerged = await events(shop, 'customer.merged');
    expect(customerMerged).toEqual([
      expect.objectContaining({
        customer_id: '1',
        deleted_customer_id: '2',
        merge: 'merged',
        points: 150,
        lifetime_points: 150,
        orders_count: 2,
      }),
    ]);
    expect(await events(shop, 'tier.changed')).toEqual([
      expect.objectContaining({ customer_id: '1', from_tier_id: null, to_tier_id: 'silver' }),
    ]);
  });

  it("shows the deleted member's histories, orders and redemptions under the kept member; only the merge record stays behind", async () => {
    const shop = await twoMembers('histories');
    await mergeMembers(shop, '1', '2', noPlatform);

    expect((await earningHistory(shop, '1')).map((entry) => entry.order_id)).toEqual(['5001', '5002', '5003']);
    const rewards = await listRewardEntries('histories', '1', { sort: 'created_at', descending: false, offset: 0, limit: 10 });
    expect(rewards.entries.map((entry) => entry.id)).toEqual(['r-2']);
    expect(await findOrderCustomer('histories', '5002')).toBe('1');
    expect(await findOrderCustomer('histories', '5003')).toBe('1');
    const kept = await customerItems('histories', '1');
    expect(kept.find((item) => item.sk === 'REDEEMCOUNT#five-off')?.redemptions).toBe(3);
    expect(kept.filter((item) => String(item.sk).startsWith('ORDER#')).map((item) => item.customer_id)).toEqual(['1', '1', '1']);
    expect((await customerItems('histories', '2')).map((item) => item.sk)).toEqual(['MERGED']);
  });

  it('adds the figures once when the same merge is delivered three times at once', async () => {
    const shop = await twoMembers('at-once');

    const outcomes = await Promise.all([1, 2, 3].map(() => mergeMembers(shop, '1', '2', noPlatform)));

    expect(outcomes.sort()).toEqual(['already_merged', 'already_merged', 'merged']);
    expect(figures(await profile(shop, '1'))).toMatchObject({ current_points: 270, orders_count: 3 });
    expect((await earningHistory(shop, '1')).map((entry) => entry.order_id)).toEqual(['5001', '5002', '5003']);
    expect(await readShopCounters('at-once')).toEqual({ member: 1, excluded: 0 });
    expect(await events(shop, 'customer.merged')).toHaveLength(1);
  });

  it.each<[string, string, (stop: () => never) => MergeHooks]>([
    ['after its transaction', 'stop-commit', (stop) => ({ afterCommit: stop })],
    ['after re-laying the batches', 'stop-relay', (stop) => ({ afterRelayout: stop })],
    ['after the first page of items', 'stop-page', (stop) => ({ afterPage: async () => stop() })],
  ])('stopped %s, is finished by the next delivery without adding anything twice', async (_step, shopId, hooks) => {
    const shop = await twoMembers(shopId);
    // Longer than a page of the partition, so the move takes several.
    await batchPut(
      Array.from({ length: 130 }, (_, i) =>
        earningEntryItem(
          shopId,
          '2',
          approvedEntry(
            { id: `bulk-${i}`, earning_rule_id: null, action: 'manual_adjustment', points: 1, base_points: 1, points_multiplier: 1 },
            '2026-12-01T00:00:00.000Z',
          ),
        ),
      ),
    );
    const stop = (): never => {
      throw new Error('process stopped');
    };

    await expect(mergeMembers(shop, '1', '2', noPlatform, hooks(stop))).rejects.toThrow('process stopped');
    // In between: the figures have moved, the deleted id is gone; its items follow.
    expect(figures(await profile(shop, '1'))).toMatchObject({ current_points: 270, orders_count: 3 });
    expect(await profile(shop, '2')).toBeNull();

    expect(await mergeMembers(shop, '1', '2', noPlatform)).toBe('already_merged');
    expect(await mergeMembers(shop, '1', '2', noPlatform)).toBe('already_merged');

    expect(figures(await profile(shop, '1'))).toMatchObject({ current_points: 270, lifetime_points: 270, orders_count: 3 });
    expect(await earningHistory(shop, '1')).toHaveLength(3 + 130);
    expect((await customerItems(shopId, '1')).find((item) => item.sk === 'REDEEMCOUNT#five-off')?.redemptions).toBe(3);
    expect((await customerItems(shopId, '2')).map((item) => item.sk)).toEqual(['MERGED']);
    expect(await readShopCounters(shopId)).toEqual({ member: 1, excluded: 0 });
    expect(await events(shop, 'customer.merged')).toHaveLength(1);
  });
});

describe('a member merged into a customer who is no member', () => {
  const keptOnPlatform: PlatformCustomer = {
    id: '11',
    email: 'kept@example.com',
    firstName: 'Kept',
    lastName: 'Customer',
    createdAt: '2020-02-02T00:00:00.000Z',
  };

  it("becomes the kept customer's membership with the platform's details and no signup award, even when delivered twice", async () => {
    const shop = await shopWith('move', {}, [
      rule({}),
      rule({ id: 'signup', action: 'signup', category: 'signup', points_to_give: 50, spend_unit: null }),
    ]);
    await enrol(shop, '12', { created_at: '2026-03-01T00:00:00.000Z', date_of_birth: '1985-01-20' });
    await order(shop, '6001', '12', '80.00', '2027-01-02T00:00:00.000Z');
    const before = (await profile(shop, '12'))!;
    setClock(new Date('2027-01-05T00:00:00.000Z'));

    expect(await mergeMembers(shop, '11', '12', platformWith(keptOnPlatform))).toBe('moved');
    expect(await mergeMembers(shop, '11', '12', platformWith(keptOnPlatform))).toBe('already_merged');

    const kept = (await profile(shop, '11'))!;
    expect(figures(kept)).toEqual(figures(before));
    expect(kept).toMatchObject({
      platform_customer_id: '11',
      email: 'kept@example.com',
      first_name: 'Kept',
      last_name: 'Customer',
      platform_created_at: '2020-02-02T00:00:00.000Z',
      referral_code: before.referral_code,
      created_at: before.created_at,
      date_of_birth: '1985-01-20',
      status: 'member',
    });
    expect((await earningHistory(shop, '11')).map((entry) => entry.action)).toEqual(['purchase']);
    expect(await findReferralCodeOwner('move', before.referral_code)).toBe('11');
    expect(await findOrderCustomer('move', '6001')).toBe('11');
    expect(await getCustomer('move', '12', true)).toBeNull();
    expect(await findCustomerByEmail('move', before.email)).toBeNull();
    expect((await findCustomerByEmail('move', 'kept@example.com'))?.record.platform_customer_id).toBe('11');
    expect(await readShopCounters('move')).toEqual({ member: 1, excluded: 0 });
    // The name search postings follow: the deleted member's go, the kept member's names are posted.
    const namePostings = (await scanAll()).filter((item) => String(item.pk).startsWith('SHOP#move#NAME#')).map((item) => item.sk);
    expect(namePostings.sort()).toEqual(['customer#11', 'kept#11']);
    expect((await customerItems('move', '11')).some((item) => item.sk === 'TIMER#birthday')).toBe(true);
    expect(await events(shop, 'customer.merged')).toEqual([
      expect.objectContaining({ customer_id: '11', deleted_customer_id: '12', merge: 'moved' }),
    ]);
  });

  it('changes nothing and throws, for the queue to retry, while the platform cannot say who the kept customer is', async () => {
    const shop = await shopWith('move-later');
    await enrol(shop, '12');
    const down: Platform = { ...noPlatform, getCustomer: () => Promise.reject(new PlatformUnavailableError('timeout')) };

    await expect(mergeMembers(shop, '11', '12', down)).rejects.toThrow();
    await expect(mergeMembers(shop, '11', '12', noPlatform)).rejects.toThrow();

    expect(await profile(shop, '12')).not.toBeNull();
    expect(await profile(shop, '11')).toBeNull();
    expect(await mergeMembers(shop, '11', '12', platformWith(keptOnPlatform))).toBe('moved');
  });
});

describe('merges where the deleted customer is no member', () => {
  it('change nothing: only the kept customer a member, neither, or one customer named twice', async () => {
    const shop = await shopWith('no-member');
    await enrol(shop, '21');
    await order(shop, '7001', '21', '30.00', '2027-01-02T00:00:00.000Z');
    const before = await getCustomer('no-member', '21', true);

    expect(await mergeMembers(shop, '21', '22', noPlatform)).toBe('nothing_to_merge');
    expect(await mergeMembers(shop, '21', '22', noPlatform)).toBe('nothing_to_merge');
    expect(await mergeMembers(shop, '23', '24', noPlatform)).toBe('nothing_to_merge');
    expect(await mergeMembers(shop, '21', '21', noPlatform)).toBe('nothing_to_merge');

    expect(await getCustomer('no-member', '21', true)).toEqual(before);
    expect(await profile(shop, '23')).toBeNull();
    expect(await readShopCounters('no-member')).toEqual({ member: 1, excluded: 0 });
    expect(await events(shop, 'customer.merged')).toEqual([]);
  });
});

describe("the deleted member's orders", () => {
  it('are counted once, and a refund after the merge claws back from the kept member', async () => {
    const shop = await shopWith('refund');
    await enrol(shop, '31');
    await enrol(shop, '32');
    await order(shop, '8001', '31', '20.00', '2027-01-02T00:00:00.000Z');
    await order(shop, '8002', '32', '100.00', '2027-01-03T00:00:00.000Z');
    // The platform hands the deleted customer's orders to the kept one before customers/merge arrives.
    await order(shop, '8002', '31', '100.00', '2027-01-04T00:00:00.000Z');
    expect(figures(await profile(shop, '31'))).toMatchObject({ current_points: 20, orders_count: 1 });
    expect(figures(await profile(shop, '32'))).toMatchObject({ current_points: 100, orders_count: 1 });

    await mergeMembers(shop, '31', '32', noPlatform);
    // Seen again under the kept id (reconciliation, orders/updated): the order the merge moved, not a new one.
    await order(shop, '8002', '31', '100.00', '2027-01-05T00:00:00.000Z');
    expect(figures(await profile(shop, '31'))).toMatchObject({ current_points: 120, orders_count: 2 });
    setClock(new Date('2027-01-06T00:00:00.000Z'));
    expect(
      await applyRefund(shop, {
        id: 'refund-1',
        orderId: '8002',
        lines: [{ giftCard: false, subtotal: '40.00', tax: '0.00' }],
        discrepancies: [],
        createdAt: '2027-01-06T00:00:00.000Z',
      }),
    ).toBe('applied');

    expect(figures(await profile(shop, '31'))).toEqual({
      current_points: 80,
      lifetime_points: 120,
      redeemed_points: 0,
      total_spend: 80,
      orders_count: 2,
    });
    expect((await earningHistory(shop, '31')).map((entry) => [entry.order_id, entry.action, entry.points])).toEqual([
      ['8001', 'purchase', 20],
      ['8002', 'purchase', 100],
      ['8002', 'refund', -40],
    ]);
  });
});

describe('the points calendar after a merge', () => {
  it("approves the deleted member's pending points for the kept member on their due date", async () => {
    const shop = await shopWith('pending', { pending_days: 14 });
    await enrol(shop, '41');
    await enrol(shop, '42');
    await order(shop, '9001', '42', '60.00', '2027-01-01T00:00:00.000Z');
    setClock(new Date('2027-01-05T00:00:00.000Z'));
    await mergeMembers(shop, '41', '42', noPlatform);

    setClock(new Date('2027-01-14T23:00:00.000Z'));
    expect(await runDueJob(pointsApprovalJob, { shopIds: ['pending'] })).toMatchObject({ changed: 0 });
    setClock(new Date('2027-01-15T00:00:00.000Z'));
    expect(await runDueJob(pointsApprovalJob, { shopIds: ['pending'] })).toMatchObject({ changed: 1 });

    expect((await profile(shop, '41'))!.current_points).toBe(60);
    expect(await committed(shop, 'points.approved')).toEqual([expect.objectContaining({ customer_id: '41', points: 60 })]);
  });

  it.each([
    ['in the merge transaction', undefined],
    ['right after it (more batches than one transaction holds)', 6],
  ])(
    'expires what is left of each batch in the order given, and reminds of it, with the batches re-laid %s',
    async (_where, transactionLimit) => {
      const shopId = `batch-${transactionLimit ?? 'all'}`;
      const shop = await shopWith(shopId, { points_expiry: { mode: 'batch', days: 30 }, expiry_reminder_days: 7 });
      await enrol(shop, '51');
      await enrol(shop, '52');
      await order(shop, '10001', '51', '100.00', '2027-01-01T00:00:00.000Z'); // K1: 100, expires 31 Jan
      await order(shop, '10002', '52', '80.00', '2027-01-05T00:00:00.000Z'); // D1: 80, expires 4 Feb
      await adjust(shop, '51', -30, '2027-01-10T00:00:00.000Z'); // K1: 70 left
      await order(shop, '10003', '52', '50.00', '2027-01-12T00:00:00.000Z'); // D2: 50, expires 11 Feb
      await adjust(shop, '52', -20, '2027-01-12T01:00:00.000Z'); // D1: 60 left
      await order(shop, '10004', '51', '40.00', '2027-01-15T00:00:00.000Z'); // K2: 40, expires 14 Feb

      setClock(new Date('2027-01-20T00:00:00.000Z'));
      expect(await mergeMembers(shop, '51', '52', noPlatform, { transactionLimit })).toBe('merged');
      expect((await profile(shop, '51'))!.current_points).toBe(220);
      // Spending takes the oldest points first, whoever earned them: all of K1's 70, then 30 of D1's.
      await adjust(shop, '51', -100, '2027-01-21T00:00:00.000Z');

      const run = async (at: string) => {
        setClock(new Date(at));
        await runDueJob(expiryRemindersJob, { shopIds: [shopId] });
        await runDueJob(pointsExpiryJob, { shopIds: [shopId] });
        return (await profile(shop, '51'))!.current_points;
      };
      expect(await run('2027-01-29T00:00:00.000Z')).toBe(120);
      expect(await run('2027-02-01T00:00:00.000Z')).toBe(120);
      expect(await run('2027-02-05T00:00:00.000Z')).toBe(90);
      expect(await run('2027-02-12T00:00:00.000Z')).toBe(40);
      expect(await run('2027-02-15T00:00:00.000Z')).toBe(0);

      const entryOf = async (orderId: string) => (await earningHistory(shop, '51')).find((entry) => entry.order_id === orderId)!.id;
      const batches = sorted([
        ['51', await entryOf('10002'), 30],
        ['51', await entryOf('10003'), 50],
        ['51', await entryOf('10004'), 40],
      ]);
      expect(
        sorted(
          (await committed(shop, 'points.expiring_soon')).map((event) => [event.customer_id, event.earning_history_entry_id, event.points]),
        ),
      ).toEqual(batches);
      expect(
        sorted((await committed(shop, 'points.expired')).map((event) => [event.customer_id, event.batch_entry_id, event.points])),
      ).toEqual(batches);
    },
  );

  // The later batch's expiry also takes older points still unspent: each case makes the later one the side under test.
  it.each([
    ['kept', '62', '61'],
    ['deleted', '61', '62'],
  ])(
    "loses no batch to an expiry run between the merge's transaction and the re-laying (the later batch the %s member's)",
    async (side, first, later) => {
      const shop = await shopWith(`window-${side}`, { points_expiry: { mode: 'batch', days: 30 }, expiry_reminder_days: 7 });
      await enrol(shop, '61');
      await enrol(shop, '62');
      await order(shop, '11001', first, '80.00', '2027-01-01T00:00:00.000Z'); // expires 31 January
      await order(shop, '11002', later, '100.00', '2027-01-02T00:00:00.000Z'); // expires 1 February

      setClock(new Date('2027-02-01T12:00:00.000Z'));
      const stop = () => {
        throw new Error('process stopped');
      };
      await expect(mergeMembers(shop, '61', '62', noPlatform, { transactionLimit: 6, afterCommit: stop })).rejects.toThrow(
        'process stopped',
      );
      // Both batches are past their date: the job sees the kept one at its old place (spent), the other with its member gone.
      await runDueJob(pointsExpiryJob, { shopIds: [`window-${side}`] });
      expect((await profile(shop, '61'))!.current_points).toBe(180);

      expect(await mergeMembers(shop, '61', '62', noPlatform)).toBe('already_merged');
      await runDueJob(pointsExpiryJob, { shopIds: [`window-${side}`] });

      expect((await profile(shop, '61'))!.current_points).toBe(0);
      const expired = await committed(shop, 'points.expired');
      expect(expired.every((event) => event.customer_id === '61')).toBe(true);
      expect(expired.reduce((sum, event) => sum + event.points, 0)).toBe(180);
    },
  );
});
