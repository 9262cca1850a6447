// The admin block on Shopify's customer page (admin.customer-details.block.render) in a real headless
// Chromium: its real bundle in a host page that plays Shopify's admin (test/support/admin-block-host.ts: the
// `shopify` global with the viewed customer and real staff ID tokens from the twin's POST /_id_tokens, the
// token added to the fetch to the app's origin, STAND-IN Polaris components, not Shopify's renderer), against
// the twin's real /admin/api, cross-origin as the block calls it from Shopify's sandbox. The member's balance
// and tier are the API's, and change on reload after an adjustment; a customer who is not a member and a page
// naming no customer say so; an error of the service and an unreachable service are an alert; the link is
// reached with Tab, followed with Enter and opens the member in the app's home in the twin's admin. axe-core
// audits every state (nothing serious or critical); each is saved as a PNG (ADMIN_BLOCK_SCREENSHOTS).
import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { memberPageHref } from '../../infra/shopify-app/extensions/loyalty-admin/src/member-api';
import { startAdminBlockHost, type AdminBlockHost } from '../support/admin-block-host';
import { seriousViolations } from '../support/axe';
import { headlessBrowserUnavailable, launchHeadlessBrowser } from '../support/headless-browser';
import { apiClient, startTestTwin } from '../support/twin';

const unavailable = headlessBrowserUnavailable();
const describeInBrowser = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`The admin block browser test is SKIPPED: ${unavailable}.`);

const SCREENSHOTS = process.env.ADMIN_BLOCK_SCREENSHOTS ?? join(tmpdir(), 'admin-block-screens');
const number = (value: number) => new Intl.NumberFormat('en').format(value);

let twin: Twin;
let browser: Browser;
let host: AdminBlockHost;
let context: BrowserContext;
const api = () => apiClient(twin.url, 'demo_full_key');

/** The element that has the focus, through shadow roots, and the text a screen reader would read for it. */
async function focused(page: Page): Promise<{ tag: string; name: string; href: string | null }> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    const root = element?.getRootNode();
    const host = root instanceof ShadowRoot ? root.host : element;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      name: (element?.getAttribute('aria-label') ?? host?.textContent ?? '').replace(/\s+/g, ' ').trim(),
      href: element?.getAttribute('href') ?? null,
    };
  });
}

/** axe-core's violations of impact serious or critical (the page's own, stand-ins included), axe loaded from the host. */
const accessibilityFindings = (page: Page, on: AdminBlockHost = host) => seriousViolations(page, { axeUrl: on.axeUrl, minimumPasses: 6 });

const shoot = (page: Page, name: string) => page.locator('body').screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

/** The block on a customer's page, once its default export has run; the block's calls to the service, noted. */
async function open(customerId?: string, on: AdminBlockHost = host): Promise<{ page: Page; calls: string[] }> {
  const page = await context.newPage();
  const failures: string[] = [];
  const calls: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/admin/api/')) {
      calls.push(`${request.method()} ${url.pathname} ${/^Bearer eyJ/.test(request.headers().authorization ?? '') ? 'bearer' : 'none'}`);
    }
  });
  await page.goto(on.pageUrl(customerId));
  await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true', undefined, { timeout: 30_000 });
  expect(failures).toEqual([]);
  return { page, calls };
}

/** The block's heading, then its content: the loading line gone. */
async function settled(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 2, name: 'Loyalty' }).waitFor();
  await page.getByText("Loading the member's points").waitFor({ state: 'detached' });
}

/** The block says the program could not be reached, in a banner that is an alert (announced when it shows). */
async function isAnAlert(page: Page): Promise<void> {
  await page.getByText('The loyalty program could not be reached.', { exact: true }).waitFor();
  await expect(
    page.locator('s-banner').filter({ hasText: 'The loyalty program could not be reached.' }).getByRole('alert').count(),
  ).resolves.toBe(1);
}

describeInBrowser(`the admin block on the customer page, in Chromium${unavailable ? ` [SKIPPED: ${unavailable}]` : ''}`, () => {
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [twin, browser] = await Promise.all([startTestTwin(DEMO_CONFIG, { throttling: false }), launchHeadlessBrowser()]);
    host = await startAdminBlockHost({
      serviceUrl: twin.url,
      platformUrl: twin.platformUrl,
      adminUrl: twin.simulator.adminUrl('demo'),
      shop: 'demo',
    });
    context = await browser.newContext({ viewport: { width: 420, height: 320 } });
    console.log(`screenshots: ${SCREENSHOTS}`);
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await host?.stop();
    await twin?.stop();
  });

  it("shows the member's balance and tier as the API reports them, and their change on reload", async () => {
    const before = (await api().get('/v1/customers/1004')).body.data.attributes;
    expect(before.vip_tier).toBeNull();
    const { page, calls } = await open('1004');
    await settled(page);
    await page.getByText(`${number(before.current_points)} points`, { exact: true }).waitFor();
    await page.getByText('No tier yet', { exact: true }).waitFor();
    // One call, cross-origin, with the staff user's ID token the admin added.
    expect(calls).toEqual(['GET /admin/api/v1/customers/1004 bearer']);
    expect(host.idTokensMinted()).toBeGreaterThan(0);
    await shoot(page, '1-member-no-tier');
    expect(await accessibilityFindings(page)).toEqual([]);

    await api().post('/v1/customers/1004/points', { adjustment: 250, note: 'admin block browser test' });
    const after = (await api().get('/v1/customers/1004')).body.data.attributes;
    expect(after.current_points).toBe(before.current_points + 250);
    expect(after.vip_tier).toMatchObject({ name: expect.any(String) });
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true');
    await settled(page);
    await page.getByText(`${number(after.current_points)} points`, { exact: true }).waitFor();
    await page.getByText(`Tier: ${after.vip_tier.name}`, { exact: true }).waitFor();
    await shoot(page, '2-member-tier');
    expect(await accessibilityFindings(page)).toEqual([]);
    await page.close();
  }, 60_000);

  it("reaches the member's link with Tab and opens the member in the app's home with Enter", async () => {
    const member = (await api().get('/v1/customers/1001')).body.data.attributes;
    const { page } = await open('1001');
    await settled(page);
    await page.getByText(`${number(member.current_points)} points`, { exact: true }).waitFor();

    await page.keyboard.press('Tab');
    const link = await focused(page);
    expect(link).toEqual({ tag: 'a', name: 'Open in Loyalty', href: memberPageHref('1001') });
    await shoot(page, '3-link-focused');

    await Promise.all([page.waitForURL(`${twin.simulator.adminUrl('demo')}?customer=1001`), page.keyboard.press('Enter')]);
    const app = page.frames().find((frame) => frame.url().startsWith(`${twin.url}/admin?`))!;
    expect(new URL(app.url()).searchParams.get('customer')).toBe('1001');
    await app.getByRole('heading', { level: 1, name: /Ada/ }).waitFor();
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe(`${number(member.current_points)} points`);
    await page.setViewportSize({ width: 1000, height: 700 });
    await page.screenshot({ path: join(SCREENSHOTS, '4-member-in-app.png') });
    await page.close();
  }, 60_000);

  it('says a customer who is not a member, an unknown customer and a page naming none are not members', async () => {
    for (const customerId of ['1010', '987654321', undefined]) {
      const { page, calls } = await open(customerId);
      await settled(page);
      await page.getByText('Not a member of the loyalty program.', { exact: true }).waitFor();
      expect(await page.getByRole('link').count()).toBe(0);
      expect(calls).toEqual(customerId ? [`GET /admin/api/v1/customers/${customerId} bearer`] : []);
      if (customerId === '1010') {
        await shoot(page, '5-not-a-member');
        expect(await accessibilityFindings(page)).toEqual([]);
      }
      await page.close();
    }
  }, 60_000);

  it("shows the service's error and an unreachable service as an alert", async () => {
    // The service answers 503 in its error envelope (a route double: the twin has no such fault).
    const { page } = await open('1001');
    await page.route(`${twin.url}/admin/api/v1/customers/1001`, (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        headers: { 'Access-Control-Allow-Origin': '*' },
        body: JSON.stringify({ errors: [{ status: '503', title: 'Service Unavailable', detail: 'Try again shortly' }] }),
      }),
    );
    await page.reload();
    await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true');
    await settled(page);
    await isAnAlert(page);
    expect(await page.getByRole('link').count()).toBe(0);
    await shoot(page, '6-service-error');
    expect(await accessibilityFindings(page)).toEqual([]);
    await page.close();

    // A port that answered a moment ago and is closed now: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = await startAdminBlockHost({
      serviceUrl: `http://127.0.0.1:${port}`,
      platformUrl: twin.platformUrl,
      adminUrl: twin.simulator.adminUrl('demo'),
      shop: 'demo',
    });
    try {
      const { page: unreachable } = await open('1001', offline);
      await settled(unreachable);
      await isAnAlert(unreachable);
      expect(await accessibilityFindings(unreachable, offline)).toEqual([]);
      await unreachable.close();
    } finally {
      await offline.stop();
    }
  }, 60_000);
});
