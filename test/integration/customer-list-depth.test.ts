// The customer list at depth: pages read from the far end and from remembered boundaries are the
// pages the list has always served, and what a walk sees when members change under it.
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { listCustomers as listPage, type CustomerSortField } from '../../shared/data/customer-list';
import { updateCustomer } from '../../shared/data/customer-repository';
import { customerItem } from '../../shared/data/items/customer-profile';
import { readListPage } from '../../shared/data/customer-list';
import { documentClient, tableName } from '../../shared/data/client';
import { keys } from '../../shared/data/keys';
import { batchPut, setShopCounters } from '../../shared/data/shop-repository';
import { listCustomers } from '../../shared/customers/customer-service';
import type { CustomerRecord, LoyaltyStatus } from '../../shared/domain/customer';
import { TTL_ATTRIBUTE } from '../../shared/data/table';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable } from '../support/test-table';

let table: Awaited<ReturnType<typeof createTestTable>>;

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

const SIZE = 10;

/** A shop of `count` customers: every 4th excluded, points with many ties, distinct creation times. */
async function seedShop(shop: string, count: number): Promise<CustomerRecord[]> {
  const records = Array.from({ length: count }, (_, i) =>
    customerRecord({
      shop_id: shop,
      platform_customer_id: String(1000 + i),
      current_points: (i * 37) % 9,
      lifetime_points: (i * 13) % 50,
      redeemed_points: i % 3,
      status: i % 4 === 0 ? 'excluded' : 'member',
      created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    }),
  );
  await batchPut(records.map((record) => customerItem(record, 1)));
  await setShopCounters(shop, {
    member: records.filter((r) => r.status === 'member').length,
    excluded: records.filter((r) => r.status === 'excluded').length,
  });
  return records;
}

type Query = { sort: CustomerSortField; descending: boolean; status?: LoyaltyStatus };

const ids = (records: CustomerRecord[]) => records.map((r) => r.platform_customer_id);

async function page(shop: string, query: Query, number: number, boundaryMemory: boolean) {
  return listCustomers(shop, { ...query, offset: (number - 1) * SIZE, limit: SIZE }, { boundaryMemory });
}

/** The whole list, every slice read forward from the start as the list always did: the order every page must be cut from. */
async function wholeList(shop: string, query: Query) {
  const whole: CustomerRecord[] = [];
  for (;;) {
    const { records } = await listPage(shop, { ...query, offset: whole.length, limit: 100 }, { boundaryMemory: false });
    whole.push(...records);
    if (records.length < 100) return whole;
  }
}

describe('customer list pages at any depth', () => {
  const shop = 'depth-same';
  let records: CustomerRecord[];
  beforeAll(async () => {
    records = await seedShop(shop, 157);
  });

  it.each<Query>([
    { sort: 'created_at', descending: true },
    { sort: 'created_at', descending: false },
    { sort: 'points', descending: true },
    { sort: 'points', descending: false },
    { sort: 'redeemed_points', descending: true, status: 'member' },
    { sort: 'lifetime_points', descending: false, status: 'excluded' },
  ])('serves the same pages with and without boundary memory, walked forward and backward: %j', async (query) => {
    const whole = ids(await wholeList(shop, query));
    const total = query.status ? records.filter((r) => r.status === query.status).length : records.length;
    const pages = Math.ceil(total / SIZE);
    expect(whole).toHaveLength(total);
    const expected = (number: number) => whole.slice((number - 1) * SIZE, number * SIZE);

    for (let number = 1; number <= pages; number += 1) {
      const served = await page(shop, query, number, false);
      expect(served.total).toBe(total);
      expect(ids(served.records)).toEqual(expected(number));
    }
    for (let number = 1; number <= pages; number += 1)
      expect(ids((await page(shop, query, number, true)).records)).toEqual(expected(number));
    for (let number = pages; number >= 1; number -= 1)
      expect(ids((await page(shop, query, number, true)).records)).toEqual(expected(number));
  });

  it('reads the back half from the end and walks from remembered boundaries, one page of keys each', async () => {
    const window = (offset: number) => ({
      shopId: shop,
      indexName: 'gsi_customers_created_at',
      attribute: 'created_at',
      descending: false,
      statuses: ['member'] as const,
      listName: 'member#created_at#asc#probe',
      offset,
      limit: SIZE,
      total: records.filter((r) => r.status === 'member').length,
    });
    const total = window(0).total;
    const last = Math.floor((total - 1) / SIZE) * SIZE;

    const deep = await readListPage(window(last), false);
    expect(deep.mode).toBe('reverse-from-end');
    expect(deep.entriesRead).toBeLessThanOrEqual(SIZE + 1);

    const modes: string[] = [];
    for (let offset = 0; offset < total; offset += SIZE) {
      const served = await readListPage(window(offset));
      await served.remembered;
      modes.push(served.mode);
      expect(served.entriesRead).toBeLessThanOrEqual(2 * SIZE + 1);
    }
    // First two pages from the start, the last from the end, every other one from the boundary its predecessor left.
    expect(modes.slice(0, 2)).toEqual(['forward-from-start', 'forward-from-start']);
    expect(modes.slice(2, -1).every((mode) => mode === 'forward-from-boundary')).toBe(true);
    for (let offset = last - SIZE; offset > SIZE; offset -= SIZE) {
      const served = await readListPage(window(offset));
      await served.remembered;
      expect(served.mode).toMatch(/-from-boundary$/);
      expect(served.entriesRead).toBeLessThanOrEqual(SIZE + 1);
    }
  });

  it('ignores an expired boundary', async () => {
    const query: Query = { sort: 'created_at', descending: true, status: 'member' };
    const expected = ids(await wholeList(shop, query)).slice(5 * SIZE, 6 * SIZE);
    // A boundary whose time is up, pointing somewhere wrong: it must not be used.
    await documentClient().send(
      new PutCommand({
        TableName: tableName(),
        Item: {
          ...keys.customerListBoundary(shop, 'member#created_at#desc', SIZE, 5 * SIZE),
          boundary_count: 5 * SIZE,
          last: [null],
          next: [null],
          [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) - 1,
        },
      }),
    );

    expect(ids((await page(shop, query, 6, true)).records)).toEqual(expected);
  });
});

describe('a walk while members change', () => {
  /** Walks pages 1..3, applies `change`, then walks the rest; returns what the client saw. */
  async function walkAcross(shop: string, query: Query, boundaryMemory: boolean, change: () => Promise<void>) {
    const seen: CustomerRecord[] = [];
    let number = 1;
    for (; number <= 3; number += 1) seen.push(...(await page(shop, query, number, boundaryMemory)).records);
    await change();
    for (; ; number += 1) {
      const served = await page(shop, query, number, boundaryMemory);
      seen.push(...served.records);
      if (served.records.length < SIZE) return seen;
    }
  }
  const repeats = (seen: CustomerRecord[]) => seen.length - new Set(ids(seen)).size;

  it('a member enrolled during a newest-first walk: the walk neither repeats nor sees it; without memory one member repeats', async () => {
    const query: Query = { sort: 'created_at', descending: true, status: 'member' };
    for (const memory of [true, false]) {
      const shop = `depth-enrol-${memory}`;
      const records = await seedShop(shop, 90);
      const before = ids(await wholeList(shop, query));
      const newcomer = customerRecord({ shop_id: shop, platform_customer_id: '9999', created_at: '2026-01-01T00:00:00.000Z' });

      const seen = await walkAcross(shop, query, memory, async () => {
        await batchPut([customerItem(newcomer, 1)]);
        await setShopCounters(shop, { member: records.filter((r) => r.status === 'member').length + 1, excluded: 0 });
      });

      if (memory) expect(ids(seen)).toEqual(before);
      else {
        expect(repeats(seen)).toBe(1);
        expect(new Set(ids(seen))).toEqual(new Set(before));
      }
    }
  });

  it('a member excluded during a walk of members: the walk skips nobody else; without memory one member is skipped', async () => {
    const query: Query = { sort: 'created_at', descending: false, status: 'member' };
    for (const memory of [true, false]) {
      const shop = `depth-exclude-${memory}`;
      await seedShop(shop, 90);
      const before = await wholeList(shop, query);
      // Already served on page 2: it leaves the list behind the walk.
      const leaving = before[15]!;

      const seen = await walkAcross(shop, query, memory, async () => {
        expect((await updateCustomer({ record: leaving, version: 1 }, { status: 'excluded' }, '2025-06-01T00:00:00.000Z')).written).toBe(
          true,
        );
      });

      const expected = ids(before);
      if (memory) expect(ids(seen)).toEqual(expected);
      else {
        expect(repeats(seen)).toBe(0);
        expect(expected.filter((id) => !ids(seen).includes(id))).toHaveLength(1);
      }
    }
  });

  it('balances changing during a points walk: a member moved behind the walk repeats, one moved ahead of it is missed, the rest once each', async () => {
    const query: Query = { sort: 'points', descending: true, status: 'member' };
    const shop = 'depth-balance';
    await seedShop(shop, 90);
    const before = await wholeList(shop, query);
    const served = before[5]!; // on page 1
    const unserved = before[60]!; // on page 7
    const top = before[0]!.current_points;
    const bottom = before[before.length - 1]!.current_points;

    const seen = await walkAcross(shop, query, true, async () => {
      // The served member drops to the bottom (ahead of the walk), the unserved one jumps to the top (behind it).
      await batchPut([
        customerItem({ ...served, current_points: bottom - 1 }, 2),
        customerItem({ ...unserved, current_points: top + 1 }, 2),
      ]);
    });

    const count = (id: string) => ids(seen).filter((seenId) => seenId === id).length;
    expect(count(served.platform_customer_id)).toBe(2);
    expect(count(unserved.platform_customer_id)).toBe(0);
    for (const record of before) {
      if (record !== served && record !== unserved) expect(count(record.platform_customer_id)).toBe(1);
    }
  });
});
