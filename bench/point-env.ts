// Points the data layer of the bench process at another table or DynamoDB: the given variables set (or
// removed when undefined), the cached environment, document client, event publisher and shop catalogs
// dropped; the function returned puts the variables back as they were.
import { resetDocumentClient } from '../shared/data/client';
import { resetEnv } from '../shared/runtime/env';
import { clearShopCatalogCache } from '../shared/shops/shop-catalog';

export function pointEnvAt<Key extends string>(keys: readonly Key[], values: Partial<Record<Key, string>>): () => void {
  const saved = Object.fromEntries(keys.map((key) => [key, process.env[key]])) as Partial<Record<Key, string>>;
  const apply = (next: Partial<Record<Key, string>>) => {
    for (const key of keys) {
      if (next[key] === undefined) delete process.env[key];
      else process.env[key] = next[key];
    }
    resetEnv();
    resetDocumentClient();
    clearShopCatalogCache();
  };
  apply(values);
  return () => apply(saved);
}
