// The one commit path against a fake client: what a cancelled transaction means (which named write was
// refused, the item as it stood, a conflict), what is not a refusal (throttling, any other error: thrown as
// raised), DynamoDB's 100-write limit counting the events, the request token, and the events' own writes.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { commit, namedWrite, TRANSACTION_LIMIT, type Refusal } from '../../shared/data/commit';
import { resetDocumentClient } from '../../shared/data/client';
import type { DomainEvent } from '../../shared/domain/events';
import { useEnvironment } from '../support/environment';

useEnvironment({ TABLE_NAME: 'unit-table', DYNAMODB_ENDPOINT: 'http://127.0.0.1:1' });

const write = (name: string) => namedWrite(name, { Put: { TableName: 'unit-table', Item: { pk: name, sk: 'x' } } });
const event = (id?: string): DomainEvent => ({
  type: 'points.earned',
  shop_id: 'shop-a',
  customer_id: '1001',
  occurred_at: '2026-11-27T10:00:00.000Z',
  ...(id ? { id } : {}),
});

let sent: TransactWriteCommand[];
let answer: () => unknown;

beforeEach(() => {
  resetDocumentClient();
  sent = [];
  answer = () => ({});
  jest.spyOn(DynamoDBDocumentClient.prototype, 'send').mockImplementation((async (command: TransactWriteCommand) => {
    sent.push(command);
    const outcome = answer();
    if (outcome instanceof Error) throw outcome;
    return outcome;
  }) as never);
});
afterEach(() => jest.restoreAllMocks());

const cancelled = (...reasons: Array<{ Code: string; Item?: Record<string, unknown> }>) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled',
    $metadata: {},
    CancellationReasons: reasons.map((reason) => ({ Code: reason.Code, ...(reason.Item ? { Item: marshall(reason.Item) } : {}) })),
  });

describe('commit', () => {
  it('names the refused writes in the order given, with the item as it stood for each', async () => {
    answer = () =>
      cancelled(
        { Code: 'None' },
        { Code: 'ConditionalCheckFailed', Item: { pk: 'balance', current_points: 3 } },
        { Code: 'None' },
        { Code: 'ConditionalCheckFailed' },
      );

    const outcome = await commit([write('record entry'), write('deduct points'), write('count'), write('claim code')]);

    expect(outcome.committed).toBe(false);
    const refusal = (outcome as { refusal: Refusal }).refusal;
    expect(refusal).toMatchObject({ kind: 'condition', failed: ['deduct points', 'claim code'] });
    const condition = refusal as Extract<Refusal, { kind: 'condition' }>;
    expect(condition.current('deduct points')).toEqual({ pk: 'balance', current_points: 3 });
    expect(condition.current('claim code')).toBeNull();
    expect(condition.current('record entry')).toBeNull();
  });

  it('answers a conflict with another transaction as a conflict, whether cancelled for it or refused outright', async () => {
    answer = () => cancelled({ Code: 'None' }, { Code: 'TransactionConflict' });
    const cancelledForIt = await commit([write('a'), write('b')]);
    answer = () => Object.assign(new Error('conflict'), { name: 'TransactionConflictException' });
    const refusedOutright = await commit([write('a')]);

    expect(cancelledForIt).toEqual({ committed: false, refusal: { kind: 'conflict' } });
    expect(refusedOutright).toEqual({ committed: false, refusal: { kind: 'conflict' } });
  });

  it('throws throttling, and any other error, as DynamoDB raised it', async () => {
    const throttled = cancelled({ Code: 'ThrottlingError' }, { Code: 'None' });
    answer = () => throttled;
    const cancelledForThrottling = await commit([write('a'), write('b')]).catch((error: unknown) => error);
    const exceeded = Object.assign(new Error('rate exceeded'), { name: 'ProvisionedThroughputExceededException' });
    answer = () => exceeded;
    const throughput = await commit([write('a')]).catch((error: unknown) => error);

    expect(cancelledForThrottling).toBe(throttled);
    expect(throughput).toBe(exceeded);
  });

  it('takes 100 writes with the events counted, and refuses 101 before calling DynamoDB, naming what was given', async () => {
    const writes = Array.from({ length: TRANSACTION_LIMIT - 2 }, () => write('move points'));

    await commit(writes, { events: [event(), event()] });
    const over = await commit([...writes, write('record entry')], { events: [event(), event()] }).catch((error: Error) => error.message);

    expect(sent).toHaveLength(1);
    expect(sent[0]!.input.TransactItems).toHaveLength(100);
    expect(over).toBe(
      'A transaction takes at most 100 writes; 101 were given (98 × move points, 1 × record entry, 2 × record event points.earned)',
    );
  });

  it('sends a new request token with each call unless the caller gives one', async () => {
    await commit([write('a')]);
    await commit([write('a')]);
    await commit([write('a')], { token: 'attempt-7' });

    const tokens = sent.map((command) => command.input.ClientRequestToken);
    expect(tokens[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(tokens[1]).not.toBe(tokens[0]);
    expect(tokens[2]).toBe('attempt-7');
  });

  it('records each event in the same transaction, after the change, as a create-only item with its id and notify', async () => {
    await commit([write('a')], { events: [event('event-1'), { ...event(), send_email: false } as DomainEvent] });

    const items = sent[0]!.input.TransactItems!;
    expect(items[0]).toEqual(write('a').request);
    const recorded = items.slice(1).map((item) => item.Put!);
    expect(recorded.map((put) => put.ConditionExpression)).toEqual(['attribute_not_exists(pk)', 'attribute_not_exists(pk)']);
    expect(recorded[0]!.Item).toMatchObject({
      pk: 'DOMAIN_EVENT#shop-a#event-1',
      sk: 'DOMAIN_EVENT',
      event: { id: 'event-1', notify: true },
    });
    const second = recorded[1]!.Item!.event as { id: string; notify: boolean };
    expect(second.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(second.notify).toBe(false);
  });

  it('commits nothing and calls nothing for no writes', async () => {
    expect(await commit([])).toEqual({ committed: true });
    expect(sent).toHaveLength(0);
  });
});
