// What the bench prints as tables and what it leaves behind: bench/results.json and bench/latency.svg.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../infra/local/twin';
import type { BundleFigures } from './bundles';
import { renderChart } from './chart';
import type { RatioFigures } from './get-item-ratio';
import type { InProcessFigures } from './in-process';
import type { ScaleFigures } from './list-by-shop-size';
import type { EndpointFigures } from './load';

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

/** GET customer taken apart, next to its HTTP figure at one connection. */
export function printInProcess(inProcess: InProcessFigures, overHttp: number): void {
  const both = inProcess.authorizer + inProcess.handler;
  const times = (ms: number) => `${ms.toFixed(2)} ms (${(ms / inProcess.getItem).toFixed(2)}x)`;
  console.log(
    `\nGET /customers/{id} in the bench process, one call at a time: document-client GetItem ${inProcess.getItem.toFixed(2)} ms; ` +
      `authorizer ${times(inProcess.authorizer)}; handler ${times(inProcess.handler)}; both ${times(both)}; ` +
      `over HTTP with 1 connection ${overHttp.toFixed(2)} ms, so ${(overHttp - both).toFixed(2)} ms is the hop through the twin's gateway`,
  );
}

export function printBundleTable(bundles: readonly BundleFigures[]): void {
  const baseline = bundles.find((b) => b.name === 'baseline (DynamoDB document client only)')!;
  console.log(`\n${'bundle'.padEnd(52)}  size KiB  cold init ms  x baseline`);
  for (const b of bundles) console.log(`${b.name.padEnd(52)}${fixed(b.sizeKiB)}${fixed(b.initMs, 1).padStart(14)}${fixed(b.initMs / baseline.initMs, 2).padStart(12)}`);
}

export function writeResults(results: BenchResults): void {
  writeFileSync(join(PROJECT_ROOT, 'bench', 'results.json'), `${JSON.stringify(results, null, 2)}\n`);
  writeFileSync(join(PROJECT_ROOT, 'bench', 'latency.svg'), renderChart(results.endpoints, results.bareGetItem, results.scale));
}
