// The keys a shop's webhooks are signed with: the current one and, during a rotation, the previous one.
// They are fields of the shop's Shopify secret (shop-secrets.ts): `webhook_secret`, or for an app created in
// the Dev Dashboard its client secret. They are never stored in the table.
import { PlatformError } from './port';
import { localShopSecret, readShopSecret } from './shop-secrets';

/** The secrets to try, current first; empty for a shop the twin's configuration does not hold. */
export async function webhookSecretsForShop(shopId: string): Promise<string[]> {
  if (localShopSecret(shopId) === null) return [];
  const secrets = (await readShopSecret(shopId)).webhookSecrets;
  // Every delivery would be refused: an operator error worth failing loudly for.
  if (secrets.length === 0)
    throw new PlatformError(`The Shopify secret of shop '${shopId}' has no valid webhook_secret (nor client_secret)`);
  return secrets;
}
