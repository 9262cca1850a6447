// The checkout's figures (docs/checkout.md, docs/performance.md#checkout): each checkout extension target's bundle
// (minified and gzip, against Shopify's 64 KB compressed limit), and what the block beside the discount field
// asks of the service on every cart change, POST /shopper/estimate, against what every shopper page asks first,
// GET /shopper/program: p50 and DynamoDB calls per request, from the endpoint rows of the same run.
import { bundleCheckoutExtension } from '../scripts/account-extension-bundle';
import type { EndpointFigures } from './load';

export interface CheckoutBundleFigures {
  target: string;
  bytes: number;
  gzipBytes: number;
  limitBytes: number;
}

export interface EstimateAgainstProgram {
  shopper: 'guest' | 'member';
  estimate: { p50: number; callsPerRequest: number };
  program: { p50: number; callsPerRequest: number };
}

export interface CheckoutFigures {
  bundles: CheckoutBundleFigures[];
  estimate: EstimateAgainstProgram[];
}

export async function measureCheckoutBundles(): Promise<CheckoutBundleFigures[]> {
  return (await bundleCheckoutExtension()).map(({ target, bytes, gzipBytes, limitBytes }) => ({ target, bytes, gzipBytes, limitBytes }));
}

/** The estimate's rows beside the program's, for a guest and a member (bench/endpoints.ts names them so). */
export function estimateAgainstProgram(rows: readonly EndpointFigures[]): EstimateAgainstProgram[] {
  const pairs: EstimateAgainstProgram[] = [];
  for (const shopper of ['guest', 'member'] as const) {
    const estimate = rows.find((row) => row.name === `POST /shopper/estimate (${shopper})`);
    const program = rows.find((row) => row.name === `GET /shopper/program (${shopper})`);
    if (!estimate || !program) continue;
    pairs.push({
      shopper,
      estimate: { p50: estimate.p50, callsPerRequest: estimate.callsPerRequest },
      program: { p50: program.p50, callsPerRequest: program.callsPerRequest },
    });
  }
  return pairs;
}

export function printCheckout(figures: CheckoutFigures): void {
  const kib = (bytes: number) => (bytes / 1024).toFixed(1);
  console.log('\nCheckout extensions (Shopify limit: 64 KiB gzip each):');
  for (const bundle of figures.bundles) {
    console.log(
      `  ${bundle.target.padEnd(44)} ${kib(bundle.bytes).padStart(6)} KiB minified, ${kib(bundle.gzipBytes).padStart(5)} KiB gzip`,
    );
  }
  for (const pair of figures.estimate) {
    console.log(
      `POST /shopper/estimate (${pair.shopper}): p50 ${pair.estimate.p50.toFixed(1)} ms, ${pair.estimate.callsPerRequest.toFixed(2)} DynamoDB calls/request; ` +
        `GET /shopper/program (${pair.shopper}): p50 ${pair.program.p50.toFixed(1)} ms, ${pair.program.callsPerRequest.toFixed(2)} calls/request`,
    );
  }
}
