// A shop's Klaviyo key: in the cloud the `klaviyo_private_key` field of its Shopify secret, in the twin its
// configuration's `integrations.klaviyo.private_key`; without one, none. A malformed key in the configuration
// is refused naming where it is.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { twinShopSecrets } from '../../infra/local/twin-shop-secrets';
import { ConfigError } from '../../shared/config/config-errors';
import { parseConfig } from '../../shared/config/schema';
import { resetPlatforms } from '../../shared/platform/platform-for-shop';
import { klaviyoKeyForShop, registerLocalShopSecrets } from '../../shared/platform/shop-secrets';
import { useEnvironment } from '../support/environment';

const secrets = mockClient(SecretsManagerClient);

useEnvironment({ TABLE_NAME: 't', PLATFORM_BASE_URL: undefined, SHOPIFY_SECRET_PREFIX: 'loyalty/shopify/' }, { each: true });
beforeEach(() => {
  secrets.reset();
  resetPlatforms();
});
afterEach(() => registerLocalShopSecrets(null));

const shop = (id: string, extra: Record<string, unknown> = {}) => ({
  id,
  name: id,
  currency: 'USD',
  referral_base_url: 'https://shop.example/',
  ...extra,
});

describe("a shop's Klaviyo key", () => {
  it("is the secret's klaviyo_private_key in the cloud, and none when the secret has none", async () => {
    secrets
      .on(GetSecretValueCommand, { SecretId: 'loyalty/shopify/with' })
      .resolves({
        SecretString: JSON.stringify({ shop_domain: 'with.myshopify.com', access_token: 'shpat_x', klaviyo_private_key: 'pk_cloud_1234' }),
      })
      .on(GetSecretValueCommand, { SecretId: 'loyalty/shopify/without' })
      .resolves({ SecretString: JSON.stringify({ shop_domain: 'without.myshopify.com', access_token: 'shpat_y' }) });

    expect(await klaviyoKeyForShop('with')).toBe('pk_cloud_1234');
    expect(await klaviyoKeyForShop('without')).toBeNull();
  });

  it("is the configuration's integrations.klaviyo.private_key in the twin", async () => {
    const config = parseConfig({ shops: [shop('a', { integrations: { klaviyo: { private_key: 'pk_twin_abcd' } } }), shop('b')] });
    registerLocalShopSecrets(twinShopSecrets(config));

    expect(await klaviyoKeyForShop('a')).toBe('pk_twin_abcd');
    expect(await klaviyoKeyForShop('b')).toBeNull();
    expect(await klaviyoKeyForShop('unknown')).toBeNull();
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(0);
  });

  it('is refused in the configuration when it is no private key, naming where, without repeating it', () => {
    const parse = () => parseConfig({ shops: [shop('a', { integrations: { klaviyo: { private_key: 'public_SITE1' } } })] });

    expect(parse).toThrow(ConfigError);
    expect(parse).toThrow(/shops\[0\]\.integrations\.klaviyo\.private_key: must be a Klaviyo private API key/);
    expect(parse).not.toThrow(/public_SITE1/);
    expect(() => parseConfig({ shops: [shop('a', { integrations: { mailchimp: {} } })] })).toThrow(/integrations/);
  });
});
