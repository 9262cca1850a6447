// The checkout extensions' real bundles in a real headless Chromium, on the twin's checkout page (the platform
// simulator plays Shopify's checkout: the `shopify` global with session tokens minted as Shopify mints them, the
// cart, the applied codes and applyDiscountCodeChange; STAND-IN Polaris components, not Shopify's renderer),
// against the twin's real /shopper routes: a member spends a fixed and a flexible reward (the points chosen and
// confirmed, the keyboard alone for the flexible one), the code lands in the checkout's applied codes, Undo takes
// it off and gives the points back; Pay places the order and the thank-you and order status blocks show the
// points the engine awarded, when they arrive, the balance and the tier progress; a guest sees the estimate and
// a sign-in link; a non-member joins in checkout and on the thank-you page. axe-core audits every state; each is
// saved as a PNG.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { seriousViolations } from '../support/axe';
import { headlessBrowserUnavailable, launchHeadlessBrowser } from '../support/headless-browser';
import { sessionToken, withToken } from '../support/shopper';
import { apiClient, startTestTwin } from '../support/twin';

const unavailable = headlessBrowserUnavailable();
const describeInBrowser = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`The checkout browser test is SKIPPED: ${unavailable}.`);

const SCREENSHOTS = process.env.SCREENSHOT_DIR ?? '/tmp/checkout-shots';
const number = (value: number) => new Intl.NumberFormat('en').format(value);
const mediumDate = (iso: string) => new Intl.DateTimeFormat('en', { dateStyle: 'medium' }).format(new Date(iso));

let twin: Twin;
let browser: Browser;
let context: BrowserContext;
const api = () => apiClient(twin.url, 'demo_full_key');
const balance = async (customerId: string) =>
  (await api().get(`/v1/customers/${customerId}`)).body.data.attributes.current_points as number;

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

async function audit(page: Page): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
}

/** Opens a page of the twin's checkout and waits for its extension to start, with no script error. */
async function open(path: string): Promise<Page> {
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  await page.goto(`${twin.platformUrl}${path}`);
  await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true', undefined, { timeout: 30_000 });
  await page.locator('s-spinner').first().waitFor({ state: 'detached' });
  expect(failures).toEqual([]);
  return page;
}

const checkoutOf = (customerId?: string, variant = '41002', quantity = 1) =>
  `/checkout/demo/?variant=${variant}&quantity=${quantity}${customerId ? `&customer_id=${customerId}` : ''}`;

/** The codes the checkout page lists as applied (Shopify's own part of the page). */
const appliedCodes = (page: Page) => page.locator('#applied-codes li').allTextContents();

/** What the engine says an order of this cart earns this shopper now: the estimate, asked as the block asks it. */
async function estimateFor(customerId: string | undefined, price: string, quantity: number, discount = '0.00') {
  const token = await sessionToken(twin.platformUrl, 'demo', customerId);
  const response = await withToken(twin.url, token, 'POST', '/estimate', {
    lines: [{ variant_id: '41002', quantity, price, gift_card: false }],
    discount,
    currency: 'USD',
  });
  return response.body.data.attributes as { points: number; points_due_at: string | null; status: string };
}

describeInBrowser(`the checkout extensions in Chromium${unavailable ? ` [SKIPPED: ${unavailable}]` : ''}`, () => {
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [twin, browser] = await Promise.all([startTestTwin(DEMO_CONFIG, { throttling: false }), launchHeadlessBrowser()]);
    context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
    console.log(`screenshots: ${SCREENSHOTS}`);
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await twin?.stop();
  });

  it('lets a member spend a fixed reward into the checkout, undo it before paying, then spend a flexible one with the keyboard and pay', async () => {
    await api().post('/v1/customers/1001/points', { adjustment: 1500, note: 'checkout browser test' });
    const start = await balance('1001');
    const page = await open(checkoutOf('1001'));
    await page.getByText(`You have ${number(start)} points`).waitFor();
    const earns = await estimateFor('1001', '89.00', 1);
    await page.getByText(`This order earns ${number(earns.points)} points`).waitFor();
    await page.getByRole('button', { name: 'Use $5 off' }).waitFor();
    // Store credit is credited to the account, never offered in checkout.
    expect(await page.getByRole('button', { name: /store credit/ }).count()).toBe(0);
    await shoot(page, '01-member-checkout');
    await audit(page);

    // The fixed reward: asked first, nothing spent until confirmed.
    await page.getByRole('button', { name: 'Use $5 off' }).click();
    await page.getByText('Spend 500 points for $5 off on this order?').waitFor();
    expect(await balance('1001')).toBe(start);
    await shoot(page, '02-confirm-fixed');
    await audit(page);
    await page.getByRole('button', { name: 'Spend and apply' }).click();
    await page.getByText(/^\$5 off applied: code \S+, 500 points spent\.$/).waitFor();
    const fixed = (await api().get('/v1/customers/1001/reward-history')).body.data[0];
    const fixedCode = fixed.attributes.discount_code as string;
    expect(fixed.attributes).toMatchObject({ reward_id: 'five-off', points_spent: 500 });
    // In the checkout's applied codes at once, the total down by $5, and the balance down by 500.
    await page.locator('#applied-codes li', { hasText: fixedCode }).waitFor();
    expect(await page.locator('#total').textContent()).toBe('$84.00');
    await page.getByText(`You have ${number(start - 500)} points`).waitFor();
    expect(await balance('1001')).toBe(start - 500);
    // What the order earns now counts the discount, as the paid order will.
    const discounted = await estimateFor('1001', '89.00', 1, '5.00');
    await page.getByText(`This order earns ${number(discounted.points)} points`).waitFor();
    await shoot(page, '03-fixed-applied');
    await audit(page);

    // Undo before paying: the code leaves the checkout and the points come back.
    await page.getByRole('button', { name: 'Undo $5 off and get 500 points back' }).click();
    await page.getByText('$5 off removed: 500 points are back in your balance.').waitFor();
    await page.getByText(`You have ${number(start)} points`).waitFor();
    expect(await appliedCodes(page)).toEqual([]);
    expect(await page.locator('#total').textContent()).toBe('$89.00');
    expect(await balance('1001')).toBe(start);
    const undone = (await api().get(`/v1/customers/1001/reward-history/${fixed.id}`)).body.data.attributes;
    expect(undone.is_refunded).toBe(true);
    expect(twin.simulator.discountCodes().map((code) => code.code)).not.toContain(fixedCode);
    await shoot(page, '04-undone');
    await audit(page);

    // The flexible reward with the keyboard alone: Use, 100 more points, Spend and apply.
    await page.locator('#discount-code').focus();
    await tabTo(page, /^Use Dollars off, you choose$/);
    await page.keyboard.press('Enter');
    await page.getByText('100 points for $1 off', { exact: true }).waitFor();
    await tabTo(page, /^100 more points$/);
    await page.keyboard.press('Enter');
    await page.getByText('200 points for $2 off', { exact: true }).waitFor();
    await page.getByText('Spend 200 points for $2 off on this order?').waitFor();
    await shoot(page, '05-confirm-flexible');
    await audit(page);
    await tabTo(page, /^Spend and apply$/);
    await page.keyboard.press('Enter');
    await page.getByText(/ applied: code \S+, 200 points spent\.$/).waitFor();
    const flexible = (await api().get('/v1/customers/1001/reward-history')).body.data[0];
    expect(flexible.attributes).toMatchObject({ reward_id: 'dollar-off-flex', points_spent: 200 });
    const flexibleCode = flexible.attributes.discount_code as string;
    await page.getByText(`${flexible.attributes.reward_name} applied: code ${flexibleCode}, 200 points spent.`).waitFor();
    await page.locator('#applied-codes li', { hasText: flexibleCode }).waitFor();
    expect(await page.locator('#total').textContent()).toBe('$87.00');
    await page.getByText(`You have ${number(start - 200)} points`).waitFor();
    await shoot(page, '06-flexible-applied');
    await audit(page);

    // Pay: the order goes through the simulator with the code, and the thank-you page shows what it earned.
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(/\/checkout\/demo\/thank-you\/\d+/);
    await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true');
    await page.locator('s-spinner').first().waitFor({ state: 'detached' });
    const orderEntry = (await api().get('/v1/customers/1001/earning-history')).body.data.find(
      (entry: { attributes: { action: string } }) => entry.attributes.action === 'purchase',
    ).attributes as { points: number; status: string; points_due_at: string | null; order_id: string };
    // One number: what the block says is what the engine awarded for the paid order.
    await page.getByText(`This order earns ${number(orderEntry.points)} points`).waitFor();
    expect(orderEntry.points).toBe((await estimateFor('1001', '89.00', 1, '2.00')).points);
    if (orderEntry.status === 'pending') {
      await page.getByText(`Pending: they arrive in your balance on ${mediumDate(orderEntry.points_due_at!)}`, { exact: false }).waitFor();
    } else {
      await page.getByText('Approved: they are in your balance.').waitFor();
    }
    const member = (await withToken(twin.url, await sessionToken(twin.platformUrl, 'demo', '1001'), 'GET', '/member')).body.data.attributes;
    await page.getByText(`Your balance: ${number(member.current_points)} points`).waitFor();
    if (member.next_tier) {
      await page.getByText(`${number(member.next_tier.remaining)} more points to reach ${member.next_tier.name}`).waitFor();
      await page.getByRole('progressbar', { name: `Progress to ${member.next_tier.name}` }).waitFor();
    }
    expect(twin.simulator.discountCodes().map((code) => code.code)).toContain(flexibleCode);
    const orders = (await (await fetch(`${twin.platformUrl}/_orders?shop=demo`)).json()) as {
      orders: Array<{ id: number; discount_codes: Array<{ code: string }> }>;
    };
    expect(orders.orders.at(-1)!.discount_codes.map((code) => code.code)).toEqual([flexibleCode]);
    await shoot(page, '07-thank-you');
    await audit(page);

    // The order status page: the same block, on its own.
    const status = await open(`/checkout/demo/orders/${orderEntry.order_id}`);
    await status.getByText(`This order earns ${number(orderEntry.points)} points`).waitFor();
    await status.getByText(`Your balance: ${number(member.current_points)} points`).waitFor();
    await shoot(status, '08-order-status');
    await audit(status);
  }, 180_000);

  it('breaks nothing on a shop without Shopify Plus: no checkout block, and the thank-you block on its own', async () => {
    const page = await open(`${checkoutOf('1003')}&plan=basic`);
    // Shopify renders no checkout-step extension there: the page is checkout's own.
    expect(await page.locator('#extension-root').evaluate((region) => region.childElementCount)).toBe(0);
    expect(await page.getByText('Rewards', { exact: true }).count()).toBe(0);
    await shoot(page, '14-no-plus-checkout');
    await audit(page);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(/\/thank-you\//);
    await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true');
    await page.locator('s-spinner').first().waitFor({ state: 'detached' });
    const entry = (await api().get('/v1/customers/1003/earning-history')).body.data.find(
      (item: { attributes: { action: string } }) => item.attributes.action === 'purchase',
    ).attributes as { points: number };
    await page.getByText(`This order earns ${number(entry.points)} points`).waitFor();
    await shoot(page, '15-no-plus-thank-you');
    await audit(page);
  }, 60_000);

  it('gives the points back at once when checkout refuses the code, and says so', async () => {
    await api().post('/v1/customers/1005/points', { adjustment: 600, note: 'checkout browser test' });
    const start = await balance('1005');
    const page = await open(checkoutOf('1005'));
    await page.getByText(`You have ${number(start)} points`).waitFor();
    // Checkout answers the code's application with its own refusal (a code limit of the shop, say).
    await page.route('**/checkout/demo/cart*', (route) =>
      route.fulfill({ status: 422, contentType: 'application/json', body: JSON.stringify({ error: 'Discount code limit reached' }) }),
    );
    await page.getByRole('button', { name: 'Use $5 off' }).click();
    await page.getByRole('button', { name: 'Spend and apply' }).click();
    await page.getByText('Checkout could not apply the code (Discount code limit reached), so your points were given back.').waitFor();
    await page.getByText(`You have ${number(start)} points`).waitFor();
    expect(await balance('1005')).toBe(start);
    const history = (await api().get('/v1/customers/1005/reward-history')).body.data;
    expect(history[0].attributes).toMatchObject({ reward_id: 'five-off', is_refunded: true });
    expect(await appliedCodes(page)).toEqual([]);
    await shoot(page, '16-code-refused');
    await audit(page);

    // And when the undo cannot reach the service either, the code is said to stay the member's.
    await page.route(`${twin.url}/shopper/member/rewards/*/refund`, (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: 'Use $5 off' }).click();
    await page.getByRole('button', { name: 'Spend and apply' }).click();
    await page
      .getByText(/^Checkout could not apply the code \(Discount code limit reached\)\. Code \S+ stays yours to use later\.$/)
      .waitFor();
    const kept = (await api().get('/v1/customers/1005/reward-history')).body.data[0].attributes;
    await page.getByText(`Code ${kept.discount_code} stays yours`, { exact: false }).waitFor();
    expect(kept).toMatchObject({ reward_id: 'five-off', is_refunded: false });
    expect(await balance('1005')).toBe(start - 500);
    await shoot(page, '16b-code-refused-kept');
    await audit(page);
  }, 60_000);

  it('says when the service cannot be reached, and loads on Try again', async () => {
    const page = await context.newPage();
    await page.route(`${twin.url}/shopper/**`, (route) => route.abort('connectionrefused'));
    await page.goto(`${twin.platformUrl}${checkoutOf('1001')}`);
    await page.getByText('The rewards program could not be reached. Check your connection and try again.').waitFor();
    await shoot(page, '17-unreachable');
    await audit(page);
    await page.unroute(`${twin.url}/shopper/**`);
    await page.getByRole('button', { name: 'Try again' }).click();
    await page.getByText(/^You have [\d,]+ points$/).waitFor();
  }, 60_000);

  it('shows a guest what the order would earn and a sign-in link', async () => {
    const page = await open(checkoutOf(undefined, '41002', 2));
    const guest = await estimateFor(undefined, '89.00', 2);
    await page.getByText(`Members earn ${number(guest.points)} points on this order`).waitFor();
    const signIn = page.getByRole('link', { name: 'Sign in' }).last();
    expect(await signIn.getAttribute('href')).toBe(`${twin.platformUrl}/storefront/demo/account/login`);
    expect(await page.getByRole('button', { name: /^Use / }).count()).toBe(0);
    await shoot(page, '09-guest');
    await audit(page);
  }, 60_000);

  it('lets a signed-in customer who has not joined join in checkout, then earn on this order', async () => {
    const page = await open(checkoutOf('1011'));
    const estimate = await estimateFor('1011', '89.00', 1);
    await page.getByText(`Join the rewards program and this order earns ${number(estimate.points)} points`).waitFor();
    await shoot(page, '10-non-member');
    await audit(page);
    await page.getByRole('button', { name: 'Join the rewards program' }).click();
    await page.getByText('Welcome to the rewards program!').waitFor();
    const joined = await balance('1011');
    await page.getByText(`You have ${number(joined)} points`).waitFor();
    await page.getByText(`This order earns ${number(estimate.points)} points`).waitFor();
    await shoot(page, '11-joined');
    await audit(page);
  }, 60_000);

  it('offers a signed-in non-member the join button on the thank-you page, which enrols the order’s customer', async () => {
    const page = await open(checkoutOf('1012'));
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.waitForURL(/\/thank-you\//);
    await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true');
    await page.getByRole('button', { name: 'Join the rewards program' }).waitFor();
    await page.getByText(/Join to earn on your next orders\.$/).waitFor();
    await shoot(page, '12-thank-you-join');
    await audit(page);
    await page.getByRole('button', { name: 'Join the rewards program' }).click();
    await page.getByText('Welcome to the rewards program!').waitFor();
    const joined = await balance('1012');
    await page.getByText(`Your balance: ${number(joined)} points`).waitFor();
    await shoot(page, '13-thank-you-joined');
    await audit(page);
  }, 60_000);
});
