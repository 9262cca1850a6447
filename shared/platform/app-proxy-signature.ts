// Shopify's app proxy signature: how the storefront's request forwarded to `/shopper/...` proves the
// shop and the signed-in customer. One module signs (the twin's storefront) and verifies (the service),
// so the two can never drift apart. The algorithm is SURFACES-CONTRACT.md's, as Shopify documents it.
import { createHmac } from 'node:crypto';

/** The query's pairs as Shopify reads them: split on `&`, each at its first `=`, `+` a space, percent-decoded. */
export function appProxyQueryPairs(rawQuery: string): Array<[string, string]> {
  const query = rawQuery.startsWith('?') ? rawQuery.slice(1) : rawQuery;
  if (query === '') return [];
  return query.split('&').map((pair) => {
    const at = pair.indexOf('=');
    const key = at === -1 ? pair : pair.slice(0, at);
    const value = at === -1 ? '' : pair.slice(at + 1);
    return [decodeQueryComponent(key), decodeQueryComponent(value)];
  });
}

function decodeQueryComponent(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    // A malformed escape is kept as sent: the signature then simply does not match.
    return spaced;
  }
}

/**
 * The message Shopify signs: every pair but `signature`, the values of a repeated key joined with `,`,
 * each written `key=value`, sorted by code point and concatenated with no separator.
 */
export function appProxySignedMessage(pairs: ReadonlyArray<readonly [string, string]>): string {
  const values = new Map<string, string[]>();
  for (const [key, value] of pairs) {
    if (key === 'signature') continue;
    const list = values.get(key);
    if (list) list.push(value);
    else values.set(key, [value]);
  }
  const parts = [...values].map(([key, list]) => `${key}=${list.join(',')}`);
  // Code point order, not locale order: `Array.prototype.sort` compares UTF-16 units, which agrees for
  // the ASCII keys Shopify sends; compare code points explicitly so any key sorts as Shopify's does.
  parts.sort((a, b) => compareCodePoints(a, b));
  return parts.join('');
}

function compareCodePoints(a: string, b: string): number {
  const left = [...a];
  const right = [...b];
  for (let i = 0; i < Math.min(left.length, right.length); i += 1) {
    const difference = left[i]!.codePointAt(0)! - right[i]!.codePointAt(0)!;
    if (difference !== 0) return difference;
  }
  return left.length - right.length;
}

/** The lowercase hex HMAC-SHA256 of the signed message under the app's secret. */
export function appProxySignature(pairs: ReadonlyArray<readonly [string, string]>, secret: string): string {
  return createHmac('sha256', secret).update(appProxySignedMessage(pairs), 'utf8').digest('hex');
}
