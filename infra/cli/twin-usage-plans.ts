// The usage plan of the twins running on this machine against a DynamoDB endpoint and table (infra/local/twin-registry.ts):
// what `config apply`, `keys create` and `keys revoke` with --endpoint manage as they manage the stack's with --stack,
// through each twin's control endpoints (infra/local/twin-usage-plan.ts). A key's id follows from its value there,
// so every twin on the table knows a key by the same id.
import { runningTwins, type RunningTwin } from '../local/twin-registry';
import type { UsagePlan } from './usage-plan-keys';

/** The id the twins give their plan (TWIN_USAGE_PLAN_ID). */
const TWIN_USAGE_PLAN_ID = 'twin-usage-plan';

/** Null when no twin runs on this table: then nothing holds a usage plan for it. */
export function twinUsagePlans(dynamodbEndpoint: string, tableName: string): (UsagePlan & { description: string }) | null {
  const twins = runningTwins(dynamodbEndpoint, tableName);
  if (twins.length === 0) return null;

  /** Each twin's answer; a twin stopped since it was listed (nothing listens) is skipped, and so, for `skip`, are those statuses. */
  const each = async (path: string, body: unknown, skip: number[] = []): Promise<unknown[]> => {
    const answers: unknown[] = [];
    for (const twin of twins) {
      const answer = await post(twin, path, body, skip);
      if (answer !== undefined) answers.push(answer);
    }
    return answers;
  };

  return {
    id: TWIN_USAGE_PLAN_ID,
    description: twins.map((twin) => `the twin at ${twin.url}`).join(', '),
    keys: {
      create: async (name, value) => {
        const ids = new Set((await each('/_usage-plan/keys', { name, value })).map((answer) => (answer as { id: string }).id));
        const [id] = [...ids];
        if (ids.size !== 1 || !id) throw new Error(`the twins did not agree on the new usage-plan key's id: ${[...ids].join(', ')}`);
        return { id };
      },
      attach: async (usagePlanId, keyId) => {
        await each('/_usage-plan/keys/attach', { usage_plan_id: usagePlanId, key_id: keyId });
      },
      // A twin that does not know the key (started after it was disabled elsewhere) has nothing to disable.
      disable: async (keyId) => {
        await each('/_usage-plan/keys/disable', { key_id: keyId }, [404]);
      },
    },
  };
}

async function post(twin: RunningTwin, path: string, body: unknown, skip: number[]): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(`${twin.url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(5000),
    });
  } catch (error) {
    if ((error as { cause?: { code?: string } }).cause?.code === 'ECONNREFUSED') return undefined;
    throw new Error(`the twin at ${twin.url} did not answer ${path}: ${(error as Error).message}`);
  }
  if (skip.includes(response.status)) return undefined;
  const answer = (await response.json().catch(() => ({}))) as { error?: string };
  if (!response.ok) throw new Error(`the twin at ${twin.url} answered HTTP ${response.status} to ${path}: ${answer.error ?? ''}`);
  return answer;
}
