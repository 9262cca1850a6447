// The search by name reads O(page), whatever the shop's size (docs/performance.md#search-by-name): the same
// search on a shop of 200 members and one of 5 000 makes the same DynamoDB calls and reads the same capacity,
// a common first name (a twentieth of the shop) as much as a rare last name, counted by the bench's counter.
import { dynamoDbStats, resetDynamoDbStats } from '../../shared/data/dynamodb-stats';
import { customerItem } from '../../shared/data/items/customer-profile';
import { nameIndexMarkerItem, namePostingItems } from '../../shared/data/items/name-token';
import { forgetNameIndexReadiness, searchByName } from '../../shared/data/name-search';
import { batchPut } from '../../shared/data/shop-repository';
import { resetDocumentClient } from '../../shared/data/client';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable } from '../support/test-table';

jest.setTimeout(300_000);

const FIRST_NAMES = ['Ada', 'Alan', 'Barbara', 'Dennis', 'Edsger', 'Frances', 'Grace', 'Hedy', 'John', 'Katherine'];
const FIRST_NAMES_20 = [...FIRST_NAMES, ...FIRST_NAMES.map((name) => `${name}a`)];

let table: Awaited<ReturnType<typeof createTestTable>>;

/** A shop of `members` members, each with a first name of 20 and a last name of its own, and its postings. */
async function seed(shopId: string, members: number): Promise<void> {
  const items = Array.from({ length: members }, (_, i) => {
    const record = customerRecord({
      shop_id: shopId,
      platform_customer_id: String(100_000 + i),
      first_name: FIRST_NAMES_20[i % FIRST_NAMES_20.length]!,
      last_name: `Member${i}`,
      referral_code: `N${shopId}${i}`,
    });
    return [customerItem(record, 1), ...namePostingItems(shopId, record.platform_customer_id, record)];
  }).flat();
  for (let start = 0; start < items.length; start += 500) await batchPut(items.slice(start, start + 500));
  await batchPut([nameIndexMarkerItem(shopId, '2026-01-01T00:00:00.000Z', 'backfill')]);
}

beforeAll(async () => {
  table = await createTestTable({ environment: { DYNAMODB_STATS: 'true' } });
  await seed('small', 200);
  await seed('large', 5_000);
});
afterAll(async () => {
  resetDocumentClient();
  resetDynamoDbStats();
  await table.drop();
});

/** One page's calls and read units, the shop's index marker already known. */
async function counted(shopId: string, name: string, size = 20) {
  forgetNameIndexReadiness();
  await searchByName(shopId, { name, size });
  resetDynamoDbStats();
  const page = await searchByName(shopId, { name, size });
  const stats = dynamoDbStats();
  return { found: page.records.length, more: page.nextCursor !== null, calls: stats.calls, readUnits: stats.readUnits };
}

describe('the search by name at two shop sizes', () => {
  it('reads one Query of postings and one BatchGetItem of profiles for a page, the same at 200 and at 5 000 members', async () => {
    for (const name of ['grace', 'member4', 'ada member1']) {
      const small = await counted('small', name);
      const large = await counted('large', name);
      expect(small.calls).toEqual({ QueryCommand: 1, BatchGetItemCommand: 1 });
      expect(large.calls).toEqual(small.calls);
      // Both pages full: the capacity is the page's (0.5 RCU of postings, 0.5 a profile), not the shop's.
      if (small.found === 20) expect(large.readUnits).toBe(small.readUnits);
      expect(large.readUnits).toBeLessThanOrEqual(12);
    }
  });

  it('reads as much for a name a twentieth of the shop has as for one only one member has', async () => {
    const common = await counted('large', 'grace', 20);
    const rare = await counted('large', 'member4999', 20);
    expect(common).toMatchObject({ found: 20, more: true });
    expect(rare).toMatchObject({ found: 1, more: false });
    expect(common.readUnits).toBe(10.5);
    expect(rare.readUnits).toBe(1);
  });
});
