// The theme app extension in a real headless Chromium, against the twin's storefront (Liquid-rendered
// theme page, the CDN's assets, the signed app proxy to the shopper routes): a guest, a non-member who
// joins, a member who redeems (every spend confirmed first) and copies the code from "Your rewards", a flexible
// reward's amount chosen with the keyboard, a cancelled spend, the whole code on a phone, and an axe-core
// audit of every state. Each state is saved as a PNG (STOREFRONT_SCREENSHOTS, default a temp folder).
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Twin } from '../../infra/local/twin';
import { DEMO_CONFIG } from '../../infra/local/twin';
import { headlessBrowserUnavailable, launchHeadlessBrowser } from '../support/headless-browser';
import { apiClient, startTestTwin } from '../support/twin';
import { seriousViolations } from '../support/axe';
import { buyDemoCodes } from '../support/shopper';

const unavailable = headlessBrowserUnavailable();
const describeInBrowser = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`The storefront browser test is SKIPPED: ${unavailable}.`);

jest.setTimeout(120_000);

const SCREENSHOTS = process.env.STOREFRONT_SCREENSHOTS ?? join(tmpdir(), 'storefront-screenshots');
const DEMO_KEY = 'demo_full_key';
/** Demo members (config/demo.json): Ada 1001, Grace 1002, 1006 excluded; 1009..1012 are platform customers only. */
const MEMBER = '1001';
const KEYBOARD_MEMBER = '1002';
const NON_MEMBER = '1009';
const FLEXIBLE_MEMBER = '1005';
const CANCELLING_MEMBER = '1008';
const PHONE_MEMBER = '1003';
const EXCLUDED_MEMBER = '1006';
const GOLD_MEMBER = '1005';

/** The demo configuration, its shop given a Dev Dashboard app (the app proxy signs with its secret). */
function demoWithApp(): unknown {
  const config = JSON.parse(readFileSync(DEMO_CONFIG, 'utf8')) as { shops: Array<{ id: string; platform: Record<string, unknown> }> };
  for (const shop of config.shops) {
    shop.platform.client_id ??= `${shop.id}-client-id`;
    shop.platform.client_secret ??= `${shop.id}-client-secret`;
  }
  return config;
}

describeInBrowser(`the storefront's rewards panel in Chromium${unavailable ? ` [SKIPPED: ${unavailable}]` : ''}`, () => {
  let twin: Twin;
  let browser: Browser;
  let storefront: string;
  let origin: string;
  const api = () => apiClient(twin.url, DEMO_KEY);

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [twin, browser] = await Promise.all([startTestTwin(demoWithApp(), { throttling: false }), launchHeadlessBrowser()]);
    storefront = twin.simulator.storefrontUrl('demo');
    origin = new URL(storefront).origin;
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await twin?.stop();
  });

  /** A fresh browser profile, signed in as `customerId` through the storefront's login (or a guest). */
  async function shopper(customerId: string | null): Promise<{ context: BrowserContext; page: Page; requested: string[] }> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 860 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    if (customerId !== null) {
      const response = await page.goto(`${storefront}account/login?customer_id=${customerId}`);
      expect(response?.url()).toBe(storefront);
    } else {
      await page.goto(storefront);
    }
    return { context, page, requested };
  }

  const panel = (page: Page) => page.getByRole('dialog', { name: /Rewards/ });
  const live = (page: Page) => page.locator('.loy-live');
  /** The live region announces exactly this (it is set a moment after the change, so wait for it). */
  const expectAnnounced = async (page: Page, text: string) => {
    await live(page).filter({ hasText: text }).waitFor();
    expect(await live(page).textContent()).toBe(text);
  };
  const shoot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  /** The state at 1280 px and at 390 px wide (the panel scrolled to `focus` when given), then back to the page's size. */
  async function shootBoth(page: Page, name: string, focus?: string): Promise<void> {
    const size = page.viewportSize();
    for (const [width, height] of [
      [1280, 900],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      if (focus) await page.locator(focus).first().scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`) });
    }
    if (size) await page.setViewportSize(size);
  }
  /** The signup rule's points, as the program gives them to a guest. */
  const signupPoints = async () => {
    const rules = (await api().get('/v1/earning-rules?filter[is_active]=true&page[size]=100')).body.data as Array<{
      attributes: { action: string; points: number };
    }>;
    return rules.find((rule) => rule.attributes.action === 'signup')!.attributes.points;
  };

  /** Opens the panel as a person would and waits for its content; an error the panel shows fails here, named. */
  async function openPanel(page: Page): Promise<void> {
    await page.getByRole('button', { name: 'Rewards', exact: true }).click();
    await panel(page).waitFor({ state: 'visible' });
    await page.waitForSelector('.loy-body[aria-busy="false"]');
    const error = page.locator('.loy-error');
    if ((await error.count()) > 0) throw new Error(`the panel shows an error: ${await error.textContent()}`);
  }

  it('shows a guest the program and a sign-in prompt, fetching nothing until the panel opens', async () => {
    const { context, page, requested } = await shopper(null);
    await page.waitForLoadState('load');
    // Before the launcher is used: the page alone, neither the panel's assets nor a call.
    expect(requested).toEqual([storefront]);
    await shoot(page, '01-guest-closed');

    await openPanel(page);
    const dialog = panel(page);
    await expect(dialog.getByRole('link', { name: 'Sign in' }).getAttribute('href')).resolves.toBe('/storefront/demo/account/login');
    await dialog.getByText(/Sign in or create an account to join/).waitFor();
    await dialog.getByRole('heading', { name: 'Ways to earn' }).waitFor();
    await dialog.getByRole('heading', { name: 'Rewards', exact: true }).waitFor();
    await dialog.getByText('$5 off').first().waitFor();
    // The tiers, the referral offer, and what joining gives.
    await dialog.getByRole('heading', { name: 'Tiers' }).waitFor();
    for (const tier of ['Bronze', 'Silver', 'Gold']) await dialog.getByText(tier, { exact: true }).waitFor();
    await dialog.getByRole('heading', { name: 'Refer a friend' }).waitFor();
    await dialog.getByText(/Invite friends once you have joined/).waitFor();
    await dialog.getByRole('link', { name: `Join (+${await signupPoints()} points)` }).waitFor();
    // A guest can redeem nothing.
    await expect(dialog.getByRole('button', { name: /^Redeem/ }).count()).resolves.toBe(0);
    expect(requested.filter((url) => new URL(url).hostname !== '127.0.0.1')).toEqual([]);
    await shoot(page, '02-guest-open');
    await shootBoth(page, 'guest');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await context.close();
  });

  it('lets a signed-in non-member join and shows the signup points the API gave', async () => {
    const { context, page } = await shopper(NON_MEMBER);
    await openPanel(page);
    const dialog = panel(page);
    await dialog.getByText(/You are not a member/).waitFor();
    await shoot(page, '03-non-member');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);

    await dialog.getByRole('button', { name: `Join (+${await signupPoints()} points)` }).click();
    await page.waitForSelector('[data-loyalty-balance]');
    const member = await api().get(`/v1/customers/${NON_MEMBER}`);
    expect(member.status).toBe(200);
    const history = await api().get(`/v1/customers/${NON_MEMBER}/earning-history`);
    const signups = history.body.data.filter((entry: { attributes: { action: string } }) => entry.attributes.action === 'signup');
    expect(signups).toHaveLength(1);
    const points = signups[0].attributes.points as number;
    expect(points).toBeGreaterThan(0);
    await expectAnnounced(page, `Welcome! You earned ${points} points for joining.`);
    await expect(page.locator('[data-loyalty-balance]').getAttribute('data-loyalty-balance')).resolves.toBe(
      String(member.body.data.attributes.current_points),
    );
    await dialog.getByRole('heading', { name: 'Recent activity' }).waitFor();
    await shoot(page, '04-joined');
    await context.close();
  });

  it('shows a member the balance the API reports, redeems a reward, shows and copies the code, which the reward history holds', async () => {
    const before = await api().get(`/v1/customers/${MEMBER}`);
    const { context, page } = await shopper(MEMBER);
    await openPanel(page);
    const dialog = panel(page);
    await expect(page.locator('[data-loyalty-balance]').getAttribute('data-loyalty-balance')).resolves.toBe(
      String(before.body.data.attributes.current_points),
    );
    await dialog.getByText(/Hello Ada/).waitFor();
    await expect(dialog.getByLabel('Your referral link').inputValue()).resolves.toMatch(/^https?:\/\//);
    await shoot(page, '05-member');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);

    await shootBoth(page, 'member');
    // The code bought before (10 % off, no end date) is in "Your rewards".
    await dialog.getByRole('heading', { name: 'Your rewards' }).waitFor();
    await dialog.locator('.loy-owned .loy-code', { hasText: 'LOYAL-P4WN8D' }).waitFor();

    await dialog.getByRole('button', { name: /^Redeem \$5 off for 500 points$/ }).click();
    // Nothing is spent until the shopper confirms.
    await dialog.getByText('Spend 500 points for $5 off?').waitFor();
    expect((await api().get(`/v1/customers/${MEMBER}`)).body.data.attributes.current_points).toBe(
      before.body.data.attributes.current_points,
    );
    await shootBoth(page, 'confirm', '.loy-confirm');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const owned = dialog.locator('.loy-owned--new');
    await owned.waitFor();
    const discountCode = (await owned.locator('.loy-code').textContent())!;
    expect(discountCode).toMatch(/\S{6,}/);
    await expectAnnounced(page, `You redeemed $5 off. Your code is ${discountCode}.`);
    await expect(owned.locator('strong').textContent()).resolves.toBe('$5 off');
    await owned.getByText(/^Expires /).waitFor();
    await owned.getByRole('button', { name: `Copy code ${discountCode}` }).click();
    // Said beside the button, in a live region of its own.
    const copied = owned.locator('.loy-copied[role="status"]');
    await copied.filter({ hasText: 'Code copied to the clipboard.' }).waitFor();
    await expect(copied.isVisible()).resolves.toBe(true);
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(discountCode);
    await shoot(page, '06-redeemed');
    await shootBoth(page, 'code-copied', '.loy-owned--new');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);

    const after = await api().get(`/v1/customers/${MEMBER}`);
    expect(after.body.data.attributes.current_points).toBe(before.body.data.attributes.current_points - 500);
    await expect(page.locator('[data-loyalty-balance]').getAttribute('data-loyalty-balance')).resolves.toBe(
      String(after.body.data.attributes.current_points),
    );
    const rewards = await api().get(`/v1/customers/${MEMBER}/reward-history`);
    expect(rewards.status).toBe(200);
    expect(JSON.stringify(rewards.body.data)).toContain(discountCode);
    await context.close();
  });

  it('redeems store credit: confirmed first, then credited to the Shopify account, with no code to copy', async () => {
    const member = '1007';
    await api().post(`/v1/customers/${member}/points`, { adjustment: 600, note: 'store credit' });
    const before = (await api().get(`/v1/customers/${member}`)).body.data.attributes.current_points as number;
    const { context, page } = await shopper(member);
    await openPanel(page);
    const dialog = panel(page);
    await dialog.getByRole('button', { name: /^Redeem \$5\.00 store credit for 500 points$/ }).click();
    await dialog.getByText('Spend 500 points for $5.00 store credit?').waitFor();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await expectAnnounced(page, 'You redeemed $5.00 store credit. It is on your account as store credit, ready for your next order.');
    // Credited on the platform, the points spent once, no code anywhere, the spend in the activity.
    const credit = (await (await fetch(`${twin.platformUrl}/_store_credit?shop=demo&customer_id=${member}`)).json()) as { balance: string };
    expect(credit.balance).toBe('5.00');
    expect((await api().get(`/v1/customers/${member}`)).body.data.attributes.current_points).toBe(before - 500);
    await expect(dialog.locator('.loy-owned--new').count()).resolves.toBe(0);
    const line = dialog.locator('#loy-activity').locator('..').locator('li', { hasText: '$5.00 store credit' });
    await line.waitFor();
    await expect(line.locator('.loy-code--line').count()).resolves.toBe(0);
    await expect(page.evaluate("document.activeElement && document.activeElement.closest('dialog') !== null")).resolves.toBe(true);
    await shootBoth(page, 'store-credit', '#loy-activity');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await context.close();
  });

  it('does the same with the keyboard alone: Tab to the launcher, Enter, Tab to Redeem, Enter, copy, Escape', async () => {
    const before = await api().get(`/v1/customers/${KEYBOARD_MEMBER}`);
    const { context, page } = await shopper(KEYBOARD_MEMBER);
    const focused = () =>
      page.evaluate(
        "(() => { const a = document.activeElement; return { label: (a && (a.getAttribute('aria-label') || a.textContent.trim())) || '', inDialog: !!(a && a.closest('dialog')) }; })()",
      ) as Promise<{ label: string; inDialog: boolean }>;
    const tabTo = async (label: RegExp, limit = 60) => {
      for (let i = 0; i < limit; i += 1) {
        await page.keyboard.press('Tab');
        if (label.test((await focused()).label)) return;
      }
      throw new Error(`Tab never reached ${label}`);
    };

    await tabTo(/^Rewards$/);
    await page.keyboard.press('Enter');
    await page.waitForSelector('.loy-body[aria-busy="false"]');
    await expect(page.evaluate('document.activeElement.id')).resolves.toBe('loyalty-title');
    // Tab stays in the open panel, round and round.
    for (let i = 0; i < 40; i += 1) {
      await page.keyboard.press('Tab');
      expect((await focused()).inDialog).toBe(true);
    }
    await tabTo(/^Redeem \$5 off for 500 points$/);
    await page.keyboard.press('Enter');
    // The confirmation takes the focus; Enter confirms.
    await expect(focused()).resolves.toEqual({ label: 'Confirm', inDialog: true });
    await page.keyboard.press('Enter');
    await page.locator('.loy-owned--new').waitFor();
    const discountCode = (await page.locator('.loy-owned--new .loy-code').textContent())!;
    // Focus moves to the new code's copy button; Enter copies.
    await expect(focused()).resolves.toEqual({ label: `Copy code ${discountCode}`, inDialog: true });
    await page.keyboard.press('Enter');
    await page.locator('.loy-owned--new .loy-copied').filter({ hasText: 'Code copied to the clipboard.' }).waitFor();
    await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(discountCode);
    await shoot(page, '07-keyboard-redeemed');

    await page.keyboard.press('Escape');
    await panel(page).waitFor({ state: 'hidden' });
    // The dialog's close event (a task after Escape) returns the focus and resets aria-expanded.
    await page.waitForSelector('.loy-launcher[aria-expanded="false"]');
    await expect(focused()).resolves.toEqual({ label: 'Rewards', inDialog: false });
    await expect(page.getByRole('button', { name: 'Rewards', exact: true }).getAttribute('aria-expanded')).resolves.toBe('false');
    await shoot(page, '08-keyboard-closed');

    const after = await api().get(`/v1/customers/${KEYBOARD_MEMBER}`);
    expect(after.body.data.attributes.current_points).toBe(before.body.data.attributes.current_points - 500);
    const rewards = await api().get(`/v1/customers/${KEYBOARD_MEMBER}/reward-history`);
    expect(JSON.stringify(rewards.body.data)).toContain(discountCode);
    await context.close();
  });

  it("chooses a flexible reward's amount with the keyboard, confirms, and finds the code in Your rewards after a reload", async () => {
    const before = (await api().get(`/v1/customers/${FLEXIBLE_MEMBER}`)).body.data.attributes.current_points as number;
    const { context, page } = await shopper(FLEXIBLE_MEMBER);
    const focusedId = () => page.evaluate('document.activeElement && document.activeElement.id') as Promise<string>;
    await openPanel(page);
    const dialog = panel(page);
    await dialog.getByRole('button', { name: /^Redeem Dollars off, you choose for 100 points$/ }).focus();
    await page.keyboard.press('Enter');
    // The amount first: the slider has the focus, in the reward's steps of 100 points, each $1.
    await expect(focusedId()).resolves.toBe('loy-amount');
    await dialog.getByText('100 points for $1 off', { exact: true }).waitFor();
    for (let i = 0; i < 4; i += 1) await page.keyboard.press('ArrowRight');
    await dialog.getByText('500 points for $5 off', { exact: true }).waitFor();
    await dialog.getByText('Spend 500 points for $5 off?').waitFor();
    await expect(dialog.getByRole('slider').getAttribute('aria-valuetext')).resolves.toBe('500 points for $5 off');
    await shootBoth(page, 'flexible-chooser', '.loy-confirm');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await page.keyboard.press('Tab');
    await expect(page.evaluate("document.activeElement.getAttribute('data-confirm') !== null")).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await dialog.locator('.loy-owned--new').waitFor();
    const discountCode = (await dialog.locator('.loy-owned--new .loy-code').textContent())!;
    expect((await api().get(`/v1/customers/${FLEXIBLE_MEMBER}`)).body.data.attributes.current_points).toBe(before - 500);

    // Kept by the service, not the browser: a reload shows it with its value and end date.
    await page.reload();
    await openPanel(page);
    const row = panel(page).locator('.loy-owned', { has: page.locator('.loy-code', { hasText: discountCode }) });
    // The reward's name for a flexible spend is its value ("$5.00 off"), so the row says it once.
    await expect(row.locator('strong').textContent()).resolves.toBe('$5.00 off');
    await expect(row.locator('.loy-value').count()).resolves.toBe(0);
    const expiry = (await row.locator('.loy-expiry').textContent())!;
    const bought = (await api().get(`/v1/customers/${FLEXIBLE_MEMBER}/reward-history`)).body.data.find(
      (entry: { attributes: { discount_code: string } }) => entry.attributes.discount_code === discountCode,
    );
    const ends = new Date(bought.attributes.expires_at).toLocaleDateString('en', { year: 'numeric', month: 'short', day: 'numeric' });
    expect(expiry).toBe(`Expires ${ends}`);
    // The spend is in the activity under the reward's name, with its code.
    await panel(page).locator('#loy-activity').locator('..').getByText('$5.00 off').first().waitFor();
    await panel(page).locator('#loy-activity').locator('..').locator('.loy-code--line', { hasText: discountCode }).waitFor();
    await shootBoth(page, 'activity-with-code', '.loy-code--line');
    await shootBoth(page, 'your-rewards', '#loy-your-rewards');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await context.close();
  });

  it('shows 20 codes, then the rest behind "Show more codes", reached and pressed with the keyboard', async () => {
    const member = '1004';
    const codes = await buyDemoCodes(api(), member, 23);
    const { context, page } = await shopper(member);
    await openPanel(page);
    const dialog = panel(page);
    const shown = dialog.locator('#loy-your-rewards').locator('..').locator('.loy-owned .loy-code');
    await expect(shown.count()).resolves.toBe(20);
    const more = dialog.getByRole('button', { name: 'Show more codes' });
    await more.focus();
    await page.keyboard.press('Enter');
    await dialog.locator('.loy-owned').nth(22).waitFor();
    // Every code once, newest first; the button gone; the focus on the first code added.
    await expect(shown.allTextContents()).resolves.toEqual([...codes].reverse());
    await expect(more.count()).resolves.toBe(0);
    await expect(page.evaluate("document.activeElement.closest('.loy-owned').getAttribute('data-code-id') !== null")).resolves.toBe(true);
    await shootBoth(page, 'your-rewards-more', '[data-code-id]');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await context.close();
  });

  it('spends nothing when a confirmation is cancelled, by its button or by Escape, and gives the focus back', async () => {
    const before = await api().get(`/v1/customers/${CANCELLING_MEMBER}`);
    const historyBefore = (await api().get(`/v1/customers/${CANCELLING_MEMBER}/reward-history`)).body.meta.total;
    const { context, page } = await shopper(CANCELLING_MEMBER);
    await openPanel(page);
    const dialog = panel(page);
    const redeem = dialog.getByRole('button', { name: /^Redeem \$5 off for 500 points$/ });
    await redeem.focus();
    await page.keyboard.press('Enter');
    await dialog.getByText('Spend 500 points for $5 off?').waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expectAnnounced(page, 'Nothing was spent.');
    await expect(redeem.evaluate((node) => node === node.ownerDocument.activeElement)).resolves.toBe(true);
    // Escape in a confirmation cancels it and leaves the panel open.
    await page.keyboard.press('Enter');
    await dialog.getByText('Spend 500 points for $5 off?').waitFor();
    await page.keyboard.press('Escape');
    await expect(dialog.getByText('Spend 500 points for $5 off?').count()).resolves.toBe(0);
    await expect(dialog.isVisible()).resolves.toBe(true);
    const after = await api().get(`/v1/customers/${CANCELLING_MEMBER}`);
    expect(after.body.data.attributes.current_points).toBe(before.body.data.attributes.current_points);
    expect((await api().get(`/v1/customers/${CANCELLING_MEMBER}/reward-history`)).body.meta.total).toBe(historyBefore);
    await context.close();
  });

  it('shows the whole code on a phone-sized screen', async () => {
    const { context, page } = await shopper(PHONE_MEMBER);
    await page.setViewportSize({ width: 390, height: 844 });
    await openPanel(page);
    const dialog = panel(page);
    await dialog.getByRole('button', { name: /^Redeem \$5 off for 500 points$/ }).click();
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const code = dialog.locator('.loy-owned--new .loy-code');
    await code.waitFor();
    const fits = (await code.evaluate((node) => ({ scroll: node.scrollWidth, client: node.clientWidth }))) as {
      scroll: number;
      client: number;
    };
    expect(fits.scroll).toBeLessThanOrEqual(fits.client);
    const box = (await code.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await context.close();
  });

  it('tells an excluded member so, with nothing to redeem, on a phone-sized screen', async () => {
    const { context, page } = await shopper(EXCLUDED_MEMBER);
    await page.setViewportSize({ width: 390, height: 844 });
    await openPanel(page);
    const dialog = panel(page);
    await dialog.getByText('Your account does not take part in the rewards program.').waitFor();
    await expect(dialog.getByRole('button', { name: /^Redeem/ }).count()).resolves.toBe(0);
    // The panel fits the screen's width.
    const box = await dialog.boundingBox();
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(390);
    await shoot(page, '10-excluded-phone');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await context.close();
  });

  it("invites a guest to see a product's points, and shows them once the panel has loaded the program, without a call on page load", async () => {
    const { context, page, requested } = await shopper(null);
    await page.goto(`${storefront}products/merino-scarf?variant=41003`);
    await page.waitForLoadState('load');
    // Nothing held yet in this browser: no figure is guessed, and nothing is fetched on the page's load.
    const block = page.locator('[data-loyalty-product]');
    await block.getByText('Earn points with this purchase').waitFor();
    expect(requested.filter((url) => url.includes('/apps/loyalty'))).toEqual([]);
    await shoot(page, '09-product');
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);

    // "See how many" opens the panel; its program answer gives the block this guest's figure at once:
    // $94.00 at 5 points per $1 in the demo's running double points week.
    await block.getByRole('button', { name: 'See how many' }).click();
    await panel(page).waitFor({ state: 'visible' });
    await page.waitForSelector('.loy-body[aria-busy="false"]');
    await page.keyboard.press('Escape');
    await block.getByText('Earn 940 points with this purchase').waitFor();
    await context.close();
  });

  it('shows a Gold member in a campaign the same figure on the panel and the product block, the campaign named with its end', async () => {
    const shots = process.env.FIGURES_SCREENSHOTS ?? '/tmp/shots-h46-numbers';
    mkdirSync(shots, { recursive: true });
    // 1005 is Gold (2x) in config/demo.json, and the demo's "Double points week" (2x) runs until 2099.
    const { context, page, requested } = await shopper(GOLD_MEMBER);
    const program = (await api().get(`/v1/earning-rules?filter[customer_identifier]=${GOLD_MEMBER}&page[size]=100`)).body;
    const order = program.data.find((rule: { id: string }) => rule.id === 'rule-order').attributes;
    expect(order.points).toBe(20);
    expect(program.meta.campaign_info).toEqual({ name: 'Double points week' });

    await openPanel(page);
    const dialog = panel(page);
    await dialog.getByText('Double points week: 2× points until Jan 1, 2099').waitFor();
    const line = dialog.locator('.loy-item', { hasText: 'Place an order' });
    await expect(line.locator('.loy-points').textContent()).resolves.toBe('20 points for every $1');
    // The merchant's label states the base figure: it is not shown beside the figure now.
    await expect(dialog.getByText('5 points for every $1 spent').count()).resolves.toBe(0);
    // The demo's tiers multiply purchases only: the signup's 200 points are doubled by the campaign alone.
    await expect(dialog.locator('.loy-item', { hasText: 'Create an account' }).locator('.loy-points').textContent()).resolves.toBe(
      '400 points',
    );
    for (const [width, height, name] of [
      [1280, 900, 'panel-desktop'],
      [390, 844, 'panel-phone'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await dialog.locator('#loy-earn').scrollIntoViewIfNeeded();
      await page.screenshot({ path: join(shots, `${name}.png`) });
    }
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await page.keyboard.press('Escape');

    // The product page, loaded afresh: the figure from what the embed holds, with no call. $89 × 5 × 2 × 2.
    await page.setViewportSize({ width: 1280, height: 900 });
    const before = requested.length;
    await page.goto(`${storefront}products/merino-scarf?variant=41002`);
    await page.waitForLoadState('load');
    const block = page.locator('[data-loyalty-product]');
    await block.getByText('Earn 1,780 points with this purchase').waitFor();
    await block.getByText('Includes Double points week, until Jan 1, 2099').waitFor();
    await expect(block.locator('[data-loyalty-product-points]').getAttribute('data-loyalty-product-points')).resolves.toBe('1780');
    expect(requested.slice(before).filter((url) => url.includes('/apps/loyalty'))).toEqual([]);
    // A theme that swaps the block in for another variant (the section rendering API: markup set, its
    // inline script not run) gets the new price's figure: $94 × 5 × 2 × 2.
    await page.evaluate(`(() => {
      const block = document.querySelector('[data-loyalty-product]');
      const html = block.outerHTML.replace(/data-price="\\d+"/, 'data-price="9400"').replace(/ data-loyalty-done=""/, '');
      const holder = document.createElement('div');
      holder.innerHTML = html;
      block.replaceWith(holder.firstElementChild);
    })()`);
    await page.locator('[data-loyalty-product]').getByText('Earn 1,880 points with this purchase').waitFor();
    await page.goto(`${storefront}products/merino-scarf?variant=41002`);
    await block.getByText('Earn 1,780 points with this purchase').waitFor();
    await page.screenshot({ path: join(shots, 'product-desktop.png') });
    expect(await seriousViolations(page, { minimumPasses: 10 })).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: join(shots, 'product-phone.png') });

    // Another shopper in the same browser never sees this member's figure.
    await page.goto(`${storefront}account/logout`);
    await page.goto(`${storefront}products/merino-scarf?variant=41002`);
    await page.locator('[data-loyalty-product]').getByText('Earn points with this purchase').waitFor();
    await context.close();
  });
});
