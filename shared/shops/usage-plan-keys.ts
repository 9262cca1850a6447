// The API's usage plan as the operator commands and the twin's start use it: a port (API Gateway's plan in the
// cloud, infra/cli/usage-plan-keys.ts; the twin's own, infra/local/twin-usage-plan.ts), the usage-plan key each
// loyalty key gets, and the sync of a configuration file's keys with the plan. API Gateway takes a key's request
// only if the authorizer's usageIdentifierKey is an enabled key of the plan, so an active key needs one.
import { randomBytes } from 'node:crypto';
import type { ConfigFile } from '../config/schema';
import { findApiKey } from '../data/api-key-repository';
import { listApiKeys, listApiKeyHashes, setUsageKey } from '../data/api-key-listing-repository';
import { hashApiKey, keyIdOf, type UsageKey } from '../domain/api-key';
import { listShopIds } from '../data/shop-repository';

export interface UsagePlanKeys {
  /** Creates an enabled API Gateway key with exactly this value. */
  create(name: string, value: string): Promise<{ id: string }>;
  /** Attaches an API Gateway key to a usage plan. */
  attach(usagePlanId: string, keyId: string): Promise<void>;
  /** Disables an API Gateway key, by id: the usage plan then refuses it even if the authorizer did not. */
  disable(keyId: string): Promise<void>;
}

/** A usage plan and the way to manage its keys: the deployed stack's, or the twin's. */
export interface UsagePlan {
  id: string;
  keys: UsagePlanKeys;
}

/** A fresh usage-plan key (its value is its own random string, never the loyalty key) on the plan. */
export async function provisionUsageKey(shopId: string, keyId: string, usagePlan: UsagePlan): Promise<UsageKey> {
  const value = randomBytes(30).toString('base64url');
  const { id } = await usagePlan.keys.create(`loyalty-${shopId}-${keyId}`, value);
  const usage = { id, value };
  await usagePlan.keys.attach(usagePlan.id, id).catch((error: unknown) => undoUsageKey(usagePlan, usage, error));
  return usage;
}

/** A usage-plan key whose loyalty key could not be stored must not stay usable; then the first error goes on. */
export async function undoUsageKey(usagePlan: UsagePlan, usage: UsageKey, error: unknown): Promise<never> {
  try {
    await usagePlan.keys.disable(usage.id);
  } catch (undoError) {
    throw new Error(
      `${messageOf(error)} (and API Gateway key ${usage.id} could not be disabled: ${messageOf(undoError)}; disable it by hand)`,
    );
  }
  throw error;
}

function messageOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  // Node reports some connection failures as an AggregateError with an empty message.
  if (error.message) return error.message;
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? code : error.name;
}

/**
 * API Gateway refuses a key without a usage-plan key (apiKeyRequired), so an active key from the file
 * gets one the first time; a key the file revokes has its usage-plan key disabled. Re-applying the same
 * file does nothing here.
 */
export async function syncConfigUsageKeys(config: ConfigFile, usagePlan: UsagePlan): Promise<{ attached: number; disabled: number }> {
  let attached = 0;
  let disabled = 0;
  for (const shop of config.shops) {
    const stored = new Map((await listApiKeys(shop.id)).map((key) => [key.key_id, key]));
    for (const fileKey of shop.api_keys) {
      const keyId = keyIdOf(hashApiKey(fileKey.key));
      const usageKeyId = stored.get(keyId)?.usage_key_id ?? null;
      if (!fileKey.revoked && !usageKeyId) {
        const usage = await provisionUsageKey(shop.id, keyId, usagePlan);
        await setUsageKey(shop.id, keyId, usage).catch((error: unknown) => undoUsageKey(usagePlan, usage, error));
        attached += 1;
      } else if (fileKey.revoked && usageKeyId) {
        await usagePlan.keys.disable(usageKeyId);
        await setUsageKey(shop.id, keyId, null);
        disabled += 1;
      }
    }
  }
  return { attached, disabled };
}

/**
 * The usage-plan keys the table's keys hold, each shop's: what a plan that outlived the process that wrote them
 * (the stack's does) still has, enabled for an active key, disabled for a revoked one. The twin's plan lives in
 * its process, so a twin started on a table with keys takes these back.
 */
export async function storedUsageKeys(): Promise<Array<UsageKey & { enabled: boolean }>> {
  const found: Array<UsageKey & { enabled: boolean }> = [];
  for (const shopId of await listShopIds()) {
    for (const keyHash of await listApiKeyHashes(shopId)) {
      const key = await findApiKey(keyHash);
      if (key?.usage_key_id && key.usage_identifier_key)
        found.push({ id: key.usage_key_id, value: key.usage_identifier_key, enabled: key.status === 'active' });
    }
  }
  return found;
}
