// Guards the cold-start work of issue 6 on the real bundle: no classic zod in any function, and the
// X-Ray SDK only initialised when detailed tracing is on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundle } from '../../bench/bundles';
import { AUTHORIZER_HANDLER, RECONCILER_HANDLER, ROUTES } from '../../infra/routes';

const ROOT = join(__dirname, '..', '..');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bundle-weight-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('function bundles', () => {
  it('hold zod/mini, never the classic zod API, in every function', async () => {
    const result = await build({
      entryPoints: [AUTHORIZER_HANDLER, RECONCILER_HANDLER, ...new Set(ROUTES.map((route) => route.handler))].map((file) => join(ROOT, file)),
      outdir: join(dir, 'meta'),
      bundle: true,
      format: 'esm',
      platform: 'node',
      mainFields: ['module', 'main'],
      metafile: true,
      write: false,
      logLevel: 'silent',
    });
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((file) => file.includes('node_modules/zod/v4/mini/'))).toBe(true);
    expect(inputs.filter((file) => file.includes('node_modules/zod/v4/classic/'))).toEqual([]);
  });

  it('initialise the X-Ray SDK only when POWERTOOLS_TRACE_ENABLED is true', async () => {
    const file = await bundle(join(ROOT, 'functions/customers/get.ts'), join(dir, 'get'));
    // cls-hooked, the X-Ray SDK's context store, registers itself on process.namespaces when loaded.
    const load = (tracing: string) =>
      execFileSync(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(typeof process.namespaces);`], {
        env: { ...process.env, TABLE_NAME: 'bundle-weight', POWERTOOLS_TRACE_ENABLED: tracing, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
      }).toString();

    expect(readFileSync(file, 'utf8')).toContain('AWSXRay'); // bundled, for deployments that turn it on
    expect(load('false')).toBe('undefined');
    expect(load('true')).toBe('object');
  });
});
