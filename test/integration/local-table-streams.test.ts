// Which local tables carry a stream, and where: DynamoDB Local's writes to a table with a stream slow down
// with every stream record it holds, deleted tables' included (see ensureTable), so only the twin's table has
// one, a test's twins live in a DynamoDB Local apart (stream-dynamodb.ts), which the test environment lends to a
// few files and then replaces, and every table a test file was given a name for goes when the file ends.
import { DescribeTableCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local';
import { createTestTable, dropIssuedTables, testEndpoint, uniqueTableName } from '../support/test-table';
import { streamEndpoint } from '../support/stream-dynamodb';
import { startTestTwin } from '../support/twin';
// eslint-disable-next-line @typescript-eslint/no-require-imports -- jest loads the environment as CommonJS
const LoyaltyTestEnvironment = require('../support/test-environment.js');

const client = localClient(testEndpoint());
afterAll(() => client.destroy());

const streamOf = async (tableName: string, on = client) =>
  (await on.send(new DescribeTableCommand({ TableName: tableName }))).Table?.StreamSpecification ?? null;

it("a table is made with the stack's stream unless asked for none", async () => {
  const withStream = uniqueTableName('streamed');
  const without = uniqueTableName('plain');
  expect(await ensureTable(client, withStream)).toBe('created');
  expect(await ensureTable(client, without, { stream: false })).toBe('created');
  expect(await streamOf(withStream)).toEqual({ StreamEnabled: true, StreamViewType: 'NEW_IMAGE' });
  expect(await streamOf(without)).toBeNull();
});

it('a test table has no stream', async () => {
  const table = await createTestTable();
  try {
    expect(await streamOf(table.tableName)).toBeNull();
  } finally {
    await table.drop();
  }
});

it("a test's twin reads its table's stream, and its table goes when it stops unless kept", async () => {
  const config = {
    shops: [{ id: 'streams', name: 'Streams', currency: 'USD', referral_base_url: 'https://streams.example/', api_keys: [] }],
  };
  const kept = await startTestTwin(config);
  const own = localClient(kept.dynamodbEndpoint);
  try {
    expect(kept.dynamodbEndpoint).toBe(await streamEndpoint());
    expect(kept.dynamodbEndpoint).not.toBe(testEndpoint());
    expect(await streamOf(kept.tableName, own)).toMatchObject({ StreamEnabled: true });
    await kept.stop({ keepTable: true });
    expect(await streamOf(kept.tableName, own)).toMatchObject({ StreamEnabled: true });

    const again = await startTestTwin(config, { tableName: kept.tableName });
    await again.stop();
    await expect(own.send(new DescribeTableCommand({ TableName: kept.tableName }))).rejects.toBeInstanceOf(ResourceNotFoundException);
  } finally {
    own.destroy();
  }
});

it('the test environment lends one DynamoDB Local for streamed tables to a few files, then stops it for a fresh one', async () => {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a CommonJS class jest loads untyped
  const PooledEnvironment: any = class extends LoyaltyTestEnvironment {};
  PooledEnvironment.pool = LoyaltyTestEnvironment.createPool();
  const files = LoyaltyTestEnvironment.FILES_PER_INSTANCE as number;
  const environmentOf = () =>
    new PooledEnvironment(
      { globalConfig: {}, projectConfig: { testEnvironmentOptions: {}, setupFiles: [], fakeTimers: {} } },
      { console, docblockPragmas: {}, testPath: __filename },
    );
  const started: Array<{ endpoint: string; stop: jest.Mock }> = [];
  const start = async () => {
    const local = { endpoint: `http://127.0.0.1:${started.length + 1}`, stop: jest.fn(async () => undefined) };
    started.push(local);
    return local;
  };
  const file = async (usesStreams: boolean) => {
    const environment = environmentOf();
    const endpoint = usesStreams ? (await environment.global.__loyaltyStreamDynamoDb(start)).endpoint : null;
    if (usesStreams) expect((await environment.global.__loyaltyStreamDynamoDb(start)).endpoint).toBe(endpoint);
    await environment.teardown();
    return endpoint;
  };

  const endpoints = [];
  for (let index = 0; index < files; index += 1) {
    endpoints.push(await file(true));
    // A file without twins neither starts one nor counts.
    await file(false);
  }
  expect(new Set(endpoints)).toEqual(new Set(['http://127.0.0.1:1']));
  expect(started[0]!.stop).toHaveBeenCalledTimes(1);
  expect(await file(true)).toBe('http://127.0.0.1:2');
  expect(started[1]!.stop).not.toHaveBeenCalled();
  await PooledEnvironment.pool.stop();
  expect(started[1]!.stop).toHaveBeenCalledTimes(1);

  // A file that asks to be alone gets a fresh one, which goes with it.
  expect(await file(true)).toBe('http://127.0.0.1:3');
  const alone = environmentOf();
  expect((await alone.global.__loyaltyStreamDynamoDb(start, { alone: true })).endpoint).toBe('http://127.0.0.1:4');
  expect(started[2]!.stop).toHaveBeenCalledTimes(1);
  await alone.teardown();
  expect(started[3]!.stop).toHaveBeenCalledTimes(1);
  expect(await file(true)).toBe('http://127.0.0.1:5');
  await PooledEnvironment.pool.stop();

  // One that never started (no Java) fails its file, and the next file tries again.
  PooledEnvironment.pool.current = Promise.reject(new Error('no Java'));
  PooledEnvironment.pool.current.catch(() => undefined);
  await expect(PooledEnvironment.pool.stop()).resolves.toBeUndefined();
  expect(PooledEnvironment.pool.current).toBeNull();
});

it('a table the file was given a name for is deleted when the file ends, whoever made it', async () => {
  const left = uniqueTableName('left');
  await ensureTable(client, left);
  expect(await streamOf(left)).toMatchObject({ StreamEnabled: true });

  await dropIssuedTables();

  await expect(client.send(new DescribeTableCommand({ TableName: left }))).rejects.toBeInstanceOf(ResourceNotFoundException);
});
