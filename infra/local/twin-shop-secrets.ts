// The twin's stand-in for the shops' Secrets Manager secrets: each shop's Shopify credentials and webhook
// key, from the configuration file, held in process and never written to the table. The twin registers them
// when it starts; the operator CLI, pointed at a running twin's table, registers them from the same file
// (the twin's registration names the file, never a secret), so the import's platform calls get their tokens
// with the client credentials grant exactly as the twin's functions do.
import { readConfigFile, type ConfigFile } from '../../shared/config/schema';
import { type LocalShopSecret, registerLocalShopSecrets } from '../../shared/platform/shop-secrets';

/** Each shop's secret as the twin holds it: the webhook key, a Dev Dashboard app's client id and secret, its Klaviyo key. */
export function twinShopSecrets(config: ConfigFile): Record<string, LocalShopSecret> {
  return Object.fromEntries(
    config.shops.map((shop) => [
      shop.id,
      {
        webhook_secret: shop.platform.webhook_secret,
        ...(shop.platform.client_id ? { client_id: shop.platform.client_id, client_secret: shop.platform.client_secret } : {}),
        ...(shop.integrations.klaviyo ? { klaviyo_private_key: shop.integrations.klaviyo.private_key } : {}),
      },
    ]),
  );
}

/** The CLI beside a running twin: the shops' credentials from the file that twin was started with. */
export function registerTwinShopSecrets(configFile: string): void {
  let config: ConfigFile;
  try {
    config = readConfigFile(configFile);
  } catch (error) {
    throw new Error(
      `The twin on this table was started with ${configFile}, which holds its shops' Shopify credentials, and it cannot be read now: ${(error as Error).message}`,
    );
  }
  registerLocalShopSecrets(twinShopSecrets(config));
}
