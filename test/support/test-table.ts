// A fresh table per test file in the run's DynamoDB Local, with the handlers' environment pointed at it.
import { randomUUID } from 'node:crypto';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { ensureTable, localClient } from '../../infra/local/dynamodb-local';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, resetDocumentClient, tableName } from '../../shared/data/client';
import { clearShopCatalogCache } from '../../shared/shops/shop-catalog';
import { setEnvironment, type EnvironmentVariables } from './environment';

export function testEndpoint(): string {
  const endpoint = process.env.TEST_DYNAMODB_ENDPOINT;
  if (!endpoint) throw new Error('TEST_DYNAMODB_ENDPOINT is not set: run the tests through jest (global setup)');
  return endpoint;
}

/** The table names this test file was given: each is deleted when the file ends (test/support/drop-tables.ts). */
const issued = new Set<string>();

export function uniqueTableName(prefix = 'test'): string {
  const name = `${prefix}-${randomUUID().slice(0, 8)}`;
  issued.add(name);
  return name;
}

/**
 * Deletes every table this file was given a name for that still exists: a twin started with `npm start` or
 * `startTwin` on it leaves it behind, and the stream records of a table left in the run's DynamoDB Local slow
 * every later write to a table with a stream (see ensureTable).
 */
export async function dropIssuedTables(): Promise<void> {
  if (issued.size === 0) return;
  const client = localClient(testEndpoint());
  try {
    for (const name of issued) await client.send(new DeleteTableCommand({ TableName: name })).catch(() => undefined);
  } finally {
    issued.clear();
    client.destroy();
  }
}

/**
 * Creates a table and points TABLE_NAME / DYNAMODB_ENDPOINT at it, with any further settings the
 * code under test needs; `drop` deletes it and puts the environment back.
 */
export async function createTestTable(
  options: { environment?: EnvironmentVariables } = {},
): Promise<{ tableName: string; drop(): Promise<void> }> {
  const endpoint = testEndpoint();
  const tableName = uniqueTableName();
  const restoreEnvironment = setEnvironment({
    TABLE_NAME: tableName,
    DYNAMODB_ENDPOINT: endpoint,
    SHOP_CONFIG_TTL_SECONDS: '0',
    ...options.environment,
  });
  resetDocumentClient();
  clearShopCatalogCache();
  const client = localClient(endpoint);
  // No stream: nothing reads one here, and DynamoDB Local's writes slow down with every stream record it holds.
  await ensureTable(client, tableName, { stream: false });
  return {
    tableName,
    drop: async () => {
      resetDocumentClient();
      await client.send(new DeleteTableCommand({ TableName: tableName })).catch(() => undefined);
      client.destroy();
      restoreEnvironment();
    },
  };
}

/** Every item of the current table: a Scan returns at most 1 MB, so this follows LastEvaluatedKey to the end. */
export async function scanAll(): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(new ScanCommand({ TableName: tableName(), ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}
