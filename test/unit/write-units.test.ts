// The bench's write-cost accounting (bench/write-units.ts, bench/write-cost.ts): item sizes, write units and
// index writes by DynamoDB's published rules, and a path's figures without its event items and with them.
import { marshall } from '@aws-sdk/util-dynamodb';
import { writePathCost } from '../../bench/write-cost';
import type { RecordedCall, RecordedItem } from '../../bench/write-recorder';
import { indexWrites, itemSize, itemWriteCost, numberSize, unitsOf, type StoredItem } from '../../bench/write-units';
import { domainEventItem } from '../../shared/data/items/domain-event';

const stored = (item: Record<string, unknown>): StoredItem => marshall(item, { removeUndefinedValues: true }) as StoredItem;

describe('item sizes (DynamoDB item sizes and formats)', () => {
  it('counts names and values: strings in UTF-8 bytes, numbers by significant digits, Booleans and nulls 1 byte', () => {
    expect(itemSize(stored({ pk: 'ab' }))).toBe(4);
    expect(itemSize(stored({ name: 'é' }))).toBe(4 + 2);
    expect(numberSize('123')).toBe(3);
    expect(numberSize('0.0012300')).toBe(3);
    expect(numberSize('-1234')).toBe(3);
    expect(numberSize('0')).toBe(2);
    expect(itemSize(stored({ ok: true, no: null }))).toBe(2 + 1 + 2 + 1);
  });

  it('adds 3 bytes to a list or map and 1 to each element', () => {
    // "m" (1) + 3 + element "a" (1 + 1 name + 1 value)
    expect(itemSize(stored({ m: { a: 'x' } }))).toBe(1 + 3 + 1 + 1 + 1);
    expect(itemSize(stored({ l: ['x', 'yz'] }))).toBe(1 + 3 + (1 + 1) + (1 + 2));
  });
});

describe('write units', () => {
  it('rounds each item up to the next KB: 1 unit a KB alone, 2 in a transaction, one KB at least', () => {
    expect(unitsOf(1, 1)).toBe(1);
    expect(unitsOf(1024, 2)).toBe(2);
    expect(unitsOf(1025, 2)).toBe(4);
    expect(unitsOf(0, 1)).toBe(1);
  });

  it('prices an update on the larger of the item before and after, and a condition check at no write unit', () => {
    const small = stored({ pk: 'P', sk: 'S' });
    const large = stored({ pk: 'P', sk: 'S', blob: 'x'.repeat(1500) });
    expect(itemWriteCost('Update', large, small, true)).toMatchObject({ bytes: itemSize(large), tableUnits: 4, units: 4 });
    expect(itemWriteCost('Update', small, large, false)).toMatchObject({ tableUnits: 2, units: 2 });
    expect(itemWriteCost('ConditionCheck', small, small, true)).toMatchObject({ tableUnits: 0, units: 0 });
  });

  it("prices an event item of a transaction at 2 units, in no index: the event's whole extra cost", () => {
    const event = stored(
      domainEventItem({
        type: 'points.adjusted',
        id: '0b7a7d3e-6c59-4a8f-9a43-2f0a8e0f5d11',
        shop_id: 'demo',
        customer_id: '1001',
        requested_adjustment: 10,
        adjustment: 10,
        points_before: 10,
        points_after: 20,
        lifetime_points: 20,
        earning_history_entry_id: 'e-1',
        send_email: false,
        occurred_at: '2027-01-04T10:00:00.000Z',
        notify: false,
      }),
    );
    expect(itemSize(event)).toBeLessThan(1024);
    expect(itemWriteCost('Put', null, event, true)).toEqual({
      action: 'Put',
      transactional: true,
      bytes: itemSize(event),
      tableUnits: 2,
      indexes: [],
      units: 2,
    });
  });
});

describe('index writes (GSI.html#GSI.Writes)', () => {
  const profile = (points: number) =>
    stored({
      pk: 'SHOP#s#C#1',
      sk: 'PROFILE',
      list_pk: 'SHOP#s#LIST#member',
      created_at: '2026-01-01T00:00:00.000Z',
      current_points: points,
      lifetime_points: points,
      redeemed_points: 0,
      email_pk: 'SHOP#s#EMAIL#a@example.com',
      email_lc: 'a@example.com',
    });

  it("moves a profile whose points change in the points indexes (2 writes each) and rewrites it in the e-mail index: the burst's 10 units", () => {
    const writes = indexWrites(profile(10), profile(20), 2);
    expect(writes.map(({ index, kind, writes: count }) => [index, kind, count])).toEqual([
      ['gsi_customers_points', 'move', 2],
      ['gsi_customers_lifetime_points', 'move', 2],
      ['gsi_customers_email', 'update', 1],
    ]);
    expect(writes.reduce((sum, write) => sum + write.units, 0)).toBe(10);
  });

  it('puts a new earning entry in its three history indexes, and a deleted item leaves the indexes it was in', () => {
    const entry = stored({ pk: 'SHOP#s#C#1', sk: 'EARN#e', earn_created_at: '2026-01-01', earn_points: 5, earn_given_at: '2026-01-01' });
    expect(itemWriteCost('Put', null, entry, true)).toMatchObject({ tableUnits: 2, units: 8 });
    expect(indexWrites(entry, null, 1).map((write) => write.kind)).toEqual(['delete', 'delete', 'delete']);
  });

  it('writes nothing to an index when no attribute it holds changed', () => {
    const before = { ...profile(10), note: { S: 'a' } };
    const after = { ...profile(10), note: { S: 'b' } };
    // Only the e-mail index projects every attribute.
    expect(indexWrites(before, after, 1).map((write) => write.index)).toEqual(['gsi_customers_email']);
  });
});

describe("a path's figures", () => {
  const item = (event: boolean, units: number): RecordedItem => ({
    key: { pk: event ? 'DOMAIN_EVENT#s#1' : 'SHOP#s#C#1', sk: event ? 'DOMAIN_EVENT' : 'PROFILE' },
    event,
    bytesAfter: event ? 400 : 300,
    ...(event ? { eventType: 'points.adjusted' } : {}),
    action: 'Put',
    transactional: true,
    bytes: 300,
    tableUnits: units,
    indexes: [],
    units,
  });

  it('leaves the event items out of "before" and keeps every call', () => {
    const calls: RecordedCall[] = [
      { command: 'UpdateItemCommand', refused: false, items: [{ ...item(false, 2), transactional: false }] },
      { command: 'TransactWriteItemsCommand', refused: false, items: [item(false, 12), item(false, 8), item(true, 2)] },
      { command: 'GetItemCommand', refused: false, items: [] },
    ];
    expect(writePathCost('adjust', calls)).toEqual({
      path: 'adjust',
      calls: 3,
      callsByCommand: { UpdateItem: 1, TransactWriteItems: 1, GetItem: 1 },
      transactions: 1,
      itemsBefore: 3,
      itemsAfter: 4,
      transactionItemsBefore: 2,
      transactionItemsAfter: 3,
      wcuBefore: 22,
      wcuAfter: 24,
      events: [{ type: 'points.adjusted', bytes: 400, units: 2 }],
      refused: 0,
    });
  });
});
