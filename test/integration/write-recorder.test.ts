// The bench's write recorder (bench/write-recorder.ts) on the one commit path (shared/data/commit.ts) against
// DynamoDB Local: it sees every item of the transaction as DynamoDB stored it, tells the events committed with
// the change from the change's own items, and prices them by DynamoDB's rules; outside a window it records
// nothing. If commit's events stopped reaching the transaction, or the recorder stopped seeing them, the
// event's count and its 2 write units would be missing here.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { writePathCost } from '../../bench/write-cost';
import { writeRecorder, type WriteRecorder } from '../../bench/write-recorder';
import { documentClient, tableName } from '../../shared/data/client';
import { commit, namedWrite } from '../../shared/data/commit';
import type { DomainEvent } from '../../shared/domain/events';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

let drop: () => Promise<void>;
let recorder: WriteRecorder;
beforeAll(async () => {
  ({ drop } = await createTestTable());
  recorder = writeRecorder();
});
afterAll(async () => {
  recorder.stop();
  await drop();
});

const profile = (points: number) =>
  namedWrite('write profile', {
    Put: {
      TableName: tableName(),
      Item: {
        pk: 'SHOP#rec#C#1',
        sk: 'PROFILE',
        list_pk: 'SHOP#rec#LIST#member',
        created_at: '2026-01-01T00:00:00.000Z',
        current_points: points,
        lifetime_points: points,
        redeemed_points: 0,
        email_pk: 'SHOP#rec#EMAIL#a@example.com',
        email_lc: 'a@example.com',
      },
    },
  });
const adjusted: DomainEvent = {
  type: 'points.adjusted',
  shop_id: 'rec',
  customer_id: '1',
  requested_adjustment: 10,
  adjustment: 10,
  points_before: 10,
  points_after: 20,
  lifetime_points: 20,
  earning_history_entry_id: 'e-1',
  send_email: false,
  occurred_at: '2027-01-04T10:00:00.000Z',
};

it('records an adjustment-like commit: one event item beside the change, its extra cost 2 write units', async () => {
  await commit([profile(10)]);

  const { calls } = await recorder.record(() => commit([profile(20)], { events: [adjusted] }));
  const figures = writePathCost('commit', calls);

  expect(calls.map((call) => call.command)).toEqual(['TransactWriteItemsCommand']);
  expect(calls[0]!.items.filter((item) => item.event)).toEqual([
    expect.objectContaining({ eventType: 'points.adjusted', action: 'Put', transactional: true, tableUnits: 2, indexes: [], units: 2 }),
  ]);
  expect(figures).toMatchObject({ transactionItemsBefore: 1, transactionItemsAfter: 2, wcuAfter: figures.wcuBefore + 2 });
  // The profile: 2 units in the table, its two points indexes moved (2 writes of 2 each) and the e-mail index rewritten.
  expect(figures.wcuBefore).toBe(2 + 4 + 4 + 2);
  expect(figures.events[0]!.bytes).toBeGreaterThan(100);
  expect(figures.events[0]!.bytes).toBeLessThan(1024);
});

it('records a refused commit as a refused call with nothing priced, and nothing outside a window', async () => {
  const refused = namedWrite('write profile if absent', {
    Put: { ...profile(30).request.Put!, ConditionExpression: 'attribute_not_exists(pk)' },
  });
  const { calls } = await recorder.record(() => commit([refused], { events: [adjusted] }));
  expect(calls).toEqual([{ command: 'TransactWriteItemsCommand', refused: true, items: [] }]);

  // Outside a window the call goes through as before, and no later window sees it.
  await commit([profile(40)]);
  const { calls: later } = await recorder.record(async () =>
    documentClient().send(new GetCommand({ TableName: tableName(), Key: { pk: 'SHOP#rec#C#1', sk: 'PROFILE' } })),
  );
  expect(later.map((call) => call.command)).toEqual(['GetItemCommand']);
});
