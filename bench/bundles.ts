// Bundles every handler as the stack does (esbuild, minified ESM) and times its initialisation in a
// fresh Node process, next to a baseline bundle holding only the DynamoDB document client.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { AUTHORIZER_HANDLER, RECONCILER_HANDLER, ROUTES } from '../infra/routes';
import { PROJECT_ROOT } from '../infra/local/twin';

export interface BundleFigures {
  name: string;
  sizeKiB: number;
  initMs: number;
}

const RUNS = 7;

/** Bundles one handler with the stack's settings (infra/constructs/loyalty-function.ts), AWS SDK included. */
export async function bundle(entry: string, outdir: string): Promise<string> {
  const outfile = join(outdir, 'index.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    minify: true,
    format: 'esm',
    platform: 'node',
    target: 'node22',
    mainFields: ['module', 'main'],
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    logLevel: 'silent',
    // The baseline entry lives in a temporary folder: resolve packages from the project.
    nodePaths: [join(PROJECT_ROOT, 'node_modules')],
  });
  return outfile;
}

/** Median time to import the bundle in a new Node process (module evaluation, not process start). */
function initTime(file: string): number {
  const script = `const t=performance.now();await import(${JSON.stringify(`file://${file}`)});process.stdout.write(String(performance.now()-t));`;
  const times = Array.from({ length: RUNS }, () =>
    Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { env: { ...process.env, TABLE_NAME: 'bench' } }).toString()),
  );
  times.sort((a, b) => a - b);
  return times[Math.floor(RUNS / 2)]!;
}

export async function measureBundles(): Promise<BundleFigures[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bundles-'));
  try {
    const baselineEntry = join(dir, 'baseline.mjs');
    writeFileSync(
      baselineEntry,
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n",
    );
    const entries: Array<[string, string]> = [
      ['baseline (DynamoDB document client only)', baselineEntry],
      ['authorizer', join(PROJECT_ROOT, AUTHORIZER_HANDLER)],
      ['reconciler', join(PROJECT_ROOT, RECONCILER_HANDLER)],
      ...ROUTES.map((route): [string, string] => [`${route.method} ${route.path}`, join(PROJECT_ROOT, route.handler)]),
    ];
    const figures: BundleFigures[] = [];
    for (const [index, [name, entry]] of entries.entries()) {
      const outdir = join(dir, String(index));
      const file = await bundle(entry, outdir);
      figures.push({ name, sizeKiB: statSync(file).size / 1024, initMs: initTime(file) });
    }
    return figures;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
