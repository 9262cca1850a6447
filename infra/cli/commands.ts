// The operator commands. Each takes what it works on as parameters, so tests can run them directly.
import { randomBytes } from 'node:crypto';
import { applyConfig } from '../../shared/config/apply-config';
import { readConfigFile } from '../../shared/config/schema';
import { hashApiKey, keyIdOf, listApiKeys, putApiKey, revokeApiKey, type KeyScope } from '../../shared/data/api-key-repository';
import { readShopCatalog } from '../../shared/data/shop-repository';
import type { UsagePlanKeys } from './usage-plan-keys';

type Print = (line: string) => void;

export async function configApply(file: string, print: Print): Promise<void> {
  const config = readConfigFile(file);
  const summaries = await applyConfig(config);
  for (const shop of summaries) {
    print(`shop ${shop.shopId}: settings, rules, tiers, rewards and campaigns written; ${shop.keys.length} keys; ` +
      `${shop.membersImported} members imported, ${shop.membersKept} already present and kept`);
  }
}

/** A new key: `lk_` + 32 random bytes, base64url. */
export function generateKey(): string {
  return `lk_${randomBytes(32).toString('base64url')}`;
}

export async function keysCreate(
  options: { shop: string; name: string; scope: KeyScope },
  usagePlanKeys: UsagePlanKeys | null,
  print: Print,
): Promise<{ key: string; keyId: string }> {
  if (!(await readShopCatalog(options.shop))) throw new Error(`Shop '${options.shop}' has no configuration: run 'config apply' first`);
  const key = generateKey();
  const keyHash = hashApiKey(key);
  let usage: { id: string; value: string } | null = null;
  if (usagePlanKeys) {
    // The usage-plan key's value is its own random string: API Gateway never sees the loyalty key.
    const value = randomBytes(24).toString('base64url');
    const created = await usagePlanKeys.createAndAttach(`loyalty-${options.shop}-${keyIdOf(keyHash)}`, value);
    usage = { id: created.id, value };
  }
  await putApiKey({
    key_hash: keyHash,
    shop_id: options.shop,
    name: options.name,
    scope: options.scope,
    status: 'active',
    usage_identifier_key: usage?.value ?? null,
    usage_key_id: usage?.id ?? null,
    created_at: new Date().toISOString(),
  });
  print(`key id: ${keyIdOf(keyHash)}  shop: ${options.shop}  name: ${options.name}  scope: ${options.scope}`);
  print(usage ? `attached to the usage plan (API Gateway key ${usage.id})` : 'no usage plan here (local twin): throttled by the twin itself');
  print('');
  print(`  ${key}`);
  print('');
  print('This is the only time the key is shown: only its hash is stored. Keep it in your backend\'s secrets.');
  return { key, keyId: keyIdOf(keyHash) };
}

export async function keysRevoke(options: { shop: string; keyId: string }, usagePlanKeys: UsagePlanKeys | null, print: Print): Promise<void> {
  const revoked = await revokeApiKey(options.shop, options.keyId);
  if (usagePlanKeys && revoked.usage_key_id) await usagePlanKeys.disable(revoked.usage_key_id);
  print(`key ${revoked.key_id} (${revoked.name}) revoked: refused from the next request on`);
}

export async function keysList(options: { shop: string }, print: Print): Promise<void> {
  const keys = await listApiKeys(options.shop);
  print(['KEY ID'.padEnd(14), 'SCOPE'.padEnd(6), 'STATUS'.padEnd(8), 'CREATED'.padEnd(25), 'NAME'].join(' '));
  for (const key of keys) {
    print([key.key_id.padEnd(14), key.scope.padEnd(6), key.status.padEnd(8), key.created_at.padEnd(25), key.name].join(' '));
  }
}
