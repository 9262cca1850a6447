// The scheduled jobs by shop size: a DynamoDB Local of its own, a shop per size with 1 % of its members
// due for each job and the rest due later, then every job run in-process twice at the bench's clock,
// with time, DynamoDB calls and read/write units per run. Shows that a job's cost follows its due work.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTable, localClient, startDynamoDbLocal } from '../infra/local/dynamodb-local';
import { type DueJob, runDueJob } from '../shared/calendar/due-job';
import { SCHEDULED_JOBS } from '../shared/runtime/entry-points';
import { dynamoDbStats, pauseDynamoDbStats, resetDynamoDbStats } from '../shared/data/dynamodb-stats';
import { setClock } from '../shared/runtime/clock';
import { ITEMS_PER_MEMBER, JOBS_NOW, seedDueWorkShop } from './due-work-shop';
import { clearShopCatalogCache } from '../shared/shops/shop-catalog';
import { pointEnvAt } from './point-env';
import { fixed } from './report';
import { totalCalls } from './statistics';

const TABLE = 'bench-jobs';

export interface JobFigures {
  members: number;
  /** 1: the due work is done; 2: the same run again, which must find and change nothing. */
  run: 1 | 2;
  job: string;
  due: number;
  changed: number;
  failed: number;
  ms: number;
  calls: number;
  callsByCommand: Record<string, number>;
  readUnits: number;
  writeUnits: number;
  events: number;
}

export interface JobsSection {
  now: string;
  seeding: Array<{ members: number; items: number; seconds: number }>;
  runs: JobFigures[];
  /** What did not come out as seeded: due or changed counts off 1 %, a second run that wrote. */
  mismatches: string[];
}

/** The process environment the section points at its own DynamoDB Local, restored afterwards. */
const ENV_KEYS = [
  'TABLE_NAME',
  'DYNAMODB_ENDPOINT',
  'DYNAMODB_STATS',
  'EVENTS_LOG_FILE',
  'EVENT_BUS_NAME',
  'SHOP_CONFIG_TTL_SECONDS',
] as const;

const lineCount = async (file: string) => (await readFile(file, 'utf8')).split('\n').filter(Boolean).length;

/** The clock-driven jobs of the manifest, in its order: the job handler modules that export their `job`. */
async function clockDrivenJobs(): Promise<DueJob[]> {
  const modules = await Promise.all(
    SCHEDULED_JOBS.map((entry) => import(join(__dirname, '..', entry.handler)) as Promise<{ job?: DueJob }>),
  );
  return modules.flatMap((module) => (module.job ? [module.job] : []));
}

/** Every job once, in the contract's order, each counted on its own (a cold function: it reads the shop's configuration). */
async function runEveryJob(shopId: string, members: number, run: 1 | 2, eventsFile: string): Promise<JobFigures[]> {
  const figures: JobFigures[] = [];
  for (const job of await clockDrivenJobs()) {
    clearShopCatalogCache();
    const eventsBefore = await lineCount(eventsFile);
    resetDynamoDbStats();
    const t0 = performance.now();
    const summary = await runDueJob(job, { shopIds: [shopId] });
    const ms = performance.now() - t0;
    const counted = dynamoDbStats();
    pauseDynamoDbStats();
    const row: JobFigures = {
      members,
      run,
      job: job.name,
      due: summary.due,
      changed: summary.changed,
      failed: summary.failed,
      ms,
      calls: totalCalls(counted.calls),
      callsByCommand: counted.calls,
      readUnits: counted.readUnits,
      writeUnits: counted.writeUnits,
      events: (await lineCount(eventsFile)) - eventsBefore,
    };
    figures.push(row);
    console.log(
      `${String(members).padStart(8)}  ${String(run).padStart(3)}  ${job.name.padEnd(18)}${String(row.due).padStart(6)}${String(row.changed).padStart(8)}${fixed(ms, 0)}${String(row.calls).padStart(7)}${fixed(row.readUnits)}${fixed(row.writeUnits)}${String(row.events).padStart(7)}  ${commandList(counted.calls)}`,
    );
  }
  return figures;
}

const commandList = (calls: Record<string, number>) =>
  Object.entries(calls)
    .map(([command, n]) => `${command.replace(/Command$/, '')} ${n}`)
    .join(', ');

/** What each run must show when the seeding did what it says: 1 % due and changed, then nothing. */
function check(rows: readonly JobFigures[], members: number): string[] {
  const dueShare = members / 100;
  const problems: string[] = [];
  for (const row of rows) {
    const expected = row.run === 1 ? { due: dueShare, changed: dueShare } : { due: 0, changed: 0 };
    if (row.due !== expected.due || row.changed !== expected.changed || row.failed > 0) {
      problems.push(`${members} members, run ${row.run}, ${row.job}: due ${row.due}, changed ${row.changed}, failed ${row.failed}`);
    }
    if (row.run === 2 && row.writeUnits > 0) problems.push(`${members} members, run 2, ${row.job}: ${row.writeUnits} WCU written`);
  }
  return problems;
}

/** 10k against 100k (or whatever sizes ran), per job: the first run's cost per due item and the second run's cost. */
function printSideBySide(runs: readonly JobFigures[], sizes: readonly number[]): void {
  console.log('\nside by side (run 1: per due item; run 2: whole run)');
  const head = sizes.map((members) => `${`${members / 1000}k`.padStart(5)}: calls/due RCU/due WCU/due ms/due | run 2 calls RCU`);
  console.log(`${'job'.padEnd(18)}  ${head.join('   ')}`);
  for (const job of [...new Set(runs.map((row) => row.job))].map((name) => ({ name }))) {
    const cells = sizes.map((members) => {
      const first = runs.find((row) => row.members === members && row.run === 1 && row.job === job.name)!;
      const second = runs.find((row) => row.members === members && row.run === 2 && row.job === job.name)!;
      const per = (n: number) => (first.due > 0 ? n / first.due : 0);
      return `${' '.repeat(6)}${fixed(per(first.calls), 2)}${fixed(per(first.readUnits), 2)}${fixed(per(first.writeUnits), 2)}${fixed(per(first.ms), 2)} | ${String(second.calls).padStart(11)}${fixed(second.readUnits)}`;
    });
    console.log(`${job.name.padEnd(18)}  ${cells.join('   ')}`);
  }
}

/**
 * Seeds one shop per size into a DynamoDB Local of its own (in memory) and runs every job twice at
 * JOBS_NOW, printing each run as it comes and the sizes side by side at the end.
 */
export async function jobsByShopSize(sizes: readonly number[]): Promise<JobsSection> {
  const dynamodb = await startDynamoDbLocal();
  const folder = await mkdtemp(join(tmpdir(), 'bench-jobs-'));
  const eventsFile = join(folder, 'events.jsonl');
  await writeFile(eventsFile, '');
  const client = localClient(dynamodb.endpoint);
  await ensureTable(client, TABLE, { stream: false });
  client.destroy();
  const restoreEnv = pointEnvAt(ENV_KEYS, {
    TABLE_NAME: TABLE,
    DYNAMODB_ENDPOINT: dynamodb.endpoint,
    DYNAMODB_STATS: 'true',
    EVENTS_LOG_FILE: eventsFile,
    SHOP_CONFIG_TTL_SECONDS: '300',
  });
  const section: JobsSection = { now: JOBS_NOW, seeding: [], runs: [], mismatches: [] };
  try {
    console.log(
      `\nscheduled jobs by shop size (in-process against a DynamoDB Local of its own; 1 % of members due for each job, the rest due later; clock ${JOBS_NOW})`,
    );
    for (const members of sizes) {
      pauseDynamoDbStats();
      const seedStarted = performance.now();
      const shopId = await seedDueWorkShop(members);
      const seconds = (performance.now() - seedStarted) / 1000;
      section.seeding.push({ members, items: members * ITEMS_PER_MEMBER, seconds });
      console.log(`${String(members).padStart(8)}  seeded ${members * ITEMS_PER_MEMBER} items in ${seconds.toFixed(0)} s`);
      console.log(
        `${'members'.padStart(8)}  run  ${'job'.padEnd(18)}   due changed      ms  calls     RCU     WCU events  calls by command`,
      );
      setClock(new Date(JOBS_NOW));
      const rows: JobFigures[] = [];
      for (const run of [1, 2] as const) rows.push(...(await runEveryJob(shopId, members, run, eventsFile)));
      section.runs.push(...rows);
      section.mismatches.push(...check(rows, members));
    }
    printSideBySide(section.runs, sizes);
    for (const mismatch of section.mismatches) console.log(`MISMATCH ${mismatch}`);
    return section;
  } finally {
    setClock(null);
    restoreEnv();
    await dynamodb.stop();
    await rm(folder, { recursive: true, force: true });
  }
}
