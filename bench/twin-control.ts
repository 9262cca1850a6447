// The twin's bench-only control endpoints, as the bench and test/e2e/dynamodb-calls.test.ts read them.
import { randomBytes } from 'node:crypto';
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

/**
 * A key of the twin's usage plan (`POST /_usage-plan/keys`, then attached), as `keys create` gives one: the
 * fields of a loyalty key the bench writes straight into the table, which the twin refuses without them.
 */
export async function twinUsageKey(url: string): Promise<{ usage_identifier_key: string; usage_key_id: string }> {
  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    if (!response.ok) throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
    return (await response.json()) as Record<string, unknown>;
  };
  const value = randomBytes(30).toString('base64url');
  const { id } = (await post('/_usage-plan/keys', { name: 'bench', value })) as { id: string };
  const plan = (await (await fetch(`${url}/_usage-plan`)).json()) as { id: string };
  await post('/_usage-plan/keys/attach', { usage_plan_id: plan.id, key_id: id });
  return { usage_identifier_key: value, usage_key_id: id };
}
