// The twin's bench-only control endpoints, as the bench and test/e2e/dynamodb-calls.test.ts read them.
import type { DynamoDbStats } from '../shared/data/dynamodb-stats';

/**
 * The twin's DynamoDB counter: `reset` zeroes it and starts counting, `pause` stops it. Latency is
 * measured while it is paused (counting makes every call ask DynamoDB for its consumed capacity,
 * which production functions do not), calls and capacity from separate, counted requests.
 */
export async function twinDynamoDbStats(url: string, action?: 'reset' | 'pause'): Promise<DynamoDbStats> {
  const response = await fetch(`${url}/_dynamodb-stats${action ? `/${action}` : ''}`, { method: action ? 'POST' : 'GET' });
  return (await response.json()) as DynamoDbStats;
}

/** CPU time the twin's process has used so far, as `GET /_cpu` reports it. */
export async function twinCpu(url: string): Promise<{ userMicros: number; systemMicros: number }> {
  return (await (await fetch(`${url}/_cpu`)).json()) as { userMicros: number; systemMicros: number };
}

/** Milliseconds of CPU the twin's process has used so far. */
export async function twinCpuMs(url: string): Promise<number> {
  const { userMicros, systemMicros } = await twinCpu(url);
  return (userMicros + systemMicros) / 1000;
}
