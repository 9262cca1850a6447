// A twin started with --persist and killed with SIGKILL right after a commit delivers that change's events
// when it starts again: the table's stream and the reader's checkpoint are kept in the data directory, and
// the reader hands on every record after the checkpoint. Events committed while the bus refused, and events
// committed an instant before the kill, are all on GET /_events after the restart, each id at least once.
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE } from '../../infra/local/persist-lock';
import { resetDocumentClient, tableName } from '../../shared/data/client';
import { commit, namedWrite } from '../../shared/data/commit';
import type { CommittedEvent, EarningEvent } from '../../shared/domain/events';
import { setEnvironment } from '../support/environment';
import { freePortRun, killGroup, runNpm, type NpmProcess } from '../support/twin-process';

jest.setTimeout(180_000);

const dir = mkdtempSync(join(tmpdir(), 'twin-events-persist-'));
const started: NpmProcess[] = [];
let base: number;
let restore = () => {};

beforeAll(async () => {
  base = await freePortRun(3);
  restore = setEnvironment({ DYNAMODB_ENDPOINT: `http://127.0.0.1:${base + 2}`, TABLE_NAME: 'loyalty-local' });
  resetDocumentClient();
});
afterAll(() => {
  for (const npm of started) killGroup(npm.pid);
  restore();
  resetDocumentClient();
  rmSync(dir, { recursive: true, force: true });
});

async function startTwin(): Promise<{ npm: NpmProcess; url: string; platformUrl: string; twinPid: number }> {
  const npm = runNpm(['start', '--', '--port', String(base), '--persist', dir]);
  started.push(npm);
  const output = await npm.waitFor('Press Ctrl-C');
  return {
    npm,
    url: /Loyalty API listening on (\S+)/.exec(output)![1]!,
    platformUrl: /Platform simulator on (\S+)/.exec(output)![1]!,
    twinPid: (JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number }).pid,
  };
}

const event = (points: number): EarningEvent & { id: string } => ({
  type: 'points.earned',
  shop_id: 'demo',
  customer_id: '1001',
  occurred_at: '2026-11-27T10:00:00.000Z',
  points,
  id: randomUUID(),
});
const change = () =>
  namedWrite('write a test change', { Put: { TableName: tableName(), Item: { pk: `TEST_CHANGE#${randomUUID()}`, sk: 'TEST_CHANGE' } } });

it('delivers after a restart the events of changes committed just before a SIGKILL, and those the bus refused', async () => {
  const first = await startTwin();
  const refused = event(1);
  const lastMoment = event(2);
  await fetch(`${first.platformUrl}/_faults`, { method: 'PUT', body: JSON.stringify({ bus: 'error' }) });
  expect((await commit([change()], { events: [refused] })).committed).toBe(true);
  const whileRefused = ((await (await fetch(`${first.url}/_events`)).json()) as { events: CommittedEvent[] }).events.map((e) => e.id);
  expect((await commit([change()], { events: [lastMoment] })).committed).toBe(true);
  process.kill(first.twinPid, 'SIGKILL');
  await first.npm.exited;
  const checkpointKept = existsSync(join(dir, 'event-stream-checkpoint.json'));

  const second = await startTwin();
  const after = ((await (await fetch(`${second.url}/_events`)).json()) as { events: CommittedEvent[] }).events.map((e) => e.id);
  process.kill(second.npm.pid, 'SIGTERM');
  await second.npm.exited;

  expect(whileRefused).not.toContain(refused.id);
  // The first start read the configuration's writes from the stream and kept where it stopped.
  expect(checkpointKept).toBe(true);
  expect(after).toEqual(expect.arrayContaining([refused.id, lastMoment.id]));
  expect(after.indexOf(refused.id)).toBeLessThan(after.lastIndexOf(lastMoment.id));
});
