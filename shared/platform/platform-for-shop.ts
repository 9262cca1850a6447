// Chooses the commerce platform adapter for a shop. In the cloud each shop's Shopify credentials live
// in Secrets Manager (`<SHOPIFY_SECRET_PREFIX><shop>`: {"shop_domain", "access_token"}), read with a
// short in-memory cache; in the local twin the adapter talks to the platform simulator instead.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import * as z from 'zod/mini';
import { env } from '../runtime/env';
import { traceAwsClient } from '../observability/tracing';
import type { DiscountCodeInput, Platform } from './port';
import { PlatformError } from './port';
import { createShopifyPlatform } from './shopify';
import { SHOPIFY_API_VERSION } from './shopify-api-version';

const SECRET_TTL_MS = 5 * 60 * 1000;

const adapters = new Map<string, Platform>();

const shopifySecretSchema = z.object({
  shop_domain: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*\.myshopify\.com$/)),
  access_token: z.string().check(z.minLength(1)),
});

let secretsClient: SecretsManagerClient | undefined;
const secrets = new Map<string, { adapter: Platform; expiresAt: number }>();

function shopifyAdapter(endpoint: string, accessToken: string): Platform {
  const settings = env();
  return createShopifyPlatform({
    endpoint,
    accessToken,
    timeoutMs: settings.PLATFORM_TIMEOUT_MS,
    maxAttempts: settings.PLATFORM_MAX_ATTEMPTS,
    baseDelayMs: settings.PLATFORM_RETRY_BASE_MS,
  });
}

/** The adapter built from the shop's secret, re-read after SECRET_TTL_MS so a rotated token is picked up. */
async function adapterFromSecret(shopId: string, prefix: string): Promise<Platform> {
  const cached = secrets.get(shopId);
  if (cached && cached.expiresAt > Date.now()) return cached.adapter;
  secretsClient ??= traceAwsClient(new SecretsManagerClient({}));
  const result = await secretsClient.send(new GetSecretValueCommand({ SecretId: `${prefix}${shopId}` }));
  const parsed = shopifySecretSchema.safeParse(JSON.parse(result.SecretString ?? '{}'));
  // A broken secret is an operator error: say which shop, never the secret's content.
  if (!parsed.success) throw new PlatformError(`The Shopify secret of shop '${shopId}' is not valid`);
  const { shop_domain: domain, access_token: token } = parsed.data;
  const adapter = shopifyAdapter(`https://${domain}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, token);
  secrets.set(shopId, { adapter, expiresAt: Date.now() + SECRET_TTL_MS });
  return adapter;
}

/** A Platform whose credentials are resolved on each call (from the cache, mostly). */
function secretBackedPlatform(shopId: string, prefix: string): Platform {
  const adapter = () => adapterFromSecret(shopId, prefix);
  return {
    getCustomer: async (customerId: string) => (await adapter()).getCustomer(customerId),
    createDiscountCode: async (input: DiscountCodeInput) => (await adapter()).createDiscountCode(input),
    findDiscountCode: async (code: string) => (await adapter()).findDiscountCode(code),
    deleteDiscountCode: async (id: string) => (await adapter()).deleteDiscountCode(id),
    listOrdersUpdatedSince: async (since: string, cursor?: string | null) => (await adapter()).listOrdersUpdatedSince(since, cursor),
  };
}

export function platformForShop(shopId: string): Platform {
  const cached = adapters.get(shopId);
  if (cached) return cached;
  const settings = env();
  let adapter: Platform;
  if (settings.PLATFORM_BASE_URL) {
    const base = settings.PLATFORM_BASE_URL.replace(/\/+$/, '');
    adapter = shopifyAdapter(
      `${base}/${encodeURIComponent(shopId)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
      settings.PLATFORM_ACCESS_TOKEN,
    );
  } else if (settings.SHOPIFY_SECRET_PREFIX) {
    adapter = secretBackedPlatform(shopId, settings.SHOPIFY_SECRET_PREFIX);
  } else {
    throw new Error('No commerce platform is configured: set SHOPIFY_SECRET_PREFIX (cloud) or PLATFORM_BASE_URL (local)');
  }
  adapters.set(shopId, adapter);
  return adapter;
}

/** Forgets the adapters (the twin and tests point PLATFORM_BASE_URL at a new simulator). */
export function resetPlatforms(): void {
  adapters.clear();
  secrets.clear();
}
