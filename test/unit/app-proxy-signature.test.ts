// Shopify's app proxy signature, held to the test vector of SURFACES-CONTRACT.md (Shopify's own
// documented example), and to the rules a forged or altered query must fail.
import { appProxyQueryPairs, appProxySignature, appProxySignedMessage } from '../../shared/platform/app-proxy-signature';
import { hasValidAppProxySignature } from '../support/app-proxy-signature';
import { signAppProxyQuery } from '../../infra/local/simulator/shopify-tokens';

const VECTOR_QUERY =
  'extra=1&extra=2&shop=shop-name.myshopify.com&logged_in_customer_id=1&path_prefix=%2Fapps%2Fawesome_reviews&timestamp=1317327555';
const VECTOR_SIGNATURE = '4c68c8624d737112c91818c11017d24d334b524cb5c2b8ba08daa056f7395ddb';

describe("Shopify's app proxy signature", () => {
  it('signs the contract test vector as Shopify does', () => {
    const pairs = appProxyQueryPairs(VECTOR_QUERY);
    expect(appProxySignedMessage(pairs)).toBe(
      'extra=1,2logged_in_customer_id=1path_prefix=/apps/awesome_reviewsshop=shop-name.myshopify.comtimestamp=1317327555',
    );
    expect(appProxySignature(pairs, 'hush')).toBe(VECTOR_SIGNATURE);
  });

  it('accepts the vector with its signature anywhere in the query, and refuses it under another secret', () => {
    expect(hasValidAppProxySignature(`${VECTOR_QUERY}&signature=${VECTOR_SIGNATURE}`, 'hush')).toBe(true);
    expect(hasValidAppProxySignature(`signature=${VECTOR_SIGNATURE}&${VECTOR_QUERY}`, 'hush')).toBe(true);
    expect(hasValidAppProxySignature(`${VECTOR_QUERY}&signature=${VECTOR_SIGNATURE}`, 'other')).toBe(false);
  });

  it.each([
    ['no signature', VECTOR_QUERY],
    ['an altered customer', `${VECTOR_QUERY.replace('logged_in_customer_id=1', 'logged_in_customer_id=2')}&signature=${VECTOR_SIGNATURE}`],
    ['an added parameter', `${VECTOR_QUERY}&points=9&signature=${VECTOR_SIGNATURE}`],
    ['two signatures', `${VECTOR_QUERY}&signature=${VECTOR_SIGNATURE}&signature=${VECTOR_SIGNATURE}`],
    ['an uppercase signature', `${VECTOR_QUERY}&signature=${VECTOR_SIGNATURE.toUpperCase()}`],
    ['a short signature', `${VECTOR_QUERY}&signature=${VECTOR_SIGNATURE.slice(2)}`],
  ])('refuses %s', (_case, query) => {
    expect(hasValidAppProxySignature(query, 'hush')).toBe(false);
  });

  it('reads + as a space and keeps a value with = after the first', () => {
    expect(appProxyQueryPairs('q=a+b%2Bc&x=1=2&flag')).toEqual([
      ['q', 'a b+c'],
      ['x', '1=2'],
      ['flag', ''],
    ]);
  });

  it('verifies what it signs, whatever the values hold', () => {
    const pairs: Array<[string, string]> = [
      ['shop', 'demo.myshopify.com'],
      ['logged_in_customer_id', ''],
      ['path_prefix', '/apps/loyalty'],
      ['timestamp', '1700000000'],
      ['note', 'a&b=c + d/é'],
    ];
    expect(hasValidAppProxySignature(signAppProxyQuery(pairs, 's3cret'), 's3cret')).toBe(true);
  });
});
