// The shopper's two identities, verified without a twin: the customer session token (HS256 with the app's
// secret, aud, dest, exp/nbf with 10 s of leeway in real time, sub a customer gid or absent) and the app
// proxy's parameters (the contract's test vector, the 90 s window, one shop). Each refusal names what failed.
import { SignJWT } from 'jose';
import { verifyAppProxy } from '../../shared/shopper/app-proxy';
import { type AppCredentials, verifySessionToken } from '../../shared/shopper/session-token';
import { appProxyQueryPairs } from '../../shared/platform/app-proxy-signature';
import { mintSessionToken } from '../../infra/local/simulator/shopify-tokens';

const APP: AppCredentials = { clientId: 'client-id', clientSecret: 'client-secret' };
const DOMAIN = 'shop-name.myshopify.com';
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const seconds = Math.floor(NOW / 1000);
const appOf = async (domain: string) => (domain === DOMAIN ? APP : { refused: `unknown ${domain}` });

async function signed(claims: Record<string, unknown>, options: { alg?: string; secret?: string } = {}): Promise<string> {
  return new SignJWT({ dest: DOMAIN, aud: APP.clientId, exp: seconds + 60, nbf: seconds - 1, ...claims })
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .sign(new TextEncoder().encode(options.secret ?? APP.clientSecret));
}

describe('verifySessionToken', () => {
  it('accepts the token it mints as Shopify does, for a customer and for a guest', async () => {
    expect(await verifySessionToken(await mintSessionToken(APP, DOMAIN, '1001', NOW), appOf, NOW)).toEqual({
      verified: true,
      shopDomain: DOMAIN,
      customerId: '1001',
    });
    expect(await verifySessionToken(await mintSessionToken(APP, DOMAIN, null, NOW), appOf, NOW)).toEqual({
      verified: true,
      shopDomain: DOMAIN,
      customerId: null,
    });
  });

  it('honours exp and nbf with 10 s of leeway, on the time it is given (real time)', async () => {
    const minted = await mintSessionToken(APP, DOMAIN, '1001', NOW);
    expect((await verifySessionToken(minted, appOf, NOW + 309_000)).verified).toBe(true);
    expect(await verifySessionToken(minted, appOf, NOW + 311_000)).toEqual({ verified: false, reason: 'The session token has expired' });
    expect((await verifySessionToken(await signed({ nbf: seconds + 9 }), appOf, NOW)).verified).toBe(true);
    expect(await verifySessionToken(await signed({ nbf: seconds + 11 }), appOf, NOW)).toEqual({
      verified: false,
      reason: 'The session token is not valid yet',
    });
  });

  it.each([
    ['HS512', { alg: 'HS512' }, {}, /HS256/],
    ['another secret', { secret: 'forged' }, {}, /signature/],
    ['another audience', {}, { aud: 'other-client' }, /aud/],
    ['an unknown shop', {}, { dest: 'other.myshopify.com' }, /unknown other\.myshopify\.com/],
    ['a dest that is no shop domain', {}, { dest: 'https://evil.example' }, /dest/],
    ["a staff token's numeric sub", {}, { sub: '42' }, /not a customer/],
    ['a sub of another kind', {}, { sub: 'gid://shopify/StaffMember/42' }, /not a customer/],
    ['no exp', {}, { exp: undefined }, /exp/],
  ])('refuses %s', async (_name, options, claims, reason) => {
    const result = await verifySessionToken(await signed(claims, options), appOf, NOW);
    expect(result.verified).toBe(false);
    expect(!result.verified && result.reason).toMatch(reason);
  });

  it('refuses alg: none and what is not a JWT', async () => {
    const part = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const none = `${part({ alg: 'none' })}.${part({ dest: DOMAIN, aud: APP.clientId, sub: 'gid://shopify/Customer/1', exp: seconds + 60 })}.`;
    expect((await verifySessionToken(none, appOf, NOW)).verified).toBe(false);
    expect(await verifySessionToken('not-a-token', appOf, NOW)).toEqual({ verified: false, reason: 'The session token is not a JWT' });
  });
});

describe('verifyAppProxy', () => {
  // The contract's test vector (secret `hush`), at its own time.
  const VECTOR =
    'extra=1&extra=2&shop=shop-name.myshopify.com&logged_in_customer_id=1&path_prefix=%2Fapps%2Fawesome_reviews&timestamp=1317327555&signature=4c68c8624d737112c91818c11017d24d334b524cb5c2b8ba08daa056f7395ddb';
  const hush = async (domain: string) => (domain === DOMAIN ? { clientId: 'id', clientSecret: 'hush' } : { refused: 'unknown' });
  const at = 1317327555 * 1000;
  // The vector's own parameter, as a route that reads `extra` would name it.
  const EXTRA = { extra: /^\d$/ };

  it('accepts the test vector within 90 s of its timestamp, for customer 1', async () => {
    expect(await verifyAppProxy(appProxyQueryPairs(VECTOR), hush, at + 90_000, EXTRA)).toEqual({
      verified: true,
      shopDomain: DOMAIN,
      customerId: '1',
    });
  });

  it('refuses it 91 s later or earlier, under another secret, with a repeated shop, without its signature', async () => {
    expect((await verifyAppProxy(appProxyQueryPairs(VECTOR), hush, at + 91_000, EXTRA)).verified).toBe(false);
    expect((await verifyAppProxy(appProxyQueryPairs(VECTOR), hush, at - 91_000, EXTRA)).verified).toBe(false);
    expect(
      (await verifyAppProxy(appProxyQueryPairs(VECTOR), async () => ({ clientId: 'id', clientSecret: 'x' }), at, EXTRA)).verified,
    ).toBe(false);
    expect((await verifyAppProxy(appProxyQueryPairs(`${VECTOR}&shop=${DOMAIN}`), hush, at, EXTRA)).verified).toBe(false);
    const long = `${'x'.repeat(3000)}.myshopify.com`;
    expect(await verifyAppProxy(appProxyQueryPairs(VECTOR.replace(`shop=${DOMAIN}`, `shop=${long}`)), hush, at, EXTRA)).toEqual({
      verified: false,
      reason: "The app proxy's shop is not a shop domain",
    });
    expect(await verifyAppProxy(appProxyQueryPairs(VECTOR.replace(/&signature=.*$/, '')), hush, at, EXTRA)).toEqual({
      verified: false,
      reason: 'The app proxy signature is missing',
    });
  });

  // Shopify signs `key=value` pairs joined without a separator: a shopper holding the signature of their own
  // proxied request could move where one pair ends and the next begins. The fixed set of keys and their strict
  // forms leave nothing to move; each of these is refused before any signature is computed.
  it.each([
    ['a key no route reads', `${VECTOR}&customer=2`, /does not read: 'customer'/],
    ["the vector's own key when the route does not read it", VECTOR, /does not read: 'extra'/],
    ['a route key out of its form', VECTOR.replace('extra=2', 'extra=2logged_in_customer_id=2'), /parameter 'extra' is not valid/],
    [
      'a customer id that is not digits',
      VECTOR.replace('logged_in_customer_id=1', 'logged_in_customer_id=1path_prefix'),
      /not a customer id/,
    ],
    ['a path_prefix outside /a, /apps, /community, /tools', VECTOR.replace('%2Fapps%2F', '%2Fother%2F'), /path_prefix/],
    ['a path_prefix carrying more than its subpath', VECTOR.replace('awesome_reviews', 'awesome_reviewsshop%3Dx'), /path_prefix/],
    ['a repeated path_prefix', `${VECTOR}&path_prefix=%2Fapps%2Fx`, /path_prefix/],
    ['a missing path_prefix', VECTOR.replace(/&path_prefix=[^&]*/, ''), /path_prefix/],
    ['a timestamp that is not digits', VECTOR.replace('timestamp=1317327555', 'timestamp=1317327555x'), /timestamp/],
  ])('refuses %s before the signature', async (_name, query, reason) => {
    const appOf = jest.fn(hush);
    const keys = _name.startsWith("the vector's own key") ? {} : EXTRA;
    const result = await verifyAppProxy(appProxyQueryPairs(query), appOf, at, keys);
    expect(result.verified).toBe(false);
    expect(!result.verified && result.reason).toMatch(reason);
    // Refused before the shop's app (and its secret) was even looked up.
    expect(appOf).not.toHaveBeenCalled();
  });
});
