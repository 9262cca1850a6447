// `npm run bench`: latency and throughput of the API on the local twin, next to a bare DynamoDB
// GetItem on the same DynamoDB Local (the physical floor). Prints a table, writes bench/results.json.
import '../infra/local/local-env';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { localClient } from '../infra/local/dynamodb-local';
import { DEMO_CONFIG, PROJECT_ROOT, startTwin } from '../infra/local/twin';
import { keys } from '../shared/data/keys';


const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const WARMUP = 200;

interface Figures {
  name: string;
  requests: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  errors: number;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function measure(name: string, call: () => Promise<boolean>, requests = REQUESTS): Promise<Figures> {
  for (let i = 0; i < WARMUP; i += 1) await call();
  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const started = performance.now();
  const worker = async () => {
    while (next < requests) {
      next += 1;
      const t0 = performance.now();
      if (!(await call())) errors += 1;
      latencies.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return { name, requests, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99), rps: requests / seconds, errors };
}

async function main(): Promise<void> {
  const twin = await startTwin({ config: DEMO_CONFIG, port: 0, throttling: false, tableName: 'bench' });
  try {
    const get = (path: string) => async () => {
      const response = await fetch(`${twin.url}${path}`, { headers: { Authorization: 'demo_read_key' } });
      await response.arrayBuffer();
      return response.ok;
    };
    const dynamo = localClient(twin.dynamodbEndpoint);
    const key = keys.customer('demo', '1001');
    const bareGetItem = async () => {
      const result = await dynamo.send(new GetItemCommand({ TableName: twin.tableName, Key: { pk: { S: key.pk }, sk: { S: key.sk } } }));
      return result.Item !== undefined;
    };

    const results = [
      await measure('DynamoDB GetItem (bare)', bareGetItem),
      await measure('GET /v1/customers/{id}', get('/v1/customers/1001')),
      await measure('GET /v1/customers/{email}', get('/v1/customers/ada.lovelace@example.com')),
      await measure('GET /v1/customers/{id}/birthday', get('/v1/customers/1001/birthday')),
      await measure('GET /v1/customers (page 1)', get('/v1/customers')),
      await measure('GET /v1/customers?sort=-points', get('/v1/customers?sort=-points')),
      await measure('GET /v1/customers?filter[email]=', get('/v1/customers?filter%5Bemail%5D=example')),
    ];
    dynamo.destroy();

    const floor = results[0]!.p50;
    console.log(`\n${REQUESTS} requests per row, concurrency ${CONCURRENCY}, after ${WARMUP} warm-up requests (ms)\n`);
    console.log('endpoint'.padEnd(36), 'p50'.padStart(7), 'p95'.padStart(7), 'p99'.padStart(7), 'req/s'.padStart(8), 'x GetItem'.padStart(10), 'errors'.padStart(7));
    for (const r of results) {
      console.log(
        r.name.padEnd(36),
        r.p50.toFixed(2).padStart(7),
        r.p95.toFixed(2).padStart(7),
        r.p99.toFixed(2).padStart(7),
        r.rps.toFixed(0).padStart(8),
        (r.p50 / floor).toFixed(2).padStart(10),
        String(r.errors).padStart(7),
      );
    }
    writeFileSync(join(PROJECT_ROOT, 'bench', 'results.json'), JSON.stringify({ at: new Date().toISOString(), concurrency: CONCURRENCY, results }, null, 2));
    console.log('\nwritten: bench/results.json');
  } finally {
    await twin.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
