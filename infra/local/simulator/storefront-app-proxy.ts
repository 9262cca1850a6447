// Shopify's app proxy as the twin's storefront plays it: `{storefront}/apps/loyalty/{rest}` is forwarded
// to `{api}/shopper/{rest}` with the shopper's cookies dropped and Shopify's parameters added to the
// request's own query (`shop`, `logged_in_customer_id`, empty for a guest, `path_prefix`, `timestamp`),
// signed with the app's secret by the one signer the service verifies with. Method, body,
// `Content-Type` and `Idempotency-Key` go through; the answer comes back with its status and body.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { appProxyQueryPairs } from '../../../shared/platform/app-proxy-signature';
import { readBody } from '../http-server';
import { signAppProxyQuery } from './shopify-tokens';

/** Request headers the proxy passes on; everything else (Cookie above all) stays behind. */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'idempotency-key', 'user-agent'];
/** Answer headers passed back; Set-Cookie never is (Shopify strips it from proxied answers). */
const RETURNED_HEADERS = ['content-type', 'cache-control', 'retry-after', 'access-control-allow-origin'];

export interface AppProxyRequest {
  /** `{api}/shopper`, or null when no API is connected yet. */
  target: string | null;
  /** The path below the proxy's prefix and subpath, e.g. `/member/activity` (may be empty). */
  subpath: string;
  /** The storefront request's query string, without `?`. */
  rawQuery: string;
  shopDomain: string;
  /** The app's client secret; null for a shop without an app (legacy credentials): forwarded unsigned. */
  secret: string | null;
  /** The signed-in customer's id, null for a guest. */
  customerId: string | null;
  pathPrefix: string;
  /** Seconds since the epoch, real time. */
  timestamp: number;
}

/** The query the proxy sends: the request's own pairs, then Shopify's, then `signature`. */
export function proxiedQuery(request: Omit<AppProxyRequest, 'target' | 'subpath'>): string {
  const pairs: Array<[string, string]> = [
    ...appProxyQueryPairs(request.rawQuery),
    ['shop', request.shopDomain],
    ['logged_in_customer_id', request.customerId ?? ''],
    ['path_prefix', request.pathPrefix],
    ['timestamp', String(request.timestamp)],
  ];
  if (request.secret === null) return pairs.map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(value)}`).join('&');
  return signAppProxyQuery(pairs, request.secret);
}

export async function forwardAppProxy(req: IncomingMessage, res: ServerResponse, request: AppProxyRequest): Promise<void> {
  if (request.target === null) {
    res.writeHead(502, { 'Content-Type': 'text/plain' }).end('The app proxy has no API to forward to yet');
    return;
  }
  const method = req.method ?? 'GET';
  const headers: Record<string, string> = {};
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = req.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const body = method === 'GET' || method === 'HEAD' ? undefined : await readBody(req);
  let answer: Response;
  try {
    answer = await fetch(`${request.target}${request.subpath}?${proxiedQuery(request)}`, { method, headers, body, redirect: 'manual' });
  } catch (error) {
    res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`The app proxy could not reach the app: ${String(error)}`);
    return;
  }
  const returned: Record<string, string> = {};
  for (const name of RETURNED_HEADERS) {
    const value = answer.headers.get(name);
    if (value !== null) returned[name] = value;
  }
  const bytes = Buffer.from(await answer.arrayBuffer());
  res.writeHead(answer.status, { ...returned, 'Content-Length': String(bytes.length) }).end(method === 'HEAD' ? undefined : bytes);
}
