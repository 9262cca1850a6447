// The Shopify app's configuration as code: the shopify.app.toml that Shopify's CLI deploys
// (`shopify app deploy`) for the app behind this service. Pure: the webhook URL, client id and app name
// in, the file's text out. Scopes and topics come from shared/platform/shopify-app.ts, the one list the
// webhook processor follows too, so the file never asks for less (or more) than the service uses.
import {
  SHOPIFY_ACCESS_SCOPES,
  SHOPIFY_EXTENSION_NEEDS,
  SHOPIFY_APP_PROXY,
  SHOPIFY_COMPLIANCE_TOPICS,
  SHOPIFY_WEBHOOK_API_VERSION,
  SHOPIFY_WEBHOOK_TOPICS,
} from '../../shared/platform/shopify-app';

export const DEFAULT_APP_NAME = 'Loyalty API';
/** Shopify's configuration schema refuses longer app names (`name`, at most 30 characters). */
export const MAX_APP_NAME_LENGTH = 30;
/** The path of the webhook route in the stack (shared/runtime/entry-points.ts); what precedes it is the API's base URL. */
const WEBHOOK_PATH = '/webhooks/shopify';
/** The app proxy: the storefront's `/apps/loyalty/{rest}` reaches `{api}/shopper/{rest}`, signed by Shopify. */
export const APP_PROXY = SHOPIFY_APP_PROXY;
/** The app's home in Shopify's admin (`GET /admin`, embedded). */
const ADMIN_PATH = '/admin';

/** An argument Shopify would refuse (or that cannot be what was meant); the message says which and why. */
export class AppConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'AppConfigError';
  }
}

export interface AppConfigInput {
  /** Where Shopify delivers every subscribed topic: the stack's `ShopifyWebhookUrl` output. */
  webhookUrl: string;
  /** The app's Client ID in the Dev Dashboard; absent: left empty for `shopify app config link` to fill. */
  clientId?: string;
  appName?: string;
}

/** The scopes of the `[access_scopes]` section, in Shopify's form: one comma-separated string. */
export function appScopes(): string {
  return SHOPIFY_ACCESS_SCOPES.map((entry) => entry.scope).join(',');
}

/** The text of shopify.app.toml; throws AppConfigError for a URL, id or name Shopify would refuse. */
export function shopifyAppToml(input: AppConfigInput): string {
  const webhookUrl = checkWebhookUrl(input.webhookUrl);
  const clientId = checkClientId(input.clientId);
  const name = checkAppName(input.appName ?? DEFAULT_APP_NAME);
  const apiUrl = apiBaseUrlOf(webhookUrl);
  const topics = SHOPIFY_WEBHOOK_TOPICS.map((entry) => entry.topic);
  const lines = [
    '# shopify.app.toml of the loyalty API, written by `npx loyalty shopify-app-config`.',
    '# Deploy it with `shopify app deploy` (docs/deploy.md); regenerate it rather than edit it.',
    '',
    ...(clientId === ''
      ? ["# client_id: the app's Client ID (Dev Dashboard, the app's Settings): pass --client-id, or run `shopify app config link`."]
      : []),
    `client_id = ${str(clientId)}`,
    `name = ${str(name)}`,
    // The app's home inside Shopify's admin, loaded in its iframe with an ID token.
    `application_url = ${str(`${apiUrl}${ADMIN_PATH}`)}`,
    'embedded = true',
    '',
    '[access_scopes]',
    // The theme app extension and the app proxy need no scope; the customer account extension's session
    // token names the customer (`sub`) because the app has protected customer data access (docs/deploy.md).
    ...SHOPIFY_ACCESS_SCOPES.map((entry) => `# ${entry.scope}: ${entry.why}`),
    // The checkout extensions add no scope; what they need besides is granted elsewhere, said here with why.
    '# Not scopes, granted outside this file:',
    ...SHOPIFY_EXTENSION_NEEDS.map((entry) => `# - ${entry.need}: ${entry.why}`),
    `scopes = ${str(appScopes())}`,
    '',
    // Shopify's schema requires the section, and Shopify itself sets one URL for every new app. The
    // service never runs the authorization code grant (it uses the client credentials grant), so
    // nothing is ever redirected here.
    '[auth]',
    `redirect_urls = [ ${str(apiUrl)} ]`,
    '',
    // The storefront's /apps/loyalty/... reaches the shopper routes, signed (SURFACES-CONTRACT.md).
    '[app_proxy]',
    `url = ${str(`${apiUrl}${APP_PROXY.path}`)}`,
    `prefix = ${str(APP_PROXY.prefix)}`,
    `subpath = ${str(APP_PROXY.subpath)}`,
    '',
    '[webhooks]',
    `api_version = ${str(SHOPIFY_WEBHOOK_API_VERSION)}`,
    '',
    '[[webhooks.subscriptions]]',
    `topics = ${list(topics)}`,
    `uri = ${str(webhookUrl)}`,
    '',
    '[[webhooks.subscriptions]]',
    `compliance_topics = ${list(SHOPIFY_COMPLIANCE_TOPICS)}`,
    `uri = ${str(webhookUrl)}`,
  ];
  return `${lines.join('\n')}\n`;
}

/**
 * An absolute https URL, nothing else: Shopify delivers webhooks only over HTTPS (its schema refuses an
 * http `uri`), and a loopback address such as the twin's would never receive them.
 */
function checkWebhookUrl(value: string): string {
  const trimmed = value.trim();
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    throw new AppConfigError(
      `--webhook-url must be an absolute https URL such as https://abc123.execute-api.eu-west-1.amazonaws.com/prod${WEBHOOK_PATH}, not '${value}'`,
    );
  }
  if (url.protocol !== 'https:') {
    throw new AppConfigError(`--webhook-url must be an https URL: Shopify delivers webhooks over HTTPS only, not to '${value}'`);
  }
  if (url.username || url.password) throw new AppConfigError('--webhook-url must not carry a user name or password');
  // As Shopify stores a subscription's uri: without trailing slashes.
  return url.href.replace(/\/+$/, '');
}

function checkClientId(value: string | undefined): string {
  if (value === undefined) return '';
  const trimmed = value.trim();
  // The Dev Dashboard shows the secret next to the id; a secret in this file would be committed and shared.
  if (/^shp[a-z]{2}_/.test(trimmed)) {
    throw new AppConfigError("--client-id looks like a secret or a token (shp…_), not the app's Client ID: never put it in this file");
  }
  if (!/^[A-Za-z0-9_-]+$/.test(trimmed)) {
    throw new AppConfigError(`--client-id must be the app's Client ID from the Dev Dashboard (letters and digits), not '${value}'`);
  }
  return trimmed;
}

function checkAppName(value: string): string {
  const trimmed = value.trim();
  if (trimmed === '') throw new AppConfigError('--app-name must not be empty');
  if ([...trimmed].length > MAX_APP_NAME_LENGTH) {
    throw new AppConfigError(`--app-name has at most ${MAX_APP_NAME_LENGTH} characters in Shopify's configuration, '${trimmed}' has more`);
  }
  // Control characters have no place in a name, and a lone surrogate has no TOML escape.
  if (/[\p{Cc}\p{Cs}]/u.test(trimmed)) throw new AppConfigError('--app-name must be plain text');
  return trimmed;
}

/** The API's base URL when the webhook URL is the stack's route (`…/prod/webhooks/shopify`), else its origin. */
export function apiBaseUrlOf(webhookUrl: string): string {
  const url = new URL(webhookUrl);
  const path = url.pathname.replace(/\/+$/, '');
  return path.endsWith(WEBHOOK_PATH) ? `${url.origin}${path.slice(0, -WEBHOOK_PATH.length)}` : url.origin;
}

/** A TOML basic string: JSON's escapes are all valid in TOML, and the inputs hold no lone surrogate. */
const str = (value: string) => JSON.stringify(value);
const list = (values: readonly string[]) => `[ ${values.map(str).join(', ')} ]`;
