// Bundles every handler as the stack does (esbuild, minified ESM) and times its initialisation in a
// fresh Node process, next to a baseline bundle holding only the DynamoDB document client.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { AUTHORIZER, ROUTES, SCHEDULED_JOBS } from '../shared/runtime/entry-points';
import { PROJECT_ROOT } from '../infra/local/twin';
import { lambdaBundleOptions } from './lambda-bundle';
import { median } from './statistics';

export interface BundleFigures {
  name: string;
  sizeKiB: number;
  initMs: number;
}

/** Rounds of cold starts: every bundle once per round, so a machine that speeds up or slows down mid-run skews all alike. */
/** Cold starts per bundle, interleaved; the figure is their median. */
const ROUNDS = 15;

/** Bundles one handler with the stack's settings (infra/cdk/constructs/loyalty-function.ts), AWS SDK included. */
export async function bundle(entry: string, outdir: string, tracing: 'true' | 'false' = 'false'): Promise<string> {
  const outfile = join(outdir, 'index.mjs');
  await build({
    ...lambdaBundleOptions(tracing),
    entryPoints: [entry],
    outfile,
    banner: { js: "import { createRequire } from 'module'; const require = createRequire(import.meta.url);" },
    // The baseline entry lives in a temporary folder: resolve packages from the project.
    nodePaths: [join(PROJECT_ROOT, 'node_modules')],
  });
  return outfile;
}

/** Time to import the bundle in a new Node process (module evaluation, not process start). */
function initTime(file: string, environment: Record<string, string>): number {
  const script = `const t=performance.now();await import(${JSON.stringify(`file://${file}`)});process.stdout.write(String(performance.now()-t));`;
  return Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, TABLE_NAME: 'bench', ...environment },
    }).toString(),
  );
}

export async function measureBundles(rounds = ROUNDS): Promise<BundleFigures[]> {
  const dir = mkdtempSync(join(tmpdir(), 'bundles-'));
  try {
    const baselineEntry = join(dir, 'baseline.mjs');
    writeFileSync(
      baselineEntry,
      "import { DynamoDBClient } from '@aws-sdk/client-dynamodb';\nimport { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';\nexport const client = DynamoDBDocumentClient.from(new DynamoDBClient({}));\n",
    );
    const getCustomer = ROUTES.find((route) => route.name === 'getCustomer')!;
    // As deployed: tracing off unless the stack's detailedTracing is set; one row shows it on.
    const off = { POWERTOOLS_TRACE_ENABLED: 'false' } as const;
    const entries: Array<{ name: string; entry: string; environment: { POWERTOOLS_TRACE_ENABLED: 'true' | 'false' } }> = [
      { name: 'baseline (DynamoDB document client only)', entry: baselineEntry, environment: off },
      { name: 'authorizer', entry: join(PROJECT_ROOT, AUTHORIZER.handler), environment: off },
      {
        name: 'reconciler',
        entry: join(PROJECT_ROOT, SCHEDULED_JOBS.find((job) => job.name === 'purchase_reconciler')!.handler),
        environment: off,
      },
      ...ROUTES.map((route) => ({ name: `${route.method} ${route.path}`, entry: join(PROJECT_ROOT, route.handler), environment: off })),
      {
        name: `${getCustomer.method} ${getCustomer.path} (detailedTracing)`,
        entry: join(PROJECT_ROOT, getCustomer.handler),
        environment: { POWERTOOLS_TRACE_ENABLED: 'true' },
      },
    ];
    const files = await Promise.all(
      entries.map(({ entry, environment }, index) => bundle(entry, join(dir, String(index)), environment.POWERTOOLS_TRACE_ENABLED)),
    );
    const times = entries.map((): number[] => []);
    for (let round = 0; round < rounds; round += 1) {
      entries.forEach(({ environment }, index) => times[index]!.push(initTime(files[index]!, environment)));
    }
    return entries.map(({ name }, index) => ({ name, sizeKiB: statSync(files[index]!).size / 1024, initMs: median(times[index]!) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
