// The twin's /docs page, opened in a real headless browser: every operation of the manifest is
// rendered from the twin's own OpenAPI document, and the page fetches nothing from off the machine.
import type { Browser } from 'playwright-core';
import type { Twin } from '../../infra/local/twin';
import { ADMIN_PAGES, type AdminApiRouteName, ROUTES, SHOPPER_ROUTES } from '../../shared/runtime/entry-points';
import { ROUTE_DOCS, SHOPPER_ROUTE_DOCS, STAFF_ROUTE_DOCS } from '../../shared/openapi/openapi-document';
import { e2eConfig } from '../fixtures/e2e-config';
import { headlessBrowserUnavailable, launchHeadlessBrowser } from '../support/headless-browser';
import { startTestTwin } from '../support/twin';

const unavailable = headlessBrowserUnavailable();
const describeInBrowser = unavailable ? describe.skip : describe;
// A skipped suite is easy to miss in jest's summary; say why in the run's output.
if (unavailable) console.warn(`The /docs browser test is SKIPPED: ${unavailable}.`);

describeInBrowser(`the API reference at /docs${unavailable ? ` [SKIPPED: ${unavailable}]` : ''}`, () => {
  let twin: Twin;
  let browser: Browser;

  beforeAll(async () => {
    [twin, browser] = await Promise.all([startTestTwin(e2eConfig()), launchHeadlessBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await twin?.stop();
  });

  it('lists every operation of the manifest, with its summary, and loads nothing from outside 127.0.0.1', async () => {
    const page = await browser.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));

    const response = await page.goto(`${twin.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const rendered = await page.$$eval('.opblock', (blocks) =>
      blocks.map((block) => ({
        operation: `${block.querySelector('.opblock-summary-method')?.textContent?.trim()} ${block.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`,
        summary: block.querySelector('.opblock-summary-description')?.textContent?.trim(),
      })),
    );

    expect(response?.status()).toBe(200);
    expect(rendered.sort((a, b) => a.operation.localeCompare(b.operation))).toEqual(
      [
        ...ROUTES.map((route) => ({ operation: `${route.method} ${route.path}`, summary: ROUTE_DOCS[route.name].summary })),
        ...SHOPPER_ROUTES.map((route) => ({ operation: `${route.method} ${route.path}`, summary: SHOPPER_ROUTE_DOCS[route.name].summary })),
        // The staff-only routes (the /admin/api/v1 mirrors are the /v1 operations under a prefix).
        ...ADMIN_PAGES.filter((page) => Object.hasOwn(STAFF_ROUTE_DOCS, page.name)).map((page) => ({
          operation: `${page.method} ${page.path}`,
          summary: STAFF_ROUTE_DOCS[page.name as AdminApiRouteName].summary,
        })),
        // The shopper paths' CORS preflights.
        ...[...new Set(SHOPPER_ROUTES.map((route) => route.path))].map((path) => ({
          operation: `OPTIONS ${path}`,
          summary: 'CORS preflight',
        })),
      ].sort((a, b) => a.operation.localeCompare(b.operation)),
    );
    expect(requested.filter((url) => new URL(url).hostname !== '127.0.0.1')).toEqual([]);
    expect(requested).toEqual(expect.arrayContaining([`${twin.url}/docs/swagger-ui-bundle.js`, `${twin.url}/openapi.json`]));
  });
});
