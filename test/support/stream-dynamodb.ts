// The DynamoDB Local for the tables that carry a stream (a twin's). DynamoDB Local keeps the stream records of
// every table it ever had, deleted tables included, and each write to a table with a stream slows down with all
// it holds: 1 000 puts take 1.6 s on a fresh DynamoDB Local and 6.6 s once a deleted table left 15 000 records
// behind (measured here). The run's DynamoDB Local therefore holds only tables without a stream
// (test-table.ts); a file that starts twins borrows one from its worker's pool, which the test environment
// (test/support/test-environment.js) replaces by a fresh one every few files.
import { startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';

type Lend = (start: () => Promise<DynamoDbLocal>, options?: { alone?: boolean }) => Promise<DynamoDbLocal>;

/**
 * The endpoint of the DynamoDB Local for tables with a stream this file uses, started on first need. `alone`:
 * the file loads thousands of items (a large configuration), so it takes a fresh one that no later file shares.
 */
export async function streamEndpoint(options: { alone?: boolean } = {}): Promise<string> {
  const lend = (globalThis as { __loyaltyStreamDynamoDb?: Lend }).__loyaltyStreamDynamoDb;
  if (!lend) throw new Error('No DynamoDB Local for streamed tables: run the tests through jest (test/support/test-environment.js)');
  // Unreferenced: it outlives this file, and the worker's exit stops it.
  return (await lend(() => startDynamoDbLocal({ unref: true }), options)).endpoint;
}

/** `npm start`'s arguments for a twin on `port` with its table `table` in this file's DynamoDB Local, then `more`. */
export async function npmStartArgs(port: number, table: string, ...more: string[]): Promise<string[]> {
  return npmStartArgsOn(await streamEndpoint(), port, table, ...more);
}

/** The same on the DynamoDB Local at `endpoint`. */
export function npmStartArgsOn(endpoint: string, port: number, table: string, ...more: string[]): string[] {
  return ['start', '--', '--port', String(port), '--dynamodb-endpoint', endpoint, '--table', table, ...more];
}
