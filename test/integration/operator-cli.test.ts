import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { configApply, keysCreate, keysList, keysRevoke } from '../../infra/cli/commands';
import type { UsagePlanKeys } from '../../infra/cli/usage-plan-keys';
import { authenticate } from '../../shared/auth/authenticate';
import { documentClient, tableName } from '../../shared/data/client';
import { createTestTable, testEndpoint } from '../support/test-table';

jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);
const config = {
  shops: [{
    id: 'cli-shop', name: 'CLI Shop', currency: 'USD', referral_base_url: 'https://cli.example/',
    api_keys: [{ name: 'From file', scope: 'read', key: 'cli_file_key_0001' }],
  }],
};

let table: Awaited<ReturnType<typeof createTestTable>>;
let configFile: string;
const printed: string[] = [];
const print = (line: string) => printed.push(line);

beforeAll(async () => {
  table = await createTestTable();
  configFile = join(mkdtempSync(join(tmpdir(), 'cli-')), 'shop.json');
  writeFileSync(configFile, JSON.stringify(config));
  await configApply(configFile, print);
});
afterAll(async () => {
  await table.drop();
});

function fakeUsagePlan(): UsagePlanKeys & { created: Array<{ name: string; value: string }>; disabled: string[] } {
  const created: Array<{ name: string; value: string }> = [];
  const disabled: string[] = [];
  return {
    created,
    disabled,
    createAndAttach: async (name, value) => {
      created.push({ name, value });
      return { id: `apigw-${created.length}` };
    },
    disable: async (id) => {
      disabled.push(id);
    },
  };
}

describe('operator CLI', () => {
  it('creates a key that works at once, shows it once and stores only its hash', async () => {
    const { key, keyId } = await keysCreate({ shop: 'cli-shop', name: 'Backend', scope: 'full' }, null, print);

    const auth = await authenticate(key);
    expect(auth).toMatchObject({ ok: true, shopId: 'cli-shop', scope: 'full' });
    expect(printed.filter((line) => line.includes(key))).toHaveLength(1);
    const items = await documentClient().send(new ScanCommand({ TableName: tableName() }));
    expect(JSON.stringify(items.Items)).not.toContain(key);
    expect(keyId).toHaveLength(12);
  });

  it('lists keys, config-loaded ones included, without hashes or values', async () => {
    const lines: string[] = [];

    await keysList({ shop: 'cli-shop' }, (line) => lines.push(line));

    const text = lines.join('\n');
    expect(text).toContain('From file');
    expect(text).toContain('Backend');
    expect(text).not.toContain('cli_file_key_0001');
    expect(text).not.toMatch(/[0-9a-f]{64}/);
  });

  it('revokes a key: the next authentication fails', async () => {
    const { key, keyId } = await keysCreate({ shop: 'cli-shop', name: 'Temp', scope: 'read' }, null, print);

    await keysRevoke({ shop: 'cli-shop', keyId }, null, print);

    expect(await authenticate(key)).toEqual({ ok: false, reason: 'invalid' });
  });

  it('creates, attaches and on revocation disables the usage-plan key, whose value is not the loyalty key', async () => {
    const usagePlan = fakeUsagePlan();

    const { key, keyId } = await keysCreate({ shop: 'cli-shop', name: 'Gateway', scope: 'full' }, usagePlan, print);
    const auth = await authenticate(key);
    await keysRevoke({ shop: 'cli-shop', keyId }, usagePlan, print);

    expect(usagePlan.created).toHaveLength(1);
    expect(usagePlan.created[0]!.value).not.toBe(key);
    expect(auth.ok && auth.usageIdentifierKey).toBe(usagePlan.created[0]!.value);
    expect(usagePlan.disabled).toEqual(['apigw-1']);
  });

  it('refuses a key for an unknown shop and an unknown key id', async () => {
    await expect(keysCreate({ shop: 'nope', name: 'x', scope: 'full' }, null, print)).rejects.toThrow("Shop 'nope' has no configuration");
    await expect(keysRevoke({ shop: 'cli-shop', keyId: 'ffffffffffff' }, null, print)).rejects.toThrow("no API key with id 'ffffffffffff'");
  });

  it('applies the same file twice without change', async () => {
    await configApply(configFile, print);
    const lines: string[] = [];
    await keysList({ shop: 'cli-shop' }, (line) => lines.push(line));

    expect(lines.filter((line) => line.includes('From file'))).toHaveLength(1);
  });

  it('runs as a command: config apply, keys create and list, help, and a bad file', async () => {
    const target = ['--endpoint', testEndpoint(), '--table', table.tableName];
    const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    const cli = (...args: string[]) => run('node', [join(ROOT, 'bin/loyalty.cjs'), ...args], { cwd: ROOT, env });

    const applied = await cli('config', 'apply', configFile, ...target);
    const created = await cli('keys', 'create', '--shop', 'cli-shop', '--name', 'Cmd', '--scope', 'read', ...target);
    const listed = await cli('keys', 'list', '--shop', 'cli-shop', ...target);
    const help = await cli('--help');
    const badFile = join(mkdtempSync(join(tmpdir(), 'cli-bad-')), 'bad.json');
    writeFileSync(badFile, JSON.stringify({ shops: [{ ...config.shops[0], loyalty_mode: 'cash' }] }));
    const failure = await cli('config', 'apply', badFile, ...target).catch((error: { code: number; stderr: string }) => error);

    expect(applied.stdout).toContain('shop cli-shop');
    expect(created.stdout).toMatch(/lk_[A-Za-z0-9_-]{43}/);
    expect(listed.stdout).toContain('Cmd');
    expect(help.stdout).toContain('loyalty keys create');
    expect(failure).toMatchObject({ code: 1 });
    expect((failure as { stderr: string }).stderr).toContain('shops[0].loyalty_mode');
  });
});
