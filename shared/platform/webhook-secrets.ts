// The keys a shop's webhooks are signed with: the current one and, during a rotation, the previous one.
// In the cloud they are fields of the shop's Shopify secret in Secrets Manager (beside the access token);
// the twin registers them from the configuration file in process. They are never stored in the table.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { env } from '../runtime/env';
import { traceAwsClient } from '../observability/tracing';
import { PlatformError } from './port';

const SECRET_TTL_MS = 5 * 60 * 1000;

const webhookSecretSchema = z.object({
  webhook_secret: z.string().check(z.minLength(1)),
  previous_webhook_secret: z.optional(z.nullable(z.string().check(z.minLength(1)))),
});

let local: Map<string, string[]> | undefined;
let client: SecretsManagerClient | undefined;
const cache = new Map<string, { secrets: string[]; expiresAt: number }>();

/** Twin only: the shops' webhook secrets from the configuration file (current first). */
export function registerLocalWebhookSecrets(secrets: Record<string, string[]> | null): void {
  local = secrets === null ? undefined : new Map(Object.entries(secrets));
  cache.clear();
}

/** The secrets to try, current first; empty when the shop has none. */
export async function webhookSecretsForShop(shopId: string): Promise<string[]> {
  if (local) return local.get(shopId) ?? [];
  const cached = cache.get(shopId);
  if (cached && cached.expiresAt > Date.now()) return cached.secrets;
  const prefix = env().SHOPIFY_SECRET_PREFIX;
  if (!prefix) throw new Error('No webhook secrets are configured: set SHOPIFY_SECRET_PREFIX (cloud) or register them (twin)');
  client ??= traceAwsClient(new SecretsManagerClient({}));
  const result = await client.send(new GetSecretValueCommand({ SecretId: `${prefix}${shopId}` }));
  let parsed: ReturnType<typeof webhookSecretSchema.safeParse>;
  try {
    parsed = webhookSecretSchema.safeParse(JSON.parse(result.SecretString ?? '{}'));
  } catch {
    throw new PlatformError(`The Shopify secret of shop '${shopId}' is not valid JSON`);
  }
  if (!parsed.success) throw new PlatformError(`The Shopify secret of shop '${shopId}' has no valid webhook_secret`);
  const secrets = [parsed.data.webhook_secret, ...(parsed.data.previous_webhook_secret ? [parsed.data.previous_webhook_secret] : [])];
  cache.set(shopId, { secrets, expiresAt: Date.now() + SECRET_TTL_MS });
  return secrets;
}
