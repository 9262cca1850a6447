// In the cloud a shop's webhook signing keys are fields of its Shopify secret in Secrets Manager, beside
// the access token: the current key first, the previous one during a rotation, cached for a few minutes in
// the one cache the adapter's credentials are read through.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { PlatformError } from '../../shared/platform/port';
import { readShopSecret, registerLocalShopSecrets, webhookSecretsForShop } from '../../shared/platform/shop-secrets';
import { useEnvironment } from '../support/environment';

const secrets = mockClient(SecretsManagerClient);

useEnvironment({ TABLE_NAME: 't', PLATFORM_BASE_URL: undefined, SHOPIFY_SECRET_PREFIX: 'loyalty/shopify/' }, { each: true });
beforeEach(() => {
  secrets.reset();
  // Cloud mode, with an empty cache.
  registerLocalShopSecrets(null);
});

const secretString = (fields: Record<string, unknown>) => ({
  SecretString: JSON.stringify({ shop_domain: 'acme.myshopify.com', access_token: 'shpat_x', ...fields }),
});

describe('webhook secrets from Secrets Manager', () => {
  it("reads webhook_secret from the shop's secret once and keeps it", async () => {
    secrets.on(GetSecretValueCommand).resolves(secretString({ webhook_secret: 'current' }));

    expect(await webhookSecretsForShop('acme')).toEqual(['current']);
    expect(await webhookSecretsForShop('acme')).toEqual(['current']);

    expect(secrets.commandCalls(GetSecretValueCommand).map((call) => call.args[0].input)).toEqual([{ SecretId: 'loyalty/shopify/acme' }]);
  });

  it("shares one read of the shop's secret with the adapter's credentials", async () => {
    secrets.on(GetSecretValueCommand).resolves(secretString({ webhook_secret: 'current' }));

    expect((await readShopSecret('acme')).credentials).toEqual({ kind: 'access_token', accessToken: 'shpat_x' });
    expect(await webhookSecretsForShop('acme')).toEqual(['current']);

    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
  });

  it('reads the rotated keys again once the adapter asked for a fresh secret', async () => {
    secrets
      .on(GetSecretValueCommand)
      .resolvesOnce(secretString({ webhook_secret: 'old' }))
      .resolves(secretString({ webhook_secret: 'new', previous_webhook_secret: 'old' }));

    expect(await webhookSecretsForShop('acme')).toEqual(['old']);
    await readShopSecret('acme', { fresh: true });
    expect(await webhookSecretsForShop('acme')).toEqual(['new', 'old']);
  });

  it("has no keys for a shop the twin does not hold, and the twin's key for one it does", async () => {
    registerLocalShopSecrets({ demo: { webhook_secret: 'local' } });

    expect(await webhookSecretsForShop('demo')).toEqual(['local']);
    expect(await webhookSecretsForShop('acme')).toEqual([]);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('tries the current secret first and the previous one during a rotation', async () => {
    secrets.on(GetSecretValueCommand).resolves(secretString({ webhook_secret: 'new', previous_webhook_secret: 'old' }));

    expect(await webhookSecretsForShop('acme')).toEqual(['new', 'old']);
  });

  it.each([
    ['no webhook_secret', secretString({})],
    ['an empty webhook_secret', secretString({ webhook_secret: '' })],
    ['a secret that is not JSON', { SecretString: 'shpat_x' }],
  ])('refuses a secret with %s, naming the shop', async (_, value) => {
    secrets.on(GetSecretValueCommand).resolves(value);

    const failure = webhookSecretsForShop('acme');

    await expect(failure).rejects.toBeInstanceOf(PlatformError);
    await expect(failure).rejects.toThrow(/acme/);
  });
});
