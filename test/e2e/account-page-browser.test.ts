// The twin's customer account page (docs/customer-account.md#see-it-locally) in a real headless Chromium:
// `GET /account/demo/` of the platform simulator of a started twin, with the account extension's real bundle
// and the stand-in components, signed in as the storefront's signed-in customer (its cookie) or as
// `?customer_id=`; the customer sees the balance the API reports; the order list's block links to the page; a
// guest, and an unknown customer, get a page that says how to sign in. axe-core audits each; each is saved as
// a PNG at 1280 and 390 pixels wide (SCREENSHOT_DIR, default the system's temporary folder).
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { headlessBrowserUnavailable, launchHeadlessBrowser } from '../support/headless-browser';
import { apiClient, startTestTwin } from '../support/twin';
import { seriousViolations } from '../support/axe';

const unavailable = headlessBrowserUnavailable();
const describeInBrowser = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`The customer account page browser test is SKIPPED: ${unavailable}.`);

const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'account-page-screens');
const WIDTHS = { desktop: 1280, phone: 390 } as const;
const number = (value: number) => new Intl.NumberFormat('en').format(value);

let twin: Twin;
let browser: Browser;
const api = () => apiClient(twin.url, 'demo_full_key');
const account = (path = '') => `${twin.simulator.accountUrl('demo')}${path}`;
const balance = async (id: string) => (await api().get(`/v1/customers/${id}`)).body.data.attributes.current_points as number;

/** The page as it is now, at both widths. */
async function shoot(page: Page, name: string): Promise<void> {
  for (const [label, width] of Object.entries(WIDTHS)) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: join(SCREENSHOTS, `${name}-${label}.png`), fullPage: true });
  }
}

async function opened(context: BrowserContext, url: string, started = true): Promise<{ page: Page; status: number }> {
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  const response = await page.goto(url);
  if (started)
    await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true', undefined, { timeout: 30_000 });
  expect(failures).toEqual([]);
  return { page, status: response!.status() };
}

describeInBrowser(`the twin's customer account page in Chromium${unavailable ? ` [SKIPPED: ${unavailable}]` : ''}`, () => {
  let context: BrowserContext;
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [twin, browser] = await Promise.all([startTestTwin(DEMO_CONFIG, { throttling: false }), launchHeadlessBrowser()]);
    console.log(`screenshots: ${SCREENSHOTS}`);
  }, 180_000);
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: WIDTHS.desktop, height: 900 } });
  });
  afterEach(async () => {
    await context?.close();
  });
  afterAll(async () => {
    await browser?.close();
    await twin?.stop();
  });

  it('shows ?customer_id= the balance the API reports, with the real bundle, and the order list block links to it', async () => {
    await api().post('/v1/customers/1001/points', { adjustment: 250, note: 'account page test' });
    const points = await balance('1001');
    const { page, status } = await opened(context, account('?customer_id=1001'));
    expect(status).toBe(200);
    await page.getByRole('heading', { name: `${number(points)} points` }).waitFor();
    await page.waitForFunction(() => document.querySelectorAll('s-spinner').length === 0, undefined, { timeout: 30_000 });
    await page.getByText('Signed in as Ada Lovelace (customer 1001)').waitFor();
    // The page's bundle is the extension's, built from its sources, calling the twin's API.
    const bundle = await (await fetch(account('_host/loyalty-page.js'))).text();
    expect(bundle).toContain(twin.url);
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, '1-customer-id');

    const orders = (await opened(context, account('orders?customer_id=1001'))).page;
    await orders.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await orders.getByText(`${number(points)} points`).waitFor();
    expect(await seriousViolations(orders)).toEqual([]);
    await shoot(orders, '2-orders-block');
    await orders.getByRole('link', { name: 'View rewards' }).click();
    await orders.waitForURL(account('?customer_id=1001'));
    await orders.getByRole('heading', { name: `${number(points)} points` }).waitFor();
  }, 120_000);

  it("signs in as the storefront's signed-in customer", async () => {
    const points = await balance('1002');
    const login = await context.newPage();
    await login.goto(`${twin.simulator.storefrontUrl('demo')}account/login?customer_id=1002`);
    await login.close();
    const { page, status } = await opened(context, account());
    expect(status).toBe(200);
    await page.getByRole('heading', { name: `${number(points)} points` }).waitFor();
    await page.getByText(/Signed in as .* \(customer 1002\)/).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await shoot(page, '3-storefront-sign-in');

    // Signed out on the storefront: the account page asks to sign in again.
    await (await context.newPage()).goto(`${twin.simulator.storefrontUrl('demo')}account/logout`);
    const after = await opened(context, account(), false);
    expect(after.status).toBe(401);
    await after.page.getByRole('heading', { name: 'Sign in to see your account' }).waitFor();
  }, 120_000);

  it('tells a guest, and a customer the shop does not have, how to sign in', async () => {
    const guest = await opened(context, account(), false);
    expect(guest.status).toBe(401);
    await guest.page.getByRole('heading', { name: 'Sign in to see your account', level: 1 }).waitFor();
    await guest.page.getByRole('link', { name: 'Sign in on the storefront' }).waitFor();
    expect(await guest.page.locator('s-page').count()).toBe(0);
    expect(await seriousViolations(guest.page)).toEqual([]);
    await shoot(guest.page, '4-guest');

    const unknown = await opened(context, account('?customer_id=9999'), false);
    expect(unknown.status).toBe(404);
    await unknown.page.getByRole('alert').getByText('The shop has no customer 9999.').waitFor();
    // A customer picked from the page's list opens that customer's account.
    await unknown.page.getByRole('link', { name: /customer 1001\)$/ }).click();
    await unknown.page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true');
    await unknown.page.getByRole('heading', { name: `${number(await balance('1001'))} points` }).waitFor();
  }, 120_000);
});
