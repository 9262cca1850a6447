// `npm start` as a user runs it: it stops with the signal its npm gets, leaves no Java and no open
// port behind whatever kills it, holds its --persist directory, names a taken port, and prints a
// working operator-CLI command. Three real starts on one data directory, run in order.
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCK_FILE } from '../../infra/local/persist-lock';
import {
  answers,
  eventually,
  freePortRun,
  isRunning,
  javaProcessesWith,
  killGroup,
  ROOT,
  runNpm,
  type NpmProcess,
} from '../support/twin-process';
import { apiClient } from '../support/twin';

jest.setTimeout(120_000);

const dir = mkdtempSync(join(tmpdir(), 'twin-persist-'));
let base: number;
const started: NpmProcess[] = [];

beforeAll(async () => {
  base = await freePortRun(3);
});
afterAll(() => {
  for (const npm of started) killGroup(npm.pid);
  rmSync(dir, { recursive: true, force: true });
});

/** `npm start -- ARGS` on the test's ports and data directory, once its banner is out. */
async function startTwin(): Promise<{ npm: NpmProcess; url: string; twinPid: number; cliCommand: string }> {
  const npm = runNpm(['start', '--', '--port', String(base), '--persist', dir]);
  started.push(npm);
  const output = await npm.waitFor('Press Ctrl-C');
  const owner = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number };
  return {
    npm,
    url: /Loyalty API listening on (\S+)/.exec(output)![1]!,
    twinPid: owner.pid,
    cliCommand: /Operator CLI for this twin: (.+)/.exec(output)![1]!,
  };
}

/** Nothing of this twin is left: no port of its three answers, no Java holds its port or directory. */
async function expectNothingLeft(): Promise<void> {
  const ports = [base, base + 1, base + 2];
  const left = await eventually(
    async () => ({
      answering: (await Promise.all(ports.map(answers))).flatMap((open, i) => (open ? [ports[i]] : [])),
      java: javaProcessesWith([String(base + 2), dir]),
    }),
    (state) => state.answering.length === 0 && state.java.length === 0,
  );
  expect(left).toEqual({ answering: [], java: [] });
}

function sh(command: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      'sh',
      ['-c', command],
      { cwd: ROOT, env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' } },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('npm start as a child process', () => {
  it('SIGTERM to npm stops everything with exit 0; meanwhile the directory, the ports and the CLI say what is wrong', async () => {
    const { npm, url, twinPid, cliCommand } = await startTwin();
    expect(cliCommand).toBe(`npx loyalty keys list --shop demo --endpoint http://127.0.0.1:${base + 2}`);

    const refused = (args: string[]) => {
      const run = runNpm(['start', '--', ...args]);
      started.push(run);
      return run.exited.then((code) => ({ code, output: run.output() }));
    };
    const [cli, cliAtApi, sameDir, platformPortTaken, dynamodbPortTaken] = await Promise.all([
      sh(cliCommand),
      sh(`node bin/loyalty.cjs keys list --shop demo --endpoint ${url}`),
      refused(['--port', '0', '--persist', dir]),
      refused(['--port', String(base - 1)]),
      refused(['--port', '0', '--dynamodb-port', String(base + 2)]),
    ]);
    const api = apiClient(url, 'demo_full_key');
    await api.post('/v1/customers/1001/points', { adjustment: 600, note: 'kept across restarts' });
    const purchase = await api.post('/v1/rewards/five-off/purchase', { customer_identifier: '1001' });

    expect(cli).toMatchObject({ code: 0, stdout: expect.stringContaining('Backend') });
    expect(cliAtApi.code).toBe(1);
    expect(cliAtApi.stderr).toContain(`${url} is not a DynamoDB endpoint: a ListTables request got HTTP 404: {"errors":[{"status":"404"`);
    expect(sameDir.code).toBe(1);
    expect(sameDir.output).toContain(
      `--persist ${dir} is in use by another running twin (pid ${twinPid}, the twin with its API on port ${base}`,
    );
    expect(platformPortTaken.code).toBe(1);
    expect(platformPortTaken.output).toContain(`port ${base} (platform simulator, --platform-port, default --port + 1) is in use`);
    expect(dynamodbPortTaken.code).toBe(1);
    expect(dynamodbPortTaken.output).toContain(`port ${base + 2} (DynamoDB Local, --dynamodb-port) is in use`);
    expect(purchase.status).toBe(201);

    process.kill(npm.pid, 'SIGTERM');

    expect(await npm.exited).toBe(0);
    expect(isRunning(twinPid)).toBe(false);
    await expectNothingLeft();
  });

  it('kill -9 of the twin’s node process leaves no Java; the events and discount codes were kept', async () => {
    const { npm, url, twinPid } = await startTwin();
    const events = (await (await fetch(`${url}/_events`)).json()) as { events: Array<{ type: string }> };
    const platformUrl = /Platform simulator on (\S+)/.exec(npm.output())![1]!;
    const codes = (await (await fetch(`${platformUrl}/_discount_codes`)).json()) as { discount_codes: Array<{ customer_id: string }> };
    // The banner names the demo storefront beside the API, and it serves the page with the app embed.
    const storefront = /Storefront of demo: (\S+)/.exec(npm.output())![1]!;
    const page = await fetch(storefront);
    const pageText = await page.text();
    // And the shop's admin, framing the twin's /admin with a fresh ID token.
    const admin = /Admin of demo: (\S+)/.exec(npm.output())![1]!;
    const adminPage = await fetch(admin);
    const adminText = await adminPage.text();
    // And the customer account page with the account extension, for a customer of the shop.
    const account = /Customer account of demo: (\S+)/.exec(npm.output())![1]!;
    const accountPage = await fetch(`${account}?customer_id=1001`);
    const accountText = await accountPage.text();
    // And the checkout with the checkout extensions, for a guest.
    const checkout = /Checkout of demo: (\S+)/.exec(npm.output())![1]!;
    const checkoutPage = await fetch(checkout);
    const checkoutText = await checkoutPage.text();
    // And the shop counter with the POS extension, for staff user 42.
    const pos = /POS of demo \(staff user 42\): (\S+)/.exec(npm.output())![1]!;
    const posPage = await fetch(pos);
    const posText = await posPage.text();

    process.kill(twinPid, 'SIGKILL');
    await npm.exited;

    expect(events.events.map((event) => event.type)).toContain('points.adjusted');
    expect(codes.discount_codes).toEqual([expect.objectContaining({ customer_id: '1001' })]);
    expect(storefront).toBe(`${platformUrl}/storefront/demo/`);
    expect(page.status).toBe(200);
    expect(pageText).toContain('id="loyalty-embed"');
    expect(admin).toBe(`${platformUrl}/admin/demo/`);
    expect(account).toBe(`${platformUrl}/account/demo/`);
    expect(accountPage.status).toBe(200);
    expect(accountText).toContain('data-target="customer-account.page.render"');
    expect(checkout).toBe(`${platformUrl}/checkout/demo/?variant=41002&quantity=1`);
    expect(checkoutPage.status).toBe(200);
    expect(checkoutText).toContain('data-target="purchase.checkout.reductions.render-after"');
    expect(pos).toBe(`${platformUrl}/pos/demo/?user_id=42`);
    expect(posPage.status).toBe(200);
    expect(posText).toContain('<title>POS · ');
    expect(adminPage.status).toBe(200);
    expect(adminText).toMatch(
      new RegExp(
        `<iframe id="app-frame" title="Loyalty program" src="${url}/admin\\?shop=demo\\.myshopify\\.com&amp;host=[^"]+&amp;embedded=1&amp;id_token=`,
      ),
    );
    await expectNothingLeft();
  });

  it('the next start takes the dead twin’s lock over; SIGINT to npm stops it with exit 0', async () => {
    const stale = JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8')) as { pid: number };
    const { npm, twinPid } = await startTwin();

    expect(isRunning(stale.pid)).toBe(false);
    expect(twinPid).not.toBe(stale.pid);

    process.kill(npm.pid, 'SIGINT');

    expect(await npm.exited).toBe(0);
    await expectNothingLeft();
  });
});
