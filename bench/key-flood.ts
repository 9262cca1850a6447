// The flood of made-up keys: N requests a second with random Authorization values, malformed ones (which
// the authorizer refuses on their shape) and well-formed unknown ones (one key lookup each), through the
// twin. Reports DynamoDB calls per refused request and the latency of legitimate traffic beside the flood.
import { randomBytes, randomInt } from 'node:crypto';
import autocannon from 'autocannon';
import { fixed } from './report';
import { cannon } from './load';
import { percentile, totalCalls } from './statistics';
import { twinDynamoDbStats } from './twin-control';

export interface FloodSettings {
  /** Refused requests per second the flood aims at. */
  rate: number;
  /** Seconds of each timed run. */
  seconds: number;
  /** Legitimate requests per second beside it. */
  legitimateRate: number;
}

/** Legitimate traffic's latency (2xx only) over one timed run. */
export interface LegitimateFigures {
  p50: number;
  p99: number;
  requests: number;
  /** Answers other than 2xx. */
  failed: number;
}

export interface FloodKindFigures {
  kind: 'malformed' | 'unknown';
  /** From the counted run: every refused request completes, nothing else runs. */
  counted: number;
  /** Answers other than 401 in the counted run. */
  notRefused: number;
  callsPerRefused: number;
  callsByCommand: Record<string, number>;
  readUnitsPerRefused: number;
  /** From the timed run: refused requests a second the twin answered, and legitimate traffic beside them. */
  achievedRate: number;
  legitimate: LegitimateFigures;
}

export interface FloodFigures extends FloodSettings {
  /** Legitimate traffic alone, at the same rate, before the floods. */
  alone: LegitimateFigures;
  kinds: FloodKindFigures[];
  /** What the design allows per refused request. */
  target: Record<FloodKindFigures['kind'], number>;
}

const LEGITIMATE = { path: '/v1/customers/1001', key: 'demo_read_key' };
const COUNTED_REQUESTS = 1000;
const FLOOD_CONNECTIONS = 20;
const TARGET = { malformed: 0, unknown: 1 };

/**
 * Values no key of the product has: wrong length, wrong alphabet, a scheme prefix, a JWT-like token
 * (test/unit/key-flood-keys.test.ts holds every generator to it).
 */
const MALFORMED: ReadonlyArray<() => string> = [
  () => randomBytes(3).toString('hex'),
  () => `Bearer lk_${randomBytes(32).toString('base64url')}`,
  // Standard base64 of 32 bytes always ends in `=`, outside the keys' alphabet.
  () => randomBytes(32).toString('base64'),
  () => `${randomBytes(12).toString('base64url')}.${randomBytes(24).toString('base64url')}.${randomBytes(16).toString('base64url')}`,
  () => randomBytes(200).toString('hex'),
];
export const randomKey: Record<FloodKindFigures['kind'], () => string> = {
  malformed: () => MALFORMED[randomInt(MALFORMED.length)]!(),
  // Exactly the shape the CLI issues, so each one costs the lookup that finds nothing.
  unknown: () => `lk_${randomBytes(32).toString('base64url')}`,
};

/** An autocannon request that sends a fresh random key each time. */
const floodRequest = (url: string, kind: FloodKindFigures['kind']) => ({
  url: `${url}${LEGITIMATE.path}`,
  requests: [
    {
      method: 'GET' as const,
      path: LEGITIMATE.path,
      setupRequest: (request: autocannon.Request) => ({ ...request, headers: { ...request.headers, authorization: randomKey[kind]() } }),
    },
  ],
});

async function legitimate(url: string, settings: FloodSettings): Promise<LegitimateFigures> {
  const { result, latencies } = await cannon({
    url: `${url}${LEGITIMATE.path}`,
    headers: { authorization: LEGITIMATE.key },
    connections: 2,
    overallRate: settings.legitimateRate,
    duration: settings.seconds,
  });
  return {
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    requests: result.requests.total,
    failed: result.non2xx + result.errors,
  };
}

async function floodOf(url: string, kind: FloodKindFigures['kind'], settings: FloodSettings): Promise<FloodKindFigures> {
  // Counted: a fixed number of refused requests that all complete, with nothing else running.
  await twinDynamoDbStats(url, 'reset');
  const counting = await autocannon({ ...floodRequest(url, kind), connections: FLOOD_CONNECTIONS, amount: COUNTED_REQUESTS });
  const counted = await twinDynamoDbStats(url, 'pause');
  const requests = counting.requests.total || 1;
  // Timed, counting paused (as production functions run): the flood and legitimate traffic together.
  const [flood, beside] = await Promise.all([
    autocannon({ ...floodRequest(url, kind), connections: FLOOD_CONNECTIONS, overallRate: settings.rate, duration: settings.seconds }),
    legitimate(url, settings),
  ]);
  return {
    kind,
    counted: requests,
    notRefused: requests - (counting.statusCodeStats?.['401']?.count ?? 0),
    callsPerRefused: totalCalls(counted.calls) / requests,
    callsByCommand: counted.calls,
    readUnitsPerRefused: counted.readUnits / requests,
    achievedRate: flood.requests.average,
    legitimate: beside,
  };
}

/** The flood section against a twin at `url` that counts DynamoDB calls (DYNAMODB_STATS). */
export async function keyFlood(url: string, settings: FloodSettings): Promise<FloodFigures> {
  await twinDynamoDbStats(url, 'pause');
  // Warm-up: the authorizer's and the handler's modules loaded, the JITs past their first requests.
  await Promise.all([
    autocannon({ ...floodRequest(url, 'unknown'), connections: FLOOD_CONNECTIONS, duration: 2 }),
    legitimate(url, { ...settings, seconds: 2 }),
  ]);
  const alone = await legitimate(url, settings);
  const kinds = [await floodOf(url, 'malformed', settings), await floodOf(url, 'unknown', settings)];
  return { ...settings, alone, kinds, target: TARGET };
}

export function printFlood(flood: FloodFigures): void {
  console.log(
    `\nFlood of made-up keys: ${flood.rate} refused requests/s for ${flood.seconds}s beside ${flood.legitimateRate} legitimate GET customer/s` +
      `\n${'flood'.padEnd(12)}${'refused/s'.padStart(10)}${'calls/refused'.padStart(15)}${'RRU/refused'.padStart(13)}${'not 401'.padStart(9)}` +
      `${'legit p50'.padStart(11)}${'legit p99'.padStart(11)}${'legit failed'.padStart(14)}`,
  );
  const legit = (figures: LegitimateFigures) =>
    `${fixed(figures.p50, 2).padStart(11)}${fixed(figures.p99, 2).padStart(11)}${String(figures.failed).padStart(14)}`;
  console.log(`${'none'.padEnd(12)}${''.padStart(10)}${''.padStart(15)}${''.padStart(13)}${''.padStart(9)}${legit(flood.alone)}`);
  for (const kind of flood.kinds) {
    console.log(
      `${kind.kind.padEnd(12)}${fixed(kind.achievedRate, 0).padStart(10)}${`${kind.callsPerRefused.toFixed(2)} (${flood.target[kind.kind]})`.padStart(15)}` +
        `${fixed(kind.readUnitsPerRefused, 2).padStart(13)}${String(kind.notRefused).padStart(9)}${legit(kind.legitimate)}`,
    );
  }
}
