import {
  getEarningEntry,
  getRewardEntry,
  listEarningEntries,
  listRewardEntries,
  type EarningSortField,
  type HistoryPage,
  type RewardSortField,
} from '../../shared/data/history-repository';
import { earningEntryItem } from '../../shared/data/items/earning-entry';
import { rewardEntryItem } from '../../shared/data/items/reward-entry';
import { batchPut } from '../../shared/data/shop-repository';
import type { EarningEntry, EarningStatus, RewardEntry, RewardStatus } from '../../shared/domain/history';
import { createTestTable } from '../support/test-table';

let table: Awaited<ReturnType<typeof createTestTable>>;

const SHOP = 'hist-repo';
const OTHER_SHOP = 'hist-repo-other';
const CUSTOMER = '501';
const OTHER_CUSTOMER = '502';
const EARNING_STATUSES: EarningStatus[] = ['approved', 'pending', 'rejected'];
const REWARD_STATUSES: RewardStatus[] = ['active', 'used', 'expired'];

const at = (day: number) => new Date(Date.UTC(2025, 0, 1 + day, 12)).toISOString();

function earningEntry(i: number, overrides: Partial<EarningEntry> = {}): EarningEntry {
  const status = EARNING_STATUSES[i % 3]!;
  return {
    id: `earn-${String(i).padStart(3, '0')}`,
    earning_rule_id: 'rule-purchase',
    action: 'purchase',
    // Few distinct values, so ties have to page cleanly too.
    points: ((i * 7) % 5) * 10,
    base_points: ((i * 7) % 5) * 10,
    points_multiplier: 1,
    status,
    order_id: `order-${i}`,
    order_number: `#${1000 + i}`,
    points_due_at: null,
    // Pending entries and every fourth approved one have not been given yet.
    points_given_at: status === 'pending' || i % 4 === 0 ? null : at(40 - i),
    points_expiry_at: null,
    created_at: at(i),
    updated_at: at(i),
    ...overrides,
  };
}

function rewardEntry(i: number, overrides: Partial<RewardEntry> = {}): RewardEntry {
  return {
    id: `redeem-${String(i).padStart(3, '0')}`,
    reward_id: 'reward-5-off',
    reward_name: '$5 off',
    reward_discount_type: 'fixed',
    points_spent: ((i * 3) % 4) * 100 + 100,
    discount_code: `CODE${i}`,
    status: REWARD_STATUSES[i % 3]!,
    is_refunded: false,
    discount_code_redeemed_at: null,
    redeemed_at: at(i),
    expires_at: null,
    created_at: at(i),
    updated_at: at(i),
    ...overrides,
  };
}

const earnings = Array.from({ length: 23 }, (_, i) => earningEntry(i));
const rewards = Array.from({ length: 11 }, (_, i) => rewardEntry(i));
// Written by the purchase saga before the discount code exists: internal, never shown.
const pendingReward = { ...rewardEntry(99), status: 'pending' as RewardStatus, points_spent: 50, created_at: at(60) };

beforeAll(async () => {
  table = await createTestTable();
  await batchPut([
    ...earnings.map((entry) => earningEntryItem(SHOP, CUSTOMER, entry)),
    ...rewards.map((entry) => rewardEntryItem(SHOP, CUSTOMER, entry)),
    rewardEntryItem(SHOP, CUSTOMER, pendingReward),
    // Same ids and timestamps under another customer and another shop: must never leak across.
    earningEntryItem(SHOP, OTHER_CUSTOMER, earningEntry(0, { id: 'earn-other-customer' })),
    earningEntryItem(OTHER_SHOP, CUSTOMER, earningEntry(1, { id: 'earn-other-shop' })),
    rewardEntryItem(SHOP, OTHER_CUSTOMER, rewardEntry(0, { id: 'redeem-other-customer' })),
    rewardEntryItem(OTHER_SHOP, CUSTOMER, rewardEntry(1, { id: 'redeem-other-shop' })),
  ]);
});
afterAll(async () => {
  await table.drop();
});

/** Reads every page of `size` and checks each page's total; returns the entries in page order. */
async function allPages<T>(read: (offset: number, limit: number) => Promise<HistoryPage<T>>, size: number, expectedTotal: number) {
  const seen: T[] = [];
  for (let offset = 0; offset <= expectedTotal; offset += size) {
    const page = await read(offset, size);
    expect(page.total).toBe(expectedTotal);
    expect(page.entries.length).toBeLessThanOrEqual(size);
    seen.push(...page.entries);
  }
  return seen;
}

function sortedCopy(values: Array<string | number>, descending: boolean) {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return descending ? sorted.reverse() : sorted;
}

const givenAtKey = (entry: EarningEntry) => entry.points_given_at ?? '~';

describe('earning history reads', () => {
  const valueOf: Record<EarningSortField, (entry: EarningEntry) => string | number> = {
    created_at: (entry) => entry.created_at,
    points: (entry) => entry.points,
    points_given_at: givenAtKey,
  };

  it.each<[EarningSortField, boolean]>([
    ['created_at', false],
    ['created_at', true],
    ['points', false],
    ['points', true],
    ['points_given_at', false],
    ['points_given_at', true],
  ])('pages through every entry sorted by %s (descending: %s) without gaps or repeats', async (sort, descending) => {
    const seen = await allPages(
      (offset, limit) => listEarningEntries(SHOP, CUSTOMER, { sort, descending, offset, limit }),
      4,
      earnings.length,
    );

    expect(seen).toHaveLength(earnings.length);
    expect(new Set(seen.map((entry) => entry.id))).toEqual(new Set(earnings.map((entry) => entry.id)));
    const values = seen.map(valueOf[sort]);
    expect(values).toEqual(sortedCopy(values, descending));
  });

  it('sorts entries not given yet last ascending and first descending', async () => {
    const notGiven = earnings.filter((entry) => entry.points_given_at === null).length;

    const ascending = await listEarningEntries(SHOP, CUSTOMER, { sort: 'points_given_at', descending: false, offset: 0, limit: 100 });
    const descending = await listEarningEntries(SHOP, CUSTOMER, { sort: 'points_given_at', descending: true, offset: 0, limit: 100 });

    expect(notGiven).toBeGreaterThan(0);
    expect(ascending.entries.slice(-notGiven).every((entry) => entry.points_given_at === null)).toBe(true);
    expect(ascending.entries.slice(0, -notGiven).every((entry) => entry.points_given_at !== null)).toBe(true);
    expect(descending.entries.slice(0, notGiven).every((entry) => entry.points_given_at === null)).toBe(true);
  });

  it.each(EARNING_STATUSES)('filters by status %s with the filtered total on every page', async (status) => {
    const expected = earnings.filter((entry) => entry.status === status).map((entry) => entry.id);

    const seen = await allPages(
      (offset, limit) => listEarningEntries(SHOP, CUSTOMER, { sort: 'created_at', descending: false, status, offset, limit }),
      3,
      expected.length,
    );

    expect(seen.map((entry) => entry.id)).toEqual(expected);
  });

  it('returns the stored entry without key or index attributes', async () => {
    const page = await listEarningEntries(SHOP, CUSTOMER, { sort: 'created_at', descending: false, offset: 0, limit: 1 });

    expect(page.entries[0]).toEqual(earnings[0]);
  });

  it('returns an empty page beyond the last one, still with the total', async () => {
    const page = await listEarningEntries(SHOP, CUSTOMER, { sort: 'points', descending: true, offset: 40, limit: 20 });

    expect(page).toEqual({ entries: [], total: earnings.length });
  });

  it('never returns entries of another customer or another shop', async () => {
    const ofCustomer = await listEarningEntries(SHOP, CUSTOMER, { sort: 'created_at', descending: true, offset: 0, limit: 100 });
    const ofOtherCustomer = await listEarningEntries(SHOP, OTHER_CUSTOMER, { sort: 'created_at', descending: true, offset: 0, limit: 100 });
    const ofOtherShop = await listEarningEntries(OTHER_SHOP, CUSTOMER, { sort: 'points', descending: false, offset: 0, limit: 100 });

    expect(ofCustomer.entries.map((entry) => entry.id)).toEqual([...earnings].reverse().map((entry) => entry.id));
    expect(ofOtherCustomer.entries.map((entry) => entry.id)).toEqual(['earn-other-customer']);
    expect(ofOtherShop.entries.map((entry) => entry.id)).toEqual(['earn-other-shop']);
  });

  it('gets one entry only under its own shop and customer', async () => {
    expect(await getEarningEntry(SHOP, CUSTOMER, 'earn-005')).toEqual(earnings[5]);
    expect(await getEarningEntry(SHOP, CUSTOMER, 'earn-other-customer')).toBeNull();
    expect(await getEarningEntry(SHOP, CUSTOMER, 'earn-other-shop')).toBeNull();
    expect(await getEarningEntry(OTHER_SHOP, CUSTOMER, 'earn-005')).toBeNull();
  });

  it('does not mistake a reward entry for an earning entry', async () => {
    expect(await getEarningEntry(SHOP, CUSTOMER, 'redeem-001')).toBeNull();
  });

  it('answers an empty page and zero total for a customer without history', async () => {
    expect(await listEarningEntries(SHOP, '599', { sort: 'created_at', descending: true, offset: 0, limit: 20 })).toEqual({
      entries: [],
      total: 0,
    });
  });
});

describe('reward history reads', () => {
  const valueOf: Record<RewardSortField, (entry: RewardEntry) => string | number> = {
    created_at: (entry) => entry.created_at,
    points_spent: (entry) => entry.points_spent,
  };

  it.each<[RewardSortField, boolean]>([
    ['created_at', false],
    ['created_at', true],
    ['points_spent', false],
    ['points_spent', true],
  ])('pages through every visible entry sorted by %s (descending: %s) without gaps or repeats', async (sort, descending) => {
    const seen = await allPages(
      (offset, limit) => listRewardEntries(SHOP, CUSTOMER, { sort, descending, offset, limit }),
      3,
      rewards.length,
    );

    expect(seen).toHaveLength(rewards.length);
    expect(new Set(seen.map((entry) => entry.id))).toEqual(new Set(rewards.map((entry) => entry.id)));
    const values = seen.map(valueOf[sort]);
    expect(values).toEqual(sortedCopy(values, descending));
  });

  it.each(REWARD_STATUSES)('filters by status %s with the filtered total', async (status) => {
    const expected = rewards.filter((entry) => entry.status === status).map((entry) => entry.id);

    const seen = await allPages(
      (offset, limit) => listRewardEntries(SHOP, CUSTOMER, { sort: 'created_at', descending: true, status, offset, limit }),
      2,
      expected.length,
    );

    expect(seen.map((entry) => entry.id)).toEqual([...expected].reverse());
  });

  it('hides entries in an internal status from lists, totals and single reads', async () => {
    const newest = await listRewardEntries(SHOP, CUSTOMER, { sort: 'created_at', descending: true, offset: 0, limit: 1 });
    const cheapest = await listRewardEntries(SHOP, CUSTOMER, { sort: 'points_spent', descending: false, offset: 0, limit: 100 });

    expect(newest.entries[0]!.id).not.toBe(pendingReward.id);
    expect(newest.total).toBe(rewards.length);
    expect(cheapest.entries.map((entry) => entry.id)).not.toContain(pendingReward.id);
    expect(await getRewardEntry(SHOP, CUSTOMER, pendingReward.id)).toBeNull();
  });

  it('never returns entries of another customer or another shop', async () => {
    const ofCustomer = await listRewardEntries(SHOP, CUSTOMER, { sort: 'created_at', descending: false, offset: 0, limit: 100 });
    const ofOtherShop = await listRewardEntries(OTHER_SHOP, CUSTOMER, { sort: 'created_at', descending: false, offset: 0, limit: 100 });

    expect(ofCustomer.entries.map((entry) => entry.id)).toEqual(rewards.map((entry) => entry.id));
    expect(ofOtherShop.entries.map((entry) => entry.id)).toEqual(['redeem-other-shop']);
    expect(await getRewardEntry(SHOP, CUSTOMER, 'redeem-other-customer')).toBeNull();
    expect(await getRewardEntry(OTHER_SHOP, CUSTOMER, 'redeem-003')).toBeNull();
  });

  it('gets one visible entry without key or index attributes', async () => {
    expect(await getRewardEntry(SHOP, CUSTOMER, 'redeem-004')).toEqual(rewards[4]);
  });
});
