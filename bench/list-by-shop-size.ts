// GET /v1/customers by shop size: each shop seeded just before its rows, then the first page, deep
// pages and e-mail searches timed over HTTP (past the twin's time limit, in-process on request), the
// full walk of a broad search's pages, and the same searches as they were before the e-mail index and
// the remembered match sets (the scan on every page), in-process.
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { parseCustomerListQuery } from '../shared/customers/customer-requests';
import { listCustomers } from '../shared/customers/customer-service';
import { documentClient, tableName } from '../shared/data/client';
import { dynamoDbStats, resetDynamoDbStats } from '../shared/data/dynamodb-stats';
import { searchName } from '../shared/data/email-match-set';
import { forgetEmailIndexReadiness } from '../shared/data/email-search';
import { emailIndexMarkerKey } from '../shared/data/items/email-gram';
import { keys } from '../shared/data/keys';
import { batchPut } from '../shared/data/shop-repository';
import { fixed } from './report';
import { seedScaleShop } from './scale-shop';
import { percentile, totalCalls } from './statistics';
import { twinDynamoDbStats, twinUsageKey } from './twin-control';

const SLOW_REQUEST_MS = 2_000;

export interface ScaleFigures {
  members: number;
  case: string;
  p50: number;
  readUnitsPerRequest: number;
  callsPerRequest: number;
  /** Write units of the counted request (a search's first page remembers its matches). */
  writeUnitsPerRequest?: number;
  failed: string | null;
}

/**
 * Median of a few sequential requests, then one more request counted for calls and read units. A
 * failed request (e.g. the function's time limit) stops the series; requests slower than
 * SLOW_REQUEST_MS are timed 3 times instead of 5 (they vary little and would take most of the run).
 */
async function timeRequest(
  url: string,
  path: string,
  key: string,
  runs = 5,
  before: () => Promise<void> = async () => {},
): Promise<Omit<ScaleFigures, 'members' | 'case'>> {
  const latencies: number[] = [];
  let failed: string | null = null;
  const send = async () => {
    await before();
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
  await before();
  await twinDynamoDbStats(url, 'reset');
  await send();
  const counted = await twinDynamoDbStats(url, 'pause');
  return {
    p50: percentile(latencies, 50),
    readUnitsPerRequest: counted.readUnits,
    callsPerRequest: totalCalls(counted.calls),
    writeUnitsPerRequest: counted.writeUnits,
    failed,
  };
}

/** The list query a path asks for, as the function parses it. */
function listQueryOf(path: string) {
  const query: Record<string, string> = Object.fromEntries(new URL(path, 'http://bench').searchParams);
  return parseCustomerListQuery(query).listQuery;
}

/** Deletes the remembered match set of a search path (its head), so that its next request evaluates it. */
async function forgetMatchSet(shopId: string, path: string): Promise<void> {
  const query = listQueryOf(path);
  if (query.emailContains === undefined) return;
  const search = searchName({ emailContains: query.emailContains, status: query.status, sort: query.sort, descending: query.descending });
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: keys.emailMatchHead(shopId, search) }));
}

/** The broad search whose pages are walked, at the largest page size. */
const BROAD_WALK = '/v1/customers?filter%5Bemail%5D=scale.example&page%5Bsize%5D=100';
const pageOf = (path: string, page: number) => `${path}&page%5Bnumber%5D=${page}`;

/**
 * Every page of the broad search, one after the other as a client walks them, from a first page that
 * evaluates it: the walk's time (paused counter), then the same walk counted. Time, read units and calls
 * are the whole walk's (with `inProcessFirst`, the counted walk's first page is the bench process's and
 * not counted: the case says so).
 */
async function walkBroadSearch(url: string, shopId: string, key: string, members: number, inProcessFirst: boolean) {
  const pages = Math.ceil(members / 2 / 100);
  const walk = async () => {
    await forgetMatchSet(shopId, BROAD_WALK);
    const t0 = performance.now();
    let firstPage = 0;
    for (let page = 1; page <= pages; page += 1) {
      if (page === 1 && inProcessFirst) {
        // The first page is over the function's time limit: evaluated (and remembered) in-process.
        await listCustomers(shopId, listQueryOf(pageOf(BROAD_WALK, 1)));
      } else {
        const response = await fetch(`${url}${pageOf(BROAD_WALK, page)}`, { headers: { Authorization: key } });
        await response.arrayBuffer();
        if (!response.ok) throw new Error(`walk page ${page}: HTTP ${response.status}`);
      }
      if (page === 1) firstPage = performance.now() - t0;
    }
    return { ms: performance.now() - t0, firstPage };
  };
  const timed = await walk();
  await twinDynamoDbStats(url, 'reset');
  await walk();
  const counted = await twinDynamoDbStats(url, 'pause');
  return { pages, ...timed, readUnits: counted.readUnits, writeUnits: counted.writeUnits, calls: totalCalls(counted.calls) };
}

/**
 * One list request straight through the service and repository (no gateway, no time limit). `before`:
 * as the search was before the e-mail index and the remembered match sets (the caller removes the
 * shop's index marker).
 */
async function timeListDirectly(shopId: string, path: string, before = false) {
  const listQuery = listQueryOf(path);
  resetDynamoDbStats();
  const t0 = performance.now();
  await listCustomers(shopId, listQuery, before ? { matchMemory: false } : {});
  const p50 = performance.now() - t0;
  const counted = dynamoDbStats();
  return {
    p50,
    readUnitsPerRequest: counted.readUnits,
    callsPerRequest: totalCalls(counted.calls),
    writeUnitsPerRequest: counted.writeUnits,
  };
}

/** Time spent on the broad walk before the change (each page a scan); beyond, the walk is its pages × their mean. */
const WALK_BEFORE_MS = 60_000;

/**
 * The searches as they were before the e-mail index (its marker removed for the bench process, which
 * then scans) and the remembered match sets (every page evaluates the search), in-process: median of 3,
 * and the broad walk (measured for up to WALK_BEFORE_MS, on paper beyond). The marker is put back.
 */
async function searchesBefore(members: number, searches: Array<[string, string]>): Promise<ScaleFigures[]> {
  const shopId = `scale-${members}`;
  const figures: ScaleFigures[] = [];
  const median = async (path: string) => {
    const runs = [];
    for (let i = 0; i < 3; i += 1) runs.push(await timeListDirectly(shopId, path, true));
    runs.sort((a, b) => a.p50 - b.p50);
    return runs[1]!;
  };
  await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: emailIndexMarkerKey(shopId) }));
  forgetEmailIndexReadiness();
  try {
    for (const [name, path] of searches) figures.push({ members, case: `${name} (before)`, ...(await median(path)), failed: null });
    const pages = Math.ceil(members / 2 / 100);
    const walk = { p50: 0, readUnitsPerRequest: 0, callsPerRequest: 0, writeUnitsPerRequest: 0 };
    let measured = 0;
    for (let page = 1; page <= pages && walk.p50 < WALK_BEFORE_MS; page = measured + 1) {
      measured = page;
      const one = await timeListDirectly(shopId, pageOf(BROAD_WALK, page), true);
      walk.p50 += one.p50;
      walk.readUnitsPerRequest += one.readUnitsPerRequest;
      walk.callsPerRequest += one.callsPerRequest;
    }
    const scale = pages / measured;
    figures.push({
      members,
      case: `broad walk, ${pages} pages (before${measured < pages ? `, ${measured} measured` : ''})`,
      p50: walk.p50 * scale,
      readUnitsPerRequest: walk.readUnitsPerRequest * scale,
      callsPerRequest: walk.callsPerRequest * scale,
      writeUnitsPerRequest: 0,
      failed: null,
    });
  } finally {
    await batchPut([{ ...emailIndexMarkerKey(shopId), completed_at: new Date().toISOString(), by: 'seed' }]);
    forgetEmailIndexReadiness();
  }
  return figures;
}

/**
 * The cases of one shop size. Page 500 is 10 000 keys deep whatever the shop size: its cost depends on
 * the depth only. The last page is as deep as the shop is large.
 */
function listCases(members: number): Array<[string, string]> {
  const lastPage = Math.ceil(members / 20);
  return [
    ['first page', '/v1/customers'],
    // The reference of the broad search's walk, at its page size.
    ['first page, size 100', '/v1/customers?page%5Bsize%5D=100'],
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
    ['filter[email] broad, size 100', BROAD_WALK],
  ];
}

/** The e-mail searches also timed as they were before the index and the remembered match sets. */
const SEARCHES: Array<[string, string]> = [
  ['filter[email] selective', '/v1/customers?filter%5Bemail%5D=member1%40'],
  ['filter[email] three letters', '/v1/customers?filter%5Bemail%5D=r12'],
  ['filter[email] broad (half)', '/v1/customers?filter%5Bemail%5D=scale.example'],
  ['filter[email] broad, size 100', BROAD_WALK],
];

const print = (members: number, name: string, figures: Omit<ScaleFigures, 'members' | 'case'>) =>
  console.log(
    `${String(members).padStart(8)}  ${name.padEnd(44)}${fixed(figures.p50)}${fixed(figures.readUnitsPerRequest, 1)}${fixed(figures.callsPerRequest, 1)}${fixed(figures.writeUnitsPerRequest ?? 0, 1)}`,
  );

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
  console.log(`${'members'.padStart(8)}  ${'case'.padEnd(44)}  p50 ms   RCU/req calls/req  WCU/req`);
  for (const members of scales) {
    const seedStarted = performance.now();
    const key = await seedScaleShop(members, { usage: await twinUsageKey(url) });
    console.log(`${String(members).padStart(8)}  (seeded in ${((performance.now() - seedStarted) / 1000).toFixed(0)} s)`);
    for (const [caseName, path] of listCases(members)) {
      let name = caseName;
      // A search's every timed request is a first evaluation: its remembered set is forgotten first.
      const shopId = `scale-${members}`;
      let figures = await timeRequest(url, path, key, 5, () => forgetMatchSet(shopId, path));
      if (figures.failed) {
        // Over the twin's 29 s function limit (the stack's is 10 s). With --in-process-when-failed
        // the same list is timed once without a gateway (how long it took: docs/performance.md).
        console.log(`${String(members).padStart(8)}  ${name.padEnd(44)}  FAILED over HTTP: ${figures.failed}`);
        if (!inProcessWhenFailed) {
          scale.push({ members, case: name, ...figures });
          continue;
        }
        figures = { ...(await timeListDirectly(`scale-${members}`, path)), failed: figures.failed };
        name = `${name} (in-process)`;
      }
      scale.push({ members, case: name, ...figures });
      print(members, name, figures);
    }
    const inProcessFirst = scale.some(
      (row) => row.members === members && row.case.startsWith('filter[email] broad, size 100') && row.failed,
    );
    const walk = await walkBroadSearch(url, `scale-${members}`, key, members, inProcessFirst);
    const walkRow: ScaleFigures = {
      members,
      case: `broad walk, ${walk.pages} pages (first page ${walk.firstPage.toFixed(0)} ms${inProcessFirst ? ' in-process, not counted' : ''})`,
      p50: walk.ms,
      readUnitsPerRequest: walk.readUnits,
      callsPerRequest: walk.calls,
      writeUnitsPerRequest: walk.writeUnits,
      failed: null,
    };
    scale.push(walkRow);
    print(members, walkRow.case, walkRow);
    for (const row of await searchesBefore(members, SEARCHES)) {
      scale.push(row);
      print(members, row.case, row);
    }
  }
  return scale;
}
