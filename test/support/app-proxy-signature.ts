// A forwarded app proxy query checked as Shopify's documentation states the check, on its own: the tests hold
// the signing (shared/platform/app-proxy-signature.ts, the simulator's app proxy) to it. The endpoints' own check,
// with the timestamp window and the app's secret, is shared/shopper/app-proxy.ts.
import { timingSafeEqual } from 'node:crypto';
import { appProxyQueryPairs, appProxySignature } from '../../shared/platform/app-proxy-signature';

/** Whether the raw query's `signature` is the one the secret gives, compared in constant time. */
export function hasValidAppProxySignature(rawQuery: string, secret: string): boolean {
  const pairs = appProxyQueryPairs(rawQuery);
  const signatures = pairs.filter(([key]) => key === 'signature').map(([, value]) => value);
  const [signature] = signatures;
  if (signatures.length !== 1 || signature === undefined || !/^[0-9a-f]{64}$/.test(signature)) return false;
  const expected = Buffer.from(appProxySignature(pairs, secret), 'hex');
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
