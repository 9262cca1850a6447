// The generated shopify.app.toml, parsed as TOML and checked field by field against the service's one
// list of scopes and topics (shared/platform/shopify-app.ts) and against Shopify's configuration rules.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'smol-toml';
import { THEME_EXTENSION_DIR } from '../../infra/local/simulator/storefront-theme';
import {
  APP_PROXY,
  AppConfigError,
  appScopes,
  apiBaseUrlOf,
  DEFAULT_APP_NAME,
  MAX_APP_NAME_LENGTH,
  shopifyAppToml,
} from '../../infra/cli/shopify-app-config';
import {
  isHandledTopic,
  SHOPIFY_ACCESS_SCOPES,
  SHOPIFY_COMPLIANCE_TOPICS,
  SHOPIFY_WEBHOOK_API_VERSION,
  SHOPIFY_WEBHOOK_TOPICS,
} from '../../shared/platform/shopify-app';
import { shopifyAppConfigSchema } from '../support/shopify-app-config-schema';

const API_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod';
const WEBHOOK_URL = `${API_URL}/webhooks/shopify`;
const CLIENT_ID = '0123456789abcdef0123456789abcdef';

interface Subscription {
  topics?: string[];
  compliance_topics?: string[];
  uri: string;
}
interface AppToml {
  client_id: string;
  name: string;
  application_url: string;
  embedded: boolean;
  access_scopes: { scopes: string };
  auth: { redirect_urls: string[] };
  app_proxy: { url: string; prefix: string; subpath: string };
  webhooks: { api_version: string; subscriptions: Subscription[] };
}

const generated = (input: Partial<Parameters<typeof shopifyAppToml>[0]> = {}) =>
  parse(shopifyAppToml({ webhookUrl: WEBHOOK_URL, clientId: CLIENT_ID, ...input })) as unknown as AppToml;

describe('shopify.app.toml', () => {
  const toml = generated();

  it('holds exactly the keys and sections Shopify reads, nothing else', () => {
    expect(Object.keys(toml).sort()).toEqual([
      'access_scopes',
      'app_proxy',
      'application_url',
      'auth',
      'client_id',
      'embedded',
      'name',
      'webhooks',
    ]);
    expect(Object.keys(toml.app_proxy).sort()).toEqual(['prefix', 'subpath', 'url']);
    expect(Object.keys(toml.access_scopes)).toEqual(['scopes']);
    expect(Object.keys(toml.webhooks).sort()).toEqual(['api_version', 'subscriptions']);
  });

  it("names the app by its Client ID and name, its home the API's embedded /admin page", () => {
    expect(toml.client_id).toBe(CLIENT_ID);
    expect(toml.name).toBe(DEFAULT_APP_NAME);
    expect(toml.application_url).toBe(`${API_URL}/admin`);
    expect(toml.embedded).toBe(true);
    expect(toml.auth.redirect_urls).toEqual([API_URL]);
  });

  it("proxies the storefront's /apps/loyalty to the API's /shopper routes", () => {
    expect(toml.app_proxy).toEqual({ url: `${API_URL}/shopper`, prefix: 'apps', subpath: 'loyalty' });
    expect(APP_PROXY).toEqual({ prefix: 'apps', subpath: 'loyalty', path: '/shopper' });
  });

  it("calls the app proxy's prefix and subpath from the theme app extension", () => {
    const embed = readFileSync(join(THEME_EXTENSION_DIR, 'blocks', 'loyalty-launcher.liquid'), 'utf8');

    expect(embed).toContain(`/${toml.app_proxy.prefix}/${toml.app_proxy.subpath}"`);
  });

  it('asks for exactly the scopes the service uses, in one comma-separated string', () => {
    const scopes = toml.access_scopes.scopes.split(',');

    expect(scopes).toEqual(SHOPIFY_ACCESS_SCOPES.map((entry) => entry.scope));
    expect(new Set(scopes).size).toBe(scopes.length);
    // The contract's own list, written out so that a scope dropped from shopify-app.ts fails here.
    expect([...scopes].sort()).toEqual([
      'read_customer_merge',
      'read_customers',
      'read_discounts',
      'read_orders',
      'read_store_credit_account_transactions',
      'read_store_credit_accounts',
      'write_discounts',
      'write_store_credit_account_transactions',
    ]);
    expect(toml.access_scopes.scopes).toBe(appScopes());
  });

  it('adds no scope for the checkout extensions, and prints what they need besides with why', () => {
    const text = shopifyAppToml({ webhookUrl: WEBHOOK_URL, clientId: CLIENT_ID });
    // The session token of checkout names the customer only with read_customers, which the service already asks.
    expect(text).toMatch(/^# read_customers: .*checkout extensions' session tokens/m);
    expect(text).toMatch(/^# - network access .*: the customer account and checkout extensions fetch the service's \/shopper routes$/m);
    expect(text).toMatch(/^# - protected customer data, level 1 .*buyerIdentity\.customer/m);
    expect(text).toMatch(
      /^# - Shopify Plus for the checkout block \(purchase\.checkout\.reductions\.render-after\): .*every plan but Starter$/m,
    );
  });

  it("includes each subscribed topic's scope", () => {
    const scopes = toml.access_scopes.scopes.split(',');

    for (const { topic, scope } of SHOPIFY_WEBHOOK_TOPICS) {
      if (scope !== null) expect({ topic, granted: scopes.includes(scope) }).toEqual({ topic, granted: true });
    }
  });

  it('subscribes every handled topic and the three compliance topics at the webhook URL, in API version 2026-10', () => {
    const [topics, compliance] = toml.webhooks.subscriptions;

    expect(toml.webhooks.api_version).toBe('2026-10');
    expect(toml.webhooks.api_version).toBe(SHOPIFY_WEBHOOK_API_VERSION);
    expect(toml.webhooks.subscriptions).toHaveLength(2);
    expect(topics).toEqual({ topics: SHOPIFY_WEBHOOK_TOPICS.map((entry) => entry.topic), uri: WEBHOOK_URL });
    expect([...topics!.topics!].sort()).toEqual([
      'app/uninstalled',
      'customers/create',
      'customers/delete',
      'customers/merge',
      'customers/update',
      'orders/cancelled',
      'orders/paid',
      'orders/updated',
      'refunds/create',
    ]);
    expect(compliance).toEqual({ compliance_topics: ['customers/data_request', 'customers/redact', 'shop/redact'], uri: WEBHOOK_URL });
    expect(compliance!.compliance_topics).toEqual([...SHOPIFY_COMPLIANCE_TOPICS]);
    for (const subscription of toml.webhooks.subscriptions) expect(subscription.uri).toBe(WEBHOOK_URL);
  });

  it('subscribes only topics the webhook processor handles', () => {
    const subscribed = toml.webhooks.subscriptions.flatMap((entry) => [...(entry.topics ?? []), ...(entry.compliance_topics ?? [])]);

    expect(subscribed.filter((topic) => !isHandledTopic(topic))).toEqual([]);
  });

  it("passes Shopify's configuration rules", () => {
    const result = shopifyAppConfigSchema.safeParse(toml);

    expect(result.error?.issues ?? []).toEqual([]);
    expect(shopifyAppConfigSchema.safeParse(generated({ clientId: undefined })).success).toBe(true);
  });

  it('refuses what Shopify refuses, so the check above can fail', () => {
    const broken = (change: (copy: AppToml) => void) => {
      const copy = structuredClone(toml);
      change(copy);
      return shopifyAppConfigSchema.safeParse(copy).success;
    };

    expect(broken(() => undefined)).toBe(true);
    expect(broken((copy) => (copy.webhooks.subscriptions[0]!.uri = 'http://abc123.example/prod/webhooks/shopify'))).toBe(false);
    expect(broken((copy) => delete (copy as Partial<AppToml>).auth)).toBe(false);
    expect(broken((copy) => (copy.name = 'x'.repeat(31)))).toBe(false);
    expect(broken((copy) => (copy.webhooks.subscriptions[1]!.compliance_topics = ['customers/redact', 'customers/redact']))).toBe(false);
    expect(broken((copy) => (copy.webhooks.subscriptions[1]!.compliance_topics = ['orders/paid']))).toBe(false);
    expect(broken((copy) => delete copy.webhooks.subscriptions[0]!.topics)).toBe(false);
    expect(broken((copy) => copy.webhooks.subscriptions.push({ topics: ['orders/paid'], uri: WEBHOOK_URL }))).toBe(false);
    expect(broken((copy) => Object.assign(copy, { acces_scopes: {} }))).toBe(false);
    expect(broken((copy) => (copy.app_proxy.prefix = 'loyalty'))).toBe(false);
    expect(broken((copy) => (copy.app_proxy.subpath = 'loyalty/points'))).toBe(false);
    expect(broken((copy) => (copy.app_proxy.url = 'ftp://abc123.example/prod/shopper'))).toBe(false);
    expect(broken((copy) => Object.assign(copy.app_proxy, { path: '/x' }))).toBe(false);
  });
});

describe('shopify.app.toml inputs', () => {
  it('leaves client_id empty, with a comment saying how to fill it, when no Client ID is given', () => {
    const text = shopifyAppToml({ webhookUrl: WEBHOOK_URL });

    expect((parse(text) as unknown as AppToml).client_id).toBe('');
    expect(text).toMatch(/^# client_id: .*--client-id.*shopify app config link/m);
    expect(shopifyAppToml({ webhookUrl: WEBHOOK_URL, clientId: CLIENT_ID })).not.toMatch(/^# client_id/m);
  });

  it('keeps any app name of up to 30 characters exactly, quotes and backslashes included', () => {
    const name = 'Ada\'s "Points" \\ Club ✓';

    expect(generated({ appName: name }).name).toBe(name);
    expect(generated({ appName: 'x'.repeat(MAX_APP_NAME_LENGTH) }).name).toHaveLength(30);
  });

  it.each([
    [{ appName: 'x'.repeat(31) }, 'at most 30 characters'],
    [{ appName: '  ' }, '--app-name must not be empty'],
    [{ appName: 'Loyalty\nAPI' }, '--app-name must be plain text'],
    [{ clientId: 'shpss_0123456789abcdef' }, 'looks like a secret'],
    [{ clientId: 'shpat_0123456789abcdef' }, 'looks like a secret'],
    [{ clientId: 'abc def' }, "--client-id must be the app's Client ID"],
    [{ webhookUrl: 'http://abc123.example/prod/webhooks/shopify' }, 'Shopify delivers webhooks over HTTPS only'],
    [{ webhookUrl: 'http://127.0.0.1:3000/webhooks/shopify' }, 'Shopify delivers webhooks over HTTPS only'],
    [{ webhookUrl: '/prod/webhooks/shopify' }, '--webhook-url must be an absolute https URL'],
    [{ webhookUrl: 'https://user:pw@abc123.example/webhooks/shopify' }, 'must not carry a user name or password'],
  ])('refuses %j', (input, message) => {
    const build = () => shopifyAppToml({ webhookUrl: WEBHOOK_URL, ...input });

    expect(build).toThrow(AppConfigError);
    expect(build).toThrow(message);
  });

  it('writes the webhook URL as Shopify stores it: without a trailing slash', () => {
    const toml = generated({ webhookUrl: `${WEBHOOK_URL}/` });

    expect(toml.webhooks.subscriptions.map((entry) => entry.uri)).toEqual([WEBHOOK_URL, WEBHOOK_URL]);
    expect(toml.application_url).toBe(`${API_URL}/admin`);
    expect(toml.app_proxy.url).toBe(`${API_URL}/shopper`);
  });

  it("takes the API's base URL as the app URL, or the origin for a URL that is not the stack's route", () => {
    expect(apiBaseUrlOf(WEBHOOK_URL)).toBe(API_URL);
    expect(apiBaseUrlOf('https://loyalty.example.com/webhooks/shopify')).toBe('https://loyalty.example.com');
    expect(apiBaseUrlOf('https://hooks.example.com/shopify/in')).toBe('https://hooks.example.com');
  });
});
