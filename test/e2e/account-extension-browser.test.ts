// The customer account extensions' bundles in a real headless Chromium, in a host page that plays
// Shopify's customer accounts (test/support/customer-account-host.ts: the `shopify` global with real
// session tokens from the twin's POST /_session_tokens, and STAND-IN Polaris components, not Shopify's
// renderer), against the twin's real /shopper routes: a member sees the balance the API reports, redeems
// a reward and copies its code with the keyboard alone; a non-member joins; the order-list block links to
// the page; an unreachable service is said so. axe-core audits every state; each is saved as a PNG.
import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { LOYALTY_PAGE_HREF } from '../../infra/shopify-app/extensions/loyalty-account/src/loyalty-view';
import { startCustomerAccountHost, type CustomerAccountHost } from '../support/customer-account-host';
import { headlessBrowserUnavailable, launchHeadlessBrowser } from '../support/headless-browser';
import { sessionToken, withToken, buyDemoCodes } from '../support/shopper';
import { apiClient, startTestTwin } from '../support/twin';
import { seriousViolations } from '../support/axe';

const unavailable = headlessBrowserUnavailable();
const describeInBrowser = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`The customer account extension browser test is SKIPPED: ${unavailable}.`);

const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? join(tmpdir(), 'account-extension-screens');
const number = (value: number) => new Intl.NumberFormat('en').format(value);
const literally = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

let twin: Twin;
let browser: Browser;
let host: CustomerAccountHost;
let context: BrowserContext;
const api = () => apiClient(twin.url, 'demo_full_key');

/** The element that has the focus, through shadow roots, with the name a screen reader would read. */
async function focused(page: Page): Promise<{ tag: string; name: string }> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    const host =
      (element?.getRootNode() as ShadowRoot | Document | undefined) instanceof ShadowRoot
        ? (element!.getRootNode() as ShadowRoot).host
        : element;
    return {
      tag: element?.tagName.toLowerCase() ?? '',
      name: (element?.getAttribute('aria-label') ?? host?.textContent ?? '').replace(/\s+/g, ' ').trim(),
    };
  });
}

/** Presses Tab until the focused control's name matches, as a keyboard user moves through the page. */
async function tabTo(page: Page, name: RegExp, limit = 60): Promise<void> {
  const seen: string[] = [];
  for (let presses = 0; presses < limit; presses += 1) {
    await page.keyboard.press('Tab');
    const now = await focused(page);
    seen.push(`${now.tag}:${now.name}`);
    if (name.test(now.name)) return;
  }
  throw new Error(`no control named ${name} reached with Tab; focus went through: ${seen.join(' | ')}`);
}

async function shoot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

async function open(target: 'page' | 'block', customerId?: string, on: CustomerAccountHost = host): Promise<Page> {
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  await page.goto(on.pageUrl(target, customerId));
  await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true', undefined, { timeout: 30_000 });
  expect(failures).toEqual([]);
  return page;
}

describeInBrowser(`the customer account extensions in Chromium${unavailable ? ` [SKIPPED: ${unavailable}]` : ''}`, () => {
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [twin, browser] = await Promise.all([startTestTwin(DEMO_CONFIG, { throttling: false }), launchHeadlessBrowser()]);
    host = await startCustomerAccountHost({ serviceUrl: twin.url, platformUrl: twin.platformUrl, shop: 'demo' });
    context = await browser.newContext({ viewport: { width: 900, height: 900 }, permissions: ['clipboard-read', 'clipboard-write'] });
    console.log(`screenshots: ${SCREENSHOTS}`);
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await host?.stop();
    await twin?.stop();
  });

  it('shows a member the balance the API reports, and redeems a reward and copies its code with the keyboard alone', async () => {
    await api().post('/v1/customers/1001/points', { adjustment: 1000, note: 'browser test' });
    const before = (await api().get('/v1/customers/1001')).body.data.attributes;
    const page = await open('page', '1001');

    await page.getByRole('heading', { name: `${number(before.current_points)} points` }).waitFor();
    await page.getByRole('heading', { name: 'Activity' }).waitFor();
    // The activity loaded (no spinner left): its oldest line, the signup, is on the first page.
    await page.getByText(/^Joined the program: \+/).waitFor();
    await page.locator('s-spinner').waitFor({ state: 'detached' });
    await page
      .getByRole('button', { name: /^Redeem / })
      .first()
      .waitFor();
    await shoot(page, '1-member');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);

    // five-off costs 500: Tab to its Redeem button and press Enter, as a keyboard user does.
    const token = await sessionToken(twin.platformUrl, 'demo', '1001');
    const rewards = (await withToken(twin.url, token, 'GET', '/program')).body.data.attributes.rewards as Array<{
      id: string;
      name: string;
    }>;
    const rewardName = rewards.find((reward) => reward.id === 'five-off')!.name;
    await tabTo(page, new RegExp(`^Redeem ${literally(rewardName)} for 500 points$`));
    await page.keyboard.press('Enter');
    // Asked first: nothing is spent until Confirm.
    await page.getByText(`Spend 500 points for ${rewardName}?`).waitFor();
    expect((await api().get('/v1/customers/1001')).body.data.attributes.current_points).toBe(before.current_points);
    await shoot(page, '1b-confirm');
    await tabTo(page, /^Confirm$/);
    await page.keyboard.press('Enter');
    await page.getByText(`${rewardName}: your code is ready`).waitFor();

    const history = (await api().get('/v1/customers/1001/reward-history')).body.data;
    const code = history[0].attributes.discount_code as string;
    expect(history[0].attributes).toMatchObject({ reward_id: 'five-off', points_spent: 500 });
    // In the banner and, once it reloads, under Your rewards.
    await page.getByText(code, { exact: true }).first().waitFor();
    await page.getByRole('heading', { name: `${number(before.current_points - 500)} points` }).waitFor();
    await shoot(page, '2-redeemed');

    await tabTo(page, new RegExp(`^Copy code ${literally(code)}$`));
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `Copied code ${code}` }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    // The activity, reloaded, starts with the redemption.
    const redeemedOn = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(history[0].attributes.created_at));
    await page.getByText(`Redeemed: ${rewardName}: −500 · ${redeemedOn} · code ${code}`).waitFor();
    await shoot(page, '3-code-copied');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
    await page.close();
  }, 120_000);

  it('shows a Gold member in a campaign the ways to earn as the storefront panel does, the campaign named with its end', async () => {
    // 1005 is Gold (2x, purchases only) in config/demo.json; the demo's "Double points week" (2x) runs until 2099.
    const token = await sessionToken(twin.platformUrl, 'demo', '1005');
    const program = (await withToken(twin.url, token, 'GET', '/program')).body.data.attributes;
    const order = program.earning_rules.find((rule: { id: string }) => rule.id === 'rule-order');
    expect({ points: order.points, spend_unit: order.spend_unit }).toEqual({ points: 20, spend_unit: 1 });
    expect(program.campaign).toMatchObject({ name: 'Double points week', multiplier: 2, ends_at: '2099-01-01T00:00:00.000Z' });

    const page = await open('page', '1005');
    await page.getByRole('heading', { name: 'Ways to earn' }).waitFor();
    await page.getByText('2× points on every way to earn until Jan 1, 2099. The points below include it.').waitFor();
    await page.getByText('Double points week', { exact: true }).waitFor();
    await page.getByText(/Place an order\s+—\s+20 points for every \$1/).waitFor();
    await page.getByText(/Create an account\s+—\s+400 points/).waitFor();
    // The merchant's label states the base figure: not shown beside the figure now.
    await expect(page.getByText('5 points for every $1 spent').count()).resolves.toBe(0);
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
    const shots = process.env.FIGURES_SCREENSHOTS ?? '/tmp/shots-h46-numbers';
    mkdirSync(shots, { recursive: true });
    for (const [width, name] of [
      [1280, 'account-desktop'],
      [390, 'account-phone'],
    ] as const) {
      await page.setViewportSize({ width, height: 900 });
      await page.getByRole('heading', { name: 'Ways to earn' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, `${name}.png`), fullPage: true });
    }
    await page.close();
  }, 120_000);

  it("chooses a flexible reward's points with the keyboard, and a cancelled confirmation spends nothing", async () => {
    const before = (await api().get('/v1/customers/1003')).body.data.attributes.current_points as number;
    const page = await open('page', '1003');
    await tabTo(page, /^Redeem Dollars off, you choose for 100 points$/);
    await page.keyboard.press('Enter');
    await page.getByText('Spend 100 points for $1 off?').waitFor();
    await tabTo(page, /^Cancel$/);
    await page.keyboard.press('Enter');
    await expect(page.getByText('Spend 100 points for $1 off?').count()).resolves.toBe(0);
    expect((await api().get('/v1/customers/1003')).body.data.attributes.current_points).toBe(before);

    await tabTo(page, /^Redeem Dollars off, you choose for 100 points$/);
    await page.keyboard.press('Enter');
    await tabTo(page, /^100 more points$/);
    await page.keyboard.press('Enter');
    await page.keyboard.press('Enter');
    await page.getByText('300 points for $3 off', { exact: true }).waitFor();
    await page.getByText('Spend 300 points for $3 off?').waitFor();
    await shoot(page, '1c-flexible-chooser');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
    await tabTo(page, /^Confirm$/);
    await page.keyboard.press('Enter');
    await page.getByText('$3.00 off: your code is ready').waitFor();
    expect((await api().get('/v1/customers/1003')).body.data.attributes.current_points).toBe(before - 300);
    await page.close();
  }, 120_000);

  it("keeps the member's unused codes under Your rewards, with value and end date, across a reload", async () => {
    const token = await sessionToken(twin.platformUrl, 'demo', '1005');
    const bought = await withToken(
      twin.url,
      token,
      'POST',
      '/rewards/dollar-off-flex/redeem',
      { points: 700 },
      { 'Idempotency-Key': 'account-rewards-1' },
    );
    expect(bought.status).toBe(201);
    const code = bought.body.data.attributes.discount_code as string;
    const ends = new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(bought.body.data.attributes.expires_at));

    // A fresh page: the codes come from the service, not from anything the last page kept.
    const page = await open('page', '1005');
    await page.getByRole('heading', { name: 'Your rewards' }).waitFor();
    await page.getByText(code, { exact: true }).waitFor();
    await page.getByText(`Use it by ${ends}`).first().waitFor();
    // 1005's earlier flexible code, brought over from another app, is listed too; a used one is not.
    await page.getByText('LOYAL-F15XKD', { exact: true }).waitFor();
    await expect(page.getByText('LOYAL-2RVB6Q', { exact: true }).count()).resolves.toBe(0);
    await tabTo(page, new RegExp(`^Copy code ${literally(code)}$`));
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: `Copied code ${code}` }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(code);
    await shoot(page, '3b-your-rewards');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
    await page.close();
  }, 120_000);

  it('redeems store credit with the keyboard: confirmed, then said to be on the account, with no code to copy', async () => {
    const member = '1008';
    await api().post(`/v1/customers/${member}/points`, { adjustment: 600, note: 'store credit' });
    const before = (await api().get(`/v1/customers/${member}`)).body.data.attributes.current_points as number;
    const page = await open('page', member);
    await tabTo(page, /^Redeem \$5\.00 store credit for 500 points$/);
    await page.keyboard.press('Enter');
    await page.getByText('Spend 500 points for $5.00 store credit?').waitFor();
    await tabTo(page, /^Confirm$/);
    await page.keyboard.press('Enter');
    await page.getByText('$5.00 store credit: added to your store credit').waitFor();
    await page.getByText('It is on your account, ready for your next order.', { exact: false }).waitFor();
    await expect(page.getByRole('button', { name: /^Copy code/ }).count()).resolves.toBe(0);
    expect((await api().get(`/v1/customers/${member}`)).body.data.attributes.current_points).toBe(before - 500);
    const credit = (await (await fetch(`${twin.platformUrl}/_store_credit?shop=demo&customer_id=${member}`)).json()) as { balance: string };
    expect(credit.balance).toBe('5.00');
    await shoot(page, '2b-store-credit');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
    await page.close();
  }, 120_000);

  it('lists 20 codes, then the rest behind "Show more codes", pressed with the keyboard', async () => {
    const member = '1004';
    const codes = await buyDemoCodes(api(), member, 22);
    const page = await open('page', member);
    await page.getByRole('heading', { name: 'Your rewards' }).waitFor();
    await page.getByText(codes[2]!, { exact: true }).waitFor();
    // The two oldest are past the first page of 20.
    await expect(page.getByText(codes[1]!, { exact: true }).count()).resolves.toBe(0);
    await tabTo(page, /^Show more codes$/);
    await page.keyboard.press('Enter');
    await page.getByText(codes[0]!, { exact: true }).waitFor();
    await page.getByText(codes[1]!, { exact: true }).waitFor();
    await expect(page.getByRole('button', { name: 'Show more codes' }).count()).resolves.toBe(0);
    await shoot(page, '3c-more-codes');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
    await page.close();
  }, 120_000);

  it('lets a signed-in customer who is not a member join with the keyboard and shows the signup points', async () => {
    const page = await open('page', '1010');
    await page.getByRole('heading', { name: 'Join the rewards program' }).waitFor();
    await shoot(page, '4-not-a-member');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);

    await tabTo(page, /^Join now$/);
    await page.keyboard.press('Enter');
    await page.getByText('Welcome to the rewards program').waitFor();
    const joined = (await api().get('/v1/customers/1010')).body.data.attributes;
    await page.getByRole('heading', { name: `${number(joined.current_points)} points` }).waitFor();
    expect(joined.current_points).toBeGreaterThan(0);
    await shoot(page, '5-joined');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
    await page.close();
  }, 120_000);

  it("puts the member's balance on the order list with a link to the loyalty page", async () => {
    const points = (await api().get('/v1/customers/1001')).body.data.attributes.current_points as number;
    const page = await open('block', '1001');
    await page.getByText(`${number(points)} points`).waitFor();
    const link = page.getByRole('link', { name: 'View rewards' });
    expect(await link.evaluate((element) => (element as HTMLAnchorElement).getAttribute('href'))).toBe(LOYALTY_PAGE_HREF);
    await shoot(page, '6-order-list-block');
    expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
    await page.close();
  }, 120_000);

  it('says so when the service cannot be reached, and offers to try again', async () => {
    // A port that answered a moment ago and is closed now: nothing listens there.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const offline = await startCustomerAccountHost({ serviceUrl: `http://127.0.0.1:${port}`, platformUrl: twin.platformUrl, shop: 'demo' });
    try {
      const page = await open('page', '1001', offline);
      await page.getByText('The rewards program could not be reached.', { exact: false }).waitFor();
      await page.getByRole('alert').waitFor();
      await tabTo(page, /^Try again$/);
      await shoot(page, '7-unreachable');
      expect(await seriousViolations(page, { axeUrl: host.axeUrl })).toEqual([]);
      await page.close();
    } finally {
      await offline.stop();
    }
  }, 120_000);
});
