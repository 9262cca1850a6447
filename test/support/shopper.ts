// Calling the twin's shopper routes as Shopify's surfaces do: through the app proxy (the query signed with
// the shop's client secret, shared/platform/app-proxy-signature.ts) or with a customer session token from
// the platform simulator's POST /_session_tokens.
import { type ApiResponse, apiClient, sendJson } from './twin';
import { signAppProxyQuery } from '../../infra/local/simulator/shopify-tokens';

export const DEMO_APP = { clientId: 'demo-app-client-id', clientSecret: 'demo-app-client-secret', domain: 'demo.myshopify.com' };

/** A customer session token minted by the simulator (a guest's without `customerId`). */
export async function sessionToken(platformUrl: string, shop: string, customerId?: string): Promise<string> {
  const response = await fetch(`${platformUrl}/_session_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shop, ...(customerId === undefined ? {} : { customer_id: customerId }) }),
  });
  if (response.status !== 200) throw new Error(`POST /_session_tokens answered ${response.status}: ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

export interface ProxyOptions {
  /** The signed-in customer; absent for a guest (Shopify sends the parameter empty). */
  customerId?: string;
  shopDomain?: string;
  secret?: string;
  /** Seconds since the epoch; default now (real time). */
  timestamp?: number;
  /** The request's own parameters, kept by the proxy and signed with the rest. */
  params?: Array<[string, string]>;
}

/** The query Shopify's app proxy forwards for `options`, signed. */
export function proxyQuery(options: ProxyOptions = {}): string {
  const pairs: Array<[string, string]> = [
    ...(options.params ?? []),
    ['shop', options.shopDomain ?? DEMO_APP.domain],
    ['logged_in_customer_id', options.customerId ?? ''],
    ['path_prefix', '/apps/loyalty'],
    ['timestamp', String(options.timestamp ?? Math.floor(Date.now() / 1000))],
  ];
  return signAppProxyQuery(pairs, options.secret ?? DEMO_APP.clientSecret);
}

/**
 * As the storefront panel and the account extension send: every POST says its body is JSON, a bodiless one too
 * (the service answers any other type 415). A test that sends another type names it in `headers`.
 */
const send = (url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<ApiResponse> =>
  sendJson(
    url,
    method,
    method === 'POST' && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-type')
      ? { 'Content-Type': 'application/json', ...headers }
      : headers,
    body,
  );

/** A request through the app proxy: `path` below /shopper, e.g. `/member`. */
export function viaProxy(
  baseUrl: string,
  method: string,
  path: string,
  options: ProxyOptions & { body?: unknown; headers?: Record<string, string> } = {},
) {
  return send(`${baseUrl}/shopper${path}?${proxyQuery(options)}`, method, options.headers ?? {}, options.body);
}

/** A request with a session token, as a customer account extension sends it. */
export function withToken(
  baseUrl: string,
  token: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  return send(`${baseUrl}/shopper${path}`, method, { Authorization: `Bearer ${token}`, ...headers }, body);
}

/** A bare request (no identity), e.g. OPTIONS. */
export function bare(baseUrl: string, method: string, path: string, headers: Record<string, string> = {}) {
  return send(`${baseUrl}/shopper${path}`, method, headers);
}

/**
 * Gives a member `count` codes of the demo's flexible reward ($1 for 100 points each), through `/v1` as a
 * server-side caller would, and answers the codes oldest first.
 */
export async function buyDemoCodes(api: ReturnType<typeof apiClient>, member: string, count: number): Promise<string[]> {
  await api.post(`/v1/customers/${member}/points`, { adjustment: count * 100, note: `${count} codes` });
  const codes: string[] = [];
  for (let i = 0; i < count; i += 1) {
    const bought = await api.post('/v1/rewards/dollar-off-flex/purchase', { customer_identifier: member, points: 100 });
    if (bought.status !== 201) throw new Error(`purchase answered ${bought.status}: ${JSON.stringify(bought.body)}`);
    codes.push(bought.body.data.attributes.discount_code as string);
  }
  return codes;
}
