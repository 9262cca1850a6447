// Admin API tokens of a Dev Dashboard app: asked for with the client credentials grant when first needed,
// shared, renewed before they expire and once after a 401, never asked for twice at once, never revealed.
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { mockClient } from 'aws-sdk-client-mock';
import { type ClientCredentialsOptions, clientCredentialsTokens, renewalTime } from '../../shared/platform/access-tokens';
import { platformForShop, resetPlatforms } from '../../shared/platform/platform-for-shop';
import { PlatformRefusedError, PlatformUnavailableError } from '../../shared/platform/port';
import { webhookSecretsForShop } from '../../shared/platform/shop-secrets';
import { logger } from '../../shared/observability/powertools';
import { useEnvironment } from '../support/environment';
import { checkRequestsAgainstRealSchema } from '../support/real-admin-schema';

const TOKEN_URL = 'https://acme.myshopify.com/admin/oauth/access_token';
const GRAPHQL_URL = 'https://acme.myshopify.com/admin/api/2026-10/graphql.json';
const CLIENT_SECRET = 'shpss_client_secret_value';
// The Admin API requests the fake Shopify below receives must be ones the real schema accepts.
const checkRequest = checkRequestsAgainstRealSchema();

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** A token endpoint that grants tok-1, tok-2... and records each grant's form fields. */
function tokenEndpoint(options: { lifetimeSeconds?: number; refuse?: boolean } = {}) {
  const grants: Array<Record<string, string>> = [];
  const answer = async (init: RequestInit) => {
    grants.push(Object.fromEntries(new URLSearchParams(String(init.body))));
    if (options.refuse) return json({ error: 'invalid_client', error_description: 'Client authentication failed' }, 400);
    // Let concurrent callers pile up behind one request before it answers.
    await new Promise((resolve) => setTimeout(resolve, 5));
    return json({ access_token: `tok-${grants.length}`, scope: 'read_customers', expires_in: options.lifetimeSeconds ?? 86_399 });
  };
  return { grants, answer };
}

/** A token source asking `endpoint` for its tokens. */
function tokensFrom(endpoint: ReturnType<typeof tokenEndpoint>, extra: Partial<ClientCredentialsOptions> = {}) {
  return clientCredentialsTokens({
    tokenUrl: TOKEN_URL,
    clientId: 'cid',
    clientSecret: CLIENT_SECRET,
    shopId: 'acme',
    fetchImpl: (async (_url: string, init: RequestInit) => endpoint.answer(init)) as typeof fetch,
    ...extra,
  });
}

describe('client credentials tokens', () => {
  it('asks for a token only when a call first needs one, with the grant Shopify documents', async () => {
    const endpoint = tokenEndpoint();
    const fetchImpl = jest.fn(async (_url: string, init: RequestInit) => endpoint.answer(init)) as unknown as typeof fetch;

    const tokens = clientCredentialsTokens({
      tokenUrl: TOKEN_URL,
      clientId: 'cid',
      clientSecret: CLIENT_SECRET,
      shopId: 'acme',
      fetchImpl,
    });

    expect(endpoint.grants).toHaveLength(0);
    expect(await tokens.token()).toBe('tok-1');
    expect(await tokens.token()).toBe('tok-1');
    expect(endpoint.grants).toEqual([{ grant_type: 'client_credentials', client_id: 'cid', client_secret: CLIENT_SECRET }]);
    expect((fetchImpl as jest.Mock).mock.calls[0][0]).toBe(TOKEN_URL);
  });

  it('50 callers finding no token ask for one between them', async () => {
    const endpoint = tokenEndpoint();
    const tokens = tokensFrom(endpoint);

    const got = await Promise.all(Array.from({ length: 50 }, () => tokens.token()));

    expect(new Set(got)).toEqual(new Set(['tok-1']));
    expect(endpoint.grants).toHaveLength(1);
  });

  it('renews shortly before the token expires, not after', async () => {
    let now = 1_000_000;
    const endpoint = tokenEndpoint({ lifetimeSeconds: 86_399 });
    const tokens = tokensFrom(endpoint, { realNow: () => now });
    await tokens.token();

    now = renewalTime(1_000_000, 86_399_000) - 1;
    expect(await tokens.token()).toBe('tok-1');
    now += 1;
    expect(await tokens.token()).toBe('tok-2');
    expect(renewalTime(0, 86_399_000)).toBe(86_399_000 - 5 * 60 * 1000);
    expect(renewalTime(0, 10_000)).toBe(9_000);
  });

  it('after a 401, 50 callers holding the same rejected token get one new token', async () => {
    const endpoint = tokenEndpoint();
    const tokens = tokensFrom(endpoint);
    const rejected = await tokens.token();

    const renewed = await Promise.all(Array.from({ length: 50 }, () => tokens.renew(rejected)));

    expect(new Set(renewed)).toEqual(new Set(['tok-2']));
    expect(endpoint.grants).toHaveLength(2);
  });

  it('a wrong client secret is refused at once with an operator error that names the shop and no secret', async () => {
    const endpoint = tokenEndpoint({ refuse: true });
    const tokens = tokensFrom(endpoint);

    const error = (await tokens.token().catch((caught: unknown) => caught)) as PlatformRefusedError;

    expect(error).toBeInstanceOf(PlatformRefusedError);
    expect(error.reason).toBe('credentials');
    expect(error.message).toMatch(/acme.*invalid_client.*client_id and client_secret/);
    expect(error.message).not.toContain(CLIENT_SECRET);
    expect(error.callerDetail).not.toContain(CLIENT_SECRET);
    expect(endpoint.grants).toHaveLength(1);
  });

  it('an unreachable token endpoint is a transient failure, retried and then reported as unavailable', async () => {
    let calls = 0;
    const tokens = clientCredentialsTokens({
      tokenUrl: TOKEN_URL,
      clientId: 'cid',
      clientSecret: CLIENT_SECRET,
      shopId: 'acme',
      baseDelayMs: 1,
      fetchImpl: (async () => {
        calls += 1;
        throw new TypeError('fetch failed');
      }) as typeof fetch,
    });

    await expect(tokens.token()).rejects.toBeInstanceOf(PlatformUnavailableError);
    expect(calls).toBe(3);
  });
});

describe('a Dev Dashboard app in Secrets Manager', () => {
  const secrets = mockClient(SecretsManagerClient);
  const realFetch = global.fetch;
  useEnvironment({ TABLE_NAME: 't', PLATFORM_BASE_URL: undefined, SHOPIFY_SECRET_PREFIX: 'loyalty/shopify/' }, { each: true });
  beforeEach(() => {
    secrets.reset();
    resetPlatforms();
  });
  afterEach(() => {
    global.fetch = realFetch;
    resetPlatforms();
    jest.restoreAllMocks();
  });

  const secretValue = (fields: Record<string, unknown>) => ({
    SecretString: JSON.stringify({ shop_domain: 'acme.myshopify.com', client_id: 'cid', client_secret: CLIENT_SECRET, ...fields }),
  });

  /** Shopify: the token endpoint grants tok-N; the Admin API takes only the tokens in `valid`. */
  function shopify(valid: Set<string>, options: { refuseSecret?: string } = {}) {
    const log: Array<{ url: string; token: string | null; form?: Record<string, string> }> = [];
    global.fetch = (async (url: string, init: RequestInit) => {
      if (url === TOKEN_URL) {
        const form = Object.fromEntries(new URLSearchParams(String(init.body)));
        log.push({ url, token: null, form });
        if (form.client_secret === options.refuseSecret) return json({ error: 'invalid_client' }, 400);
        const token = `tok-${log.filter((entry) => entry.url === TOKEN_URL).length}`;
        valid.add(token);
        return json({ access_token: token, scope: 'read_customers', expires_in: 86_399 });
      }
      checkRequest(init.body);
      const token = new Headers(init.headers).get('X-Shopify-Access-Token');
      log.push({ url, token });
      if (!token || !valid.has(token))
        return json({ errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' }, 401);
      return json({ data: { customer: null } });
    }) as typeof fetch;
    return log;
  }

  it('two calls share one token from the grant, at the shop domain of the secret', async () => {
    secrets.on(GetSecretValueCommand).resolves(secretValue({}));
    const log = shopify(new Set());

    await platformForShop('acme').getCustomer('1');
    await platformForShop('acme').getCustomer('2');

    expect(log.map((entry) => [entry.url, entry.token])).toEqual([
      [TOKEN_URL, null],
      [GRAPHQL_URL, 'tok-1'],
      [GRAPHQL_URL, 'tok-1'],
    ]);
  });

  it('a token Shopify stopped accepting is renewed once and the call retried', async () => {
    secrets.on(GetSecretValueCommand).resolves(secretValue({}));
    const valid = new Set<string>();
    const log = shopify(valid);
    await platformForShop('acme').getCustomer('1');
    valid.clear(); // every token granted so far expires

    await platformForShop('acme').getCustomer('2');

    expect(log.map((entry) => [entry.url, entry.token])).toEqual([
      [TOKEN_URL, null],
      [GRAPHQL_URL, 'tok-1'],
      [GRAPHQL_URL, 'tok-1'],
      [TOKEN_URL, null],
      [GRAPHQL_URL, 'tok-2'],
    ]);
  });

  it('a rotated client secret is read again at once when Shopify refuses the old one', async () => {
    secrets
      .on(GetSecretValueCommand)
      .resolvesOnce(secretValue({ client_secret: 'old-secret' }))
      .resolves(secretValue({ client_secret: 'new-secret' }));
    const log = shopify(new Set(), { refuseSecret: 'old-secret' });

    expect(await platformForShop('acme').getCustomer('1')).toBeNull();

    expect(log.filter((entry) => entry.url === TOKEN_URL).map((entry) => entry.form?.client_secret)).toEqual(['old-secret', 'new-secret']);
    expect(secrets.commandCalls(GetSecretValueCommand)).toHaveLength(2);
  });

  it('signs webhooks with the client secret unless webhook_secret is given', async () => {
    secrets.on(GetSecretValueCommand).resolves(secretValue({}));
    expect(await webhookSecretsForShop('acme')).toEqual([CLIENT_SECRET]);

    resetPlatforms();
    secrets.reset();
    secrets.on(GetSecretValueCommand).resolves(secretValue({ webhook_secret: 'separate' }));
    expect(await webhookSecretsForShop('acme')).toEqual(['separate']);
  });

  it('logs neither the client secret nor a token when Shopify refuses them', async () => {
    secrets.on(GetSecretValueCommand).resolves(secretValue({}));
    const lines: string[] = [];
    for (const level of ['debug', 'info', 'warn', 'error'] as const) {
      jest.spyOn(logger, level).mockImplementation((...args: unknown[]) => void lines.push(JSON.stringify(args)));
    }
    // The Admin API never accepts a token: renewed once, then refused for good.
    let grants = 0;
    global.fetch = (async (url: string, init: RequestInit) => {
      if (url !== TOKEN_URL) {
        checkRequest(init.body);
        return json({ errors: '[API] Invalid API key or access token (unrecognized login or wrong password)' }, 401);
      }
      grants += 1;
      return json({ access_token: `tok-${grants}`, scope: 'read_customers', expires_in: 86_399 });
    }) as typeof fetch;

    const error = (await platformForShop('acme')
      .getCustomer('1')
      .catch((caught: unknown) => caught)) as PlatformRefusedError;

    expect(error).toBeInstanceOf(PlatformRefusedError);
    expect(error.message).toMatch(/also after a renewal/);
    expect(grants).toBe(2);
    expect(lines.join('\n')).not.toMatch(/tok-\d|shpss_client_secret_value/);
    expect(error.message).not.toMatch(/tok-\d|shpss_client_secret_value/);
  });
});
