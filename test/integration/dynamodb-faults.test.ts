// The tests' database fault layer (test/support/dynamodb-faults.ts) on the handlers' own client, against
// DynamoDB Local: each fault reaches the SDK as DynamoDB's answer or a network error would, the SDK's retry
// strategy retries it as in AWS (so the layer sits below the retry middleware), a lost answer is lost after
// DynamoDB Local committed, and the draws follow the seed.
import { randomUUID } from 'node:crypto';
import { InternalServerError, ProvisionedThroughputExceededException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { dynamoDbFaults, type DynamoDbFaults, FAULT_KINDS } from '../support/dynamodb-faults';
import { createTestTable } from '../support/test-table';

let table: Awaited<ReturnType<typeof createTestTable>>;
let faults: DynamoDbFaults;

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});
beforeEach(() => {
  faults = dynamoDbFaults({ seed: 7, rates: {} });
  faults.install();
  faults.resume();
});
afterEach(() => {
  faults.uninstall();
});

const key = () => ({ pk: `FAULTS#${randomUUID()}`, sk: 'ITEM' });
const read = async (itemKey: { pk: string; sk: string }) => {
  faults.pause();
  const item = (await documentClient().send(new GetCommand({ TableName: tableName(), Key: itemKey, ConsistentRead: true }))).Item;
  faults.resume();
  return item;
};
/** What the SDK says of a call that failed, or of one that succeeded. */
const outcome = (call: Promise<{ $metadata: { attempts?: number } }>) =>
  call.then(
    (output) => ({ ok: true, name: null as string | null, attempts: output.$metadata.attempts }),
    (error: { name: string; $metadata?: { attempts?: number } }) => ({ ok: false, name: error.name, attempts: error.$metadata?.attempts }),
  );

describe('the database fault layer', () => {
  it('sits below the SDK retry middleware and its signing, above the HTTP handler', () => {
    const order = documentClient().middlewareStack.identify();
    const at = (name: string) => order.findIndex((entry) => entry.startsWith(name));
    expect(at('dynamoDbFaults')).toBeGreaterThan(at('retryMiddleware'));
    expect(at('dynamoDbFaults')).toBeGreaterThan(at('httpSigningMiddleware'));
    expect(at('dynamoDbFaults')).toBeGreaterThan(at('deserializerMiddleware'));
    expect(at('retryMiddleware')).toBeGreaterThanOrEqual(0);
  });

  it('loses the answer of a committed PutItem; the SDK retries it and the retry reaches DynamoDB Local', async () => {
    const itemKey = key();
    faults.script('PutItem', 'dropped_after_commit');

    // The first attempt commits and its answer is lost; the retry finds the item there and is refused by
    // the condition: it did reach DynamoDB Local, after the first had committed.
    const conditional = await outcome(
      documentClient().send(
        new PutCommand({ TableName: tableName(), Item: { ...itemKey, n: 1 }, ConditionExpression: 'attribute_not_exists(pk)' }),
      ),
    );

    expect(conditional).toEqual({ ok: false, name: 'ConditionalCheckFailedException', attempts: 2 });
    expect(await read(itemKey)).toEqual({ ...itemKey, n: 1 });
    expect(faults.report().attempts.PutItem).toBe(2);
    expect(faults.report().injected.dropped_after_commit).toEqual({ PutItem: 1 });

    // Without a condition the retry writes the same item again and the caller sees a success.
    faults.script('PutItem', 'dropped_after_commit');
    const plain = await outcome(documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...itemKey, n: 2 } })));
    expect(plain).toEqual({ ok: true, name: null, attempts: 2 });
    expect(await read(itemKey)).toEqual({ ...itemKey, n: 2 });
  });

  it('doubles a lost ADD update on the retry: what a non-idempotent write does under a lost answer', async () => {
    const itemKey = key();
    faults.script('UpdateItem', 'dropped_after_commit');
    const add = new UpdateCommand({
      TableName: tableName(),
      Key: itemKey,
      UpdateExpression: 'ADD #n :one',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':one': 1 },
    });

    expect(await outcome(documentClient().send(add))).toEqual({ ok: true, name: null, attempts: 2 });
    expect((await read(itemKey))?.n).toBe(2);
  });

  it.each([
    ['with its own ClientRequestToken', { ClientRequestToken: randomUUID() }],
    ['with the token the SDK draws when none is given', {}],
  ])('applies a transaction once when its answer is lost, %s: the retry with the same token is a no-op', async (_, token) => {
    const itemKey = key();
    faults.script('TransactWriteItems', 'dropped_after_commit');
    const transaction = new TransactWriteCommand({
      ...token,
      TransactItems: [
        {
          Update: {
            TableName: tableName(),
            Key: itemKey,
            UpdateExpression: 'ADD #n :one',
            ExpressionAttributeNames: { '#n': 'n' },
            ExpressionAttributeValues: { ':one': 1 },
          },
        },
        { Put: { TableName: tableName(), Item: { ...itemKey, sk: 'ENTRY' }, ConditionExpression: 'attribute_not_exists(pk)' } },
      ],
    });

    expect(await outcome(documentClient().send(transaction))).toEqual({ ok: true, name: null, attempts: 2 });
    expect((await read(itemKey))?.n).toBe(1);
    expect(faults.report().injected.dropped_after_commit).toEqual({ TransactWriteItems: 1 });
  });

  it('throttles as DynamoDB does: the SDK retries with backoff, and after its 3 attempts throws the modelled exception', async () => {
    const itemKey = key();
    faults.script('GetItem', 'throughput_exceeded', 'throttling');
    expect(await outcome(documentClient().send(new GetCommand({ TableName: tableName(), Key: itemKey })))).toEqual({
      ok: true,
      name: null,
      attempts: 3,
    });

    faults.script('GetItem', 'throughput_exceeded', 'throughput_exceeded', 'throughput_exceeded');
    const error = await documentClient()
      .send(new GetCommand({ TableName: tableName(), Key: itemKey }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ProvisionedThroughputExceededException);
    expect((error as ProvisionedThroughputExceededException).$metadata).toMatchObject({ httpStatusCode: 400, attempts: 3 });
    expect((error as ProvisionedThroughputExceededException).$metadata.totalRetryDelay).toBeGreaterThan(0);
    expect(faults.report().injected).toEqual({ throughput_exceeded: { GetItem: 4 }, throttling: { GetItem: 1 } });
  });

  it('answers 500 InternalServerError, retried by the SDK, thrown as the modelled exception after 3', async () => {
    faults.script('GetItem', 'internal_error');
    expect((await outcome(documentClient().send(new GetCommand({ TableName: tableName(), Key: key() })))).attempts).toBe(2);

    faults.script('GetItem', 'internal_error', 'internal_error', 'internal_error');
    const error = await documentClient()
      .send(new GetCommand({ TableName: tableName(), Key: key() }))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(InternalServerError);
    expect((error as InternalServerError).$metadata).toMatchObject({ httpStatusCode: 500, attempts: 3 });
  });

  it('resets the connection before the request reaches DynamoDB Local: nothing is written until the retry', async () => {
    const itemKey = key();
    faults.script('PutItem', 'connection_reset');
    const put = new PutCommand({ TableName: tableName(), Item: itemKey, ConditionExpression: 'attribute_not_exists(pk)' });
    expect(await outcome(documentClient().send(put))).toEqual({ ok: true, name: null, attempts: 2 });

    faults.script('PutItem', 'connection_reset', 'connection_reset', 'connection_reset');
    const error = await documentClient()
      .send(new PutCommand({ TableName: tableName(), Item: key() }))
      .catch((caught: { name: string; code?: string; $metadata?: { attempts?: number } }) => caught);
    expect(error).toMatchObject({ code: 'ECONNRESET', $metadata: { attempts: 3 } });
  });

  it('adds latency in real time inside the call', async () => {
    faults = dynamoDbFaults({ seed: 7, rates: { latency: 1 }, maxLatencyMs: 40 });
    faults.install();
    faults.resume();
    const started = Date.now();
    for (let i = 0; i < 5; i += 1) await documentClient().send(new GetCommand({ TableName: tableName(), Key: key() }));
    const { injected, latencyMs } = faults.report();
    expect(injected.latency).toEqual({ GetItem: 5 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(latencyMs - 5);
  });

  it('draws the same faults from the same seed, at about the rates asked, per command', async () => {
    const run = async (seed: number) => {
      faults.uninstall();
      faults = dynamoDbFaults({
        seed,
        rates: { internal_error: 0.05, connection_reset: 0.05 },
        commands: { PutItem: { dropped_after_commit: 0.2 } },
      });
      faults.install();
      faults.resume();
      let putsFailed = 0;
      for (let i = 0; i < 60; i += 1) {
        await outcome(documentClient().send(new GetCommand({ TableName: tableName(), Key: key() })));
        if (!(await outcome(documentClient().send(new PutCommand({ TableName: tableName(), Item: key() })))).ok) putsFailed += 1;
      }
      return { ...faults.report(), putsFailed };
    };
    const first = await run(11);
    expect(await run(11)).toEqual(first);
    expect(await run(12)).not.toEqual(first);
    // PutItem has its own rates: only lost answers; GetItem only the others.
    expect(Object.keys(first.injected).sort()).toEqual(['connection_reset', 'dropped_after_commit', 'internal_error']);
    expect(first.injected.dropped_after_commit).toEqual({ PutItem: expect.any(Number) });
    expect(first.injected.internal_error).toEqual({ GetItem: expect.any(Number) });
    expect(first.injected.dropped_after_commit!.PutItem).toBeGreaterThan(3);
    // Every lost answer is retried, unless it was the third attempt's.
    expect(first.attempts.PutItem).toBe(60 + first.injected.dropped_after_commit!.PutItem! - first.putsFailed);
  });

  it('leaves out a fault `exempt` names, and counts it as left out', async () => {
    faults.uninstall();
    faults = dynamoDbFaults({
      seed: 3,
      rates: { dropped_after_commit: 1 },
      // The input as the raw client has it: attribute values in DynamoDB's JSON.
      exempt: ({ kind, input }) => kind === 'dropped_after_commit' && (input.Item as { sk?: { S?: string } }).sk?.S === 'EXEMPT',
    });
    faults.install();
    faults.resume();
    expect(
      (await outcome(documentClient().send(new PutCommand({ TableName: tableName(), Item: { ...key(), sk: 'EXEMPT' } })))).attempts,
    ).toBe(1);
    expect(faults.report()).toMatchObject({ injected: {}, exempted: { dropped_after_commit: { PutItem: 1 } } });
  });

  it('passes calls through uncounted while paused, and knows every kind it injects', async () => {
    faults.pause();
    faults.script('GetItem', 'internal_error');
    await documentClient().send(new GetCommand({ TableName: tableName(), Key: key() }));
    expect(faults.report().attempts).toEqual({});
    expect(FAULT_KINDS).toEqual(['throughput_exceeded', 'throttling', 'internal_error', 'connection_reset', 'dropped_after_commit']);
  });
});
