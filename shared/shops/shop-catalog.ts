// The caller's shop configuration, cached per warm function for SHOP_CONFIG_TTL_SECONDS so a request
// normally costs no configuration read at all.
import { env } from '../runtime/env';
import { readShopCatalog } from '../data/shop-repository';
import type { ShopCatalog } from '../domain/shop';

const cache = new Map<string, { catalog: ShopCatalog; expiresAt: number }>();

export async function shopCatalog(shopId: string): Promise<ShopCatalog> {
  const now = Date.now();
  const hit = cache.get(shopId);
  if (hit && hit.expiresAt > now) return hit.catalog;
  const catalog = await readShopCatalog(shopId);
  // A key whose shop has no configuration is a deployment fault, not the caller's: plain 500.
  if (!catalog) throw new Error(`Shop '${shopId}' has an API key but no configuration`);
  cache.set(shopId, { catalog, expiresAt: now + env().SHOP_CONFIG_TTL_SECONDS * 1000 });
  return catalog;
}

/** Forgets cached configuration (after the configuration was applied again). */
export function clearShopCatalogCache(): void {
  cache.clear();
}
