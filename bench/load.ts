// Load on the endpoints with autocannon: latency and throughput from a timed run, DynamoDB calls and
// capacity per request from a separate counted run.
import autocannon from 'autocannon';
import type { BenchEndpoint, BenchMix } from './endpoints';
import { authorizationOf, refreshShopperTokens } from './shopper-auth';
import { percentile, totalCalls } from './statistics';
import { twinDynamoDbStats } from './twin-control';

const COUNTED_REQUESTS = 200;

/** A prepared row's requests (bench/prepared-rows.ts): its warm-up, its timed run (a fixed number), its counted run. */
export const PREPARED_WARM_REQUESTS = 100;
export const PREPARED_TIMED_REQUESTS = 1000;
export const PREPARED_REQUESTS = PREPARED_WARM_REQUESTS + PREPARED_TIMED_REQUESTS + COUNTED_REQUESTS;

export interface LoadSettings {
  connections: number;
  /** Seconds of the timed run. */
  duration: number;
}

export interface EndpointFigures {
  name: string;
  /** Mean latency: with a fixed number of connections, it is what throughput allows (Little's law). */
  mean: number;
  p50: number;
  p95: number;
  p99: number;
  rps: number;
  /** Answers other than 2xx and failed connections: the row's warm-up, timed and counted runs together. */
  errors: number;
  callsPerRequest: number;
  /** Calls per request by command, and refused calls per request by command and reason (counted run). */
  callsByCommand: Record<string, number>;
  refusedByReason: Record<string, number>;
  minimumCalls: number;
  readUnitsPerRequest: number;
  writeUnitsPerRequest: number;
}

/**
 * One autocannon run that also keeps every 2xx latency at full precision: autocannon's own
 * percentiles are whole milliseconds, too coarse for GET customer (docs/performance.md).
 */
export async function cannon(
  options: autocannon.Options,
  expectedStatus?: number,
): Promise<{ result: autocannon.Result; latencies: number[] }> {
  const latencies: number[] = [];
  // At run time autocannon() returns its event emitter made awaitable; the types declare only the promise.
  const run = autocannon(options) as unknown as autocannon.Instance & PromiseLike<autocannon.Result>;
  run.on('response', (_client, statusCode, _bytes, responseTime) => {
    if ((statusCode >= 200 && statusCode < 300) || statusCode === expectedStatus) latencies.push(responseTime);
  });
  const result = await run;
  return { result, latencies: latencies.sort((a, b) => a - b) };
}

/** The autocannon request of an endpoint; a prepared row's requests each take their path and body in turn. */
export function request(url: string, endpoint: BenchEndpoint) {
  const common = {
    url: `${url}${endpoint.path}`,
    method: endpoint.method,
    headers: { authorization: authorizationOf(endpoint), 'content-type': 'application/json' },
    ...(endpoint.body ? { body: JSON.stringify(endpoint.body) } : {}),
  };
  const prepared = endpoint.prepared;
  if (!prepared) return common;
  return {
    ...common,
    requests: [
      {
        method: endpoint.method,
        path: endpoint.path,
        setupRequest: (next: autocannon.Request) => {
          const own = prepared.next();
          if (!own) return next;
          return { ...next, path: own.path, ...(own.body === undefined ? {} : { body: JSON.stringify(own.body) }) };
        },
      },
    ],
  };
}

/**
 * Load on every endpoint in turn, a second each, until the time is up (at least one round): none is
 * then measured while the twin's modules load and the JITs of Node and of DynamoDB Local's JVM warm
 * up. Latencies keep falling for the first tens of seconds of load, and the first endpoint measured
 * paid for it (docs/performance.md).
 */
export async function warmUp(url: string, endpoints: readonly BenchEndpoint[], connections: number, seconds: number): Promise<void> {
  const warmupUntil = performance.now() + seconds * 1000;
  // A prepared row warms up on what is prepared for it, at its own turn (load below).
  const timed = endpoints.filter((endpoint) => !endpoint.prepared);
  do {
    await refreshShopperTokens(timed);
    for (const endpoint of timed) await autocannon({ ...request(url, endpoint), connections, duration: 1 });
  } while (performance.now() < warmupUntil);
}

/** The autocannon requests of a mix: every connection sends them in turn. */
function mixRequests(url: string, mix: BenchMix) {
  return {
    url,
    requests: mix.requests.map((endpoint) => {
      const { url: full, ...rest } = request(url, endpoint);
      return { ...rest, path: full.slice(url.length) };
    }),
  };
}

const perRequest = (counts: Record<string, number>, requests: number) =>
  Object.fromEntries(Object.entries(counts).map(([name, n]) => [name, n / requests]));

export async function load(
  url: string,
  target: BenchEndpoint | BenchMix,
  { connections, duration }: LoadSettings,
): Promise<EndpointFigures> {
  await refreshShopperTokens('requests' in target ? target.requests : [target]);
  const requests = 'requests' in target ? mixRequests(url, target) : request(url, target);
  // A row loading a refusal by design (an action past its limit) expects that status instead of a 2xx.
  const expected = 'requests' in target ? undefined : target.status;
  const unexpected = (run: autocannon.Result) =>
    run.non2xx + run.errors - (expected !== undefined && expected >= 300 ? (run.statusCodeStats?.[`${expected}`]?.count ?? 0) : 0);
  // A prepared row: its data first (not timed), then fixed numbers of requests that use exactly that.
  const prepared = 'requests' in target ? undefined : target.prepared;
  if (prepared) await prepared.prepare(url, PREPARED_REQUESTS);
  const length = (seconds: number, amount: number) => (prepared ? { amount } : { duration: seconds });
  const warm = await autocannon({ ...requests, connections, ...length(1, PREPARED_WARM_REQUESTS) }); // warm-up
  const { result, latencies } = await cannon({ ...requests, connections, ...length(duration, PREPARED_TIMED_REQUESTS) }, expected);
  // Calls and capacity from a fixed number of requests that all complete: a timed run ends with
  // requests in flight whose DynamoDB calls would be counted without the requests themselves.
  await new Promise((resolve) => setTimeout(resolve, 250));
  await twinDynamoDbStats(url, 'reset');
  const counting = await autocannon({ ...requests, connections, amount: COUNTED_REQUESTS });
  const counted = await twinDynamoDbStats(url, 'pause');
  const sent = counting.requests.total || 1;
  const calls = totalCalls(counted.calls);
  const endpoints = 'requests' in target ? target.requests : [target];
  return {
    name: target.name,
    mean: latencies.reduce((sum, ms) => sum + ms, 0) / (latencies.length || 1),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 97.5),
    p99: percentile(latencies, 99),
    rps: result.requests.average,
    errors: [warm, result, counting].reduce((sum, run) => sum + unexpected(run), 0),
    callsPerRequest: calls / sent,
    callsByCommand: perRequest(counted.calls, sent),
    refusedByReason: perRequest(counted.refused ?? {}, sent),
    minimumCalls: endpoints.reduce((sum, endpoint) => sum + totalCalls(endpoint.minimumCalls), 0) / endpoints.length,
    readUnitsPerRequest: counted.readUnits / sent,
    writeUnitsPerRequest: counted.writeUnits / sent,
  };
}
