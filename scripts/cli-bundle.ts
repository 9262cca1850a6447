// Builds the operator CLI into one CommonJS file with esbuild, so an installed package runs it on plain
// Node with production dependencies only: our TypeScript is bundled, npm packages stay external and
// come from `dependencies`. `npm run build:cli` (run before `npm pack`) writes dist/cli.cjs.
import { build } from 'esbuild';
import { join } from 'node:path';

export const PROJECT_ROOT = join(__dirname, '..');

export async function buildCli(outfile = join(PROJECT_ROOT, 'dist', 'cli.cjs')): Promise<string> {
  await build({
    entryPoints: [join(PROJECT_ROOT, 'infra', 'cli', 'main.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    logLevel: 'warning',
  });
  return outfile;
}
