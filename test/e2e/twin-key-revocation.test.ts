// `loyalty keys revoke --endpoint <the twin's DynamoDB>` against a running `npm start`: the key is refused
// from the next request on, though the twin's gateway had its answer cached (the CLI flushes the cache
// of each twin running on that table, as it flushes the stage's in the cloud, and disables the key's
// usage-plan key in the twin's plan); `keys create` gives a key a key of that plan; `--authorizer-cache-ttl`
// sets how long the gateway keeps an answer.
import { execFile } from 'node:child_process';
import { hashApiKey, keyIdOf } from '../../shared/domain/api-key';
import { npmStartArgs, streamEndpoint } from '../support/stream-dynamodb';
import { uniqueTableName } from '../support/test-table';
import { apiClient } from '../support/twin';
import { freePortRun, killGroup, ROOT, runNpm, type NpmProcess } from '../support/twin-process';

jest.setTimeout(120_000);

const started: NpmProcess[] = [];
afterAll(() => {
  for (const npm of started) killGroup(npm.pid);
});

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', ['bin/loyalty.cjs', ...args], { cwd: ROOT }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('keys revoke against a running twin', () => {
  it('refuses the key from the next request on, with the answer cached for 600 s', async () => {
    const port = await freePortRun(2);
    const table = uniqueTableName('revoke');
    const target = ['--endpoint', await streamEndpoint(), '--table', table];
    const npm = runNpm(await npmStartArgs(port, table, '--authorizer-cache-ttl', '600'));
    started.push(npm);
    const banner = await npm.waitFor('Press Ctrl-C');
    const api = apiClient(`http://127.0.0.1:${port}`, 'demo_full_key');

    const before = [await api.get('/v1/customers/1001'), await api.get('/v1/customers/1002')].map((r) => r.status);
    // A key created with the CLI gets a key of the twin's usage plan, as one created with --stack gets the stack's.
    const create = await cli(['keys', 'create', '--shop', 'demo', '--name', 'Made by the CLI', '--scope', 'read', ...target]);
    const created = /^\s+(lk_\S+)$/m.exec(create.stdout)?.[1];
    const createdAnswer = await apiClient(`http://127.0.0.1:${port}`, created).get('/v1/customers/1001');
    const revoke = await cli(['keys', 'revoke', '--shop', 'demo', '--key-id', keyIdOf(hashApiKey('demo_full_key')), ...target]);
    const after = await api.get('/v1/customers/1001');
    const otherKey = await apiClient(`http://127.0.0.1:${port}`, 'demo_read_key').get('/v1/customers/1001');
    const plan = (await (await fetch(`http://127.0.0.1:${port}/_usage-plan`)).json()) as { keys: Array<{ enabled: boolean }> };

    expect(banner).toContain('Authorizer cache: 600 s per key (--authorizer-cache-ttl)');
    expect(before).toEqual([200, 200]);
    expect(create.stdout).toMatch(/API Gateway key tw[0-9a-f]{8} attached to usage plan twin-usage-plan/);
    expect(createdAnswer.status).toBe(200);
    expect(revoke.stdout).toMatch(/API Gateway key tw[0-9a-f]{8} disabled/);
    expect(plan.keys.filter((key) => !key.enabled)).toHaveLength(1);
    expect(revoke.code).toBe(0);
    expect(revoke.stdout).toContain(
      `authorizer cache of the twin at http://127.0.0.1:${port} flushed: no cached answer lets the key through`,
    );
    expect(after.status).toBe(401);
    expect(otherKey.status).toBe(200);

    process.kill(npm.pid, 'SIGTERM');
    expect(await npm.exited).toBe(0);
    // Stopped, the twin is no longer one to flush: the CLI says nothing holds a cached answer.
    const again = await cli(['keys', 'revoke', '--shop', 'demo', '--key-id', keyIdOf(hashApiKey('demo_read_key')), ...target]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('no twin of this machine running on this table');
  });

  it('takes --authorizer-cache-ttl 0 to 3600 and refuses anything else before starting', async () => {
    const port = await freePortRun(3);
    const refused = runNpm(['start', '--', '--port', String(port), '--authorizer-cache-ttl', '5m']);
    started.push(refused);
    const off = runNpm(await npmStartArgs(port, uniqueTableName('ttl'), '--authorizer-cache-ttl', '0'));
    started.push(off);

    expect(await refused.exited).toBe(1);
    expect(refused.output()).toContain("--authorizer-cache-ttl must be a whole number of seconds from 0 (no cache) to 3600, got '5m'");
    expect(refused.output()).toContain('[--authorizer-cache-ttl SECONDS]');
    expect(await off.waitFor('Press Ctrl-C')).toContain('Authorizer cache: off (--authorizer-cache-ttl 0)');
    process.kill(off.pid, 'SIGTERM');
    expect(await off.exited).toBe(0);
  });
});
