// The operator CLI as an installed package runs it: the bundle built for packing (dist/cli.cjs) started
// through bin/loyalty.cjs on plain Node, where any package outside `dependencies` (tsx, esbuild, the
// CDK...) is refused, against DynamoDB Local.
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { shopifyAppToml } from '../../infra/cli/shopify-app-config';
import { buildCli } from '../../scripts/cli-bundle';
import { testEndpoint, uniqueTableName } from '../support/test-table';

const ROOT = join(__dirname, '..', '..');
const run = promisify(execFile);

/**
 * A preload that makes every package outside `dependencies` unresolvable from the package's own files,
 * as in a production install (what those packages require in turn is theirs to bring).
 */
function onlyDependenciesPreload(packageDir: string, dependencies: string[]): string {
  return `
const Module = require('node:module');
const allowed = new Set(${JSON.stringify(dependencies)});
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, parent, ...rest) {
  const fromPackage = !parent || !parent.filename || parent.filename.startsWith(${JSON.stringify(packageDir)});
  if (fromPackage && !request.startsWith('.') && !request.startsWith('/') && !request.startsWith('node:') && !Module.isBuiltin(request)) {
    const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0];
    if (!allowed.has(name)) throw new Error('not a production dependency: ' + name);
  }
  return resolve.call(this, request, parent, ...rest);
};`;
}

describe('operator CLI from an installed package', () => {
  let dir: string;
  let cli: (...args: string[]) => Promise<{ stdout: string; stderr: string }>;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'loyalty-cli-'));
    await buildCli(join(dir, 'dist', 'cli.cjs'));
    mkdirSync(join(dir, 'bin'));
    copyFileSync(join(ROOT, 'bin', 'loyalty.cjs'), join(dir, 'bin', 'loyalty.cjs'));
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; files: string[] };
    expect(pkg.files).toEqual(expect.arrayContaining(['bin/', 'dist/']));
    writeFileSync(join(dir, 'only-dependencies.cjs'), onlyDependenciesPreload(dir, Object.keys(pkg.dependencies)));
    cli = (...args) =>
      run(process.execPath, ['--require', join(dir, 'only-dependencies.cjs'), join(dir, 'bin', 'loyalty.cjs'), ...args], {
        // The packages come from the checkout's node_modules, standing in for the installed ones.
        env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') },
      });
  }, 60_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('prints its usage without tsx or any other dev dependency', async () => {
    const { stdout } = await cli('--help');

    expect(stdout).toMatch(/loyalty config apply/);
  });

  it('applies a configuration file and lists the keys it stored', async () => {
    const target = ['--endpoint', testEndpoint(), '--table', uniqueTableName('cli-package')];

    await cli('config', 'apply', join(ROOT, 'config', 'demo.json'), ...target);
    const { stdout } = await cli('keys', 'list', '--shop', 'demo', ...target);

    expect(stdout).toMatch(/Backend/);
  });

  it("prints the Shopify app's configuration, the file alone on stdout", async () => {
    const webhookUrl = 'https://abc123.execute-api.eu-west-1.amazonaws.com/prod/webhooks/shopify';

    const { stdout, stderr } = await cli('shopify-app-config', '--webhook-url', webhookUrl, '--client-id', 'abc123');

    expect(stdout).toBe(shopifyAppToml({ webhookUrl, clientId: 'abc123' }));
    expect(stderr).toBe('');
  });

  it('refuses a dev dependency from the package under the preload, so the checks above can fail', async () => {
    writeFileSync(join(dir, 'dist', 'probe.cjs'), "require('tsx');\n");

    await expect(
      run(process.execPath, ['--require', join(dir, 'only-dependencies.cjs'), join(dir, 'dist', 'probe.cjs')], {
        env: { ...process.env, NODE_PATH: join(ROOT, 'node_modules') },
      }),
    ).rejects.toThrow(/not a production dependency: tsx/);
  });
});
