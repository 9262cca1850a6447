// `npx loyalty import` as a user runs it (a child process with the user's environment, no twin settings)
// against a twin whose shop is a Dev Dashboard app: `platform` with shop_domain, client_id and
// client_secret. The simulator takes only tokens it granted for that pair, so matching rows by id and by
// e-mail through the platform works only if the CLI asks for a token with the client credentials grant
// and sends it. Dry run, the import, and its undo; and `email-index backfill`, which speaks to no
// platform, on the same shop.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Twin } from '../../infra/local/twin';
import { getCustomer } from '../../shared/data/customer-repository';
import { ROOT } from '../support/twin-process';
import { startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

const SHOP = 'cc';
const tmp = mkdtempSync(join(tmpdir(), 'import-cc-'));
const file = (name: string, content: string) => {
  const path = join(tmp, name);
  writeFileSync(path, content);
  return path;
};

const CONFIG = file(
  'cc.json',
  JSON.stringify({
    shops: [
      {
        id: SHOP,
        name: 'Client credentials shop',
        currency: 'USD',
        referral_base_url: 'https://cc.example/',
        platform: {
          shop_domain: 'cc.myshopify.com',
          client_id: 'cc-app-client-id',
          client_secret: 'cc-app-client-secret',
          customers: [
            { id: '5101', email: 'a@cc.test', first_name: 'Ada' },
            { id: '5102', email: 'b@cc.test', first_name: 'Bo' },
          ],
        },
      },
    ],
  }),
);
// One row matched by its customer id, one by its e-mail: both through the platform (no --customers).
const NATIVE = file('native.csv', ['Customer ID,Email,Points', '5101,a@cc.test,250', ',B@cc.test,40'].join('\n'));

let twin: Twin;
beforeAll(async () => {
  twin = await startTestTwin(CONFIG);
});
afterAll(async () => {
  await twin?.stop();
});

/** The environment of a user's shell: none of the settings the twin put into this test's process. */
function userEnvironment(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
  for (const name of ['PLATFORM_BASE_URL', 'DYNAMODB_ENDPOINT', 'TABLE_NAME', 'EVENTS_LOG_FILE', 'SHOPIFY_SECRET_PREFIX']) delete env[name];
  for (const name of Object.keys(env)) if (name.startsWith('PLATFORM_') || name === 'SHOP_CONFIG_TTL_SECONDS') delete env[name];
  return { ...env, ...extra };
}

function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return cliWith({}, ...args);
}

function cliWith(extra: NodeJS.ProcessEnv, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const target = ['--endpoint', twin.dynamodbEndpoint, '--table', twin.tableName];
  return new Promise((resolve) => {
    execFile(
      'node',
      [join(ROOT, 'bin', 'loyalty.cjs'), ...args, ...target],
      { cwd: tmp, env: userEnvironment(extra) },
      (error, stdout, stderr) => resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

/** The simulator's grants for the shop so far (never the tokens themselves). */
async function grants(): Promise<number> {
  const body = (await (await fetch(`${twin.platformUrl}/_oauth/tokens`)).json()) as { tokens: Array<{ shop: string }> };
  return body.tokens.filter((token) => token.shop === SHOP).length;
}

describe('loyalty import for a shop whose app uses client credentials', () => {
  let importId = '';

  it('matches by id and by e-mail through the platform on a dry run, with a granted token, and writes nothing', async () => {
    const before = await grants();

    const run = await cli('import', NATIVE, '--shop', SHOP, '--from', 'native', '--dry-run');

    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: expect.not.stringContaining('refused') });
    expect(run.stdout).toContain('Dry run: nothing written');
    expect(run.stdout).toMatch(/matched by id: +1/);
    expect(run.stdout).toMatch(/matched by e-mail: +1/);
    expect(run.stdout).toMatch(/members would be created: +2/);
    expect(run.stdout).toMatch(/skipped: +0/);
    // The simulator answers only tokens it granted for the app's pair: the CLI asked for one (one for the run).
    expect((await grants()) - before).toBe(1);
    expect(await getCustomer(SHOP, '5101', true)).toBeNull();
  });

  it('imports both members, ends with the import id', async () => {
    const run = await cli('import', NATIVE, '--shop', SHOP, '--from', 'native');

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/members created: +2/);
    importId = /Import id: ([0-9a-f]{16})/.exec(run.stdout)![1]!;
    expect((await getCustomer(SHOP, '5101', true))?.record).toMatchObject({ current_points: 250, email: 'a@cc.test', first_name: 'Ada' });
    expect((await getCustomer(SHOP, '5102', true))?.record).toMatchObject({ current_points: 40, email: 'b@cc.test', first_name: 'Bo' });
  });

  it('undoes the import, which asks the platform for nothing', async () => {
    const before = await grants();

    const undo = await cli('import', 'undo', importId, '--shop', SHOP);

    expect(undo.code).toBe(0);
    expect(undo.stdout).toMatch(/members removed \(created by the import\): +2/);
    expect(await getCustomer(SHOP, '5101', true)).toBeNull();
    expect(await grants()).toBe(before);
  });

  it('backfills the e-mail index of the shop without asking the platform for anything', async () => {
    const before = await grants();

    const run = await cli('email-index', 'backfill', '--shop', SHOP);

    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/shop cc: (e-mail index already complete|\d+ members, \d+ postings written; e-mail index complete)/);
    expect(await grants()).toBe(before);
  });

  it('says why the simulator refuses the calls when PLATFORM_BASE_URL names it by hand (no twin file, no credentials)', async () => {
    const run = await cliWith({ PLATFORM_BASE_URL: twin.platformUrl }, 'import', NATIVE, '--shop', SHOP, '--from', 'native', '--dry-run');

    expect(run.code).toBe(1);
    expect(run.stderr).toContain('Shopify refused the access token for customersByIds (HTTP 401)');
    expect(run.stderr).toContain('The CLI reads the pair from the configuration file of the twin running on this table');
    expect(run.stderr).not.toMatch(/^\s+at /m);
  });
});
