// `npm run bench`: figures anyone can reproduce with one command. Starts the local twin in its own
// process (or targets --url), then measures latency and throughput per endpoint with autocannon,
// DynamoDB calls and consumed capacity per request, GET customer against a bare GetItem, bundle
// sizes and cold initialisation, the customer list at 1k members, and a burst of order webhooks, a
// flood of made-up keys, and the scheduled jobs at 1k members. The heavy sizes (the list at 10k and
// 100k, the jobs at 10k) run only behind their flags, or all of them with --full (sections.ts,
// docs/performance.md); each section's time goes to stderr and results.json. Prints tables and writes
// bench/results.json and bench/latency.svg. This file reads the flags and runs the sections in order;
// each section is its own module. `--only webhook-burst`, `key-flood`, `jobs`, `list-depth`,
// `list-by-shop-size`, `one-customer`, `import`, `storefront` or `write-cost` runs that section alone at its full sizes (each starts what it needs).
import '../infra/local/local-env';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { PROJECT_ROOT } from '../infra/local/twin';
import { measureBundles, type BundleFigures } from './bundles';
import { type AdminAppFigures, measureAdminApp, printAdminApp } from './admin-app';
import { type CheckoutFigures, estimateAgainstProgram, measureCheckoutBundles, printCheckout } from './checkout';
import { measurePosExtension, printPosExtension, type PosExtensionFigures } from './pos-extension';
import { importBench } from './import';
import { BENCH_ENDPOINTS, ONE_CUSTOMER_MIX } from './endpoints';
import { writeEndpointsConfig } from './prepared-rows';
import { jobsByShopSize, type JobsSection } from './jobs-by-shop-size';
import { bareGetItem, getCustomerAgainstGetItem, type RatioFigures } from './get-item-ratio';
import { decomposeGetCustomer, type InProcessFigures } from './in-process';
import { listByShopSize, type ScaleFigures } from './list-by-shop-size';
import { keyFlood, printFlood, type FloodFigures } from './key-flood';
import { listDepth } from './list-depth';
import { load, warmUp, type EndpointFigures } from './load';
import { oneCustomer, ONE_CUSTOMER_ROWS } from './one-customer';
import {
  mergeResults,
  printBundleTable,
  printBurst,
  printCallsByCommand,
  printEndpointTable,
  printInProcess,
  writeResults,
} from './report';
import { twinDynamoDbStats } from './twin-control';
import { printStorefront, storefrontBench, type StorefrontFigures } from './storefront';
import { eventDeliveryBench, printEventDelivery, type EventDeliveryFigures } from './event-delivery';
import { klaviyoRequestsPerEvent, printKlaviyo, type KlaviyoFigures } from './klaviyo';
import { printProgramFigures, programFiguresBench, type ProgramFiguresBench } from './program-figures';
import { memberListBench, printMemberList } from './member-list';
import { startTwinProcess, TWIN_TABLE } from './twin-process';
import { benchSizes, sectionPlan, sectionTimer } from './sections';
import { webhookBurst, type BurstFigures } from './webhook-burst';
import { printWriteCost, writeCostBench, type WriteCostFigures } from './write-cost';

const { values: options } = parseArgs({
  options: {
    url: { type: 'string' },
    duration: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    'max-members': { type: 'string' },
    'member-list-sizes': { type: 'string' },
    'min-members': { type: 'string' },
    full: { type: 'boolean', default: false },
    'skip-bundles': { type: 'boolean', default: false },
    warmup: { type: 'string', default: '30' },
    'in-process-when-failed': { type: 'boolean', default: false },
    'burst-orders': { type: 'string' },
    'burst-customers': { type: 'string' },
    'bundle-rounds': { type: 'string' },
    'burst-senders': { type: 'string', default: '20' },
    'skip-burst': { type: 'boolean', default: false },
    'flood-rate': { type: 'string', default: '300' },
    'flood-seconds': { type: 'string', default: '5' },
    'flood-legitimate-rate': { type: 'string', default: '20' },
    'skip-flood': { type: 'boolean', default: false },
    'jobs-members': { type: 'string' },
    'skip-events': { type: 'boolean', default: false },
    'skip-write-cost': { type: 'boolean', default: false },
    'skip-jobs': { type: 'boolean', default: false },
    'skip-storefront': { type: 'boolean', default: false },
    'skip-klaviyo': { type: 'boolean', default: false },
    'skip-figures': { type: 'boolean', default: false },
    'storefront-loads': { type: 'string', default: '9' },
    'walk-before-up-to': { type: 'string', default: '10000' },
    'import-rows': { type: 'string', default: '20000,100000' },
    'import-concurrency': { type: 'string', default: '32' },
    'import-config-rows': { type: 'string', default: '20000' },
    only: { type: 'string' },
    /** With `--only endpoints`: the rows whose names contain one of these comma-separated texts. */
    rows: { type: 'string' },
  },
});
const DURATION = Number(options.duration);
const CONNECTIONS = Number(options.connections);
const { scales: SCALES, jobSizes: JOB_SIZES } = benchSizes(options);
const WARMUP_SECONDS = Number(options.warmup);
const BURST = {
  orders: Number(options['burst-orders'] ?? (options.full || options.only ? 2000 : 1000)),
  customers: Number(options['burst-customers'] ?? (options.full || options.only ? 200 : 100)),
  senders: Number(options['burst-senders']),
};
const FLOOD = {
  rate: Number(options['flood-rate']),
  seconds: Number(options['flood-seconds']),
  legitimateRate: Number(options['flood-legitimate-rate']),
};
const RESULTS_FILE = join(PROJECT_ROOT, 'bench', 'results.json');
/** Cold starts per bundle (their median): 5 by default, 15 with --full. */
const BUNDLE_ROUNDS = Number(options['bundle-rounds'] ?? (options.full ? 15 : 5));
/** The sections `--only` can run alone. */
const SECTIONS = [
  'endpoints',
  'webhook-burst',
  'key-flood',
  'jobs',
  'list-depth',
  'list-by-shop-size',
  'one-customer',
  'import',
  'storefront',
  'event-delivery',
  'klaviyo',
  'write-cost',
  'figures',
  'member-list',
];
const IMPORT = {
  rows: (options['import-rows'] ?? '').split(',').map(Number),
  concurrencies: (options['import-concurrency'] ?? '').split(',').map(Number),
  configRows: Number(options['import-config-rows']),
};

function checkFlags(): void {
  if (options.only !== undefined && !SECTIONS.includes(options.only)) throw new Error(`--only takes one of: ${SECTIONS.join(', ')}`);
  if (![BURST.orders, BURST.customers, BURST.senders].every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error('--burst-orders, --burst-customers and --burst-senders take whole numbers above 0');
  }
  if (![FLOOD.rate, FLOOD.seconds, FLOOD.legitimateRate].every((n) => Number.isInteger(n) && n > 0)) {
    throw new Error('--flood-rate, --flood-seconds and --flood-legitimate-rate take whole numbers above 0');
  }
  if (![...IMPORT.rows, ...IMPORT.concurrencies].every((n) => Number.isInteger(n) && n > 0) || !(IMPORT.configRows >= 0)) {
    throw new Error('--import-rows and --import-concurrency take whole numbers above 0, comma-separated; --import-config-rows 0 or more');
  }
  if (!(Number.isInteger(BUNDLE_ROUNDS) && BUNDLE_ROUNDS > 0)) throw new Error('--bundle-rounds takes a whole number above 0');
  if (!JOB_SIZES.every((n) => Number.isInteger(n) && n >= 100 && n % 100 === 0)) {
    throw new Error('--jobs-members takes shop sizes in hundreds, comma-separated (1 % of each is due)');
  }
}

/** The flood of made-up keys against a twin that counts DynamoDB calls; a refused request above its target fails the bench. */
async function floodSection(url: string): Promise<FloodFigures> {
  const flood = await keyFlood(url, FLOOD);
  printFlood(flood);
  if (flood.kinds.some((kind) => kind.notRefused > 0 || kind.callsPerRefused > flood.target[kind.kind])) process.exitCode = 1;
  return flood;
}

/** The scheduled jobs by shop size, with a DynamoDB Local of their own. A count off what was seeded fails the bench. */
async function jobsSection(sizes: readonly number[] = JOB_SIZES): Promise<JobsSection> {
  const jobs = await jobsByShopSize(sizes);
  if (jobs.mismatches.length > 0) process.exitCode = 1;
  return jobs;
}

/**
 * The webhook burst, with its own twin (a configuration of its own, which a twin given by --url does not
 * have). A mismatch in the end state, a failed delivery or a duplicate that wrote fails the bench.
 */
async function burstSection(): Promise<BurstFigures> {
  const burst = await webhookBurst(BURST);
  printBurst(burst);
  if (burst.mismatches.length > 0 || burst.first.failed + burst.duplicates.failed > 0 || burst.duplicates.writeUnitsPerOrder > 0)
    process.exitCode = 1;
  return burst;
}

/** The theme app extension's bytes and the demo storefront's load with and without it (docs/performance.md#storefront). */
async function storefrontSection(platformUrl: string): Promise<StorefrontFigures> {
  const figures = await storefrontBench(`${platformUrl}/storefront/demo/`, Number(options['storefront-loads']));
  printStorefront(figures);
  return figures;
}

/** Klaviyo requests per event (docs/performance.md#klaviyo): the bench process must point at the twin's table. */
async function klaviyoSection(): Promise<KlaviyoFigures> {
  const figures = await klaviyoRequestsPerEvent('demo', '1001');
  printKlaviyo(figures);
  if (figures.refused > 0 || figures.redelivery.recorded > 0) process.exitCode = 1;
  return figures;
}

/** Every write path's calls, items and write units without its domain events and with them; a path that did not write fails the bench. */
async function writeCostSection(): Promise<WriteCostFigures> {
  const figures = await writeCostBench();
  printWriteCost(figures);
  if (figures.failures.length > 0) process.exitCode = 1;
  return figures;
}

/** The program's figures (docs/performance.md#the-programs-figures): the bench process must point at the twin's table. */
async function figuresSection(scales: readonly number[]): Promise<ProgramFiguresBench> {
  const figures = await programFiguresBench(scales);
  printProgramFigures(figures);
  return figures;
}

async function main(): Promise<void> {
  const started = performance.now();
  checkFlags();
  if (options.only === 'write-cost') {
    mergeResults({ at: new Date().toISOString(), writeCost: await writeCostSection() });
    console.log(`\nwritten: bench/results.json (writeCost; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'figures') {
    const own = await startTwinProcess();
    try {
      process.env.TABLE_NAME = TWIN_TABLE;
      process.env.DYNAMODB_ENDPOINT = own.dynamodb;
      process.env.DYNAMODB_STATS = 'true';
      mergeResults({ at: new Date().toISOString(), programFigures: await figuresSection(SCALES.filter((n) => n !== 10_000)) });
    } finally {
      own.process.kill('SIGINT');
    }
    console.log(`\nwritten: bench/results.json (programFigures; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'member-list') {
    const own = await startTwinProcess();
    try {
      process.env.TABLE_NAME = TWIN_TABLE;
      process.env.DYNAMODB_ENDPOINT = own.dynamodb;
      process.env.DYNAMODB_STATS = 'true';
      const scales = (options['member-list-sizes'] ?? SCALES.join(',')).split(',').map(Number);
      const memberList = await memberListBench(scales);
      printMemberList(memberList);
      mergeResults({ at: new Date().toISOString(), memberList });
    } finally {
      own.process.kill('SIGINT');
    }
    console.log(`\nwritten: bench/results.json (memberList; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'event-delivery') {
    const figures = await eventDeliveryBench();
    printEventDelivery(figures);
    if (figures.missing > 0) process.exitCode = 1;
    mergeResults({ at: new Date().toISOString(), eventDelivery: figures });
    console.log(`\nwritten: bench/results.json (event delivery; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'klaviyo') {
    const own = await startTwinProcess();
    try {
      process.env.TABLE_NAME = TWIN_TABLE;
      process.env.DYNAMODB_ENDPOINT = own.dynamodb;
      mergeResults({ at: new Date().toISOString(), klaviyo: await klaviyoSection() });
    } finally {
      own.process.kill('SIGINT');
    }
    console.log(`\nwritten: bench/results.json (klaviyo; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'storefront') {
    const own = await startTwinProcess();
    try {
      mergeResults({ at: new Date().toISOString(), storefront: await storefrontSection(own.platformUrl) });
    } finally {
      own.process.kill('SIGINT');
    }
    console.log(`\nwritten: bench/results.json (storefront; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'list-depth') {
    // The list at depth, before and after (docs/performance.md#customer-list-depth), in-process.
    mergeResults({
      at: new Date().toISOString(),
      listDepth: await listDepth(SCALES, { walkBeforeUpTo: Number(options['walk-before-up-to']) }),
    });
    console.log(`\nwritten: bench/results.json (listDepth; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'list-by-shop-size') {
    // The customer list and its e-mail searches by shop size, with a twin of its own.
    const twin = await startTwinProcess();
    try {
      process.env.TABLE_NAME = TWIN_TABLE;
      process.env.DYNAMODB_ENDPOINT = twin.dynamodb;
      process.env.DYNAMODB_STATS = 'true';
      const scale = await listByShopSize(twin.url, SCALES, { inProcessWhenFailed: options['in-process-when-failed'] });
      mergeResults({ at: new Date().toISOString(), scale });
    } finally {
      twin.process.kill('SIGINT');
    }
    console.log(`\nwritten: bench/results.json (scale; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'webhook-burst') {
    mergeResults({ at: new Date().toISOString(), webhookBurst: await burstSection() });
    console.log(`\nwritten: bench/results.json (webhookBurst; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'key-flood') {
    const own = await startTwinProcess();
    try {
      mergeResults({ at: new Date().toISOString(), keyFlood: await floodSection(own.url) });
    } finally {
      own.process.kill('SIGINT');
    }
    console.log(`\nwritten: bench/results.json (keyFlood; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'one-customer') {
    const own = options.url ? null : await startTwinProcess();
    const url = options.url ?? own!.url;
    try {
      console.log(
        `One customer written from ${CONNECTIONS} connections against ${url}: ${DURATION}s per row, after ${WARMUP_SECONDS}s of warm-up load and 1s per row\n`,
      );
      const rows = await oneCustomer(url, { connections: CONNECTIONS, duration: DURATION, warmupSeconds: WARMUP_SECONDS });
      printEndpointTable(rows);
      printCallsByCommand(rows);
      mergeResults({ at: new Date().toISOString(), oneCustomer: rows });
    } finally {
      own?.process.kill('SIGINT');
    }
    console.log(`\nwritten: bench/results.json (oneCustomer; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'import') {
    // The import by size and concurrency beside the configuration file's path (docs/performance.md#import).
    mergeResults({ at: new Date().toISOString(), import: await importBench(IMPORT) });
    console.log(`\nwritten: bench/results.json (import; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'endpoints') {
    const own = options.url ? null : await startTwinProcess({ config: await writeEndpointsConfig() });
    const url = options.url ?? own!.url;
    try {
      const wanted = options.rows?.split(',').map((text) => text.trim().toLowerCase());
      const rows = [...BENCH_ENDPOINTS, ONE_CUSTOMER_MIX].filter(
        (row) => !wanted || wanted.some((text) => row.name.toLowerCase().includes(text)),
      );
      if (rows.length === 0) throw new Error(`--rows matches no row of: ${BENCH_ENDPOINTS.map((row) => row.name).join('; ')}`);
      await twinDynamoDbStats(url, 'pause');
      console.log(
        `Endpoints against ${url}: ${DURATION}s per row (prepared rows: a fixed number of requests), ${CONNECTIONS} connections, after ${WARMUP_SECONDS}s of warm-up load\n`,
      );
      await warmUp(
        url,
        rows.filter((row) => 'method' in row),
        CONNECTIONS,
        WARMUP_SECONDS,
      );
      const endpoints: EndpointFigures[] = [];
      for (const row of rows) endpoints.push(await load(url, row, { connections: CONNECTIONS, duration: DURATION }));
      printEndpointTable(endpoints);
      // Rows measured now replace theirs in bench/results.json; the others stay as the last run left them.
      const previous = existsSync(RESULTS_FILE)
        ? ((JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as { endpoints?: EndpointFigures[] }).endpoints ?? [])
        : [];
      const measured = new Map(endpoints.map((row) => [row.name, row]));
      const merged = [
        ...previous.map((row) => measured.get(row.name) ?? row),
        ...endpoints.filter((row) => !previous.some((old) => old.name === row.name)),
      ];
      mergeResults({ at: new Date().toISOString(), endpoints: merged });
    } finally {
      own?.process.kill('SIGINT');
    }
    console.log(`\nwritten: bench/results.json (endpoints; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  if (options.only === 'jobs') {
    mergeResults({ at: new Date().toISOString(), jobs: await jobsSection() });
    console.log(`\nwritten: bench/results.json (jobs; ${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
    return;
  }
  // Every section but the heavy ones (sections.ts), each timed; the times go to stderr and results.json.
  const plan = sectionPlan(options);
  const timer = sectionTimer((line) => console.error(line));
  console.error(
    `sections: ${plan.join(', ')} (${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} load average at the start)`,
  );
  const twin = options.url ? null : await timer.run('twin start', async () => startTwinProcess({ config: await writeEndpointsConfig() }));
  const url = options.url ?? twin!.url;
  try {
    await twinDynamoDbStats(url, 'pause');
    console.log(
      `Loyalty API benchmark against ${url}: ${DURATION}s per endpoint, ${CONNECTIONS} connections, after ${WARMUP_SECONDS}s of warm-up load and 1s per endpoint\n`,
    );
    const endpoints = await timer.run('endpoints', async () => {
      await warmUp(url, BENCH_ENDPOINTS, CONNECTIONS, WARMUP_SECONDS);
      if (twin) await bareGetItem(twin.dynamodb, 1, CONNECTIONS);
      const rows: EndpointFigures[] = [];
      for (const endpoint of [...BENCH_ENDPOINTS, ONE_CUSTOMER_MIX]) {
        rows.push(await load(url, endpoint, { connections: CONNECTIONS, duration: DURATION }));
      }
      printEndpointTable(rows);
      printCallsByCommand(rows.filter((e) => ONE_CUSTOMER_ROWS.some((row) => row.name === e.name)));
      return rows;
    });

    // The ratio to the physical floor, at the bench's concurrency and at one connection.
    let ratio: number | null = null;
    let floor: { p50: number; p99: number } | null = null;
    const ratios: RatioFigures[] = [];
    if (plan.includes('get-item-ratio')) {
      await timer.run('get-item-ratio', async () => {
        for (const connections of [CONNECTIONS, 1]) ratios.push(await getCustomerAgainstGetItem(url, twin!.dynamodb, connections));
      });
      floor = ratios[0]!.getItem;
      ratio = ratios[0]!.ratio;
    }

    // The bench process itself talks to the twin's DynamoDB from here on (in-process figures, seeding).
    let inProcess: InProcessFigures | null = null;
    if (twin) {
      process.env.TABLE_NAME = TWIN_TABLE;
      process.env.DYNAMODB_ENDPOINT = twin.dynamodb;
      process.env.DYNAMODB_STATS = 'true';
    }
    if (plan.includes('in-process')) {
      inProcess = await timer.run('in-process', () =>
        decomposeGetCustomer({ apiKey: 'demo_read_key', shopId: 'demo', customerId: '1001' }),
      );
      printInProcess(inProcess, ratios[1]!.getCustomerP50); // the one-connection rounds
    }

    const scale: ScaleFigures[] = [];
    for (const members of SCALES) {
      if (!plan.includes(`list-by-shop-size ${members}`)) continue;
      scale.push(
        ...(await timer.run(`list-by-shop-size ${members}`, () =>
          listByShopSize(url, [members], { inProcessWhenFailed: options['in-process-when-failed'] }),
        )),
      );
    }

    let bundles: BundleFigures[] = [];
    let adminApp: AdminAppFigures | null = null;
    let posExtension: PosExtensionFigures[] | null = null;
    if (plan.includes('bundles')) {
      bundles = await timer.run('bundles', () => measureBundles(BUNDLE_ROUNDS));
      printBundleTable(bundles);
      adminApp = await measureAdminApp();
      printAdminApp(adminApp);
      posExtension = await measurePosExtension();
      printPosExtension(posExtension);
    }
    // The checkout extensions' bundles and the estimate against the program, from this run's endpoint rows.
    const checkout: CheckoutFigures = { bundles: await measureCheckoutBundles(), estimate: estimateAgainstProgram(endpoints) };
    printCheckout(checkout);

    let storefront: StorefrontFigures | null = null;
    if (twin && plan.includes('storefront')) storefront = await timer.run('storefront', () => storefrontSection(twin.platformUrl));

    let klaviyo: KlaviyoFigures | null = null;
    if (twin && plan.includes('klaviyo')) klaviyo = await timer.run('klaviyo', () => klaviyoSection());

    let programFigures: ProgramFiguresBench | null = null;
    if (twin && plan.includes('figures'))
      programFigures = await timer.run('figures', () => figuresSection(SCALES.filter((n) => n !== 10_000)));

    let flood: FloodFigures | null = null;
    if (plan.includes('key-flood')) flood = await timer.run('key-flood', () => floodSection(url));

    let burst: BurstFigures | null = null;
    if (plan.includes('webhook-burst')) burst = await timer.run('webhook-burst', () => burstSection());

    // One section per shop size, so each has its time; their figures go to results.json together.
    const jobSizes: JobsSection[] = [];
    for (const members of JOB_SIZES) {
      if (plan.includes(`jobs ${members}`)) jobSizes.push(await timer.run(`jobs ${members}`, () => jobsSection([members])));
    }
    const jobs: JobsSection | null =
      jobSizes.length === 0
        ? null
        : {
            ...jobSizes[0]!,
            seeding: jobSizes.flatMap((size) => size.seeding),
            runs: jobSizes.flatMap((size) => size.runs),
            mismatches: jobSizes.flatMap((size) => size.mismatches),
          };

    let eventDelivery: EventDeliveryFigures | null = null;
    if (plan.includes('event-delivery')) {
      eventDelivery = await timer.run('event-delivery', () => eventDeliveryBench());
      printEventDelivery(eventDelivery);
      if (eventDelivery.missing > 0) process.exitCode = 1;
    }

    let writeCost: WriteCostFigures | null = null;
    if (plan.includes('write-cost')) writeCost = await timer.run('write-cost', () => writeCostSection());

    console.error(`\n${timer.summary().join('\n')}`);
    writeResults({
      at: new Date().toISOString(),
      url,
      durationSeconds: DURATION,
      connections: CONNECTIONS,
      endpoints,
      bareGetItem: floor,
      getCustomerToGetItemRatio: ratio,
      ratios,
      inProcess,
      scale,
      bundles,
      adminApp,
      checkout,
      posExtension,
      webhookBurst: burst,
      keyFlood: flood,
      jobs,
      sections: timer.timings,
      loadAverage: readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).map(Number),
      storefront,
      eventDelivery,
      klaviyo,
      writeCost,
      programFigures,
    });
    console.log(`\nwritten: bench/results.json, bench/latency.svg (${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
  } finally {
    twin?.process.kill('SIGINT');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
