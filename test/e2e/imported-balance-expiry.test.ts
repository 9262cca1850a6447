// A balance that came in without earning history, in `batch` expiry mode, through the twin: a member of the
// configuration file (its balance a batch given when the file was applied) and a member of `loyalty import`
// (the import's entry a batch given at the import). Each shows its batch as the points expiring next, with
// the date, on GET /shopper/member and on its Klaviyo profile; the expiry job then removes exactly that many
// points at that date, and `stats verify` finds the program's figures exact. The clock moves; nothing sleeps.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../infra/cli/main';
import type { KlaviyoRecords } from '../../infra/local/simulator/platform-simulator';
import type { Twin } from '../../infra/local/twin';
import { setClock } from '../../shared/runtime/clock';
import { member, shopConfig } from '../fixtures/shop-config';
import { viaProxy } from '../support/shopper';
import { apiClient, sendJson, startTestTwin } from '../support/twin';
import { runJobs } from '../support/jobs';

jest.setTimeout(120_000);

const DAY = 24 * 3600 * 1000;
/** When the configuration file is applied (the twin starts with its clock held here). */
const T0 = '2027-03-01T12:00:00.000Z';
const at = (days: number, hours = 0) => new Date(Date.parse(T0) + days * DAY + hours * 3600 * 1000).toISOString();

const SHOP = 'imp-batch';
const KEY = 'imp_batch_key_0001';
const KLAVIYO_KEY = 'pk_imp_batch_0123456789';
const APP = { domain: 'imp-batch.myshopify.com', clientId: 'imp-batch-client', clientSecret: 'imp-batch-client-secret' };
/**
 * 6001: a member of the file with 300 points and no history; 6002: a platform customer `loyalty import` enrols
 * with 120; 6003: a member of the file with 200 points to which the import adds 50.
 */
const config = {
  shops: [
    {
      ...shopConfig(
        SHOP,
        KEY,
        {
          earning_settings: { points_expiry: { mode: 'batch', days: 30 }, expiry_reminder_days: 7 },
          integrations: { klaviyo: { private_key: KLAVIYO_KEY } },
        },
        ['6001', '6002', '6003'],
        [member('6001', { current_points: 300, lifetime_points: 300 }), member('6003', { current_points: 200, lifetime_points: 200 })],
      ),
    },
  ],
};
const shop = config.shops[0]! as Record<string, unknown> & { platform: Record<string, unknown> };
shop.platform = {
  ...shop.platform,
  shop_domain: APP.domain,
  client_id: APP.clientId,
  client_secret: APP.clientSecret,
  webhook_secret: 'imp-batch-webhook-secret',
};

const EXPORT = join(mkdtempSync(join(tmpdir(), 'imported-batch-')), 'loyaltylion.jsonl');
writeFileSync(
  EXPORT,
  [
    { merchant_id: '6002', email: 'c6002@example.com', points_approved: 120 },
    { merchant_id: '6003', email: 'c6003@example.com', points_approved: 50 },
  ]
    .map((record) => JSON.stringify(record))
    .join('\n'),
);

let twin: Twin;
const api = () => apiClient(twin.url, KEY);

beforeAll(async () => {
  setClock(new Date(T0));
  twin = await startTestTwin(config, { throttling: false, environment: { KLAVIYO_RETRY_BASE_MS: '5' } });
});
afterAll(async () => {
  await twin?.stop();
  setClock(null);
});

async function moveClock(now: string): Promise<void> {
  const answer = await sendJson(`${twin.url}/_clock`, 'PUT', {}, { now });
  expect(answer.status).toBe(200);
}
async function cli(...args: string[]) {
  const out: string[] = [];
  const code = await main([...args, '--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName], {
    out: (line) => out.push(line),
    err: (line) => out.push(line),
  });
  return { code, out: out.join('\n') };
}
/** Every committed event handed to the bus, and the Klaviyo queue worked through. */
async function settled(): Promise<void> {
  await twin.eventStream.caughtUp();
  await twin.klaviyo.idle();
}
const shopperMember = async (customerId: string) =>
  (await viaProxy(twin.url, 'GET', '/member', { customerId, shopDomain: APP.domain, secret: APP.clientSecret })).body.data.attributes;
const klaviyoProfile = async (customerId: string) =>
  ((await sendJson(`${twin.platformUrl}/_klaviyo`, 'GET', {})).body as KlaviyoRecords).profiles.find(
    (profile) => profile.external_id === customerId,
  )?.properties;
const balanceOf = async (customerId: string) =>
  (await api().get(`/v1/customers/${customerId}`)).body.data.attributes.current_points as number;
async function expiredEvents(customerId: string): Promise<Array<Record<string, unknown>>> {
  const all = ((await sendJson(`${twin.url}/_events`, 'GET', {})).body as { events: Array<Record<string, unknown>> }).events;
  return all.filter((event) => event.type === 'points.expired' && event.customer_id === customerId);
}

describe("an imported balance's batch in batch expiry mode", () => {
  it('is the points expiring next on GET /shopper/member and on the Klaviyo profile, and expires exactly then', async () => {
    // A day after the file was applied, `loyalty import` enrols 6002 with 120 points.
    await moveClock(at(1));
    const run = await cli('import', EXPORT, '--shop', SHOP, '--from', 'loyaltylion');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/members created: +1/);
    expect(run.out).toMatch(/members updated: +1/);
    // 6001 earns 10 more (quietly): a newer batch; its Klaviyo profile follows the change.
    expect((await api().post('/v1/customers/6001/points', { adjustment: 10, send_email: false })).status).toBe(200);
    await settled();

    expect((await shopperMember('6001')).points_expiring).toEqual({ points: 300, at: at(30) });
    expect((await shopperMember('6002')).points_expiring).toEqual({ points: 120, at: at(31) });
    expect((await shopperMember('6003')).points_expiring).toEqual({ points: 200, at: at(30) });
    expect(await klaviyoProfile('6001')).toMatchObject({
      'Loyalty Points Balance': 310,
      'Loyalty Points Expiring': 300,
      'Loyalty Points Expiring At': at(30),
    });
    expect(await klaviyoProfile('6002')).toMatchObject({
      'Loyalty Points Balance': 120,
      'Loyalty Points Expiring': 120,
      'Loyalty Points Expiring At': at(31),
    });
    expect(await klaviyoProfile('6003')).toMatchObject({
      'Loyalty Points Balance': 250,
      'Loyalty Points Expiring': 200,
      'Loyalty Points Expiring At': at(30),
    });

    // Just before the configured balance's date nothing expires; just after, exactly its 300 points.
    await moveClock(at(30, -1));
    expect((await runJobs(twin)).points_expiry).toMatchObject({ changed: 0, failed: 0 });
    expect(await balanceOf('6001')).toBe(310);
    await moveClock(at(30, 1));
    expect((await runJobs(twin)).points_expiry).toMatchObject({ changed: 2, failed: 0 });
    expect(await balanceOf('6001')).toBe(10);
    expect(await balanceOf('6002')).toBe(120);
    expect(await balanceOf('6003')).toBe(50);
    expect(await expiredEvents('6003')).toEqual([expect.objectContaining({ points: 200, points_expiry_at: at(30) })]);
    expect(await expiredEvents('6001')).toEqual([expect.objectContaining({ points: 300, points_expiry_at: at(30) })]);
    // The 10 points given a day later are what expires next.
    expect((await shopperMember('6001')).points_expiring).toEqual({ points: 10, at: at(31) });

    // The imported 120 at theirs (with 6001's 10 and 6003's imported 50).
    await moveClock(at(31, 1));
    expect((await runJobs(twin)).points_expiry).toMatchObject({ changed: 3, failed: 0 });
    expect(await balanceOf('6003')).toBe(0);
    expect(await balanceOf('6002')).toBe(0);
    expect(await expiredEvents('6002')).toEqual([expect.objectContaining({ points: 120, points_expiry_at: at(31) })]);
    expect((await shopperMember('6002')).points_expiring).toBeNull();
    await settled();
    expect(await klaviyoProfile('6001')).toMatchObject({
      'Loyalty Points Balance': 0,
      'Loyalty Points Expiring': 0,
      'Loyalty Points Expiring At': null,
    });
    expect(await klaviyoProfile('6002')).toMatchObject({
      'Loyalty Points Balance': 0,
      'Loyalty Points Expiring': 0,
      'Loyalty Points Expiring At': null,
    });

    const verify = await cli('stats', 'verify', '--shop', SHOP);
    expect({ code: verify.code, out: verify.out }).toEqual({ code: 0, out: expect.any(String) });
  });
});
