// A shop's Shopify secret, read and cached in one place for the adapter (its credentials) and the webhook
// receiver (the keys its webhooks are signed with). In the cloud it is the shop's Secrets Manager secret
// (`<SHOPIFY_SECRET_PREFIX><shop>`), in one of Shopify's two forms, cached for a few minutes so that a rotated
// secret is picked up; the twin registers it from its configuration file in process. It is never stored in
// the table and never logged.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { env } from '../runtime/env';
import { traceAwsClient } from '../observability/tracing';
import { PlatformError } from './port';
import { deterministicId } from '../domain/deterministic-id';

const SECRET_TTL_MS = 5 * 60 * 1000;

export type ShopifyCredentials =
  /** An app created in the Dev Dashboard (every app since 2026-01-01): expiring tokens from the client credentials grant. */
  | { kind: 'client_credentials'; clientId: string; clientSecret: string }
  /** A legacy custom app made in the store admin: one token that never expires. */
  | { kind: 'access_token'; accessToken: string };

export interface ShopSecret {
  /** e.g. my-shop.myshopify.com; null in the twin, which reaches every shop through the simulator. */
  shopDomain: string | null;
  /** Null when the secret holds only webhook keys: the receiver works, platform calls are refused. */
  credentials: ShopifyCredentials | null;
  /** The keys webhooks are signed with, current first (the previous one during a rotation); empty when none is given. */
  webhookSecrets: string[];
  /** Changes whenever the credentials do (a rotation): tokens of the old ones are not reused. Not a secret. */
  fingerprint: string;
  /** The shop's Klaviyo private API key (`klaviyo_private_key`), or null: without one nothing is sent to Klaviyo. */
  klaviyoPrivateKey: string | null;
}

const text = () => z.string().check(z.minLength(1));

const secretSchema = z.object({
  shop_domain: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/)),
  client_id: z.optional(text()),
  client_secret: z.optional(text()),
  access_token: z.optional(text()),
  webhook_secret: z.optional(text()),
  previous_webhook_secret: z.optional(z.nullable(text())),
  klaviyo_private_key: z.optional(z.nullable(text())),
});

type SecretFields = z.infer<typeof secretSchema>;

/** What the twin's configuration holds for a shop's platform. */
export interface LocalShopSecret {
  client_id?: string;
  client_secret?: string;
  webhook_secret: string;
  /** `integrations.klaviyo.private_key` of the shop's configuration. */
  klaviyo_private_key?: string;
}

let local: Map<string, ShopSecret> | undefined;
let client: SecretsManagerClient | undefined;
const cache = new Map<string, { secret: ShopSecret; expiresAt: number }>();

function fingerprintOf(...parts: string[]): string {
  return deterministicId({ joined: parts }, { as: 'hex', length: 16 });
}

/** The secret's fields as credentials, or a message naming what is wrong (never a value). */
export function shopSecretOf(fields: SecretFields | LocalShopSecret, shopDomain: string | null): ShopSecret | string {
  const hasClient = fields.client_id !== undefined || fields.client_secret !== undefined;
  let credentials: ShopifyCredentials | null = null;
  if (hasClient) {
    if (!fields.client_id || !fields.client_secret) return 'client_id and client_secret go together';
    credentials = { kind: 'client_credentials', clientId: fields.client_id, clientSecret: fields.client_secret };
  } else if ('access_token' in fields && fields.access_token) {
    credentials = { kind: 'access_token', accessToken: fields.access_token };
  }
  // A Dev Dashboard app signs its webhooks with its client secret.
  const current = fields.webhook_secret ?? (credentials?.kind === 'client_credentials' ? credentials.clientSecret : undefined);
  const previous = 'previous_webhook_secret' in fields ? fields.previous_webhook_secret : null;
  const secrets = [...(current ? [current] : []), ...(previous ? [previous] : [])];
  const fingerprint =
    credentials === null
      ? fingerprintOf(shopDomain ?? '')
      : credentials.kind === 'client_credentials'
        ? fingerprintOf(shopDomain ?? '', credentials.clientId, credentials.clientSecret)
        : fingerprintOf(shopDomain ?? '', credentials.accessToken);
  const klaviyoPrivateKey = fields.klaviyo_private_key ?? null;
  return { shopDomain, credentials, webhookSecrets: secrets, fingerprint, klaviyoPrivateKey };
}

/** Twin only: the shops' credentials from the configuration file; null returns to Secrets Manager. */
export function registerLocalShopSecrets(secrets: Record<string, LocalShopSecret> | null): void {
  cache.clear();
  if (secrets === null) {
    local = undefined;
    return;
  }
  local = new Map();
  for (const [shopId, fields] of Object.entries(secrets)) {
    const secret = shopSecretOf(fields, null);
    if (typeof secret === 'string') throw new Error(`The platform credentials of shop '${shopId}' are not valid: ${secret}`);
    local.set(shopId, secret);
  }
}

/** True when the twin registered the shops' credentials (then no Secrets Manager is involved). */
export function localShopSecret(shopId: string): ShopSecret | null | undefined {
  return local ? (local.get(shopId) ?? null) : undefined;
}

/**
 * The shop's secret: the twin's registration, or Secrets Manager through the cache. `fresh` skips the cache
 * (after Shopify refused the credentials: the secret may have been rotated a moment ago).
 */
export async function readShopSecret(shopId: string, options: { fresh?: boolean } = {}): Promise<ShopSecret> {
  const registered = localShopSecret(shopId);
  if (registered) return registered;
  if (registered === null) throw new PlatformError(`Shop '${shopId}' has no platform credentials in the twin's configuration`);
  const cached = cache.get(shopId);
  if (!options.fresh && cached && cached.expiresAt > Date.now()) return cached.secret;
  const prefix = env().SHOPIFY_SECRET_PREFIX;
  if (!prefix) throw new Error('No Shopify credentials are configured: set SHOPIFY_SECRET_PREFIX (cloud) or register them (twin)');
  client ??= traceAwsClient(new SecretsManagerClient({}));
  const result = await client.send(new GetSecretValueCommand({ SecretId: `${prefix}${shopId}` }));
  let fields: ReturnType<typeof secretSchema.safeParse>;
  try {
    fields = secretSchema.safeParse(JSON.parse(result.SecretString ?? '{}'));
  } catch {
    throw new PlatformError(`The Shopify secret of shop '${shopId}' is not valid JSON`);
  }
  // A broken secret is an operator error: say which shop and which field, never the secret's content.
  if (!fields.success) {
    const paths = [...new Set(fields.error.issues.map((issue) => issue.path.join('.') || '(secret)'))].join(', ');
    throw new PlatformError(`The Shopify secret of shop '${shopId}' is not valid (${paths})`);
  }
  const secret = shopSecretOf(fields.data, fields.data.shop_domain);
  if (typeof secret === 'string') throw new PlatformError(`The Shopify secret of shop '${shopId}' is not valid: ${secret}`);
  cache.set(shopId, { secret, expiresAt: Date.now() + SECRET_TTL_MS });
  return secret;
}

/**
 * The keys a shop's webhooks are signed with, current first (the previous one during a rotation): the
 * secret's `webhook_secret`, or for an app created in the Dev Dashboard its client secret. Read through the
 * same cache as the credentials; empty for a shop the twin's configuration does not hold.
 */
export async function webhookSecretsForShop(shopId: string): Promise<string[]> {
  if (localShopSecret(shopId) === null) return [];
  const secrets = (await readShopSecret(shopId)).webhookSecrets;
  // Every delivery would be refused: an operator error worth failing loudly for.
  if (secrets.length === 0)
    throw new PlatformError(`The Shopify secret of shop '${shopId}' has no valid webhook_secret (nor client_secret)`);
  return secrets;
}

/**
 * The shop's Klaviyo private key, or null when it has none (nothing is sent). In the cloud the
 * `klaviyo_private_key` field of the shop's Shopify secret; in the twin its configuration's
 * `integrations.klaviyo.private_key`. A shop the twin does not hold has none.
 */
export async function klaviyoKeyForShop(shopId: string): Promise<string | null> {
  if (localShopSecret(shopId) === null) return null;
  return (await readShopSecret(shopId)).klaviyoPrivateKey;
}

/** Forgets cached secrets (tests, and the twin when it points at a new simulator). */
export function clearShopSecrets(): void {
  cache.clear();
}
