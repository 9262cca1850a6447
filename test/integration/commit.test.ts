// The one commit path on DynamoDB Local: the change and its events commit together or not at all, a refusal
// names the write refused with the item as it stood, 100 writes (events counted) are one transaction, and a
// request token makes a repeated call a no-op instead of a refusal.
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { commit, namedWrite, TRANSACTION_LIMIT, type Refusal } from '../../shared/data/commit';
import { domainEventKey } from '../../shared/data/items/domain-event';
import type { DomainEvent } from '../../shared/domain/events';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

let drop: () => Promise<void>;
beforeAll(async () => {
  ({ drop } = await createTestTable());
});
afterAll(async () => {
  await drop();
});

const put = (name: string, pk: string, fields: Record<string, unknown> = {}, condition?: string) =>
  namedWrite(name, {
    Put: {
      TableName: tableName(),
      Item: { pk, sk: 'x', ...fields },
      ...(condition ? { ConditionExpression: condition, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' as const } : {}),
    },
  });
const event = (id: string, fields: Record<string, unknown> = {}): DomainEvent => ({
  type: 'points.earned',
  shop_id: 'shop-c',
  customer_id: '1001',
  occurred_at: '2026-11-27T10:00:00.000Z',
  id,
  ...fields,
});
const read = async (key: { pk: string; sk: string }) =>
  (await documentClient().send(new GetCommand({ TableName: tableName(), Key: key }))).Item;

it('records the events with the change, each under its id with notify', async () => {
  const outcome = await commit([put('write balance', 'BALANCE#1', { points: 10 })], {
    events: [event('int-1'), event('int-2', { send_email: false })],
  });

  expect(outcome).toEqual({ committed: true });
  expect(await read({ pk: 'BALANCE#1', sk: 'x' })).toMatchObject({ points: 10 });
  expect((await read(domainEventKey('shop-c', 'int-1')))?.event).toMatchObject({ id: 'int-1', notify: true, type: 'points.earned' });
  expect((await read(domainEventKey('shop-c', 'int-2')))?.event).toMatchObject({ id: 'int-2', notify: false });
});

it('leaves no event of a refused change, and names the refused write with the item as it stood', async () => {
  await commit([put('write balance', 'BALANCE#2', { points: 5 })]);

  const outcome = await commit(
    [put('record entry', 'ENTRY#2'), withCost(put('deduct points', 'BALANCE#2', { points: 0 }, 'points >= :cost'), 50)],
    {
      events: [event('int-refused')],
    },
  );

  expect(outcome.committed).toBe(false);
  const refusal = (outcome as { refusal: Refusal }).refusal as Extract<Refusal, { kind: 'condition' }>;
  expect(refusal.kind).toBe('condition');
  expect(refusal.failed).toEqual(['deduct points']);
  expect(refusal.current('deduct points')).toMatchObject({ pk: 'BALANCE#2', points: 5 });
  expect(await read(domainEventKey('shop-c', 'int-refused'))).toBeUndefined();
  expect(await read({ pk: 'ENTRY#2', sk: 'x' })).toBeUndefined();
});

it('commits 100 writes with the events counted in one transaction', async () => {
  const writes = Array.from({ length: TRANSACTION_LIMIT - 1 }, (_, n) => put('write item', `MANY#${n}`));

  const outcome = await commit(writes, { events: [event('int-many')] });

  expect(outcome).toEqual({ committed: true });
  expect(await read({ pk: 'MANY#98', sk: 'x' })).toBeDefined();
  expect(await read(domainEventKey('shop-c', 'int-many'))).toBeDefined();
});

it('takes a repeated call with the same request token as done, not as a refusal of its create-only writes', async () => {
  const writes = [put('create once', 'ONCE#1', {}, 'attribute_not_exists(pk)')];
  const events = [event('int-token')];

  const first = await commit(writes, { events, token: 'token-int-1' });
  const again = await commit(writes, { events, token: 'token-int-1' });
  const withoutToken = await commit(writes, { events });

  expect(first).toEqual({ committed: true });
  expect(again).toEqual({ committed: true });
  expect(withoutToken.committed).toBe(false);
});

/** The write with its condition's value: the cost it must cover. */
function withCost(write: ReturnType<typeof put>, cost: number) {
  return namedWrite(write.name, { Put: { ...write.request.Put!, ExpressionAttributeValues: { ':cost': cost } } });
}
