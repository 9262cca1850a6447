// Remembered e-mail searches, against DynamoDB Local: the pages of a walk are the slices of one
// evaluation, read without evaluating again (no Query after the first page); the chunks of a large set
// slice back exactly; an expired set, or chunks of another evaluation, are not used; a failed write
// never fails the page; and what a walk sees when members change under it (docs/performance.md#e-mail-search).
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { createCustomer, getCustomer, updateCustomer } from '../../shared/data/customer-repository';
import { type CustomerListQuery, listCustomers } from '../../shared/data/customer-list';
import { markEmailIndexComplete } from '../../shared/data/email-index-repository';
import { MATCH_SET_TTL_SECONDS, readRememberedSlice, rememberMatchSet, searchName } from '../../shared/data/email-match-set';
import { forgetEmailIndexReadiness } from '../../shared/data/email-search';
import { customerItem } from '../../shared/data/items/customer-profile';
import { keys } from '../../shared/data/keys';
import { batchPut } from '../../shared/data/shop-repository';
import { TTL_ATTRIBUTE } from '../../shared/data/table';
import type { CustomerRecord } from '../../shared/domain/customer';
import { logger } from '../../shared/observability/powertools';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable } from '../support/test-table';

jest.setTimeout(120_000);

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

/** Every DynamoDB command the repositories send while `run` runs, by name. */
async function commandsOf<T>(run: () => Promise<T>): Promise<{ result: T; commands: string[] }> {
  const commands: string[] = [];
  const client = documentClient();
  const send = client.send.bind(client);
  const spy = jest.spyOn(client, 'send').mockImplementation(((command: { constructor: { name: string } }) => {
    commands.push(command.constructor.name);
    return send(command as never);
  }) as never);
  try {
    return { result: await run(), commands };
  } finally {
    spy.mockRestore();
  }
}

/** `count` customers, half of them at broad.example; every third excluded, points with ties. */
function shopRecords(shop: string, count: number): CustomerRecord[] {
  return Array.from({ length: count }, (_, i) =>
    customerRecord({
      shop_id: shop,
      platform_customer_id: String(2000 + i),
      email: i % 2 === 0 ? `Member${i}@Broad.example` : `other${i}@else.example`,
      referral_code: `${shop}-${i}`,
      current_points: (i * 7) % 5,
      status: i % 3 === 0 ? 'excluded' : 'member',
      created_at: new Date(Date.UTC(2025, 0, 1) + i * 60_000).toISOString(),
    }),
  );
}

/** A shop searched by the scan (no index marker), or through the postings its enrolments wrote. */
async function seedShop(shop: string, count: number, through: 'scan' | 'index'): Promise<CustomerRecord[]> {
  const records = shopRecords(shop, count);
  if (through === 'scan') {
    await batchPut(records.map((record) => customerItem(record, 1)));
  } else {
    await markEmailIndexComplete(shop, '2025-01-01T00:00:00.000Z');
    for (const record of records) expect(await createCustomer(record)).toBe('created');
  }
  return records;
}

/** A GetItem of a remembered search's head, by key or by its name in the 'stale' shop. */
const GetHead = (key: string | { pk: string; sk: string }) =>
  new GetCommand({ TableName: tableName(), Key: typeof key === 'string' ? keys.emailMatchHead('stale', key) : key });

const idsOf = (page: { records: CustomerRecord[] }) => page.records.map((record) => record.platform_customer_id);

describe('remembered e-mail searches', () => {
  describe.each(['scan', 'index'] as const)('a walk of a broad search found by the %s', (through) => {
    const shop = `walk-${through}`;
    beforeAll(async () => {
      await seedShop(shop, 46, through);
    });

    it.each([
      { sort: 'created_at', descending: true },
      { sort: 'points', descending: false },
      { sort: 'points', descending: true, status: 'member' },
    ] as Array<Pick<CustomerListQuery, 'sort' | 'descending' | 'status'>>)(
      'serves the slices of one evaluation, with its exact total, and evaluates only the first page (%o)',
      async (order) => {
        const query: CustomerListQuery = { ...order, emailContains: 'broad.ex', offset: 0, limit: 4 };
        const whole = await listCustomers(shop, { ...query, limit: 100 }, { matchMemory: false });
        expect(whole.total).toBeGreaterThan(8);

        const first = await commandsOf(() => listCustomers(shop, query));
        expect(first.commands).toContain('BatchWriteCommand');
        const walked: string[] = [];
        walked.push(...idsOf(first.result));
        for (let offset = query.limit; offset < whole.total! + query.limit; offset += query.limit) {
          const page = await commandsOf(() => listCustomers(shop, { ...query, offset }));
          // The set's head and chunk, then the page's profiles: no Query, nothing written.
          expect(page.commands).toEqual(offset < whole.total! ? ['BatchGetCommand', 'BatchGetCommand'] : ['BatchGetCommand']);
          expect(page.result.total).toBe(whole.total);
          walked.push(...idsOf(page.result));
        }
        expect(walked).toEqual(idsOf(whole));
      },
    );
  });

  it('remembers nothing for a search of one page, and evaluates its first page every time', async () => {
    const shop = 'one-page';
    await seedShop(shop, 12, 'scan');
    const query: CustomerListQuery = { sort: 'created_at', descending: false, emailContains: 'broad', offset: 0, limit: 25 };

    const first = await commandsOf(() => listCustomers(shop, query));
    expect(first.result.total).toBe(6);
    expect(first.commands).not.toContain('BatchWriteCommand');
    const wide = await listCustomers(shop, { ...query, limit: 2 });
    const again = await commandsOf(() => listCustomers(shop, { ...query, limit: 2 }));
    expect(again.commands).toContain('QueryCommand');
    expect(idsOf(again.result)).toEqual(idsOf(wide));
  });

  it('cuts a large set into chunks and reads back any slice of it, across chunk edges and past its end', async () => {
    const ids = Array.from({ length: 53 }, (_, i) => String(900_000_000_000 + i * 3));
    await rememberMatchSet('chunks', 'large', ids, 7);

    for (const limit of [1, 3, 7, 10]) {
      for (let offset = 0; offset < 60; offset += 1) {
        expect(await readRememberedSlice('chunks', 'large', offset, limit, 7)).toEqual({
          ids: ids.slice(offset, offset + limit),
          total: 53,
        });
      }
    }
    // A smaller evaluation since: its own ids and total, never the chunks the larger one left.
    const fewer = ids.slice(0, 20).reverse();
    await rememberMatchSet('chunks', 'large', fewer, 7);
    expect(await readRememberedSlice('chunks', 'large', 14, 10, 7)).toEqual({ ids: fewer.slice(14), total: 20 });
    expect(await readRememberedSlice('chunks', 'large', 28, 7, 7)).toEqual({ ids: [], total: 20 });
  });

  it('uses no set whose head expired or whose chunks are of another evaluation', async () => {
    const ids = Array.from({ length: 30 }, (_, i) => String(100 + i));
    await rememberMatchSet('stale', 'expired', ids, 10);
    await rememberMatchSet('stale', 'mixed', ids, 10);
    const head = async (search: string) => (await documentClient().send(GetHead(search))).Item!;

    // Expired, not yet deleted by the table's TTL.
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...(await head('expired')), [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) - 1 } }),
    );
    expect(await readRememberedSlice('stale', 'expired', 10, 5, 10)).toBeNull();
    // One chunk rewritten by another evaluation.
    const chunk = keys.emailMatchChunk('stale', 'mixed', 1);
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...chunk, evaluation: 'another', ids: ids.slice(10, 20) } }),
    );
    expect(await readRememberedSlice('stale', 'mixed', 0, 5, 10)).toEqual({ ids: ids.slice(0, 5), total: 30 });
    expect(await readRememberedSlice('stale', 'mixed', 8, 5, 10)).toBeNull();
    expect(await readRememberedSlice('stale', 'absent', 8, 5, 10)).toBeNull();
  });

  it('evaluates a later page again once its set expired, and remembers the new evaluation', async () => {
    const shop = 'expiry';
    await seedShop(shop, 20, 'scan');
    const query: CustomerListQuery = { sort: 'created_at', descending: false, emailContains: 'broad', offset: 0, limit: 3 };
    await listCustomers(shop, query);
    const key = keys.emailMatchHead(shop, searchName({ emailContains: 'broad', sort: 'created_at', descending: false }));
    const { Item: head } = await documentClient().send(GetHead(key));
    expect(Number(head![TTL_ATTRIBUTE]) - Date.now() / 1000).toBeLessThanOrEqual(MATCH_SET_TTL_SECONDS);
    await documentClient().send(
      new PutCommand({ TableName: tableName(), Item: { ...head, [TTL_ATTRIBUTE]: Math.floor(Date.now() / 1000) - 1 } }),
    );

    const second = await commandsOf(() => listCustomers(shop, { ...query, offset: 3 }));
    expect(second.commands).toContain('QueryCommand');
    expect(second.commands).toContain('BatchWriteCommand');
    const third = await commandsOf(() => listCustomers(shop, { ...query, offset: 6 }));
    expect(third.commands).not.toContain('QueryCommand');
  });

  it('serves the page when the set cannot be written, and logs it', async () => {
    const shop = 'unwritable';
    await seedShop(shop, 20, 'scan');
    const query: CustomerListQuery = { sort: 'created_at', descending: true, emailContains: 'broad', offset: 0, limit: 3 };
    const expected = await listCustomers(shop, query, { matchMemory: false });
    const warn = jest.spyOn(logger, 'warn').mockImplementation(() => {});
    const client = documentClient();
    const send = client.send.bind(client);
    jest
      .spyOn(client, 'send')
      .mockImplementation(((command: { constructor: { name: string } }) =>
        command.constructor.name === 'BatchWriteCommand'
          ? Promise.reject(new Error('AccessDeniedException'))
          : send(command as never)) as never);

    const page = await listCustomers(shop, query);
    expect(idsOf(page)).toEqual(idsOf(expected));
    expect(page.total).toBe(expected.total);
    expect(warn).toHaveBeenCalledWith('Could not remember the e-mail search matches', expect.anything());
  });

  it('keeps the positions and total of its evaluation while members change during a walk, and leaves out who no longer matches', async () => {
    const shop = 'changing';
    await seedShop(shop, 24, 'index');
    const query: CustomerListQuery = { sort: 'points', descending: true, emailContains: 'broad', offset: 0, limit: 4 };
    const before = await listCustomers(shop, { ...query, limit: 100 }, { matchMemory: false });
    await listCustomers(shop, query);

    // On page 2: one leaves the search (new address), one's points change (the sort value).
    const page2 = before.records.slice(4, 8).map((r) => r.platform_customer_id);
    const leaving = (await getCustomer(shop, page2[0]!))!;
    expect((await updateCustomer(leaving, { email: 'moved@elsewhere.example' }, '2025-02-01T00:00:00.000Z')).written).toBe(true);
    const rising = (await getCustomer(shop, page2[1]!))!;
    await batchPut([customerItem({ ...rising.record, current_points: 1000 }, rising.version + 1)]);
    // And a new member who matches joins.
    const joining = customerRecord({
      shop_id: shop,
      platform_customer_id: '9999',
      email: 'new@broad.example',
      referral_code: 'J1',
      current_points: 9,
    });
    expect(await createCustomer(joining)).toBe('created');

    const walked = await listCustomers(shop, { ...query, offset: 4 });
    expect(idsOf(walked)).toEqual(page2.slice(1));
    expect(walked.total).toBe(before.total);
    // Every other page as evaluated: the member whose points changed is not met again, the new one not at all.
    const rest: string[] = [];
    for (let offset = 8; offset < before.total!; offset += 4) rest.push(...idsOf(await listCustomers(shop, { ...query, offset })));
    expect(rest).toEqual(idsOf(before).slice(8));
    expect(rest).not.toContain('9999');

    // Page 1 asked again evaluates the search as it is now.
    const fresh = await listCustomers(shop, query);
    expect(fresh.total).toBe(before.total!);
    expect(idsOf(fresh).slice(0, 2)).toEqual([rising.record.platform_customer_id, '9999']);
  });
});
