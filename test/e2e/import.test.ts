// `loyalty import` against the twin, checked through the API: LoyaltyLion's JSON Lines export matched
// through the platform (by id, and by e-mail through the customer search), members created and updated,
// the `import` entry in the earning history, the tiers computed; the re-run, and the undo.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../infra/cli/main';
import type { Twin } from '../../infra/local/twin';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { apiClient, startTestTwin } from '../support/twin';

jest.setTimeout(60_000);

let twin: Twin;
let api: ReturnType<typeof apiClient>;
beforeAll(async () => {
  twin = await startTestTwin(e2eConfig(), { throttling: false });
  api = apiClient(twin.url, KEYS.full);
});
afterAll(async () => {
  await twin.stop();
});

const EXPORT = join(mkdtempSync(join(tmpdir(), 'import-e2e-')), 'loyaltylion.jsonl');
writeFileSync(
  EXPORT,
  [
    {
      merchant_id: '1026',
      email: 'customer1026@example.com',
      points_approved: 900,
      points_pending: 200,
      points_spent: 50,
      birthday: '1990-06-01',
      tier: 'Gold',
    },
    { email: 'Customer1027@example.com', points_approved: 50, tier: { name: 'Gold' } },
    { merchant_id: '1002', points_approved: 100 },
  ]
    .map((record) => JSON.stringify(record))
    .join('\n'),
);

async function cli(...args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main([...args, '--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName], {
    out: (line) => out.push(line),
    err: (line) => err.push(line),
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

const customer = async (id: string) => (await api.get(`/v1/customers/${id}`)).body.data?.attributes;

describe('loyalty import against the twin', () => {
  it('imports through the platform and the API shows the members, their import entry and their tiers; undo takes it back', async () => {
    const before1002 = await customer('1002');
    const run = await cli('import', EXPORT, '--shop', 'e2e', '--from', 'loyaltylion');
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/matched by id: +2/);
    expect(run.out).toMatch(/matched by e-mail: +1/);
    expect(run.out).toMatch(/members created: +2/);
    expect(run.out).toMatch(/members updated: +1/);
    expect(run.out).toMatch(/pending points added as approved: +200/);
    expect(run.out).toContain("customer 1027 named 'Gold', computed no tier");
    const importId = /Import id: ([0-9a-f]{16})/.exec(run.out)![1]!;

    expect(await customer('1026')).toMatchObject({
      current_points: 1100,
      lifetime_points: 1150,
      redeemed_points: 50,
      date_of_birth: '1990-06-01',
      vip_tier: { id: 'gold', name: 'Gold' },
    });
    expect(await customer('1027')).toMatchObject({ current_points: 50, vip_tier: null });
    expect((await customer('1002')).current_points).toBe(before1002.current_points + 100);
    const history = await api.get('/v1/customers/1026/earning-history');
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual([
      expect.objectContaining({
        id: `import-${importId}`,
        attributes: expect.objectContaining({ action: 'import', points: 1100, status: 'approved' }),
      }),
    ]);

    // The shop's counters hold the members created.
    expect((await api.get('/v1/customers?page[size]=1')).body.meta).toMatchObject({ total: 27 });

    const again = await cli('import', EXPORT, '--shop', 'e2e', '--from', 'loyaltylion');
    expect(again.out).toMatch(/unchanged \(already imported\): +3/);
    expect((await customer('1026')).current_points).toBe(1100);

    const undo = await cli('import', 'undo', importId, '--shop', 'e2e');
    expect(undo.code).toBe(0);
    expect(undo.out).toMatch(/members removed \(created by the import\): +2/);
    expect((await api.get('/v1/customers/1026')).status).toBe(404);
    expect(await customer('1002')).toMatchObject({
      current_points: before1002.current_points,
      lifetime_points: before1002.lifetime_points,
    });
    const list = await api.get('/v1/customers?page[size]=1');
    expect(list.body.meta).toMatchObject({ total: 25 });
  });
});
