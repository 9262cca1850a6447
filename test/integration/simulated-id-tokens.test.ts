// The platform simulator's POST /_id_tokens (SURFACES-CONTRACT.md, the twin's admin): an admin ID token as
// App Bridge hands the embedded app for a staff user, signed with the shop's client_secret and valid five
// minutes of real time; every refusal of the request in its own words.
import { decodeJwt } from 'jose';
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { verifyIdToken } from '../../shared/staff/id-token';

const APP = { clientId: 'shop-app-id', clientSecret: 'shop-app-secret' };
const REAL_NOW = Date.UTC(2026, 10, 27, 12, 0, 0);
let simulator: PlatformSimulator;

beforeAll(async () => {
  simulator = await startPlatformSimulator({
    port: 0,
    realNow: () => REAL_NOW,
    shops: {
      demo: { customers: [], shop_domain: 'demo.myshopify.com', client_id: APP.clientId, client_secret: APP.clientSecret },
      legacy: { customers: [] },
    },
  });
});
afterAll(async () => {
  await simulator.stop();
});

const post = async (body: unknown, method = 'POST') => {
  const response = await fetch(`${simulator.url}/_id_tokens`, {
    method,
    headers: { 'Content-Type': 'application/json' },
    ...(method === 'POST' ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  return { status: response.status, body: (await response.json()) as Record<string, string> };
};

describe('POST /_id_tokens', () => {
  it("mints the staff user's ID token for the shop, valid five minutes of real time", async () => {
    const { status, body } = await post({ shop: 'demo', user_id: '42' });

    expect(status).toBe(200);
    const claims = decodeJwt(body.token!);
    expect(claims).toMatchObject({
      iss: 'https://demo.myshopify.com/admin',
      dest: 'https://demo.myshopify.com',
      aud: APP.clientId,
      sub: '42',
      nbf: REAL_NOW / 1000,
      exp: REAL_NOW / 1000 + 300,
    });
    expect(typeof claims.jti).toBe('string');
    expect(typeof claims.sid).toBe('string');
    const appOf = async (domain: string) => (domain === 'demo.myshopify.com' ? APP : { refused: domain });
    expect(await verifyIdToken(body.token!, appOf, REAL_NOW + 299_000)).toMatchObject({ verified: true, userId: '42' });
    expect(await verifyIdToken(body.token!, appOf, REAL_NOW + 311_000)).toMatchObject({ verified: false });
  });

  it('refuses a shop with legacy credentials (422), an unknown shop (404), a bad user id or body (400), GET (405)', async () => {
    expect(await post({ shop: 'legacy', user_id: '42' })).toEqual({
      status: 422,
      body: { error: expect.stringMatching(/legacy credentials/) },
    });
    expect((await post({ shop: 'nobody', user_id: '42' })).status).toBe(404);
    expect(await post({ shop: 'demo', user_id: 'gid://shopify/StaffMember/42' })).toEqual({
      status: 400,
      body: { error: expect.stringMatching(/user_id/) },
    });
    expect((await post({ shop: 'demo' })).status).toBe(400);
    expect((await post('not json')).status).toBe(400);
    expect((await post(null, 'GET')).status).toBe(405);
  });
});
