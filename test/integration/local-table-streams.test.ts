// Which local tables carry a stream, and where: DynamoDB Local's writes to a table with a stream slow down
// with every stream record it holds, deleted tables' included (see ensureTable), so only the twin's table has
// one, a test's twins live in the file's own DynamoDB Local (stream-dynamodb.ts), which the test environment
// stops when the file ends, and every table a test file was given a name for goes when the file ends.
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

it("the test environment stops the file's own DynamoDB Local after the file, and runs without one", async () => {
  const environmentOf = () =>
    new LoyaltyTestEnvironment(
      { globalConfig: {}, projectConfig: { testEnvironmentOptions: {}, setupFiles: [], fakeTimers: {} } },
      { console, docblockPragmas: {}, testPath: __filename },
    );
  const withOne = environmentOf();
  const stop = jest.fn(async () => undefined);
  withOne.global.__loyaltyFileDynamoDbLocal = Promise.resolve({ endpoint: 'http://127.0.0.1:1', stop });
  await withOne.teardown();
  expect(stop).toHaveBeenCalledTimes(1);

  const failedToStart = environmentOf();
  failedToStart.global.__loyaltyFileDynamoDbLocal = Promise.reject(new Error('no Java'));
  await expect(failedToStart.teardown()).resolves.toBeUndefined();
  await expect(environmentOf().teardown()).resolves.toBeUndefined();
});

it('a table the file was given a name for is deleted when the file ends, whoever made it', async () => {
  const left = uniqueTableName('left');
  await ensureTable(client, left);
  expect(await streamOf(left)).toMatchObject({ StreamEnabled: true });

  await dropIssuedTables();

  await expect(client.send(new DescribeTableCommand({ TableName: left }))).rejects.toBeInstanceOf(ResourceNotFoundException);
});
