// A test file's own DynamoDB Local for the tables that carry a stream (a twin's). DynamoDB Local keeps the
// stream records of every table it ever had, deleted tables included, and each write to a table with a stream
// slows down with all it holds: 1 000 puts take 1.6 s on a fresh DynamoDB Local and 6.6 s once a deleted table
// left 15 000 records behind (measured here). The run's DynamoDB Local therefore holds only tables without a
// stream (test-table.ts); a file that starts twins gets a fresh one, started on first use and stopped by the
// test environment (test/support/test-environment.js) after the file's own hooks, twins' stops included.
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

/** Where the test environment finds the file's DynamoDB Local to stop it. */
export const FILE_DYNAMODB_LOCAL = '__loyaltyFileDynamoDbLocal';

type Holder = Record<typeof FILE_DYNAMODB_LOCAL, Promise<DynamoDbLocal> | undefined>;

/** The endpoint of this test file's DynamoDB Local for tables with a stream, started on first call. */
export async function streamEndpoint(): Promise<string> {
  const holder = globalThis as unknown as Holder;
  holder[FILE_DYNAMODB_LOCAL] ??= startDynamoDbLocal();
  return (await holder[FILE_DYNAMODB_LOCAL]).endpoint;
}

/** `npm start`'s arguments for a twin on `port` with its table `table` in this file's DynamoDB Local, then `more`. */
export async function npmStartArgs(port: number, table: string, ...more: string[]): Promise<string[]> {
  return ['start', '--', '--port', String(port), '--dynamodb-endpoint', await streamEndpoint(), '--table', table, ...more];
}
