// The one commit path against a fake client: what a cancelled transaction means (which named write was
// refused, the item as it stood, a conflict), what is not a refusal (throttling, any other error: thrown as
// raised), DynamoDB's 100-write limit counting the events, the request token, and the events' own writes.
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { commit, commitOne, namedWrite, TRANSACTION_LIMIT, type Refusal } from '../../shared/data/commit';
import { actingAs } from '../../shared/runtime/acting-staff';
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

    expect(cancelledForIt).toEqual({ committed: false, refusal: { kind: 'conflict', failed: ['b'] } });
    expect(refusedOutright).toEqual({ committed: false, refusal: { kind: 'conflict', failed: ['a'] } });
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

describe('commitOne', () => {
  const update = (name: string) =>
    namedWrite(name, {
      Update: {
        TableName: 'unit-table',
        Key: { pk: 'SHOP#shop-a#C#1001', sk: name },
        UpdateExpression: 'ADD #a0 :a0',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#a0': 'count' },
        ExpressionAttributeValues: { ':a0': 1 },
        ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
      },
    });
  const refused = (name: string, item?: Record<string, unknown>) =>
    Object.assign(new Error('refused'), { name, ...(item ? { Item: marshall(item) } : {}) });
  const commandName = (command: unknown) => (command as { constructor: { name: string } }).constructor.name;

  it('sends one write as the single-item request it is, never a transaction', async () => {
    await commitOne(write('put'));
    await commitOne(update('update'));
    await commitOne(namedWrite('delete', { Delete: { TableName: 'unit-table', Key: { pk: 'd', sk: 'x' } } }));

    expect(sent.map(commandName)).toEqual(['PutCommand', 'UpdateCommand', 'DeleteCommand']);
    expect((sent[1]!.input as unknown as { ReturnValues?: string }).ReturnValues).toBeUndefined();
  });

  it("names the refused write with the item as it stood, and a conflict with the write's name", async () => {
    answer = () => refused('ConditionalCheckFailedException', { pk: 'count', count: 3 });
    const condition = await commitOne(update('count a redemption'));
    answer = () => refused('ConditionalCheckFailedException');
    const withoutItem = await commitOne(update('count a redemption'));
    answer = () => refused('TransactionConflictException');
    const conflict = await commitOne(update('count a redemption'));

    const refusal = (condition as { refusal: Extract<Refusal, { kind: 'condition' }> }).refusal;
    expect(refusal.failed).toEqual(['count a redemption']);
    expect(refusal.current('count a redemption')).toEqual({ pk: 'count', count: 3 });
    expect(refusal.current('another write')).toBeNull();
    expect((withoutItem as { refusal: Extract<Refusal, { kind: 'condition' }> }).refusal.current('count a redemption')).toBeNull();
    expect(conflict).toEqual({ committed: false, refusal: { kind: 'conflict', failed: ['count a redemption'] } });
  });

  it('answers the item as written when asked, and throws any other error as raised', async () => {
    answer = () => ({ Attributes: { pk: 'count', count: 4 } });
    const written = await commitOne(update('count'), { returnItem: true });
    const updateSent = sent[0]!.input as unknown as { ReturnValues?: string };
    const throttled = refused('ProvisionedThroughputExceededException');
    answer = () => throttled;
    const thrown = await commitOne(update('count')).catch((error: unknown) => error);

    expect(written).toEqual({ committed: true, item: { pk: 'count', count: 4 } });
    expect(updateSent.ReturnValues).toBe('ALL_NEW');
    expect(thrown).toBe(throttled);
  });

  it('refuses a condition check, which writes nothing alone', async () => {
    const check = namedWrite('check the code', {
      ConditionCheck: { TableName: 'unit-table', Key: { pk: 'c', sk: 'x' }, ConditionExpression: 'attribute_exists(pk)' },
    });

    await expect(commitOne(check)).rejects.toThrow("'check the code' is a condition check: it belongs in a transaction");
    expect(sent).toHaveLength(0);
  });

  it("commits a staff request's write in a transaction with the audit item, unless the write is no staff change", async () => {
    const staff = { actor: { type: 'staff' as const, id: 'gid://shopify/StaffMember/1' }, request: 'PATCH /admin/api/v1/x' };

    await actingAs(staff, () => commitOne(update('count')));
    await actingAs(staff, () => commitOne(update('count'), { audit: false }));

    expect(sent.map(commandName)).toEqual(['TransactWriteCommand', 'UpdateCommand']);
    expect(sent[0]!.input.TransactItems!.map((item) => item.Put?.Item?.writes ?? 'change')).toEqual(['change', ['count']]);
  });
});
