// A storefront request forwarded by Shopify's app proxy (SURFACES-CONTRACT.md): the query carries `shop`,
// `logged_in_customer_id` (empty for a guest), `path_prefix`, `timestamp` and `signature`, beside the
// request's own parameters. It is the shop's when `shop` names a shop of this service exactly once, the
// timestamp is within 90 s of real time (not the domain clock) and the signature is the HMAC of the
// shop's app secret (shared/platform/app-proxy-signature.ts, the one implementation the twin signs with).
import { appProxySignature } from '../platform/app-proxy-signature';
import { timingSafeEqual } from 'node:crypto';
import { echoed } from '../domain/errors';
import { type AppCredentials, SHOP_DOMAIN } from './session-token';

/** How far the proxy's `timestamp` may be from now, either way. */
export const APP_PROXY_WINDOW_SECONDS = 90;

/** The parameters Shopify's app proxy adds: their presence says the request came through it. */
export const APP_PROXY_PARAMETERS = ['shop', 'logged_in_customer_id', 'path_prefix', 'timestamp', 'signature'] as const;

const CUSTOMER_ID = /^\d{1,20}$/;
/** Where Shopify lets an app proxy live: `/a`, `/apps`, `/community` or `/tools`, then the proxy's subpath. */
const PATH_PREFIX = /^\/(a|apps|community|tools)\/[A-Za-z0-9_-]{1,30}$/;
const TIMESTAMP = /^\d{1,12}$/;

/**
 * The query a proxied request may carry besides the proxy's own parameters: each key the routes read, with the
 * strict form of its values. Shopify signs the parameters joined without a separator, so a key or value the
 * service does not expect could shift where one pair ends and the next begins and still match the signature of
 * another query (a shopper re-cutting their own signed request to name another customer): those are refused
 * before the signature is even computed.
 */
export type AppProxyQueryKeys = Readonly<Record<string, RegExp>>;

export type AppProxyResult =
  | { verified: true; shopDomain: string; customerId: string | null }
  /** `reason` is said to the caller as it is. */
  | { verified: false; reason: string };

const refused = (reason: string): AppProxyResult => ({ verified: false, reason });

/**
 * Verifies the proxy's parameters. `pairs` are the query's decoded pairs in their order (a repeated key's
 * values in the order sent); `appOf` finds the app of the shop the request names. `nowMs` is real time.
 */
export async function verifyAppProxy(
  pairs: ReadonlyArray<readonly [string, string]>,
  appOf: (shopDomain: string) => Promise<AppCredentials | { refused: string }>,
  nowMs: number = Date.now(),
  queryKeys: AppProxyQueryKeys = {},
): Promise<AppProxyResult> {
  const all = (key: string) => pairs.filter(([name]) => name === key).map(([, value]) => value);
  const signatures = all('signature');
  if (signatures.length === 0) return refused('The app proxy signature is missing');
  if (signatures.length > 1 || !/^[0-9a-f]{64}$/.test(signatures[0]!)) return refused('The app proxy signature is not valid');
  // Before the signature: only the proxy's parameters and the routes' own, each in its strict form.
  for (const [key, value] of pairs) {
    if ((APP_PROXY_PARAMETERS as readonly string[]).includes(key)) continue;
    const form = Object.hasOwn(queryKeys, key) ? queryKeys[key] : undefined;
    if (!form) return refused(`The app proxy request carries a parameter this service does not read: '${echoed(key)}'`);
    if (!form.test(value)) return refused(`The app proxy parameter '${key}' is not valid`);
  }
  const prefixes = all('path_prefix');
  if (prefixes.length !== 1 || !PATH_PREFIX.test(prefixes[0]!)) return refused('The app proxy path_prefix is missing or not valid');
  const customers = all('logged_in_customer_id');
  if (customers.length > 1) return refused('The app proxy request names more than one customer');
  const customerId = customers[0] ?? '';
  if (customerId !== '' && !CUSTOMER_ID.test(customerId)) return refused('The app proxy logged_in_customer_id is not a customer id');
  const shops = all('shop');
  if (shops.length !== 1) return refused('The app proxy request must name its shop exactly once');
  const timestamps = all('timestamp');
  const timestamp = timestamps.length === 1 && TIMESTAMP.test(timestamps[0]!) ? Number(timestamps[0]) : NaN;
  if (Number.isNaN(timestamp)) return refused('The app proxy timestamp is missing or not valid');
  if (Math.abs(nowMs / 1000 - timestamp) > APP_PROXY_WINDOW_SECONDS) {
    return refused(`The app proxy timestamp is more than ${APP_PROXY_WINDOW_SECONDS} seconds from now`);
  }
  const shopDomain = shops[0]!.toLowerCase();
  // Nothing that is no shop domain is looked up (nor made into a key of the table).
  if (!SHOP_DOMAIN.test(shopDomain)) return refused("The app proxy's shop is not a shop domain");
  const app = await appOf(shopDomain);
  if ('refused' in app) return refused(app.refused);
  const expected = Buffer.from(appProxySignature(pairs, app.clientSecret), 'hex');
  if (!timingSafeEqual(expected, Buffer.from(signatures[0]!, 'hex'))) return refused('The app proxy signature is not valid');
  return { verified: true, shopDomain, customerId: customerId === '' ? null : customerId };
}
