// Shopify's admin ID token, verified without a twin (SURFACES-CONTRACT.md, "Staff routes"): HS256 with the
// app's secret, aud the client id, iss and dest naming the same shop, sub the staff user, exp/nbf with 10 s
// of leeway on the time it is given (real time), jti and sid present. Each refusal names what failed.
import { SignJWT } from 'jose';
import type { AppCredentials } from '../../shared/shopper/session-token';
import { looksLikeIdToken, verifyIdToken } from '../../shared/staff/id-token';
import { mintIdToken } from '../../infra/local/simulator/shopify-tokens';

const APP: AppCredentials = { clientId: 'client-id', clientSecret: 'client-secret' };
const DOMAIN = 'shop-name.myshopify.com';
const NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
const seconds = Math.floor(NOW / 1000);
const appOf = async (domain: string) =>
  domain === DOMAIN ? APP : domain === 'legacy.myshopify.com' ? { refused: 'legacy shop', legacy: true } : { refused: `unknown ${domain}` };

/** What Shopify mints for staff user 42 of the shop, with `claims` over it (undefined drops a claim). */
async function signed(claims: Record<string, unknown>, options: { alg?: string; secret?: string } = {}): Promise<string> {
  const payload: Record<string, unknown> = {
    iss: `https://${DOMAIN}/admin`,
    dest: `https://${DOMAIN}`,
    aud: APP.clientId,
    sub: '42',
    exp: seconds + 60,
    nbf: seconds - 1,
    iat: seconds - 1,
    jti: 'c6b8a4a2-1f0e-4f55-9d1b-000000000001',
    sid: 'a0b1c2d3e4f5',
    ...claims,
  };
  for (const [name, value] of Object.entries(payload)) if (value === undefined) delete payload[name];
  return new SignJWT(payload)
    .setProtectedHeader({ alg: options.alg ?? 'HS256' })
    .sign(new TextEncoder().encode(options.secret ?? APP.clientSecret));
}

describe('verifyIdToken', () => {
  it('accepts the token it mints as Shopify does, naming the shop and the staff user', async () => {
    const result = await verifyIdToken(await mintIdToken(APP, DOMAIN, '42', NOW), appOf, NOW);

    expect(result).toEqual({ verified: true, shopDomain: DOMAIN, userId: '42', sessionId: expect.any(String) });
  });

  it('accepts a token in the shape Shopify documents', async () => {
    expect(await verifyIdToken(await signed({}), appOf, NOW)).toEqual({
      verified: true,
      shopDomain: DOMAIN,
      userId: '42',
      sessionId: 'a0b1c2d3e4f5',
    });
  });

  it('honours exp and nbf with 10 s of leeway, on the time it is given (real time)', async () => {
    const minted = await mintIdToken(APP, DOMAIN, '42', NOW, 60);
    expect((await verifyIdToken(minted, appOf, NOW + 69_000)).verified).toBe(true);
    expect(await verifyIdToken(minted, appOf, NOW + 71_000)).toEqual({ verified: false, reason: 'The ID token has expired' });
    expect((await verifyIdToken(await signed({ nbf: seconds + 9 }), appOf, NOW)).verified).toBe(true);
    expect(await verifyIdToken(await signed({ nbf: seconds + 11 }), appOf, NOW)).toEqual({
      verified: false,
      reason: 'The ID token is not valid yet',
    });
  });

  it.each([
    ['HS512', { alg: 'HS512' }, {}, /HS256/],
    ['another secret (forged)', { secret: 'forged' }, {}, /signature/],
    ['another audience', {}, { aud: 'other-client' }, /aud/],
    ['iss and dest of different shops', {}, { iss: 'https://other.myshopify.com/admin' }, /iss and dest name different shops/],
    ['an unknown shop', {}, { iss: 'https://other.myshopify.com/admin', dest: 'https://other.myshopify.com' }, /unknown other/],
    ["a customer session token's bare dest", {}, { dest: DOMAIN }, /dest/],
    ['an iss without /admin', {}, { iss: `https://${DOMAIN}` }, /iss/],
    ['a dest that is no shop', {}, { dest: 'https://evil.example' }, /dest/],
    ["a customer's sub", {}, { sub: 'gid://shopify/Customer/1001' }, /sub is not a staff user/],
    ['no sub', {}, { sub: undefined }, /sub/],
    ['no exp', {}, { exp: undefined }, /exp/],
    ['no nbf', {}, { nbf: undefined }, /nbf/],
    ['no jti', {}, { jti: undefined }, /jti/],
    ['no sid', {}, { sid: undefined }, /sid/],
  ])('refuses %s', async (_name, options, claims, reason) => {
    const result = await verifyIdToken(await signed(claims, options), appOf, NOW);
    expect(result.verified).toBe(false);
    expect(!result.verified && result.reason).toMatch(reason);
  });

  it('refuses a shop with legacy credentials, saying so, and marks it: no fresh token can help', async () => {
    const token = await signed({ iss: 'https://legacy.myshopify.com/admin', dest: 'https://legacy.myshopify.com' });

    expect(await verifyIdToken(token, appOf, NOW)).toEqual({ verified: false, reason: 'legacy shop', legacy: true });
  });

  it('refuses what is no JWT', async () => {
    expect(await verifyIdToken('lk_live_not_a_jwt', appOf, NOW)).toEqual({ verified: false, reason: 'The ID token is not a JWT' });
  });

  it('tells a presented ID token from credentials of other kinds, trusting nothing of it', async () => {
    expect(looksLikeIdToken(await signed({}, { secret: 'forged' }))).toBe(true);
    expect(looksLikeIdToken(await signed({ sub: undefined, sid: undefined }))).toBe(true);
    expect(looksLikeIdToken('lk_live_0123456789abcdef')).toBe(false);
    // A customer session token: dest the bare domain, iss the shop's URL.
    expect(looksLikeIdToken(await signed({ iss: `https://${DOMAIN}`, dest: DOMAIN, sub: 'gid://shopify/Customer/1001' }))).toBe(false);
  });
});
