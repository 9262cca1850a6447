import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { configApply, keysCreate, keysList, keysRevoke, UnknownShopError } from '../../infra/cli/commands';
import { main } from '../../infra/cli/main';
import type { UsagePlan } from '../../infra/cli/usage-plan-keys';
import { localClient } from '../../infra/local/dynamodb-local';
import { authenticate } from '../../shared/auth/authenticate';
import { applyConfig } from '../../shared/shops/apply-config';
import { parseConfig } from '../../shared/config/schema';
import { documentClient, tableName } from '../../shared/data/client';
import { putApiKey } from '../../shared/data/api-key-repository';
import { ApiKeyConflictError, hashApiKey, keyIdOf, UnknownApiKeyError } from '../../shared/domain/api-key';
import { keys } from '../../shared/data/keys';
import { createTestTable, testEndpoint, uniqueTableName } from '../support/test-table';

jest.setTimeout(60_000);

const ROOT = join(__dirname, '..', '..');
const SHOP = 'cli-shop';
const FILE_KEY = 'cli_file_key_0001';
const FILE_KEY_REVOKED = 'cli_file_key_0002';

function configDocument(options: { fileKeyRevoked?: boolean } = {}) {
  return {
    shops: [
      {
        id: SHOP,
        name: 'CLI Shop',
        currency: 'USD',
        referral_base_url: 'https://cli.example/',
        api_keys: [
          { name: 'From file', scope: 'read', key: FILE_KEY, revoked: options.fileKeyRevoked ?? false },
          { name: 'Old file key', scope: 'full', key: FILE_KEY_REVOKED, revoked: true },
        ],
        earning_rules: [
          {
            id: 'rule-order',
            name: 'Place an order',
            action: 'purchase',
            category: 'purchase',
            points_to_give: 5,
            created_at: '2025-01-01T00:00:00.000Z',
          },
        ],
        platform: { customers: [{ id: '1001', email: 'ada@example.com', created_at: '2024-03-01T10:00:00.000Z' }] },
        members: [
          {
            platform_customer_id: '1001',
            current_points: 80,
            lifetime_points: 120,
            redeemed_points: 40,
            enrolled_at: '2025-02-01T00:00:00.000Z',
          },
        ],
      },
    ],
  };
}

const tmp = mkdtempSync(join(tmpdir(), 'operator-cli-'));
function writeConfig(name: string, document: unknown): string {
  const file = join(tmp, name);
  writeFileSync(file, JSON.stringify(document));
  return file;
}

let table: Awaited<ReturnType<typeof createTestTable>>;

beforeAll(async () => {
  table = await createTestTable();
  await applyConfig(parseConfig(configDocument()));
});
afterAll(async () => {
  await table.drop();
  rmSync(tmp, { recursive: true, force: true });
});

function recorder() {
  const lines: string[] = [];
  return { lines, print: (line: string) => void lines.push(line), text: () => lines.join('\n') };
}

async function scanTable(): Promise<Record<string, unknown>[]> {
  const items: Record<string, unknown>[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({ TableName: tableName(), ConsistentRead: true, ExclusiveStartKey: startKey }),
    );
    items.push(...((page.Items ?? []) as Record<string, unknown>[]));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items.sort((a, b) => `${a.pk}|${a.sk}`.localeCompare(`${b.pk}|${b.sk}`));
}

/** A stand-in for API Gateway that records every call; `failAttach` makes attaching fail. */
function fakeUsagePlan(options: { failAttach?: boolean } = {}) {
  const calls = {
    created: [] as Array<{ name: string; value: string }>,
    attached: [] as Array<{ usagePlanId: string; keyId: string }>,
    disabled: [] as string[],
  };
  const usagePlan: UsagePlan = {
    id: 'plan-test',
    keys: {
      create: async (name, value) => {
        calls.created.push({ name, value });
        return { id: `apigw-${calls.created.length}` };
      },
      attach: async (usagePlanId, keyId) => {
        if (options.failAttach) throw new Error('attach failed');
        calls.attached.push({ usagePlanId, keyId });
      },
      disable: async (keyId) => {
        calls.disabled.push(keyId);
      },
    },
  };
  return { usagePlan, calls };
}

describe('keys create', () => {
  it('prints a strong key exactly once, says it cannot be shown again, and stores only its hash', async () => {
    const out = recorder();

    const { key, keyId } = await keysCreate({ shop: SHOP, name: 'Backend', scope: 'full' }, { usagePlan: null, print: out.print });

    expect(key).toMatch(/^lk_[A-Za-z0-9_-]{43}$/);
    expect(keyId).toBe(keyIdOf(hashApiKey(key)));
    expect(out.lines.filter((line) => line.includes(key))).toHaveLength(1);
    expect(out.text()).toContain('cannot be shown again');
    expect(out.text()).toContain('usage-plan steps skipped');
    const items = await scanTable();
    expect(JSON.stringify(items)).not.toContain(key);
    expect(items.find((item) => item.pk === `KEY#${hashApiKey(key)}`)).toMatchObject({ key_id: keyId, shop_id: SHOP, status: 'active' });
  });

  it('creates a key that authenticates at once with its shop and scope', async () => {
    const { key } = await keysCreate({ shop: SHOP, name: 'Reader', scope: 'read' }, { usagePlan: null, print: () => undefined });

    const auth = await authenticate(key);

    expect(auth).toMatchObject({ ok: true, shopId: SHOP, scope: 'read', keyName: 'Reader', usageIdentifierKey: null });
  });

  it('refuses a shop that has no settings item, and writes nothing', async () => {
    const before = await scanTable();

    const creating = keysCreate({ shop: 'no-such-shop', name: 'x', scope: 'full' }, { usagePlan: null, print: () => undefined });

    await expect(creating).rejects.toThrow(UnknownShopError);
    await expect(creating).rejects.toThrow("Shop 'no-such-shop' is not configured");
    expect(await scanTable()).toEqual(before);
  });
});

describe('keys list', () => {
  it('shows key id, name, scope, status and creation time of every key, config-loaded ones included, and no secret', async () => {
    const { key, keyId } = await keysCreate({ shop: SHOP, name: 'Listed', scope: 'full' }, { usagePlan: null, print: () => undefined });
    const out = recorder();

    const listed = await keysList({ shop: SHOP }, { print: out.print });

    const row = out.lines.find((line) => line.startsWith(keyId));
    expect(out.lines[0]).toMatch(/^KEY ID\s+NAME\s+SCOPE\s+STATUS\s+CREATED AT$/);
    expect(row).toMatch(new RegExp(`^${keyId}\\s+Listed\\s+full\\s+active\\s+\\d{4}-\\d{2}-\\d{2}T`));
    expect(out.lines.find((line) => line.startsWith(keyIdOf(hashApiKey(FILE_KEY))))).toMatch(/From file\s+read\s+active/);
    expect(out.lines.find((line) => line.startsWith(keyIdOf(hashApiKey(FILE_KEY_REVOKED))))).toMatch(/Old file key\s+full\s+revoked/);
    for (const secret of [key, hashApiKey(key), FILE_KEY, hashApiKey(FILE_KEY)]) expect(out.text()).not.toContain(secret);
    expect(JSON.stringify(listed)).not.toMatch(/[0-9a-f]{64}|key_hash/);
  });

  it('refuses an unknown shop', async () => {
    await expect(keysList({ shop: 'no-such-shop' }, { print: () => undefined })).rejects.toThrow(UnknownShopError);
  });
});

describe('keys revoke', () => {
  it('makes the key fail authentication on the very next call, and shows it revoked', async () => {
    const { key, keyId } = await keysCreate({ shop: SHOP, name: 'Temp', scope: 'read' }, { usagePlan: null, print: () => undefined });
    expect((await authenticate(key)).ok).toBe(true);
    const out = recorder();

    await keysRevoke({ shop: SHOP, keyId }, { usagePlan: null, print: out.print });

    expect(await authenticate(key)).toEqual({ ok: false, reason: 'invalid' });
    expect(out.lines[0]).toContain(`revoked key ${keyId}`);
    const listed = await keysList({ shop: SHOP }, { print: () => undefined });
    expect(listed.find((entry) => entry.key_id === keyId)?.status).toBe('revoked');
  });

  it('flushes the deployed stage authorizer cache after the revoke has been written, and says so', async () => {
    const { key, keyId } = await keysCreate({ shop: SHOP, name: 'Cached', scope: 'read' }, { usagePlan: null, print: () => undefined });
    const seenAtFlush: Array<Awaited<ReturnType<typeof authenticate>>> = [];
    const authorizerCache = { description: 'stage prod of API abc123', flush: async () => void seenAtFlush.push(await authenticate(key)) };
    const out = recorder();

    await keysRevoke({ shop: SHOP, keyId }, { usagePlan: null, authorizerCache, print: out.print });

    expect(seenAtFlush).toEqual([{ ok: false, reason: 'invalid' }]);
    expect(out.text()).toContain('authorizer cache of stage prod of API abc123 flushed');
  });

  it('revoking twice is harmless and says so', async () => {
    const { keyId } = await keysCreate({ shop: SHOP, name: 'Twice', scope: 'read' }, { usagePlan: null, print: () => undefined });
    await keysRevoke({ shop: SHOP, keyId }, { usagePlan: null, print: () => undefined });
    const out = recorder();

    await keysRevoke({ shop: SHOP, keyId }, { usagePlan: null, print: out.print });

    expect(out.lines[0]).toContain('already revoked');
  });

  it('refuses an unknown key id, a malformed one, and a key of another shop', async () => {
    const { keyId } = await keysCreate({ shop: SHOP, name: 'Mine', scope: 'read' }, { usagePlan: null, print: () => undefined });
    const deps = { usagePlan: null, print: () => undefined };

    await expect(keysRevoke({ shop: SHOP, keyId: 'ffffffffffff' }, deps)).rejects.toThrow(UnknownApiKeyError);
    await expect(keysRevoke({ shop: SHOP, keyId: '../SETTINGS' }, deps)).rejects.toThrow(
      "Shop 'cli-shop' has no API key with id '../SETTINGS'",
    );
    await expect(keysRevoke({ shop: 'other-shop', keyId }, deps)).rejects.toThrow(UnknownApiKeyError);
  });
});

describe('config apply', () => {
  it('is idempotent: applying the same file twice leaves the table exactly as after the first time', async () => {
    const file = writeConfig('same.json', configDocument());
    const first = recorder();
    await configApply(file, { usagePlan: null, print: first.print });
    const afterFirst = await scanTable();
    const second = recorder();

    await configApply(file, { usagePlan: null, print: second.print });

    expect(await scanTable()).toEqual(afterFirst);
    expect(first.text()).toContain('shop cli-shop');
    expect(second.text()).toContain('0 imported, 1 already present and kept as they are');
    expect(second.text()).toContain('API keys: 2 (1 active, 1 revoked)');
    expect(second.text()).not.toContain(FILE_KEY);
  });

  it('keeps config-loaded keys authenticating and listable after a re-apply', async () => {
    await configApply(writeConfig('again.json', configDocument()), { usagePlan: null, print: () => undefined });

    expect(await authenticate(FILE_KEY)).toMatchObject({ ok: true, shopId: SHOP, scope: 'read' });
    expect(await authenticate(FILE_KEY_REVOKED)).toEqual({ ok: false, reason: 'invalid' });
    const listed = await keysList({ shop: SHOP }, { print: () => undefined });
    expect(listed.filter((entry) => entry.name === 'From file')).toHaveLength(1);
  });

  it('refuses a file that gives a stored key value to another shop', async () => {
    const record = {
      key_hash: hashApiKey(FILE_KEY),
      shop_id: 'thief',
      name: 'Stolen',
      scope: 'full' as const,
      status: 'active' as const,
      usage_identifier_key: null,
      created_at: '2025-01-01T00:00:00.000Z',
    };

    await expect(putApiKey(record)).rejects.toThrow(ApiKeyConflictError);
    expect(await authenticate(FILE_KEY)).toMatchObject({ ok: true, shopId: SHOP });
  });
});

describe('usage-plan keys (cloud), with a fake API Gateway', () => {
  it('creates an API Gateway key with its own random value, attaches it to the plan, and stores it for the authorizer', async () => {
    const { usagePlan, calls } = fakeUsagePlan();

    const { key, keyId } = await keysCreate({ shop: SHOP, name: 'Gateway', scope: 'full' }, { usagePlan, print: () => undefined });

    expect(calls.created).toEqual([{ name: `loyalty-${SHOP}-${keyId}`, value: expect.stringMatching(/^[A-Za-z0-9_-]{40}$/) }]);
    expect(calls.created[0]!.value).not.toBe(key);
    expect(calls.attached).toEqual([{ usagePlanId: 'plan-test', keyId: 'apigw-1' }]);
    expect(await authenticate(key)).toMatchObject({ ok: true, usageIdentifierKey: calls.created[0]!.value });
    const stored = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashApiKey(key)) }));
    expect(stored.Item).toMatchObject({ usage_key_id: 'apigw-1', usage_identifier_key: calls.created[0]!.value });
  });

  it('disables the API Gateway key on revocation and unties it from the record', async () => {
    const { usagePlan, calls } = fakeUsagePlan();
    const { key, keyId } = await keysCreate({ shop: SHOP, name: 'Gateway 2', scope: 'full' }, { usagePlan, print: () => undefined });

    await keysRevoke({ shop: SHOP, keyId }, { usagePlan, print: () => undefined });

    expect(calls.disabled).toEqual(['apigw-1']);
    expect(await authenticate(key)).toEqual({ ok: false, reason: 'invalid' });
    const stored = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.apiKey(hashApiKey(key)) }));
    expect(stored.Item).toMatchObject({ status: 'revoked', usage_key_id: null, usage_identifier_key: null });
  });

  it('disables the API Gateway key and stores nothing when attaching it fails', async () => {
    const { usagePlan, calls } = fakeUsagePlan({ failAttach: true });
    const before = await scanTable();

    await expect(keysCreate({ shop: SHOP, name: 'Broken', scope: 'full' }, { usagePlan, print: () => undefined })).rejects.toThrow(
      'attach failed',
    );

    expect(calls.disabled).toEqual(['apigw-1']);
    expect(await scanTable()).toEqual(before);
  });

  it('gives active keys from the file a usage-plan key once, and disables it when the file revokes the key', async () => {
    const shop = 'cli-cloud';
    const document = (revoked: boolean) => ({
      shops: [
        {
          ...configDocument().shops[0]!,
          id: shop,
          api_keys: [{ name: 'Cloud file key', scope: 'full', key: 'cli_cloud_key_0001', revoked }],
        },
      ],
    });
    const { usagePlan, calls } = fakeUsagePlan();

    await configApply(writeConfig('cloud.json', document(false)), { usagePlan, print: () => undefined });
    await configApply(writeConfig('cloud.json', document(false)), { usagePlan, print: () => undefined });
    const active = await authenticate('cli_cloud_key_0001');
    await configApply(writeConfig('cloud-revoked.json', document(true)), { usagePlan, print: () => undefined });

    expect(calls.created).toHaveLength(1);
    expect(calls.attached).toEqual([{ usagePlanId: 'plan-test', keyId: 'apigw-1' }]);
    expect(active).toMatchObject({ ok: true, usageIdentifierKey: calls.created[0]!.value });
    expect(calls.disabled).toEqual(['apigw-1']);
    expect(await authenticate('cli_cloud_key_0001')).toEqual({ ok: false, reason: 'invalid' });
  });
});

describe('command line parsing (in process)', () => {
  async function runMain(...argv: string[]) {
    const out = recorder();
    const err = recorder();
    const code = await main(argv, { out: out.print, err: err.print });
    return { code, stdout: out.text(), stderr: err.text() };
  }

  it.each([
    [['keys', 'create', '--shop', SHOP, '--name', 'x', '--endpoint', 'http://127.0.0.1:1'], '--scope is required'],
    [
      ['keys', 'create', '--shop', SHOP, '--name', 'x', '--scope', 'admin', '--endpoint', 'http://127.0.0.1:1'],
      "--scope must be 'full' or 'read'",
    ],
    [['keys', 'list', '--shop', SHOP], 'say where to work'],
    [['keys', 'list', '--shop', SHOP, '--stack', 'S', '--endpoint', 'http://127.0.0.1:1'], 'not both'],
    [['keys', 'list', '--shop', SHOP, '--stack', 'S', '--table', 't'], '--table goes with --endpoint'],
    [['keys', 'list', '--shop', SHOP, '--scope', 'full', '--endpoint', 'http://127.0.0.1:1'], "--scope does not apply to 'keys list'"],
    [['keys', 'rotate', '--shop', SHOP], "unknown command 'keys rotate'"],
    [['config', 'apply', '--endpoint', 'http://127.0.0.1:1'], 'takes exactly one FILE'],
    [['keys', 'list', '--shop', SHOP, '--bogus'], "Unknown option '--bogus'"],
    [[], 'no command given'],
  ])('%j: exit 1 with the problem and the usage text, before touching any target', async (argv, message) => {
    const result = await runMain(...argv);

    expect(result.code).toBe(1);
    expect(result.stderr).toContain(message);
    expect(result.stderr).toContain('Usage:');
    expect(result.stdout).toBe('');
  });

  it('says what answered and what it expected when the endpoint is an HTTP server but not DynamoDB', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html' });
      res.end('<html><body>Welcome to nginx!</body></html>');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

    const result = await runMain('keys', 'list', '--shop', SHOP, '--endpoint', endpoint);
    server.close();

    expect(result.code).toBe(1);
    expect(result.stderr).not.toMatch(/^UnknownError$/m);
    expect(result.stderr).toContain(
      `${endpoint} is not a DynamoDB endpoint: a ListTables request got HTTP 200: <html><body>Welcome to nginx!</body></html>.`,
    );
    expect(result.stderr).toContain('The CLI needs a DynamoDB endpoint');
    expect(result.stderr).toContain('Operator CLI for this twin');
  });

  it('prints the usage text on --help with exit 0', async () => {
    const result = await runMain('keys', 'create', '--help');

    expect(result.code).toBe(0);
    expect(result.stdout).toContain('loyalty keys create --shop S --name N --scope full|read');
  });
});

describe('the loyalty command, as a child process against DynamoDB Local', () => {
  const cliTable = uniqueTableName('cli');
  const target = () => ['--endpoint', testEndpoint(), '--table', cliTable];

  afterAll(async () => {
    const client = localClient(testEndpoint());
    await client.send(new DeleteTableCommand({ TableName: cliTable })).catch(() => undefined);
    client.destroy();
  });

  function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env = { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };
    return new Promise((resolve) => {
      execFile('node', [join(ROOT, 'bin', 'loyalty.cjs'), ...args], { cwd: ROOT, env }, (error, stdout, stderr) => {
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
      });
    });
  }

  it('applies a file (creating the table), creates a key shown once, lists it, and revokes it', async () => {
    const file = writeConfig('cli.json', configDocument());

    const applied = await cli('config', 'apply', file, ...target());
    const created = await cli('keys', 'create', '--shop', SHOP, '--name', 'Cmd line', '--scope', 'read', ...target());
    const key = /lk_[A-Za-z0-9_-]{43}/.exec(created.stdout)?.[0] ?? '';
    const keyId = keyIdOf(hashApiKey(key));
    const listed = await cli('keys', 'list', '--shop', SHOP, ...target());
    const revoked = await cli('keys', 'revoke', '--shop', SHOP, '--key-id', keyId, ...target());
    const listedAfter = await cli('keys', 'list', '--shop', SHOP, ...target());

    expect(applied).toMatchObject({ code: 0, stderr: '' });
    expect(applied.stdout).toContain('table created');
    expect(applied.stdout).toContain('shop cli-shop');
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout.split(key)).toHaveLength(2);
    expect(created.stdout).toContain('cannot be shown again');
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(new RegExp(`${keyId}\\s+Cmd line\\s+read\\s+active`));
    expect(listed.stdout).toContain('From file');
    expect(listed.stdout).not.toContain(key);
    expect(revoked).toMatchObject({ code: 0 });
    expect(listedAfter.stdout).toMatch(new RegExp(`${keyId}\\s+Cmd line\\s+read\\s+revoked`));
  });

  it('exits 0 with the usage text on --help', async () => {
    const help = await cli('--help');

    expect(help.code).toBe(0);
    expect(help.stdout).toContain('Usage:');
    expect(help.stdout).toContain('loyalty config apply FILE');
  });

  it('exits 1 with the JSON path of the problem for a bad file, and writes nothing', async () => {
    const bad = writeConfig('bad.json', { shops: [{ ...configDocument().shops[0], id: 'bad-shop', loyalty_mode: 'cash' }] });

    const failure = await cli('config', 'apply', bad, ...target());
    const list = await cli('keys', 'list', '--shop', 'bad-shop', ...target());

    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('Invalid configuration:');
    expect(failure.stderr).toMatch(/bad\.json:\d+:\d+: shops\[0\]\.loyalty_mode: /);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain("Shop 'bad-shop' is not configured");
  });

  it("names the field's path of a bad action limit, and writes nothing", async () => {
    const document = configDocument();
    const follow = { id: 'follow', name: 'Follow us', action: 'follow_on_instagram', category: 'social', points_to_give: 5 };
    const bad = writeConfig('bad-limit.json', {
      shops: [{ ...document.shops[0], id: 'bad-limit-shop', earning_rules: [{ ...follow, limit: { times: 0, per: 'fortnight' } }] }],
    });

    const failure = await cli('config', 'apply', bad, ...target());
    const list = await cli('keys', 'list', '--shop', 'bad-limit-shop', ...target());

    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('shops[0].earning_rules[0].limit.times: must be a whole number, 1 or more');
    expect(failure.stderr).toMatch(/shops\[0\]\.earning_rules\[0\]\.limit\.per: .*"lifetime"\|"day"\|"week"\|"month"\|"year"/);
    expect(list.code).toBe(1);
  });

  it("names the path of a friend's reward that is not in the catalog, and writes nothing", async () => {
    const document = configDocument();
    const bad = writeConfig('bad-referral.json', {
      shops: [
        { ...document.shops[0], id: 'bad-referral-shop', referral_settings: { friend_reward_id: 'welcome-nope', max_friends_per_day: -1 } },
      ],
    });

    const failure = await cli('config', 'apply', bad, ...target());
    const list = await cli('keys', 'list', '--shop', 'bad-referral-shop', ...target());

    expect(failure.code).toBe(1);
    expect(failure.stderr).toContain('shops[0].referral_settings.max_friends_per_day: must be a whole number, 1 or more');
    expect(failure.stderr).toContain("shops[0].referral_settings.friend_reward_id: no reward with id 'welcome-nope' in this shop");
    expect(list.code).toBe(1);
  });

  it('exits 1 with the usage text on wrong arguments', async () => {
    const wrong = await cli('keys', 'create', '--shop', SHOP, ...target());

    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('--name is required');
    expect(wrong.stderr).toContain('Usage:');
  });
});
