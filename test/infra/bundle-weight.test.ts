// Guards the cold-start work of issue 6 on the real bundle: no classic zod in any function, and the
// X-Ray SDK only initialised when detailed tracing is on.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { bundle } from '../../bench/bundles';
import { AUTHORIZER, QUEUE_CONSUMERS, ROUTES, SCHEDULED_JOBS, WEBHOOKS } from '../../shared/runtime/entry-points';

// Bundling every function is a few seconds of CPU alone, and much longer beside another test worker.
jest.setTimeout(180_000);

const ROOT = join(__dirname, '..', '..');
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'bundle-weight-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('function bundles', () => {
  it('hold zod/mini, never the classic zod API, in every function', async () => {
    const result = await build({
      entryPoints: [
        AUTHORIZER.handler,
        ...new Set([...ROUTES, ...WEBHOOKS, ...QUEUE_CONSUMERS, ...SCHEDULED_JOBS].map((entry) => entry.handler)),
      ].map((file) => join(ROOT, file)),
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

  it('carry and initialise the X-Ray SDK only when built and run with detailed tracing', async () => {
    const entry = join(ROOT, 'functions/customers/get.ts');
    const withoutTracing = await bundle(entry, join(dir, 'off'), 'false');
    const withTracing = await bundle(entry, join(dir, 'on'), 'true');
    // cls-hooked, the X-Ray SDK's context store, registers itself on process.namespaces when loaded.
    const load = (file: string, tracing: string) =>
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          `await import(${JSON.stringify(`file://${file}`)}); process.stdout.write(typeof process.namespaces);`,
        ],
        {
          env: {
            ...process.env,
            TABLE_NAME: 'bundle-weight',
            POWERTOOLS_TRACE_ENABLED: tracing,
            AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
          },
        },
      ).toString();

    expect(readFileSync(withoutTracing, 'utf8').includes('AWSXRay')).toBe(false);
    expect(readFileSync(withTracing, 'utf8').includes('AWSXRay')).toBe(true);
    // The switch is compiled in: the environment cannot turn tracing on in a bundle built without it.
    expect(load(withoutTracing, 'true')).toBe('undefined');
    expect(load(withTracing, 'true')).toBe('object');
  });
});
