// The bundles section's browser row: the app's home's script (Preact, esbuild), which GET /admin inlines in
// its page, minified and gzip-compressed as a browser receives it (docs/admin.md).
import { bundleAdminApp } from '../infra/admin-ui/admin-app-bundle';

export interface AdminAppFigures {
  bytes: number;
  gzipBytes: number;
}

export async function measureAdminApp(): Promise<AdminAppFigures> {
  const { bytes, gzipBytes } = await bundleAdminApp();
  return { bytes, gzipBytes };
}

export function printAdminApp(figures: AdminAppFigures): void {
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log(`\nGET /admin's inlined app script (Preact): ${kib(figures.bytes)} KiB minified, ${kib(figures.gzipBytes)} KiB gzip`);
}
