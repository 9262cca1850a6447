// The bench's checkout figures: each checkout target's bundle against Shopify's limit, and the estimate's rows
// paired with the program's for the same shopper, by the names bench/endpoints.ts gives them.
import { estimateAgainstProgram, measureCheckoutBundles } from '../../bench/checkout';
import { BENCH_ENDPOINTS } from '../../bench/endpoints';
import type { EndpointFigures } from '../../bench/load';

const row = (name: string, p50: number, callsPerRequest: number) => ({ name, p50, callsPerRequest }) as EndpointFigures;

describe('the bench’s checkout figures', () => {
  it('measures the three checkout bundles under 64 KB gzip', async () => {
    const bundles = await measureCheckoutBundles();
    expect(bundles.map((bundle) => bundle.target)).toEqual([
      'purchase.checkout.reductions.render-after',
      'purchase.thank-you.block.render',
      'customer-account.order-status.block.render',
    ]);
    for (const bundle of bundles) expect(bundle.gzipBytes).toBeLessThanOrEqual(bundle.limitBytes);
  }, 60_000);

  it('pairs the estimate with the program for a guest and a member, by the rows the bench loads', () => {
    const names = BENCH_ENDPOINTS.map((endpoint) => endpoint.name);
    for (const shopper of ['guest', 'member']) {
      expect(names).toContain(`POST /shopper/estimate (${shopper})`);
      expect(names).toContain(`GET /shopper/program (${shopper})`);
    }
    const rows = [
      row('GET /shopper/program (guest)', 2, 0),
      row('GET /shopper/program (member)', 3, 1),
      row('POST /shopper/estimate (guest)', 2.5, 0),
      row('POST /shopper/estimate (member)', 3.5, 1),
    ];
    expect(estimateAgainstProgram(rows)).toEqual([
      { shopper: 'guest', estimate: { p50: 2.5, callsPerRequest: 0 }, program: { p50: 2, callsPerRequest: 0 } },
      { shopper: 'member', estimate: { p50: 3.5, callsPerRequest: 1 }, program: { p50: 3, callsPerRequest: 1 } },
    ]);
    expect(estimateAgainstProgram(rows.slice(0, 2))).toEqual([]);
  });
});
