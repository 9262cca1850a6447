// GET /v1/customers by shop size: each shop seeded just before its rows, then the first page, deep
// pages and an e-mail filter timed over HTTP (past the twin's time limit, in-process on request).
import { parseCustomerListQuery } from '../shared/customers/customer-requests';
import { listCustomers } from '../shared/customers/customer-service';
import { dynamoDbStats, resetDynamoDbStats } from '../shared/data/dynamodb-stats';
import { fixed } from './report';
import { seedScaleShop } from './scale-shop';
import { percentile, totalCalls } from './statistics';
import { twinDynamoDbStats } from './twin-control';

const SLOW_REQUEST_MS = 2_000;

export interface ScaleFigures {
  members: number;
  case: string;
  p50: number;
  readUnitsPerRequest: number;
  callsPerRequest: number;
  failed: string | null;
}

/**
 * Median of a few sequential requests, then one more request counted for calls and read units. A
 * failed request (e.g. the function's time limit) stops the series; requests slower than
 * SLOW_REQUEST_MS are timed 3 times instead of 5 (they vary little and would take most of the run).
 */
async function timeRequest(url: string, path: string, key: string, runs = 5) {
  const latencies: number[] = [];
  let failed: string | null = null;
  const send = async () => {
    const t0 = performance.now();
    const response = await fetch(`${url}${path}`, { headers: { Authorization: key } });
    await response.arrayBuffer();
    const ms = performance.now() - t0;
    if (!response.ok) failed = `HTTP ${response.status} after ${(ms / 1000).toFixed(1)} s`;
    return ms;
  };
  for (let i = 0; i < ((latencies[0] ?? 0) > SLOW_REQUEST_MS ? 3 : runs) && !failed; i += 1) latencies.push(await send());
  latencies.sort((a, b) => a - b);
  if (failed) return { p50: percentile(latencies, 50), readUnitsPerRequest: 0, callsPerRequest: 0, failed };
  await twinDynamoDbStats(url, 'reset');
  await send();
  const counted = await twinDynamoDbStats(url, 'pause');
  return { p50: percentile(latencies, 50), readUnitsPerRequest: counted.readUnits, callsPerRequest: totalCalls(counted.calls), failed };
}

/** One list request straight through the service and repository (no gateway, no time limit). */
async function timeListDirectly(shopId: string, path: string) {
  const query: Record<string, string> = Object.fromEntries(new URL(path, 'http://bench').searchParams);
  const { listQuery } = parseCustomerListQuery(query);
  resetDynamoDbStats();
  const t0 = performance.now();
  await listCustomers(shopId, listQuery);
  const p50 = performance.now() - t0;
  const counted = dynamoDbStats();
  return { p50, readUnitsPerRequest: counted.readUnits, callsPerRequest: totalCalls(counted.calls) };
}

/**
 * The cases of one shop size. Page 500 is 10 000 keys deep whatever the shop size: its cost depends on
 * the depth only. The last page is as deep as the shop is large.
 */
function listCases(members: number): Array<[string, string]> {
  const lastPage = Math.ceil(members / 20);
  return [
    ['first page', '/v1/customers'],
    ...(lastPage > 500
      ? ([
          ['page 500', '/v1/customers?page%5Bnumber%5D=500'],
          ['page 500, sort=-points', '/v1/customers?sort=-points&page%5Bnumber%5D=500'],
        ] as Array<[string, string]>)
      : []),
    [`last page (${lastPage})`, `/v1/customers?page%5Bnumber%5D=${lastPage}`],
    ...(lastPage <= 500
      ? ([[`last page, sort=-points`, `/v1/customers?sort=-points&page%5Bnumber%5D=${lastPage}`]] as Array<[string, string]>)
      : []),
    ['filter[email]=member1', '/v1/customers?filter%5Bemail%5D=member1'],
    // One match, a three-letter search, and half the shop.
    ['filter[email] selective', '/v1/customers?filter%5Bemail%5D=member1%40'],
    ['filter[email] three letters', '/v1/customers?filter%5Bemail%5D=r12'],
    ['filter[email] broad (half)', '/v1/customers?filter%5Bemail%5D=scale.example'],
  ];
}

/**
 * Seeds a shop of each size into the twin's table (the bench process's TABLE_NAME and
 * DYNAMODB_ENDPOINT must point at it) and times its list cases, printing each row as it comes.
 */
export async function listByShopSize(
  url: string,
  scales: readonly number[],
  { inProcessWhenFailed }: { inProcessWhenFailed: boolean },
): Promise<ScaleFigures[]> {
  const scale: ScaleFigures[] = [];
  console.log(
    `\ncustomer list by shop size (median of 5 requests, 3 when one takes over ${SLOW_REQUEST_MS / 1000} s; each shop seeded just before its rows)`,
  );
  console.log(`${'members'.padStart(8)}  ${'case'.padEnd(30)}  p50 ms   RCU/req  calls/req`);
  for (const members of scales) {
    const seedStarted = performance.now();
    const key = await seedScaleShop(members);
    console.log(`${String(members).padStart(8)}  (seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s)`);
    for (const [caseName, path] of listCases(members)) {
      let name = caseName;
      let figures = await timeRequest(url, path, key);
      if (figures.failed) {
        // Over the twin's 29 s function limit (the stack's is 10 s). With --in-process-when-failed
        // the same list is timed once without a gateway (how long it took: docs/performance.md).
        console.log(`${String(members).padStart(8)}  ${name.padEnd(30)}  FAILED over HTTP: ${figures.failed}`);
        if (!inProcessWhenFailed) {
          scale.push({ members, case: name, ...figures });
          continue;
        }
        figures = { ...(await timeListDirectly(`scale-${members}`, path)), failed: figures.failed };
        name = `${name} (in-process)`;
      }
      scale.push({ members, case: name, ...figures });
      console.log(
        `${String(members).padStart(8)}  ${name.padEnd(30)}${fixed(figures.p50)}${fixed(figures.readUnitsPerRequest, 1)}${fixed(figures.callsPerRequest, 1)}`,
      );
    }
  }
  return scale;
}
