// The shop a shopper's request names, by its platform domain, and the app it was signed with: the shop's
// client id and client secret (a Dev Dashboard app). A shop with legacy credentials (an access token) or
// none has no app proxy and no extensions, so nothing can be signed for it. The domain's shop is cached
// per warm function as the shop configuration is (SHOP_CONFIG_TTL_SECONDS); the secret has its own cache.
import { findShopByDomain } from '../data/shop-repository';
import { readShopSecret } from '../platform/shop-secrets';
import { PlatformError } from '../platform/port';
import { env } from '../runtime/env';
import type { AppCredentials } from './session-token';

export interface ShopApp extends AppCredentials {
  shopId: string;
}

export const LEGACY_CREDENTIALS_DETAIL =
  'has legacy credentials (no client_id and client_secret): it has no app proxy or extensions, so its shoppers cannot be verified';

const domains = new Map<string, { shopId: string; expiresAt: number }>();

async function shopOfDomain(shopDomain: string): Promise<string | null> {
  const now = Date.now();
  const hit = domains.get(shopDomain);
  if (hit && hit.expiresAt > now) return hit.shopId;
  const shopId = await findShopByDomain(shopDomain);
  // Only a shop found is remembered: a domain configured a moment ago is found on the next request.
  if (shopId !== null) domains.set(shopDomain, { shopId, expiresAt: now + env().SHOP_CONFIG_TTL_SECONDS * 1000 });
  return shopId;
}

/** The app of the shop with this domain, or why none can have signed a shopper's request (`legacy`: the shop has no app). */
export async function shopAppOf(shopDomain: string): Promise<ShopApp | { refused: string; legacy?: true }> {
  const shopId = await shopOfDomain(shopDomain);
  if (shopId === null) return { refused: `No shop of this service has the domain '${shopDomain}'` };
  let credentials;
  try {
    credentials = (await readShopSecret(shopId)).credentials;
  } catch (error) {
    // The twin's shop without a platform entry: no app either.
    if (error instanceof PlatformError) return { refused: `Shop '${shopId}' ${LEGACY_CREDENTIALS_DETAIL}`, legacy: true };
    throw error;
  }
  if (credentials?.kind !== 'client_credentials') return { refused: `Shop '${shopId}' ${LEGACY_CREDENTIALS_DETAIL}`, legacy: true };
  return { shopId, clientId: credentials.clientId, clientSecret: credentials.clientSecret };
}
