// The shopper's two identities, verified without a twin: the customer session token (HS256 with the app's
// secret, aud, dest, exp/nbf with 10 s of leeway in real time, sub a customer gid or absent) and the app
// proxy's parameters (the contract's test vector, the 90 s window, one shop). Each refusal names what failed.
import { SignJWT } from 'jose';
import { verifyAppProxy } from '../../shared/shopper/app-proxy';
import { type AppCredentials, mintSessionToken, verifySessionToken } from '../../shared/shopper/session-token';
import { appProxyQueryPairs } from '../../shared/platform/app-proxy-signature';

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

  it('accepts the test vector within 90 s of its timestamp, for customer 1', async () => {
    expect(await verifyAppProxy(appProxyQueryPairs(VECTOR), hush, at + 90_000)).toEqual({
      verified: true,
      shopDomain: DOMAIN,
      customerId: '1',
    });
  });

  it('refuses it 91 s later or earlier, under another secret, with a repeated shop, without its signature', async () => {
    expect((await verifyAppProxy(appProxyQueryPairs(VECTOR), hush, at + 91_000)).verified).toBe(false);
    expect((await verifyAppProxy(appProxyQueryPairs(VECTOR), hush, at - 91_000)).verified).toBe(false);
    expect((await verifyAppProxy(appProxyQueryPairs(VECTOR), async () => ({ clientId: 'id', clientSecret: 'x' }), at)).verified).toBe(
      false,
    );
    expect((await verifyAppProxy(appProxyQueryPairs(`${VECTOR}&shop=${DOMAIN}`), hush, at)).verified).toBe(false);
    const long = `${'x'.repeat(3000)}.myshopify.com`;
    expect(await verifyAppProxy(appProxyQueryPairs(VECTOR.replace(`shop=${DOMAIN}`, `shop=${long}`)), hush, at)).toEqual({
      verified: false,
      reason: "The app proxy's shop is not a shop domain",
    });
    expect(await verifyAppProxy(appProxyQueryPairs(VECTOR.replace(/&signature=.*$/, '')), hush, at)).toEqual({
      verified: false,
      reason: 'The app proxy signature is missing',
    });
  });
});
