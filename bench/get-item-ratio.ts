// GET customer against the physical floor: rounds of a bare DynamoDB GetItem of the same customer
// item on the same DynamoDB, each followed at once by GET customer, with each side's CPU per request.
import { GetItemCommand } from '@aws-sdk/client-dynamodb';
import { localClient } from '../infra/local/dynamodb-local';
import { BENCH_ROUTES } from './endpoints';
import { cannon, request } from './load';
import { median, percentile } from './statistics';
import { twinCpuMs } from './twin-control';
import { TWIN_TABLE } from './twin-process';

const RATIO_ROUNDS = 5;
const RATIO_SECONDS = 2;

/**
 * The physical floor: one GetItem of the same customer item, same concurrency, same DynamoDB. Also
 * the bench process's CPU per call (it does nothing else meanwhile).
 */
export async function bareGetItem(
  endpoint: string,
  seconds: number,
  connections: number,
): Promise<{ p50: number; p99: number; cpuMs: number }> {
  const client = localClient(endpoint);
  const latencies: number[] = [];
  const until = performance.now() + seconds * 1000;
  const cpu = process.cpuUsage();
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        await client.send(new GetItemCommand({ TableName: TWIN_TABLE, Key: { pk: { S: 'SHOP#demo#C#1001' }, sk: { S: 'PROFILE' } } }));
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const used = process.cpuUsage(cpu);
  client.destroy();
  latencies.sort((a, b) => a - b);
  return { p50: percentile(latencies, 50), p99: percentile(latencies, 99), cpuMs: (used.user + used.system) / 1000 / latencies.length };
}

export interface RatioFigures {
  connections: number;
  rounds: Array<{ getItemP50: number; getItemP99: number; getCustomerP50: number; getItemCpuMs: number; getCustomerCpuMs: number }>;
  getItem: { p50: number; p99: number };
  getCustomerP50: number;
  ratio: number;
  /** CPU per request: GET customer in the twin's process, the bare GetItem in the bench's (medians of the rounds). */
  cpu: { getCustomerMs: number; getItemMs: number; ratio: number };
}

/**
 * Medians of the rounds: a single pair swung widely (docs/performance.md). On a laptop both sides are
 * bound by Node's CPU (SDK, HTTP, the functions), and at the bench's concurrency the load tool, the
 * twin and DynamoDB Local also share the machine's cores, hence the CPU figures.
 */
export async function getCustomerAgainstGetItem(url: string, dynamodb: string, connections: number): Promise<RatioFigures> {
  const rounds: RatioFigures['rounds'] = [];
  for (let round = 0; round < RATIO_ROUNDS; round += 1) {
    const bare = await bareGetItem(dynamodb, RATIO_SECONDS, connections);
    const cpuBefore = await twinCpuMs(url);
    const api = await cannon({ ...request(url, BENCH_ROUTES.getCustomer[0]), connections, duration: RATIO_SECONDS });
    const getCustomerCpuMs = ((await twinCpuMs(url)) - cpuBefore) / api.result.requests.total;
    rounds.push({
      getItemP50: bare.p50,
      getItemP99: bare.p99,
      getCustomerP50: percentile(api.latencies, 50),
      getItemCpuMs: bare.cpuMs,
      getCustomerCpuMs,
    });
  }
  const getItem = { p50: median(rounds.map((r) => r.getItemP50)), p99: median(rounds.map((r) => r.getItemP99)) };
  const getCustomerP50 = median(rounds.map((r) => r.getCustomerP50));
  const ratio = getCustomerP50 / getItem.p50;
  const cpuGetCustomer = median(rounds.map((r) => r.getCustomerCpuMs));
  const cpuGetItem = median(rounds.map((r) => r.getItemCpuMs));
  const cpu = { getCustomerMs: cpuGetCustomer, getItemMs: cpuGetItem, ratio: cpuGetCustomer / cpuGetItem };
  console.log(
    `\nGET /customers/{id} p50 against a bare DynamoDB GetItem p50, ${connections} connection${connections === 1 ? '' : 's'}, ${RATIO_ROUNDS} rounds of ${RATIO_SECONDS}s each: ` +
      rounds.map((r) => `${r.getCustomerP50.toFixed(1)}/${r.getItemP50.toFixed(1)} ms`).join(', ') +
      `; medians ${getCustomerP50.toFixed(2)}/${getItem.p50.toFixed(2)} ms = ${ratio.toFixed(2)}x (design floor: 1x, the customer; the key's answer is cached)` +
      `\n  CPU per request: GET customer ${cpu.getCustomerMs.toFixed(2)} ms in the twin's process (gateway, handler, 1 SDK call; the authorizer answer cached), ` +
      `bare GetItem ${cpu.getItemMs.toFixed(2)} ms in the bench's = ${cpu.ratio.toFixed(2)}x`,
  );
  return { connections, rounds, getItem, getCustomerP50, ratio, cpu };
}
