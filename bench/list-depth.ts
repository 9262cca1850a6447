// GET /v1/customers at depth, before and after reading from the nearer end and remembered boundaries:
// first, middle and last page in both directions, and a walk of every page, on DynamoDB Local in-process.
import { CreateTableCommand, ResourceInUseException } from '@aws-sdk/client-dynamodb';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { startDynamoDbLocal, localClient } from '../infra/local/dynamodb-local';
import { documentClient, resetDocumentClient } from '../shared/data/client';
import { listCustomers, type CustomerListQuery } from '../shared/data/customer-list';
import { dynamoDbStats, resetDynamoDbStats } from '../shared/data/dynamodb-stats';
import { keys } from '../shared/data/keys';
import { readShopCounters } from '../shared/data/shop-repository';
import { createTableInput } from '../shared/data/table';
import { resetEnv } from '../shared/runtime/env';
import { seedScaleShop } from './scale-shop';

const TABLE = 'list-depth';
const PAGE = 100;

export interface DepthFigures {
  members: number;
  case: string;
  /** 'before': every page read from the start, as the list did; 'after': the nearer end or a remembered boundary. */
  version: 'before' | 'after';
  keysRead: number;
  readUnits: number;
  ms: number;
  /** Walks: the slowest page. */
  slowestPageMs?: number;
}

/** One page the way the service reads it (counters, then the page); `before` reads from the start without memory. */
async function onePage(shopId: string, query: CustomerListQuery, version: 'before' | 'after') {
  const counters = await readShopCounters(shopId);
  const total = counters.member + counters.excluded;
  const page = await listCustomers(shopId, query, version === 'before' ? { boundaryMemory: false } : { total });
  return { keysRead: page.entriesRead, records: page.records.length, total };
}

async function measured<T>(run: () => Promise<T>) {
  resetDynamoDbStats();
  const t0 = performance.now();
  const result = await run();
  return { result, ms: performance.now() - t0, readUnits: dynamoDbStats().readUnits };
}

/** Every page of the shop in order, as a full sync walks it. */
async function walk(shopId: string, descending: boolean, version: 'before' | 'after') {
  let keysRead = 0;
  let slowest = 0;
  const figures = await measured(async () => {
    for (let offset = 0; ; offset += PAGE) {
      const t0 = performance.now();
      const page = await onePage(shopId, { sort: 'created_at', descending, offset, limit: PAGE }, version);
      slowest = Math.max(slowest, performance.now() - t0);
      keysRead += page.keysRead;
      if (offset + PAGE >= page.total) return;
    }
  });
  return { keysRead, readUnits: figures.readUnits, ms: figures.ms, slowestPageMs: slowest };
}

/**
 * Why deep pages were superlinear on DynamoDB Local: the time of one Query of 101 keys started
 * (ExclusiveStartKey) at a given depth, forward and reversed, against the same from the start.
 */
async function startKeyProbe(members: number): Promise<string[]> {
  const shopId = `scale-${members}`;
  const lines: string[] = [];
  for (const depth of [0, Math.floor(members / 2), members - 1 - PAGE]) {
    const i = depth;
    const startKey = {
      list_pk: keys.customerList(shopId, 'member'),
      created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      ...keys.customer(shopId, String(1_000_000 + i)),
    };
    for (const forward of [true, false]) {
      const t0 = performance.now();
      const rounds = 5;
      for (let round = 0; round < rounds; round += 1) {
        await documentClient().send(
          new QueryCommand({
            TableName: TABLE,
            IndexName: 'gsi_customers_created_at',
            KeyConditionExpression: 'list_pk = :pk',
            ExpressionAttributeValues: { ':pk': keys.customerList(shopId, 'member') },
            ...(depth > 0 ? { ExclusiveStartKey: startKey } : {}),
            ScanIndexForward: forward,
            Limit: PAGE + 1,
          }),
        );
      }
      lines.push(
        `${members}: Query of ${PAGE + 1} keys ${forward ? 'forward' : 'reversed'} from depth ${depth}: ${((performance.now() - t0) / rounds).toFixed(1)} ms`,
      );
    }
  }
  return lines;
}

/** Seeds each size into a table of its own DynamoDB Local (or DYNAMODB_ENDPOINT) and measures it. */
export async function listDepth(scales: readonly number[], options: { walkBeforeUpTo: number }): Promise<DepthFigures[]> {
  const dynamo = process.env.DYNAMODB_ENDPOINT ? null : await startDynamoDbLocal();
  const endpoint = process.env.DYNAMODB_ENDPOINT ?? dynamo!.endpoint;
  Object.assign(process.env, { DYNAMODB_ENDPOINT: endpoint, TABLE_NAME: TABLE, DYNAMODB_STATS: 'true' });
  resetEnv();
  resetDocumentClient();
  try {
    // No stream: nothing reads one here (see ensureTable).
    await localClient(endpoint).send(new CreateTableCommand({ ...createTableInput(TABLE), StreamSpecification: undefined }));
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  const figures: DepthFigures[] = [];
  const print = (row: DepthFigures) => {
    figures.push(row);
    console.log(
      `${String(row.members).padStart(8)}  ${row.case.padEnd(34)} ${row.version.padEnd(6)} ${String(row.keysRead).padStart(10)} ${row.readUnits.toFixed(1).padStart(10)} ${row.ms.toFixed(0).padStart(9)}${row.slowestPageMs === undefined ? '' : `  (slowest page ${row.slowestPageMs.toFixed(0)} ms)`}`,
    );
  };
  console.log(`\ncustomer list depth (page[size]=${PAGE}, in-process on DynamoDB Local)`);
  console.log(
    `${'members'.padStart(8)}  ${'case'.padEnd(34)} ${'code'.padEnd(6)} ${'keys read'.padStart(10)} ${'RCU'.padStart(10)} ${'ms'.padStart(9)}`,
  );
  const probes: string[] = [];
  try {
    for (const members of scales) {
      const seeded = performance.now();
      await seedScaleShop(members);
      console.log(`${String(members).padStart(8)}  (seeded in ${((performance.now() - seeded) / 1000).toFixed(0)} s)`);
      const shopId = `scale-${members}`;
      const pages = Math.ceil(members / PAGE);
      for (const descending of [true, false]) {
        for (const [name, number] of [
          ['first', 1],
          ['middle', Math.ceil(pages / 2)],
          ['last', pages],
        ] as const) {
          for (const version of ['before', 'after'] as const) {
            // A last page read from the start of a 100k shop takes minutes on DynamoDB Local: the walk
            // limit applies to single deep pages too.
            if (version === 'before' && number > 1 && members > options.walkBeforeUpTo) continue;
            const query = { sort: 'created_at' as const, descending, offset: (number - 1) * PAGE, limit: PAGE };
            const run = await measured(() => onePage(shopId, query, version));
            print({
              members,
              case: `${name} page (${number}), ${descending ? '-' : ''}created_at`,
              version,
              keysRead: run.result.keysRead,
              readUnits: run.readUnits,
              ms: run.ms,
            });
          }
        }
      }
      for (const version of ['before', 'after'] as const) {
        if (version === 'before' && members > options.walkBeforeUpTo) continue;
        print({ members, case: `walk of all ${pages} pages, -created_at`, version, ...(await walk(shopId, true, version)) });
      }
      probes.push(...(await startKeyProbe(members)));
    }
    for (const line of probes) console.log(line);
  } finally {
    await dynamo?.stop();
  }
  return figures;
}
