// `node --import tsx infra/admin-ui/build-admin-app.ts OUTFILE`: writes the app's home's script to OUTFILE.
// The stack's admin function runs it after esbuild bundles the handler, so the script ships in the same
// Lambda package (docs/decisions.md, "The admin page's script is inlined").
import { writeFile } from 'node:fs/promises';
import { bundleAdminApp } from './admin-app-bundle';

async function main(): Promise<void> {
  const outfile = process.argv[2];
  if (!outfile) throw new Error('usage: build-admin-app.ts OUTFILE');
  const bundle = await bundleAdminApp();
  await writeFile(outfile, bundle.code);
}

main().catch((error: unknown) => {
  process.stderr.write(`build-admin-app: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
