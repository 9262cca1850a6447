// Chooses the commerce platform adapter for a shop. Locally the Shopify adapter talks to the platform
// simulator, one GraphQL endpoint per shop below PLATFORM_BASE_URL.
import { env } from '../config/env';
import type { Platform } from './port';
import { createShopifyPlatform } from './shopify';

const adapters = new Map<string, Platform>();

export const SHOPIFY_API_VERSION = '2025-07';

export function platformForShop(shopId: string): Platform {
  const cached = adapters.get(shopId);
  if (cached) return cached;
  const settings = env();
  if (!settings.PLATFORM_BASE_URL) {
    throw new Error('No commerce platform is configured: set PLATFORM_BASE_URL');
  }
  const base = settings.PLATFORM_BASE_URL.replace(/\/+$/, '');
  const adapter = createShopifyPlatform({
    endpoint: `${base}/${encodeURIComponent(shopId)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    accessToken: settings.PLATFORM_ACCESS_TOKEN,
    timeoutMs: settings.PLATFORM_TIMEOUT_MS,
    maxAttempts: settings.PLATFORM_MAX_ATTEMPTS,
    baseDelayMs: settings.PLATFORM_RETRY_BASE_MS,
  });
  adapters.set(shopId, adapter);
  return adapter;
}

/** Forgets the adapters (the twin and tests point PLATFORM_BASE_URL at a new simulator). */
export function resetPlatforms(): void {
  adapters.clear();
}
