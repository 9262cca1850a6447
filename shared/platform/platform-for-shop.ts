// Chooses the commerce platform adapter for a shop and where its Admin API tokens come from. The
// credentials are the shop's secret (shop-secrets.ts): a Dev Dashboard app's client id and secret, whose
// expiring tokens are obtained and renewed here (access-tokens.ts), or a legacy app's static token. One
// token source per shop and credentials lives as long as the function instance, so every call shares its
// token; a rotated secret gets a source of its own. In the twin the adapter talks to the platform simulator.
import { env } from '../runtime/env';
import { type AccessTokenSource, clientCredentialsTokens, staticAccessToken } from './access-tokens';
import type { DiscountCodeInput, Platform, PlatformCustomer, StoreCreditDebitInput, StoreCreditInput } from './port';
import { PlatformRefusedError } from './port';
import { readShopSecret, localShopSecret, clearShopSecrets, type ShopSecret } from './shop-secrets';
import { createShopifyPlatform } from './shopify';
import { SHOPIFY_API_VERSION } from './shopify-api-version';
import { fetchShopifyCustomersByIds, searchShopifyCustomersByEmails } from './shopify-customer-search';
import { createShopifyTransport, type ShopifyTransport } from './shopify-transport';

const adapters = new Map<string, Platform>();
/** Per shop, the adapter of the credentials last read, known by their fingerprint. */
const adaptersByCredentials = new Map<string, { fingerprint: string; adapter: Platform }>();

interface ShopEndpoints {
  graphql: string;
  token: string;
}

function shopEndpoints(shopId: string, secret: ShopSecret, baseUrl = env().PLATFORM_BASE_URL): ShopEndpoints {
  if (baseUrl) {
    const base = `${baseUrl.replace(/\/+$/, '')}/${encodeURIComponent(shopId)}`;
    return { graphql: `${base}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, token: `${base}/admin/oauth/access_token` };
  }
  const base = `https://${secret.shopDomain}`;
  return { graphql: `${base}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, token: `${base}/admin/oauth/access_token` };
}

function tokenSource(shopId: string, secret: ShopSecret, tokenUrl: string): AccessTokenSource {
  const settings = env();
  const credentials = secret.credentials;
  if (credentials === null) {
    throw new PlatformRefusedError(
      'credentials',
      `The Shopify secret of shop '${shopId}' holds no credentials: give client_id and client_secret (or a legacy access_token)`,
      "The store's Shopify credentials are missing. An operator must add them to the shop's Shopify secret.",
    );
  }
  if (credentials.kind === 'access_token') return staticAccessToken(credentials.accessToken);
  return clientCredentialsTokens({
    tokenUrl,
    clientId: credentials.clientId,
    clientSecret: credentials.clientSecret,
    shopId,
    timeoutMs: settings.PLATFORM_TIMEOUT_MS,
    maxAttempts: settings.PLATFORM_MAX_ATTEMPTS,
    baseDelayMs: settings.PLATFORM_RETRY_BASE_MS,
  });
}

/** The adapter with the functions' timeout and retry settings. */
function shopifyAdapter(endpoint: string, tokens: AccessTokenSource): Platform {
  const settings = env();
  return createShopifyPlatform({
    endpoint,
    tokens,
    timeoutMs: settings.PLATFORM_TIMEOUT_MS,
    maxAttempts: settings.PLATFORM_MAX_ATTEMPTS,
    baseDelayMs: settings.PLATFORM_RETRY_BASE_MS,
  });
}

function adapterFor(shopId: string, secret: ShopSecret): Platform {
  const known = adaptersByCredentials.get(shopId);
  if (known && known.fingerprint === secret.fingerprint) return known.adapter;
  const endpoints = shopEndpoints(shopId, secret);
  const adapter = shopifyAdapter(endpoints.graphql, tokenSource(shopId, secret, endpoints.token));
  adaptersByCredentials.set(shopId, { fingerprint: secret.fingerprint, adapter });
  return adapter;
}

/**
 * A Platform whose credentials are resolved on each call (from the cache, mostly). When Shopify refuses
 * the credentials, the secret is read again at once: if it was rotated, the call is made once more with
 * the new one instead of failing for the rest of the cache's lifetime.
 */
function secretBackedPlatform(shopId: string): Platform {
  const call = async <T>(use: (adapter: Platform) => Promise<T>): Promise<T> => {
    const secret = await readShopSecret(shopId);
    try {
      return await use(adapterFor(shopId, secret));
    } catch (error) {
      if (!(error instanceof PlatformRefusedError) || error.reason !== 'credentials' || localShopSecret(shopId)) throw error;
      const fresh = await readShopSecret(shopId, { fresh: true });
      if (fresh.fingerprint === secret.fingerprint) throw error;
      return use(adapterFor(shopId, fresh));
    }
  };
  return {
    getCustomer: (customerId: string) => call((adapter) => adapter.getCustomer(customerId)),
    createDiscountCode: (input: DiscountCodeInput) => call((adapter) => adapter.createDiscountCode(input)),
    findDiscountCode: (code: string) => call((adapter) => adapter.findDiscountCode(code)),
    deleteDiscountCode: (id: string) => call((adapter) => adapter.deleteDiscountCode(id)),
    creditStoreCredit: (input: StoreCreditInput) => call((adapter) => adapter.creditStoreCredit(input)),
    debitStoreCredit: (input: StoreCreditDebitInput) => call((adapter) => adapter.debitStoreCredit(input)),
    listStoreCreditTransactions: (customerId: string, currency: string) =>
      call((adapter) => adapter.listStoreCreditTransactions(customerId, currency)),
    listOrdersUpdatedSince: (since: string, cursor?: string | null) => call((adapter) => adapter.listOrdersUpdatedSince(since, cursor)),
  };
}

/** The twin without registered credentials (tests of the adapter alone): the simulator's static token. */
function simulatorPlatform(shopId: string, baseUrl: string): Platform {
  const base = baseUrl.replace(/\/+$/, '');
  return shopifyAdapter(
    `${base}/${encodeURIComponent(shopId)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
    staticAccessToken(env().PLATFORM_ACCESS_TOKEN),
  );
}

export function platformForShop(shopId: string): Platform {
  const cached = adapters.get(shopId);
  if (cached) return cached;
  const settings = env();
  const registered = localShopSecret(shopId);
  let adapter: Platform;
  if (settings.PLATFORM_BASE_URL && registered === undefined) {
    adapter = simulatorPlatform(shopId, settings.PLATFORM_BASE_URL);
  } else if (settings.PLATFORM_BASE_URL && registered && registered.credentials?.kind !== 'client_credentials') {
    // A twin shop without client_id: the simulator checks no token, as before.
    adapter = simulatorPlatform(shopId, settings.PLATFORM_BASE_URL);
  } else if (settings.PLATFORM_BASE_URL || settings.SHOPIFY_SECRET_PREFIX) {
    adapter = secretBackedPlatform(shopId);
  } else {
    throw new Error('No commerce platform is configured: set SHOPIFY_SECRET_PREFIX (cloud) or PLATFORM_BASE_URL (local)');
  }
  adapters.set(shopId, adapter);
  return adapter;
}

/** Forgets the adapters and their tokens (the twin and tests point PLATFORM_BASE_URL at a new simulator). */
export function resetPlatforms(): void {
  adapters.clear();
  adaptersByCredentials.clear();
  clearShopSecrets();
}

/** Customers in bulk, for the import of another app's export (shopify-customer-search.ts). */
export interface CustomerLookup {
  customersByIds(ids: readonly string[]): Promise<PlatformCustomer[]>;
  customersByEmails(emails: readonly string[]): Promise<PlatformCustomer[]>;
}

export interface CustomerLookupOptions {
  /** The platform simulator's URL (the twin's `PLATFORM_BASE_URL`); default the environment's. */
  platformBaseUrl?: string;
  /** Attempts per call, throttled answers included; default the environment's PLATFORM_MAX_ATTEMPTS. */
  maxAttempts?: number;
  fetchImpl?: typeof fetch;
}

/**
 * The customer lookups of a shop, outside any function (the operator CLI). Against the twin
 * (`platformBaseUrl`), a shop without client credentials in this process is called with the simulator's
 * static token, as platformForShop does; otherwise the shop's Shopify secret gives the domain and tokens.
 */
export function customerLookupForShop(shopId: string, options: CustomerLookupOptions = {}): CustomerLookup {
  const settings = env();
  const baseUrl = options.platformBaseUrl ?? settings.PLATFORM_BASE_URL;
  let transport: Promise<ShopifyTransport> | undefined;
  const transportOf = async (): Promise<ShopifyTransport> => {
    const registered = localShopSecret(shopId);
    const common = {
      timeoutMs: settings.PLATFORM_TIMEOUT_MS,
      maxAttempts: options.maxAttempts ?? settings.PLATFORM_MAX_ATTEMPTS,
      baseDelayMs: settings.PLATFORM_RETRY_BASE_MS,
      ...(options.fetchImpl ? { fetchImpl: options.fetchImpl } : {}),
    };
    if (baseUrl && (registered === undefined || registered?.credentials?.kind !== 'client_credentials')) {
      const base = baseUrl.replace(/\/+$/, '');
      return createShopifyTransport({
        ...common,
        endpoint: `${base}/${encodeURIComponent(shopId)}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`,
        tokens: staticAccessToken(settings.PLATFORM_ACCESS_TOKEN),
      });
    }
    const secret = await readShopSecret(shopId);
    const endpoints = shopEndpoints(shopId, secret, baseUrl);
    return createShopifyTransport({ ...common, endpoint: endpoints.graphql, tokens: tokenSource(shopId, secret, endpoints.token) });
  };
  const use = <T>(call: (transport: ShopifyTransport) => Promise<T>): Promise<T> => {
    transport ??= transportOf();
    return transport.then(call);
  };
  return {
    customersByIds: (ids) => use((t) => fetchShopifyCustomersByIds(t, ids)),
    customersByEmails: (emails) => use((t) => searchShopifyCustomersByEmails(t, emails)),
  };
}
