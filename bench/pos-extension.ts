// The bundles section's POS rows: each target of the POS UI extension (infra/shopify-app/extensions/loyalty-pos)
// bundled as Shopify's CLI bundles it, minified and gzip-compressed, against Shopify's 64 KB limit (docs/pos.md).
import { bundlePosExtension } from '../scripts/account-extension-bundle';

export interface PosExtensionFigures {
  target: string;
  bytes: number;
  gzipBytes: number;
  limitBytes: number;
}

export async function measurePosExtension(): Promise<PosExtensionFigures[]> {
  return (await bundlePosExtension()).map(({ target, bytes, gzipBytes, limitBytes }) => ({ target, bytes, gzipBytes, limitBytes }));
}

export function printPosExtension(figures: PosExtensionFigures[]): void {
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log('\nThe POS extension, per target (Shopify bundles each; its limit is on the gzip size):');
  for (const row of figures) {
    console.log(`  ${row.target}: ${kib(row.bytes)} KiB minified, ${kib(row.gzipBytes)} KiB gzip (limit ${kib(row.limitBytes)} KiB)`);
  }
}
