// The twin's stand-in for the stack's usage plan: its API keys (the usage-plan keys, never the loyalty keys),
// each enabled or disabled and attached to the plan or not. The gateway takes a /v1 request only if the
// authorizer's usageIdentifierKey is an enabled key of the plan (API Gateway's INVALID_API_KEY otherwise) and
// throttles per that key. `config apply` and `keys create` / `keys revoke` manage it through the same port as
// the stack's (shared/shops/usage-plan-keys.ts): in process at the twin's start, and from the operator CLI
// through the twin's control endpoints (`POST /_usage-plan/keys`, `.../attach`, `.../disable`).
import { createHash } from 'node:crypto';
import type { UsagePlan } from '../../shared/shops/usage-plan-keys';
import type { UsageKey } from '../../shared/domain/api-key';
import { ControlError } from './gateway';

/** The plan's id, as the stack's `UsagePlanId` output names the deployed one. */
export const TWIN_USAGE_PLAN_ID = 'twin-usage-plan';

export interface TwinUsagePlanKey {
  id: string;
  name: string;
  enabled: boolean;
  attached: boolean;
}

export interface TwinUsagePlan extends UsagePlan {
  /** Whether API Gateway would take this usageIdentifierKey: the value of an enabled key attached to the plan. */
  admits(usageIdentifierKey: string | null | undefined): boolean;
  /** Takes back keys the table's loyalty keys hold, attached (the stack's plan outlives a deployment). */
  adopt(keys: ReadonlyArray<UsageKey & { enabled: boolean }>): void;
  /** The plan's keys, without their values. */
  list(): TwinUsagePlanKey[];
  /** The control endpoints the operator CLI calls, by "METHOD /path". */
  controls(): Record<string, (body: string | null) => Promise<unknown>>;
}

/**
 * A key's id follows from its value (API Gateway's are random): the CLI creates the same key in each twin
 * running on a table, and all of them then know it by the id the key item stores.
 */
const idOf = (value: string) => `tw${createHash('sha256').update(value).digest('hex').slice(0, 8)}`;

export function twinUsagePlan(): TwinUsagePlan {
  const keys = new Map<string, { name: string; value: string; enabled: boolean; attached: boolean }>();
  const known = (keyId: string) => {
    const key = keys.get(keyId);
    if (!key) throw new ControlError(404, `Invalid API Key identifier specified: ${keyId}`);
    return key;
  };
  const plan: TwinUsagePlan = {
    id: TWIN_USAGE_PLAN_ID,
    keys: {
      create: async (name, value) => {
        if (typeof name !== 'string' || typeof value !== 'string' || value.length < 20)
          throw new ControlError(400, 'A key needs a name and a value of at least 20 characters');
        const id = idOf(value);
        // As CreateApiKey: a value is one key's only.
        if (keys.has(id)) throw new ControlError(409, 'API Key already exists');
        keys.set(id, { name, value, enabled: true, attached: false });
        return { id };
      },
      attach: async (usagePlanId, keyId) => {
        if (usagePlanId !== TWIN_USAGE_PLAN_ID) throw new ControlError(404, `Invalid Usage Plan ID specified: ${usagePlanId}`);
        const key = known(keyId);
        if (key.attached) throw new ControlError(409, 'Usage Plan Key already exists');
        key.attached = true;
      },
      disable: async (keyId) => {
        known(keyId).enabled = false;
      },
    },
    admits: (value) => {
      if (typeof value !== 'string') return false;
      const key = keys.get(idOf(value));
      return key !== undefined && key.value === value && key.enabled && key.attached;
    },
    adopt: (stored) => {
      for (const key of stored)
        if (!keys.has(key.id)) keys.set(key.id, { name: 'adopted', value: key.value, enabled: key.enabled, attached: true });
    },
    list: () => [...keys].map(([id, key]) => ({ id, name: key.name, enabled: key.enabled, attached: key.attached })),
    controls: () => ({
      'GET /_usage-plan': async () => ({ id: TWIN_USAGE_PLAN_ID, keys: plan.list() }),
      'POST /_usage-plan/keys': async (body) => {
        const { name, value } = jsonBody(body);
        return plan.keys.create(name as string, value as string);
      },
      'POST /_usage-plan/keys/attach': async (body) => {
        const { usage_plan_id: usagePlanId, key_id: keyId } = jsonBody(body);
        await plan.keys.attach(String(usagePlanId), String(keyId));
        return { attached: true };
      },
      'POST /_usage-plan/keys/disable': async (body) => {
        await plan.keys.disable(String(jsonBody(body).key_id));
        return { enabled: false };
      },
    }),
  };
  return plan;
}

function jsonBody(body: string | null): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body ?? '');
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new ControlError(400, 'Body must be a JSON object');
}
