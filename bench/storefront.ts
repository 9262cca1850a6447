// What the theme app extension costs a storefront: its assets' bytes (raw and gzip, against Shopify's
// budget), and the twin's storefront page loaded in headless Chromium with the app (`apps` on) and
// without it (`?apps=off`), alternately, each load in a fresh profile (nothing cached), with the CPU
// slowed 4x as Lighthouse's mobile run does. Lighthouse scores FCP, LCP, TBT, CLS and Speed Index; the
// figures here are the lab metrics behind them, medians of N loads. Then the panel's first opening
// (click to content, through the app proxy) once the page has loaded. A few seconds in all.
import type { Browser, Page } from 'playwright-core';
import { themeExtensionWeight } from '../infra/local/simulator/storefront-theme';
import { launchHeadlessBrowser } from '../test/support/headless-browser';
import { median } from './statistics';

export interface PageLoadFigures {
  /** Medians over the loads, in ms (CLS: unitless). The twin's own rendering of the page, to its first byte. */
  timeToFirstByteMs: number;
  /** FCP less the first byte: what the page costs in the browser, whoever rendered it. */
  paintAfterFirstByteMs: number;
  domContentLoadedMs: number;
  loadMs: number;
  firstContentfulPaintMs: number;
  largestContentfulPaintMs: number;
  /** Σ max(0, long task − 50 ms): Lighthouse's Total Blocking Time, from the page's long tasks. */
  totalBlockingTimeMs: number;
  longTasks: number;
  cumulativeLayoutShift: number;
  /** Bytes the page transferred (document and subresources, compressed as sent). */
  transferredBytes: number;
  requests: number;
}

export interface StorefrontFigures {
  loads: number;
  cpuSlowdown: number;
  assets: { jsRaw: number; jsGzip: number; cssRaw: number; cssGzip: number; jsBudget: number; cssBudget: number };
  /** The embed's rendered markup (the page with the app less the page without), bytes. */
  embedMarkupBytes: number;
  withApp: PageLoadFigures;
  withoutApp: PageLoadFigures;
  /** Median ms from the launcher's click to the panel's content, over the loads; null when it failed. */
  panelOpenMs: number | null;
  panelError?: string;
}

const CPU_SLOWDOWN = 4;

interface OneLoad {
  ttfb: number;
  dcl: number;
  load: number;
  fcp: number;
  lcp: number;
  tbt: number;
  longTasks: number;
  cls: number;
  bytes: number;
  requests: number;
}

// Run in the page (as text: this project compiles without the DOM's types). Before any script of the
// page: observers of the LCP, layout shifts and long tasks, buffered.
const OBSERVERS = `
  window.__lcp = 0; window.__cls = 0; window.__long = [];
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
    .observe({ type: 'layout-shift', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); })
    .observe({ type: 'longtask', buffered: true });
`;
/** After the load: one load's figures (OneLoad). */
const READ_FIGURES = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const fcp = performance.getEntriesByName('first-contentful-paint')[0];
  const resources = performance.getEntriesByType('resource');
  return {
    ttfb: nav.responseStart,
    dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    fcp: fcp ? fcp.startTime : 0,
    lcp: window.__lcp,
    tbt: window.__long.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
    longTasks: window.__long.length,
    cls: window.__cls,
    bytes: nav.transferSize + resources.reduce((sum, e) => sum + e.transferSize, 0),
    requests: 1 + resources.length,
  };
})()`;

async function measureLoad(browser: Browser, url: string, openPanel: boolean): Promise<{ load: OneLoad; panelMs: number | null }> {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 } });
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.addInitScript(OBSERVERS);
    await page.goto(url, { waitUntil: 'load' });
    // Let late long tasks and the LCP settle, as Lighthouse waits for a quiet window.
    await page.waitForTimeout(300);
    const load = (await page.evaluate(READ_FIGURES)) as OneLoad;
    let panelMs: number | null = null;
    if (openPanel) panelMs = await timePanelOpen(page);
    return { load, panelMs };
  } finally {
    await context.close();
  }
}

async function timePanelOpen(page: Page): Promise<number> {
  await cdpless(page);
  const started = (await page.evaluate('performance.now()')) as number;
  await page.getByRole('button', { name: 'Rewards', exact: true }).click();
  await page.waitForSelector('.loy-body[aria-busy="false"]', { timeout: 15_000 });
  if (await page.locator('.loy-error').count()) throw new Error(`the panel shows: ${await page.locator('.loy-error').textContent()}`);
  return ((await page.evaluate('performance.now()')) as number) - started;
}

/** The panel is timed at full speed: the slowdown stands for a phone's page load, not for the API's answer. */
async function cdpless(page: Page): Promise<void> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
}

function medians(loads: OneLoad[]): PageLoadFigures {
  const m = (pick: (load: OneLoad) => number) => median(loads.map(pick));
  return {
    timeToFirstByteMs: m((l) => l.ttfb),
    paintAfterFirstByteMs: m((l) => l.fcp - l.ttfb),
    domContentLoadedMs: m((l) => l.dcl),
    loadMs: m((l) => l.load),
    firstContentfulPaintMs: m((l) => l.fcp),
    largestContentfulPaintMs: m((l) => l.lcp),
    totalBlockingTimeMs: m((l) => l.tbt),
    longTasks: m((l) => l.longTasks),
    cumulativeLayoutShift: m((l) => l.cls),
    transferredBytes: m((l) => l.bytes),
    requests: m((l) => l.requests),
  };
}

/** `storefrontUrl`: a shop's storefront on the twin's platform simulator, e.g. `http://127.0.0.1:3001/storefront/demo/`. */
export async function storefrontBench(storefrontUrl: string, loads = 9): Promise<StorefrontFigures> {
  const weight = themeExtensionWeight();
  const [withPage, withoutPage] = await Promise.all([
    fetch(storefrontUrl).then((response) => response.text()),
    fetch(`${storefrontUrl}?apps=off`).then((response) => response.text()),
  ]);
  const browser = await launchHeadlessBrowser();
  const withApp: OneLoad[] = [];
  const withoutApp: OneLoad[] = [];
  const panel: number[] = [];
  let panelError: string | undefined;
  try {
    // One load of each first, not counted: the browser's own first start.
    await measureLoad(browser, storefrontUrl, false);
    await measureLoad(browser, `${storefrontUrl}?apps=off`, false);
    for (let i = 0; i < loads; i += 1) {
      withoutApp.push((await measureLoad(browser, `${storefrontUrl}?apps=off`, false)).load);
      const measured = await measureLoad(browser, storefrontUrl, panelError === undefined).catch(async (error: unknown) => {
        panelError = error instanceof Error ? error.message : String(error);
        return measureLoad(browser, storefrontUrl, false);
      });
      withApp.push(measured.load);
      if (measured.panelMs !== null) panel.push(measured.panelMs);
    }
  } finally {
    await browser.close();
  }
  return {
    loads,
    cpuSlowdown: CPU_SLOWDOWN,
    assets: {
      jsRaw: weight.rawJs,
      jsGzip: weight.js,
      cssRaw: weight.rawCss,
      cssGzip: weight.css,
      jsBudget: 10 * 1024,
      cssBudget: 20 * 1024,
    },
    embedMarkupBytes: Buffer.byteLength(withPage) - Buffer.byteLength(withoutPage),
    withApp: medians(withApp),
    withoutApp: medians(withoutApp),
    panelOpenMs: panel.length > 0 ? median(panel) : null,
    ...(panelError !== undefined ? { panelError } : {}),
  };
}

export function printStorefront(figures: StorefrontFigures): void {
  const { assets } = figures;
  console.log(
    `\nStorefront: the theme app extension's assets: JS ${assets.jsRaw} B raw, ${assets.jsGzip} B gzip (budget ${assets.jsBudget}); CSS ${assets.cssRaw} B raw, ${assets.cssGzip} B gzip (budget ${assets.cssBudget}); embed markup ${figures.embedMarkupBytes} B`,
  );
  console.log(`The page in Chromium, median of ${figures.loads} cold loads each, CPU slowed ${figures.cpuSlowdown}x:`);
  console.log(`${''.padEnd(14)} TTFB ms  FCP-TTFB  DCL ms  load ms  FCP ms  LCP ms  TBT ms  long tasks    CLS   bytes  requests`);
  const row = (name: string, f: PageLoadFigures) =>
    console.log(
      `${name.padEnd(14)}${f.timeToFirstByteMs.toFixed(0).padStart(8)}${f.paintAfterFirstByteMs.toFixed(0).padStart(10)}${f.domContentLoadedMs.toFixed(0).padStart(8)}${f.loadMs.toFixed(0).padStart(9)}${f.firstContentfulPaintMs.toFixed(0).padStart(8)}${f.largestContentfulPaintMs.toFixed(0).padStart(8)}${f.totalBlockingTimeMs.toFixed(0).padStart(8)}${String(f.longTasks).padStart(12)}${f.cumulativeLayoutShift.toFixed(3).padStart(7)}${String(f.transferredBytes).padStart(8)}${String(f.requests).padStart(10)}`,
    );
  row('without app', figures.withoutApp);
  row('with app', figures.withApp);
  console.log(
    figures.panelOpenMs !== null
      ? `The panel's first opening (click to content, a guest's two calls through the app proxy): median ${figures.panelOpenMs.toFixed(0)} ms`
      : `The panel's first opening was not measured: ${figures.panelError ?? 'no load opened it'}`,
  );
}
