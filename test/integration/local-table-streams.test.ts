// Which local tables carry a stream: DynamoDB Local's writes to a table with a stream slow down with every
// stream record it holds (see ensureTable), so only the twin's table has one, a test's twin takes its table
// with it when it stops, and every table a test file was given a name for goes when the file ends.
import { DescribeTableCommand, ResourceNotFoundException } from '@aws-sdk/client-dynamodb';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local';
import { createTestTable, dropIssuedTables, testEndpoint, uniqueTableName } from '../support/test-table';
import { startTestTwin } from '../support/twin';

const client = localClient(testEndpoint());
afterAll(() => client.destroy());

const streamOf = async (tableName: string) =>
  (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table?.StreamSpecification ?? null;

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
  expect(await streamOf(kept.tableName)).toMatchObject({ StreamEnabled: true });
  await kept.stop({ keepTable: true });
  expect(await streamOf(kept.tableName)).toMatchObject({ StreamEnabled: true });

  const again = await startTestTwin(config, { tableName: kept.tableName });
  await again.stop();
  await expect(client.send(new DescribeTableCommand({ TableName: kept.tableName }))).rejects.toBeInstanceOf(ResourceNotFoundException);
});

it('a table the file was given a name for is deleted when the file ends, whoever made it', async () => {
  const left = uniqueTableName('left');
  await ensureTable(client, left);
  expect(await streamOf(left)).toMatchObject({ StreamEnabled: true });

  await dropIssuedTables();

  await expect(client.send(new DescribeTableCommand({ TableName: left }))).rejects.toBeInstanceOf(ResourceNotFoundException);
});
