// A broad filter[email] search against DynamoDB Local: the index gives way to the scan exactly when the
// smallest probed gram holds more postings than the budget, having counted the grams rather than read
// them; the DynamoDB calls of a broad first page and of a selective search are pinned; and the scan
// answers in the index's order (sort value, then status, then customer id), so that the pages and
// totals of a search are the same whichever way it was answered.
import { type CustomerListQuery, type CustomerSortField, listCustomers } from '../../shared/data/customer-list';
import { compareRecords } from '../../shared/data/email-search';
import { documentClient } from '../../shared/data/client';
import { markEmailIndexComplete } from '../../shared/data/email-index-repository';
import { candidateBudget, FIRST_PAGE, findByEmailIndex, forgetEmailIndexReadiness } from '../../shared/data/email-search';
import { customerItem, normalisedEmail } from '../../shared/data/items/customer-profile';
import { emailPostingItems } from '../../shared/data/items/email-gram';
import { batchPut, setShopCounters } from '../../shared/data/shop-repository';
import type { CustomerRecord } from '../../shared/domain/customer';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable } from '../support/test-table';

jest.setTimeout(180_000);

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});
afterEach(() => {
  jest.restoreAllMocks();
  forgetEmailIndexReadiness();
});

/** The DynamoDB commands `run` sends, counted by name, with the Query inputs. */
async function callsOf<T>(run: () => Promise<T>) {
  const calls: Record<string, number> = {};
  const queries: Array<Record<string, unknown>> = [];
  const client = documentClient();
  const send = client.send.bind(client);
  jest.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string }; input: Record<string, unknown> }) => {
    const name = command.constructor.name;
    calls[name] = (calls[name] ?? 0) + 1;
    if (name === 'QueryCommand') queries.push(command.input);
    return send(command as never);
  }) as never);
  try {
    return { result: await run(), calls, queries };
  } finally {
    jest.restoreAllMocks();
  }
}

/**
 * `count` customers at edge.example (ids 3000 up), written as enrolment writes them (profile and
 * postings), with equal points and statuses mixed so that the order's ties matter.
 */
async function seedEdgeShop(shopId: string, count: number, from = 0): Promise<CustomerRecord[]> {
  const records = Array.from({ length: count }, (_, offset) => {
    const i = from + offset;
    return customerRecord({
      shop_id: shopId,
      platform_customer_id: String(3000 + i),
      email: i === 7 ? 'Only.One+7@Edge.Example' : `m${i}@edge.example`,
      referral_code: `${shopId}-${i}`,
      current_points: (i * 7) % 4,
      status: i % 3 === 0 ? 'excluded' : 'member',
      created_at: new Date(Date.UTC(2025, 0, 1) + (i % 50) * 60_000).toISOString(),
    });
  });
  await batchPut(
    records.flatMap((record) => [
      customerItem(record, 1),
      ...emailPostingItems(shopId, record.platform_customer_id, normalisedEmail(record.email)),
    ]),
  );
  return records;
}

const SORTS: Record<CustomerSortField, keyof CustomerRecord> = {
  created_at: 'created_at',
  points: 'current_points',
  lifetime_points: 'lifetime_points',
  redeemed_points: 'redeemed_points',
};

function bruteForce(records: CustomerRecord[], query: CustomerListQuery) {
  const matched = records
    .filter((record) => normalisedEmail(record.email).includes(query.emailContains!))
    .filter((record) => query.status === undefined || record.status === query.status)
    .sort(compareRecords(SORTS[query.sort], query.descending));
  return { ids: matched.slice(query.offset, query.offset + query.limit).map((r) => r.platform_customer_id), total: matched.length };
}

const idsAndTotal = (page: { records: CustomerRecord[]; total: number | null }) => ({
  ids: page.records.map((record) => record.platform_customer_id),
  total: page.total,
});

describe('the broad decision', () => {
  it('is max(200, members / 30) candidates in the smallest gram', () => {
    expect(candidateBudget(10)).toBe(200);
    expect(candidateBudget(6_000)).toBe(200);
    expect(candidateBudget(6_001)).toBe(201);
    expect(candidateBudget(100_000)).toBe(3_334);
  });

  it('leaves a search to the index while its smallest gram holds the budget, and to the scan from one posting more', async () => {
    const shopId = 'edge';
    await markEmailIndexComplete(shopId, '2025-01-01T00:00:00.000Z');
    // A budget past the first round, so that the grams are counted on.
    const members = async () => 9_000;
    expect(candidateBudget(9_000)).toBe(300);
    expect(FIRST_PAGE).toBeLessThan(300);
    const records = await seedEdgeShop(shopId, 300);

    const atBudget = await callsOf(() => findByEmailIndex(shopId, 'edge.example', members));
    expect(atBudget.result?.ids.sort()).toEqual(records.map((record) => record.platform_customer_id).sort());
    // One posting more than the budget in every gram: the scan answers.
    records.push(...(await seedEdgeShop(shopId, 1, 300)));
    const over = await callsOf(() => findByEmailIndex(shopId, 'edge.example', members));
    expect(over.result).toBeNull();
    // Either way the grams past their first page were counted, and no posting was read beyond it
    // except, when the index answers, those of the one gram it answers from.
    const read = (queries: Array<Record<string, unknown>>) =>
      queries.filter((input) => input.Select !== 'COUNT' && input.ExclusiveStartKey);
    expect(read(atBudget.queries)).toHaveLength(1);
    expect(read(over.queries)).toHaveLength(0);
    expect(over.queries.filter((input) => input.Select === 'COUNT').length).toBe(6);
  });
});

describe('the calls of a search', () => {
  const shopId = 'calls';
  let records: CustomerRecord[];
  beforeAll(async () => {
    await markEmailIndexComplete(shopId, '2025-01-01T00:00:00.000Z');
    records = await seedEdgeShop(shopId, 240);
    await setShopCounters(shopId, { member: 160, excluded: 80 });
  });

  it('of a broad first page: the first postings of six grams, the scan of both statuses, the page, the set', async () => {
    const query: CustomerListQuery = { sort: 'created_at', descending: true, emailContains: 'edge.example', offset: 0, limit: 20 };
    const first = await callsOf(() => listCustomers(shopId, query));
    expect(idsAndTotal(first.result)).toEqual(bruteForce(records, query));
    // Marker and counters; the long-address partition, 6 first pages (past the budget of a shop this
    // size: no count), 2 list partitions; the page's profiles; the set.
    expect(first.calls).toEqual({ GetCommand: 2, QueryCommand: 9, BatchGetCommand: 1, BatchWriteCommand: 1 });
  });

  it('of a selective search: the first postings of six grams, the match profile, nothing written', async () => {
    const query: CustomerListQuery = { sort: 'created_at', descending: true, emailContains: 'one+7@edge', offset: 0, limit: 20 };
    const selective = await callsOf(() => listCustomers(shopId, query));
    expect(idsAndTotal(selective.result)).toEqual({ ids: ['3007'], total: 1 });
    expect(selective.calls).toEqual({ GetCommand: 2, QueryCommand: 7, BatchGetCommand: 1 });
  });

  it.each([
    { sort: 'created_at', descending: true },
    { sort: 'points', descending: false },
    { sort: 'points', descending: true },
    { sort: 'points', descending: false, status: 'excluded' },
  ] as Array<Pick<CustomerListQuery, 'sort' | 'descending' | 'status'>>)(
    'of the scan, in the order and with the totals the index gives (%o)',
    async (order) => {
      for (const offset of [0, 20, 140]) {
        const query: CustomerListQuery = { ...order, emailContains: 'edge.ex', offset, limit: 20 };
        expect(idsAndTotal(await listCustomers(shopId, query, { matchMemory: false }))).toEqual(bruteForce(records, query));
      }
    },
  );
});
