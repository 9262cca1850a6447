// What the bench prints as tables and what it leaves behind: bench/results.json and bench/latency.svg.
import type { KlaviyoFigures } from './klaviyo';
import type { ProgramFiguresBench } from './program-figures';
import type { MemberListFigures } from './member-list';
import type { ImportSection } from './import';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../infra/local/twin';
import type { BundleFigures } from './bundles';
import type { AdminAppFigures } from './admin-app';
import type { CheckoutFigures } from './checkout';
import type { PosExtensionFigures } from './pos-extension';
import { renderChart } from './chart';
import type { RatioFigures } from './get-item-ratio';
import type { InProcessFigures } from './in-process';
import type { FloodFigures } from './key-flood';
import type { JobsSection } from './jobs-by-shop-size';
import type { ScaleFigures } from './list-by-shop-size';
import type { StorefrontFigures } from './storefront';
import type { DepthFigures } from './list-depth';
import type { EndpointFigures } from './load';
import type { BurstFigures } from './webhook-burst';
import type { SectionTiming } from './sections';
import type { EventDeliveryFigures } from './event-delivery';
import type { WriteCostFigures } from './write-cost';

/** Everything one run measured, as bench/results.json holds it. */
export interface BenchResults {
  at: string;
  url: string;
  durationSeconds: number;
  connections: number;
  endpoints: EndpointFigures[];
  bareGetItem: { p50: number; p99: number } | null;
  getCustomerToGetItemRatio: number | null;
  ratios: RatioFigures[];
  inProcess: InProcessFigures | null;
  scale: ScaleFigures[];
  bundles: BundleFigures[];
  /** The app's home's script, inlined in GET /admin's page (docs/admin.md). */
  adminApp?: AdminAppFigures | null;
  /** The checkout extensions' bundles and POST /shopper/estimate against GET /shopper/program (docs/performance.md#checkout). */
  checkout?: CheckoutFigures | null;
  /** The POS extension's bundle per target, against Shopify's 64 KB (docs/pos.md). */
  posExtension?: PosExtensionFigures[] | null;
  webhookBurst: BurstFigures | null;
  keyFlood: FloodFigures | null;
  jobs: JobsSection | null;
  /** How long each section of the run took (bench/sections.ts). */
  sections?: SectionTiming[];
  /** The machine's load average (1, 5 and 15 minutes) when the run ended. */
  loadAverage?: number[];
  /** The theme app extension's bytes and the storefront page with and without it (docs/performance.md#storefront). */
  storefront?: StorefrontFigures | null;
  /** Klaviyo requests per event, by kind, and a redelivery's (docs/performance.md#klaviyo). */
  klaviyo?: KlaviyoFigures | null;
  /** The figures consumer's writes per event and the overview's reads by shop size (docs/performance.md#the-programs-figures). */
  programFigures?: ProgramFiguresBench | null;
  memberList?: MemberListFigures[] | null;
  /** `--only one-customer`: the writes of one customer (docs/performance.md#one-hot-customer). */
  oneCustomer?: EndpointFigures[];
  /** `--only list-depth` (docs/performance.md#customer-list-depth). */
  listDepth?: DepthFigures[];
  /** `--only import` (docs/performance.md#import). */
  import?: ImportSection;
  /** Commit to the bus on the twin (docs/performance.md#event-delivery). */
  eventDelivery?: EventDeliveryFigures | null;
  /** Every write path's calls, items and write units without its domain events and with them (docs/performance.md#write-cost). */
  writeCost?: WriteCostFigures | null;
}

/** A table cell: right-aligned in 8 characters. */
export const fixed = (n: number, digits = 1) => n.toFixed(digits).padStart(8);

export function printEndpointTable(endpoints: readonly EndpointFigures[]): void {
  console.log(`${'endpoint'.padEnd(38)}  p50 ms  p97.5ms   p99 ms    req/s  errors  ddb calls (min)   RCU/req   WCU/req`);
  for (const e of endpoints) {
    console.log(
      `${e.name.padEnd(38)}${fixed(e.p50)}${fixed(e.p95)}${fixed(e.p99)}${fixed(e.rps, 0)}${String(e.errors).padStart(8)}` +
        `${fixed(e.callsPerRequest, 2)} (${e.minimumCalls})${fixed(e.readUnitsPerRequest, 2)}  ${fixed(e.writeUnitsPerRequest, 2)}`,
    );
  }
}

/** The one-customer rows' calls per request by command and the refused calls (lost races) per request. */
export function printCallsByCommand(endpoints: readonly EndpointFigures[]): void {
  const each = (counts: Record<string, number>) =>
    Object.entries(counts)
      .map(([name, n]) => `${name} ${n.toFixed(2)}`)
      .join(', ') || 'none';
  for (const e of endpoints) {
    console.log(
      `${e.name}: mean ${e.mean.toFixed(1)} ms, p99/p50 ${(e.p99 / e.p50).toFixed(1)}; calls per request ${each(e.callsByCommand)}; ` +
        `refused per request ${each(e.refusedByReason)}`,
    );
  }
}

/**
 * GET customer taken apart, next to its HTTP figure at one connection. The gateway caches the
 * authorizer's answer per key, so a warm key's request runs the handler alone; a cold one runs both.
 */
export function printInProcess(inProcess: InProcessFigures, overHttp: number): void {
  const both = inProcess.authorizer + inProcess.handler;
  const times = (ms: number) => `${ms.toFixed(2)} ms (${(ms / inProcess.getItem).toFixed(2)}x)`;
  console.log(
    `\nGET /customers/{id} in the bench process, one call at a time: document-client GetItem ${inProcess.getItem.toFixed(2)} ms; ` +
      `warm key (authorizer answer cached): handler ${times(inProcess.handler)}; cold key: authorizer ${times(inProcess.authorizer)} ` +
      `+ handler = ${times(both)}; over HTTP with 1 connection (warm key) ${overHttp.toFixed(2)} ms, so ` +
      `${(overHttp - inProcess.handler).toFixed(2)} ms is the hop through the twin's gateway`,
  );
}

export function printBundleTable(bundles: readonly BundleFigures[]): void {
  const baseline = bundles.find((b) => b.name === 'baseline (DynamoDB document client only)')!;
  console.log(`\n${'bundle'.padEnd(52)}  size KiB  cold init ms  x baseline`);
  for (const b of bundles)
    console.log(
      `${b.name.padEnd(52)}${fixed(b.sizeKiB)}${fixed(b.initMs, 1).padStart(14)}${fixed(b.initMs / baseline.initMs, 2).padStart(12)}`,
    );
}

const RESULTS_FILE = join(PROJECT_ROOT, 'bench', 'results.json');

/** The burst's two passes against the design's minimum, and its end state. */
export function printBurst(burst: BurstFigures): void {
  console.log(
    `\nwebhook burst: ${burst.orders} orders/paid over ${burst.customers} members, ${burst.senders} senders ` +
      `(the twin answers once a delivery is queued, as the stack; a pass ends when its queue is drained)`,
  );
  console.log(`${'pass'.padEnd(18)}  p50 ms   p99 ms  orders/s  failed  calls/order (min)   RCU/order (min)   WCU/order (min)`);
  const row = (name: string, pass: BurstFigures['first'], minimum: BurstFigures['minimum']['first']) => {
    const byCommand = Object.entries(pass.callsPerOrderByCommand)
      .map(([command, calls]) => `${command} ${calls.toFixed(2)}`)
      .join(', ');
    console.log(
      `${name.padEnd(18)}${fixed(pass.p50)}${fixed(pass.p99)}${fixed(pass.ordersPerSecond, 0).padStart(10)}${String(pass.failed).padStart(8)}` +
        `${fixed(pass.callsPerOrder, 2).padStart(12)} (${minimum.calls})${fixed(pass.readUnitsPerOrder, 2).padStart(12)} (${minimum.readUnits})` +
        `${fixed(pass.writeUnitsPerOrder, 2).padStart(12)} (${minimum.writeUnits})   ${byCommand}`,
    );
  };
  row('first deliveries', burst.first, burst.minimum.first);
  row('duplicates', burst.duplicates, burst.minimum.duplicate);
  if (burst.mismatches.length === 0) console.log(`end state exact: ${burst.exactCustomers}/${burst.customers} customers`);
  else console.log(`end state NOT exact: ${burst.exactCustomers}/${burst.customers} customers\n  ${burst.mismatches.join('\n  ')}`);
}

export function writeResults(results: BenchResults): void {
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(PROJECT_ROOT, 'bench', 'latency.svg'), renderChart(results.endpoints, results.bareGetItem, results.scale));
}

/** A section run alone (--only) replaces its part of bench/results.json and keeps the rest of the last full run. */
export function mergeResults(part: Partial<BenchResults>): void {
  const previous = existsSync(RESULTS_FILE) ? (JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Partial<BenchResults>) : {};
  writeFileSync(RESULTS_FILE, `${JSON.stringify({ ...previous, ...part }, null, 2)}\n`);
}
