// The import by size and concurrency: a DynamoDB Local of its own, a Smile export of N members matched
// through Shopify's customer export (`--customers`), imported through the CLI's command as an operator
// runs it (read, match, one transaction per member), at 8, 16 and 32 transactions in flight; then the
// same members through the configuration file (`config apply` with members) beside it. Rows per second,
// DynamoDB calls and write units per member (docs/performance.md#import).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable, localClient, startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { importMembers } from '../infra/cli/commands';
import { parseConfig } from '../shared/config/schema';
import { dynamoDbStats, pauseDynamoDbStats, resetDynamoDbStats } from '../shared/data/dynamodb-stats';
import { DEFAULT_IMPORT_CONCURRENCY } from '../shared/import/apply-import';
import { applyConfig } from '../shared/shops/apply-config';
import { dynamoDbLocalCeiling, type CeilingFigures } from './dynamodb-local-ceiling';
import { pointEnvAt } from './point-env';
import { fixed } from './report';
import { totalCalls } from './statistics';

export interface ImportFigures {
  path: 'import' | 'config apply';
  rows: number;
  /** Transactions in flight (the configuration file's path: the import's default). */
  concurrency: number;
  seconds: number;
  rowsPerSecond: number;
  callsPerRow: number;
  writeUnitsPerRow: number;
  /** A second run of the same file: seconds, and the write units it used (nothing is written but the header and the counters). */
  rerunSeconds: number | null;
  rerunWriteUnits: number | null;
}

const ENV_KEYS = ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'DYNAMODB_STATS', 'SHOP_CONFIG_TTL_SECONDS'] as const;

const CREATED_AT = '2025-01-01T00:00:00.000Z';
const shopConfig = (id: string, members: number) => ({
  id,
  name: `Import bench ${id}`,
  currency: 'USD',
  referral_base_url: 'https://bench.example/',
  vip_tiers: [{ id: 'gold', name: 'Gold', threshold_points: 1000, position: 1, created_at: CREATED_AT }],
  earning_settings: { pending_days: 0, points_expiry: { mode: 'batch', days: 365 }, expiry_reminder_days: 30 },
  platform: {
    customers: Array.from({ length: members }, (_, i) => ({
      id: String(100_001 + i),
      email: `member${100_001 + i}@example.com`,
      created_at: CREATED_AT,
    })),
  },
  members: Array.from({ length: members }, (_, i) => ({
    platform_customer_id: String(100_001 + i),
    current_points: (i * 37) % 2000,
    lifetime_points: (i * 37) % 2000,
    redeemed_points: 0,
    enrolled_at: CREATED_AT,
  })),
});

/** A Smile export of `rows` members (half matched by id, half by e-mail) and Shopify's customer export. */
async function writeFiles(folder: string, rows: number): Promise<{ members: string; customers: string }> {
  const members = ['Customer ID,Email,Points Balance,Points Spent,Date of birth,VIP tier'];
  const customers = ['Customer ID,First Name,Last Name,Email,Accepts Email Marketing'];
  for (let i = 0; i < rows; i += 1) {
    const id = String(100_001 + i);
    const email = `member${id}@example.com`;
    members.push(
      `${i % 2 === 0 ? `'${id}` : ''},${i % 2 === 0 ? '' : email},"${((i * 37) % 2000).toLocaleString('en-US')}",${i % 50},${i % 3 === 0 ? '1004-06-15' : ''},${i % 7 === 0 ? 'Gold' : ''}`,
    );
    customers.push(`'${id},First${i},Last${i},${email},no`);
  }
  const paths = { members: join(folder, `smile-${rows}.csv`), customers: join(folder, `customers-${rows}.csv`) };
  await writeFile(paths.members, members.join('\n'));
  await writeFile(paths.customers, customers.join('\n'));
  return paths;
}

/** Sizes of the import, and the concurrencies tried at the first size (the others run at the last one). */
export interface ImportBenchOptions {
  rows: readonly number[];
  concurrencies: readonly number[];
  /** Members of the configuration file's path (0: skipped). */
  configRows: number;
}

export interface ImportSection {
  rows: ImportFigures[];
  /** What the DynamoDB Local absorbs on this machine, whatever the client. */
  ceiling: CeilingFigures | null;
}

const IN_FLIGHT_NOTE = '32 in flight';

export async function importBench(options: ImportBenchOptions): Promise<ImportSection> {
  const dynamodb = await startDynamoDbLocal();
  const folder = await mkdtemp(join(tmpdir(), 'bench-import-'));
  const figures: ImportSection = { rows: [], ceiling: null };
  let tables = 0;
  const freshTable = async (): Promise<() => void> => {
    tables += 1;
    const table = `bench-import-${tables}`;
    const client = localClient(dynamodb.endpoint);
    await ensureTable(client, table, { stream: false });
    client.destroy();
    return pointEnvAt(ENV_KEYS, {
      TABLE_NAME: table,
      DYNAMODB_ENDPOINT: dynamodb.endpoint,
      DYNAMODB_STATS: 'true',
      SHOP_CONFIG_TTL_SECONDS: '300',
    });
  };
  const print = (row: ImportFigures) =>
    console.log(
      `${row.path.padEnd(13)}${String(row.rows).padStart(8)}${String(row.concurrency).padStart(6)}${fixed(row.seconds)}${fixed(row.rowsPerSecond, 0)}${fixed(row.callsPerRow)}${fixed(row.writeUnitsPerRow)}${row.rerunSeconds === null ? '' : `${fixed(row.rerunSeconds)}${fixed(row.rerunWriteUnits ?? 0, 0)}`}`,
    );
  try {
    console.log(
      '\nimport by size and concurrency (in-process against a DynamoDB Local of its own; a Smile export matched through the customer export)',
    );
    const probe = localClient(dynamodb.endpoint);
    const ceiling = await dynamoDbLocalCeiling(probe).finally(() => probe.destroy());
    console.log(
      `DynamoDB Local here absorbs ${ceiling.putItemsPerSecond.toFixed(0)} conditional puts/s, ${ceiling.batchedItemsPerSecond.toFixed(0)} batched items/s, ` +
        `${ceiling.transactionalItemsPerSecond.toFixed(0)} transactional items/s (${IN_FLIGHT_NOTE}): a new member (5 transactional items, ` +
        `${ceiling.postingsPerMember} postings batched) at most ${ceiling.newMembersPerSecond.toFixed(0)}/s`,
    );
    figures.ceiling = ceiling;
    console.log(`${'path'.padEnd(13)}    rows  conc       s  rows/s  call/row WCU/row  rerun s rerun WCU`);
    const runs = [
      ...options.concurrencies.map((concurrency) => ({ rows: options.rows[0]!, concurrency })),
      ...options.rows.slice(1).map((rows) => ({ rows, concurrency: options.concurrencies[options.concurrencies.length - 1]! })),
    ];
    for (const run of runs) {
      const restore = await freshTable();
      try {
        await applyConfig(parseConfig({ shops: [shopConfig('bench', 0)] }));
        const files = await writeFiles(folder, run.rows);
        const once = async () => {
          resetDynamoDbStats();
          const started = performance.now();
          await importMembers(
            {
              file: files.members,
              shop: 'bench',
              from: 'smile',
              mode: 'add',
              customers: files.customers,
              dryRun: false,
              concurrency: run.concurrency,
            },
            { print: () => undefined },
          );
          const seconds = (performance.now() - started) / 1000;
          const stats = dynamoDbStats();
          pauseDynamoDbStats();
          return { seconds, calls: totalCalls(stats.calls), writeUnits: stats.writeUnits };
        };
        const first = await once();
        const rerun = await once();
        const row: ImportFigures = {
          path: 'import',
          rows: run.rows,
          concurrency: run.concurrency,
          seconds: first.seconds,
          rowsPerSecond: run.rows / first.seconds,
          callsPerRow: first.calls / run.rows,
          writeUnitsPerRow: first.writeUnits / run.rows,
          rerunSeconds: rerun.seconds,
          rerunWriteUnits: rerun.writeUnits,
        };
        figures.rows.push(row);
        print(row);
      } finally {
        restore();
      }
    }
    if (options.configRows > 0) {
      const restore = await freshTable();
      try {
        const config = parseConfig({ shops: [shopConfig('bench', options.configRows)] });
        resetDynamoDbStats();
        const started = performance.now();
        await applyConfig(config);
        const seconds = (performance.now() - started) / 1000;
        const stats = dynamoDbStats();
        pauseDynamoDbStats();
        const row: ImportFigures = {
          path: 'config apply',
          rows: options.configRows,
          concurrency: DEFAULT_IMPORT_CONCURRENCY,
          seconds,
          rowsPerSecond: options.configRows / seconds,
          callsPerRow: totalCalls(stats.calls) / options.configRows,
          writeUnitsPerRow: stats.writeUnits / options.configRows,
          rerunSeconds: null,
          rerunWriteUnits: null,
        };
        figures.rows.push(row);
        print(row);
      } finally {
        restore();
      }
    }
    return figures;
  } finally {
    await dynamodb.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
