// The bench's write-cost section end to end (bench/write-cost.ts): every write path runs on its twin and does
// its work, and the accounting holds on each: an adjustment's transaction carries exactly one event item that
// adds 2 write units, every event item (under 1 KB, in no index) adds 2, and a write without events costs the
// same before and after. A path that stopped writing, a commit whose events went missing or a recorder that
// stopped telling events apart fails here.
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { writeCostBench, WRITE_PATHS, type WriteCostFigures, type WritePathCost } from '../../bench/write-cost';
import { localClient } from '../../infra/local/dynamodb-local';
import { testEndpoint, uniqueTableName } from '../support/test-table';

jest.setTimeout(240_000);

const TABLE = uniqueTableName('writes');
let figures: WriteCostFigures;
const row = (path: string): WritePathCost => {
  const found = figures.paths.find((candidate) => candidate.path === path);
  if (!found) throw new Error(`no row ${path}`);
  return found;
};

beforeAll(async () => {
  figures = await writeCostBench({ dynamodbEndpoint: testEndpoint(), tableName: TABLE });
});
afterAll(async () => {
  // The twin's table has a stream: it goes with the test, as a test twin's does, so its records slow no later test.
  const client = localClient(testEndpoint());
  await client.send(new DeleteTableCommand({ TableName: TABLE })).catch(() => undefined);
  client.destroy();
});

it('runs every write path, and each does its work', () => {
  expect(figures.failures).toEqual([]);
  expect(figures.paths.map((path) => path.path)).toEqual(WRITE_PATHS.map((path) => path.path));
  for (const path of figures.paths) expect({ path: path.path, wrote: path.wcuBefore > 0 }).toEqual({ path: path.path, wrote: true });
});

it("prices an adjustment's one event item at 2 write units: its update and its transaction, the event the transaction's one extra item", () => {
  const adjustment = row('POST /customers/{id}/points (adjustment)');
  expect(adjustment).toMatchObject({
    calls: 2,
    callsByCommand: { UpdateItem: 1, TransactWriteItems: 1 },
    transactions: 1,
    refused: 0,
    events: [expect.objectContaining({ type: 'points.adjusted', units: 2 })],
  });
  expect(adjustment.transactionItemsAfter - adjustment.transactionItemsBefore).toBe(1);
  expect(adjustment.wcuAfter - adjustment.wcuBefore).toBe(2);
});

it('adds 2 write units per event item on every path, and nothing where no event is committed', () => {
  for (const path of figures.paths) {
    expect({ path: path.path, extra: path.wcuAfter - path.wcuBefore, items: path.itemsAfter - path.itemsBefore }).toEqual({
      path: path.path,
      extra: 2 * path.events.length,
      items: path.events.length,
    });
    for (const event of path.events) expect(event.bytes).toBeLessThan(1024);
  }
  expect(row('POST /customers (enrol, signup award)').events.map((event) => event.type)).toEqual(['customer.enrolled', 'points.earned']);
  expect(row('PUT /customers/{id} (anniversary: fields only)').events).toEqual([]);
});
