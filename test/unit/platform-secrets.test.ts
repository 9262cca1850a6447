// In the cloud each shop's Shopify credentials come from Secrets Manager, cached for a few minutes.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { platformForShop, resetPlatforms } from '../../shared/platform/platform-for-shop';
import { useEnvironment } from '../support/environment';

const secrets = mockClient(SecretsManagerClient);
const realFetch = global.fetch;

// The cloud's settings: no simulator, credentials under a Secrets Manager prefix.
useEnvironment({ TABLE_NAME: 't', PLATFORM_BASE_URL: undefined, SHOPIFY_SECRET_PREFIX: 'loyalty/shopify/' }, { each: true });
beforeEach(() => {
  secrets.reset();
  resetPlatforms();
});
afterEach(() => {
  global.fetch = realFetch;
  resetPlatforms();
});

describe('Shopify credentials from Secrets Manager', () => {
  it("reads the shop's secret once, calls that shop's Admin API with its token, and caches it", async () => {
    secrets
      .on(GetSecretValueCommand)
      .resolves({ SecretString: JSON.stringify({ shop_domain: 'acme.myshopify.com', access_token: 'shpat_secret' }) });
    const calls: Array<{ url: string; token: string | null }> = [];
    global.fetch = (async (url: string, init: RequestInit) => {
      calls.push({ url, token: new Headers(init.headers).get('X-Shopify-Access-Token') });
      return new Response(JSON.stringify({ data: { customer: null } }), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }) as typeof fetch;

    const platform = platformForShop('acme');
    await platform.getCustomer('1');
    await platform.getCustomer('2');

    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(1);
    expect(secrets.commandCalls(GetSecretValueCommand)[0]!.args[0].input).toEqual({ SecretId: 'loyalty/shopify/acme' });
    expect(calls).toEqual([
      { url: 'https://acme.myshopify.com/admin/api/2026-10/graphql.json', token: 'shpat_secret' },
      { url: 'https://acme.myshopify.com/admin/api/2026-10/graphql.json', token: 'shpat_secret' },
    ]);
  });

  it('refuses a malformed secret without revealing its content', async () => {
    secrets
      .on(GetSecretValueCommand)
      .resolves({ SecretString: JSON.stringify({ shop_domain: 'evil.example.com', access_token: 'shpat_leak' }) });

    const error = await platformForShop('acme')
      .getCustomer('1')
      .catch((e: Error) => e);

    expect((error as Error).message).toBe("The Shopify secret of shop 'acme' is not valid (shop_domain)");
    expect((error as Error).message).not.toContain('shpat_leak');
  });
});
