// `npm run bench`: figures anyone can reproduce with one command. Starts the local twin in its own
// process (or targets --url), then measures latency and throughput per endpoint with autocannon,
// DynamoDB calls and consumed capacity per request, GET customer against a bare GetItem, bundle
// sizes and cold initialisation, and the customer list at 1k/10k/100k members. Prints tables and
// writes bench/results.json and bench/latency.svg. This file reads the flags and runs the sections
// in order; each section is its own module.
import '../infra/local/local-env';
import { parseArgs } from 'node:util';
import { measureBundles, type BundleFigures } from './bundles';
import { BENCH_ENDPOINTS } from './endpoints';
import { bareGetItem, getCustomerAgainstGetItem, type RatioFigures } from './get-item-ratio';
import { decomposeGetCustomer, type InProcessFigures } from './in-process';
import { listByShopSize, type ScaleFigures } from './list-by-shop-size';
import { load, warmUp, type EndpointFigures } from './load';
import { printBundleTable, printEndpointTable, printInProcess, writeResults } from './report';
import { twinDynamoDbStats } from './twin-control';
import { startTwinProcess, TWIN_TABLE } from './twin-process';

const { values: options } = parseArgs({
  options: {
    url: { type: 'string' },
    duration: { type: 'string', default: '4' },
    connections: { type: 'string', default: '10' },
    'max-members': { type: 'string', default: '100000' },
    'skip-bundles': { type: 'boolean', default: false },
    warmup: { type: 'string', default: '30' },
    'in-process-when-failed': { type: 'boolean', default: false },
  },
});
const DURATION = Number(options.duration);
const CONNECTIONS = Number(options.connections);
const SCALES = [1_000, 10_000, 100_000].filter((n) => n <= Number(options['max-members']));
const WARMUP_SECONDS = Number(options.warmup);

async function main(): Promise<void> {
  const started = performance.now();
  const twin = options.url ? null : await startTwinProcess();
  const url = options.url ?? twin!.url;
  try {
    await twinDynamoDbStats(url, 'pause');
    console.log(`Loyalty API benchmark against ${url}: ${DURATION}s per endpoint, ${CONNECTIONS} connections, after ${WARMUP_SECONDS}s of warm-up load and 1s per endpoint\n`);
    await warmUp(url, BENCH_ENDPOINTS, CONNECTIONS, WARMUP_SECONDS);
    if (twin) await bareGetItem(twin.dynamodb, 1, CONNECTIONS);
    const endpoints: EndpointFigures[] = [];
    for (const endpoint of BENCH_ENDPOINTS) endpoints.push(await load(url, endpoint, { connections: CONNECTIONS, duration: DURATION }));
    printEndpointTable(endpoints);

    // The ratio to the physical floor, at the bench's concurrency and at one connection.
    let ratio: number | null = null;
    let floor: { p50: number; p99: number } | null = null;
    const ratios: RatioFigures[] = [];
    if (twin) {
      for (const connections of [CONNECTIONS, 1]) ratios.push(await getCustomerAgainstGetItem(url, twin.dynamodb, connections));
      floor = ratios[0]!.getItem;
      ratio = ratios[0]!.ratio;
    }

    // The bench process itself talks to the twin's DynamoDB from here on (in-process figures, seeding).
    let inProcess: InProcessFigures | null = null;
    if (twin) {
      process.env.TABLE_NAME = TWIN_TABLE;
      process.env.DYNAMODB_ENDPOINT = twin.dynamodb;
      process.env.DYNAMODB_STATS = 'true';
      inProcess = await decomposeGetCustomer({ apiKey: 'demo_read_key', shopId: 'demo', customerId: '1001' });
      printInProcess(inProcess, ratios[1]!.getCustomerP50); // the one-connection rounds
    }

    let scale: ScaleFigures[] = [];
    if (twin && SCALES.length > 0) scale = await listByShopSize(url, SCALES, { inProcessWhenFailed: options['in-process-when-failed'] });

    let bundles: BundleFigures[] = [];
    if (!options['skip-bundles']) {
      bundles = await measureBundles();
      printBundleTable(bundles);
    }

    writeResults({ at: new Date().toISOString(), url, durationSeconds: DURATION, connections: CONNECTIONS, endpoints, bareGetItem: floor, getCustomerToGetItemRatio: ratio, ratios, inProcess, scale, bundles });
    console.log(`\nwritten: bench/results.json, bench/latency.svg (${((performance.now() - started) / 1000).toFixed(0)} s in all)`);
  } finally {
    twin?.process.kill('SIGINT');
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
