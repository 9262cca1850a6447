// The program's figures follow `loyalty import undo` as they follow the import (docs/migrate.md, "Undoing an
// import"; docs/events.md, `import.undone`): an import that creates members, adds to one and sets two balances
// (one lowered, one raised), a member the import created and staff adjusted since, the undo of both imports,
// the same files imported again and undone again. After each step `npx loyalty stats verify` finds the kept
// figures equal to a full read, and `GET /admin/api/overview` shows no member, balance or issued point of an
// undone import.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../../infra/cli/main';
import type { Twin } from '../../infra/local/twin';
import { e2eConfig, KEYS } from '../fixtures/e2e-config';
import { apiClient, sendJson, startTestTwin } from '../support/twin';

jest.setTimeout(180_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const APP = { clientId: 'import-figures-client-id', clientSecret: 'import-figures-client-secret', domain: 'e2e.myshopify.com' };

let twin: Twin;
beforeAll(async () => {
  const config: Json = e2eConfig();
  const [e2e] = config.shops;
  e2e.platform = { ...e2e.platform, shop_domain: APP.domain, client_id: APP.clientId, client_secret: APP.clientSecret };
  twin = await startTestTwin(config, { throttling: false });
  await settled();
});
afterAll(async () => {
  await twin?.stop();
});

const api = () => apiClient(twin.url, KEYS.full);

/** Every committed event handed to the bus, and the figures queue has counted them. */
async function settled(): Promise<void> {
  await twin.eventStream.caughtUp();
  await twin.figures.idle();
}

async function cli(...args: string[]): Promise<{ code: number; out: string }> {
  const out: string[] = [];
  const code = await main([...args, '--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName], {
    out: (line: string) => out.push(line),
    err: (line: string) => out.push(line),
  } as never);
  return { code, out: out.join('\n') };
}

/** `stats verify` after the events of every change so far were counted. */
async function verify(): Promise<{ code: number; out: string }> {
  await settled();
  return cli('stats', 'verify', '--shop', 'e2e');
}

async function figures(): Promise<Json> {
  const token = await fetch(`${twin.platformUrl}/_id_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shop: 'e2e', user_id: '42' }),
  });
  const { token: idToken } = (await token.json()) as { token: string };
  const answer = await sendJson(`${twin.url}/admin/api/overview`, 'GET', { Authorization: `Bearer ${idToken}` });
  expect(answer.status).toBe(200);
  return answer.body.data.attributes;
}

const balance = async (id: string): Promise<number> => (await api().get(`/v1/customers/${id}`)).body.data.attributes.current_points;

const directory = mkdtempSync(join(tmpdir(), 'import-figures-'));
const ADDED = join(directory, 'added.jsonl');
const SET = join(directory, 'set.jsonl');
writeFileSync(
  ADDED,
  [
    { merchant_id: '1026', email: 'customer1026@example.com', points_approved: 300, points_spent: 20 },
    { email: 'customer1027@example.com', points_approved: 40 },
    { merchant_id: '1028', points_approved: 75, birthday: '1991-02-03' },
    { merchant_id: '1003', points_approved: 120 },
  ]
    .map((row) => JSON.stringify(row))
    .join('\n'),
);

async function importIdOf(run: { code: number; out: string }): Promise<string> {
  expect(run.code).toBe(0);
  return /Import id: ([0-9a-f]{16})/.exec(run.out)![1]!;
}

describe('the program’s figures through an import and its undo', () => {
  it('stats verify agrees after an import, its undo, the import again and its undo again; the overview shows none of it', async () => {
    const start = await verify();
    expect(start.out).toMatch(/the figures agree with a full read/);
    expect(start.code).toBe(0);
    const before = await figures();
    const lowered = await balance('1004');
    const raised = await balance('1005');
    expect(lowered).toBeGreaterThan(10);
    writeFileSync(
      SET,
      [
        { merchant_id: '1004', points_approved: 10 },
        { merchant_id: '1005', points_approved: raised + 500 },
      ]
        .map((row) => JSON.stringify(row))
        .join('\n'),
    );

    for (const round of [1, 2]) {
      const added = await importIdOf(await cli('import', ADDED, '--shop', 'e2e', '--from', 'loyaltylion'));
      const set = await importIdOf(await cli('import', SET, '--shop', 'e2e', '--from', 'loyaltylion', '--mode', 'set'));
      const imported = await verify();
      expect(imported.out).toMatch(/the figures agree with a full read/);
      expect(imported.code).toBe(0);

      const during = await figures();
      // Round 1 creates 1026, 1027 and 1028; round 2 creates 1026 and 1027 and finds 1028 a member (staff
      // adjusted it, so the first undo kept it): three members more than before either way, all new today.
      expect(during.members.total).toBe(before.members.total + 3);
      expect(during.members.new).toBe(before.members.new + 3);
      expect(during.in_range.issued.import).toBe(before.in_range.issued.import + 300 + 40 + 75 + 120 + 500);
      expect(during.in_range.clawed_back).toBe(before.in_range.clawed_back + (lowered - 10));

      // Staff give a member the import created points of their own: the undo keeps that member.
      if (round === 1) expect((await api().post('/v1/customers/1028/points', { adjustment: 25, note: 'welcome' })).status).toBe(200);

      const undoAdded = await cli('import', 'undo', added, '--shop', 'e2e');
      expect(undoAdded.code).toBe(0);
      expect(undoAdded.out).toMatch(new RegExp(`members removed \\(created by the import\\): +2`));
      const undoSet = await cli('import', 'undo', set, '--shop', 'e2e');
      expect(undoSet.code).toBe(0);

      const undone = await verify();
      expect(undone.out).toMatch(/the figures agree with a full read/);
      expect(undone.code).toBe(0);

      // What stays is the member staff adjusted (enrolled by the import, its imported points taken back) and its 25 points.
      const after = await figures();
      expect(await balance('1028')).toBe(25);
      expect(await balance('1004')).toBe(lowered);
      expect(await balance('1005')).toBe(raised);
      expect(after.members.total).toBe(before.members.total + 1);
      expect(after.members.new).toBe(before.members.new + 1);
      expect(after.points_outstanding).toBe(before.points_outstanding + 25);
      expect(after.in_range.issued.import).toBe(before.in_range.issued.import);
      expect(after.in_range.issued.manual).toBe(before.in_range.issued.manual + 25);
      expect(after.in_range.clawed_back).toBe(before.in_range.clawed_back);
    }
  });
});
