// The loyalty program at the shop counter in a real headless Chromium: the twin's POS page
// (infra/local/simulator/simulated-pos.ts: a cart of the storefront's products, a customer to attach, the smart grid,
// the customer details screen, POS's APIs as STAND-INS with real session tokens in the admin format for staff user
// 42, stand-in Polaris components, not POS's native renderer) hosting the POS extension's real bundles, against the
// twin's real /admin/api, cross-origin as POS calls it. Staff open the tile, find the cart's customer and another by
// search, see balance, tier and rewards, redeem a fixed and a flexible reward into the cart (the codes show in the
// cart), undo one (code gone, points back), adjust with a reason, charge the order (source pos); every write names
// staff user 42 in the history; the customer details block and action; a path by keyboard alone. axe-core audits
// every state (nothing serious or critical); each is saved as a PNG (POS_SCREENSHOTS, default /tmp/pos-shots).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { seriousViolations } from '../support/axe';
import { headlessBrowserUnavailable, launchHeadlessBrowser } from '../support/headless-browser';
import { apiClient, startTestTwin } from '../support/twin';

const unavailable = headlessBrowserUnavailable();
const describeInBrowser = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`The POS browser test is SKIPPED: ${unavailable}.`);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const SCREENSHOTS = process.env.POS_SCREENSHOTS ?? '/tmp/pos-shots';
const STAFF_USER = '42';
const VIEWPORT = { width: 1180, height: 900 };

let twin: Twin;
let browser: Browser;
let context: BrowserContext;
const api = () => apiClient(twin.url, 'demo_full_key');
const points = async (customerId: string): Promise<number> =>
  (await api().get(`/v1/customers/${customerId}`)).body.data.attributes.current_points;

/** Staff's reads through /admin/api with a token minted as POS mints it for staff user 42. */
async function asStaff(path: string): Promise<Json> {
  const minted = await fetch(`${twin.platformUrl}/_id_tokens`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ shop: 'demo', user_id: STAFF_USER }),
  });
  const { token } = (await minted.json()) as { token: string };
  const answer = await fetch(`${twin.url}/admin/api${path}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(answer.status).toBe(200);
  return answer.json();
}

const shoot = async (page: Page, name: string) => {
  // An open dialog whole: the window made as tall as its content for the picture, then put back.
  const tall = (await page.evaluate(
    '[...document.querySelectorAll("dialog[open]")].reduce((most, dialog) => Math.max(most, dialog.scrollHeight), 0)',
  )) as number;
  if (tall === 0) return page.locator('body').screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  await page.setViewportSize({ width: VIEWPORT.width, height: Math.min(Math.ceil(tall / 0.92) + 40, 8000) });
  await page
    .locator('dialog[open]')
    .last()
    .screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  await page.setViewportSize(VIEWPORT);
};

/** The element that has the focus, through shadow roots, and its accessible name as a screen reader reads it. */
async function focused(page: Page): Promise<string> {
  return page.evaluate(() => {
    let element: Element | null = document.activeElement;
    while (element?.shadowRoot?.activeElement) element = element.shadowRoot.activeElement;
    const root = element?.getRootNode();
    const host = root instanceof ShadowRoot ? root.host : element;
    // A stand-in's own text (a button's label is its host's light DOM; a tile's is in its shadow tree).
    const text = host?.textContent?.trim() ? host.textContent : (element?.textContent ?? '');
    return (element?.getAttribute('aria-label') ?? text).replace(/\s+/g, ' ').trim();
  });
}

/** Asks `read` until it answers `wanted` (10 s at most). */
async function eventually<T>(read: () => Promise<T>, wanted: T): Promise<void> {
  const until = Date.now() + 10_000;
  let last = await read();
  while (last !== wanted && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    last = await read();
  }
  expect(last).toEqual(wanted);
}

/** Presses Tab until the focus is on an element whose name matches (at most 80 presses): keyboard only. */
async function tabTo(page: Page, name: RegExp): Promise<void> {
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press('Tab');
    if (name.test(await focused(page))) return;
  }
  throw new Error(`Tab never reached ${name} (last: ${await focused(page)})`);
}

async function audited(page: Page, name: string): Promise<void> {
  await shoot(page, name);
  expect({ state: name, violations: await seriousViolations(page) }).toEqual({ state: name, violations: [] });
}

async function openPos(): Promise<Page> {
  const page = await context.newPage();
  const failures: string[] = [];
  page.on('pageerror', (error) => failures.push(error.message));
  await page.goto(twin.simulator.posUrl('demo', STAFF_USER));
  await page.waitForFunction(() => document.documentElement.dataset.extensionStarted === 'true', undefined, { timeout: 60_000 });
  expect(failures).toEqual([]);
  return page;
}

const modal = (page: Page) => page.locator('#pos-modal');
const cartCodes = (page: Page) => page.locator('#cart-codes li');

describeInBrowser(`the POS extension at the twin's counter, in Chromium${unavailable ? ` [SKIPPED: ${unavailable}]` : ''}`, () => {
  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [twin, browser] = await Promise.all([startTestTwin(DEMO_CONFIG, { throttling: false }), launchHeadlessBrowser()]);
    context = await browser.newContext({ viewport: VIEWPORT });
    console.log(`screenshots: ${SCREENSHOTS}`);
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await twin?.stop();
  });

  it("finds the cart's customer and another by search, redeems, undoes, adjusts and charges; every write is staff user 42's", async () => {
    const page = await openPos();
    const tile = page.locator('s-tile');
    await tile.getByText('Find a member').waitFor();
    await audited(page, '01-counter-empty');

    // A cart: two products and Ada, found by the counter's own customer search.
    await page.getByRole('button', { name: /Add Merino scarf, Grey/ }).click();
    await page.getByRole('button', { name: /Add Canvas tote/ }).click();
    await page.getByRole('searchbox', { name: 'Find a customer', exact: true }).fill('lovelace');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: 'Attach Ada Lovelace (ada.lovelace@example.com)' }).click();
    const before = await points('1001');
    await tile.getByText(`Ada Lovelace: ${before.toLocaleString('en')} points`).waitFor();
    await audited(page, '02-cart-with-customer');

    // The tile opens the modal: the cart's customer first, and a search by name.
    await tile.getByRole('button').click();
    await modal(page)
      .getByRole('button', { name: `Ada Lovelace, ${before.toLocaleString('en')} points` })
      .waitFor();
    await audited(page, '03-modal-finder');
    await modal(page).getByRole('searchbox', { name: 'E-mail, name or customer id' }).fill('grace');
    await modal(page).getByRole('button', { name: 'Search', exact: true }).click();
    const grace = (await points('1002')).toLocaleString('en');
    await modal(page)
      .getByRole('button', { name: `Grace Hopper (grace.hopper@example.com), ${grace} points`, exact: true })
      .click();
    await modal(page).getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await modal(page).getByText(`${grace} points`, { exact: true }).first().waitFor();
    // Grace is Silver: the Gold members' reward is not hers to redeem, and says so instead of offering it.
    await modal(page).getByText("For another tier's members").waitFor();
    expect(await modal(page).getByRole('button', { name: 'Redeem Free shipping (Gold)' }).count()).toBe(0);
    await audited(page, '04-panel-found-by-search');
    await modal(page).getByRole('button', { name: 'Back to the search' }).click();

    // By e-mail too.
    await modal(page).getByRole('searchbox').fill('ada.lovelace@');
    await modal(page).getByRole('button', { name: 'Search', exact: true }).click();
    await modal(page)
      .getByRole('button', { name: /^Ada Lovelace \(ada\.lovelace@example\.com\)/ })
      .click();
    const panel = modal(page);
    await panel.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    await panel
      .getByText(`${before.toLocaleString('en')} points`, { exact: true })
      .first()
      .waitFor();
    await panel.getByRole('button', { name: 'Redeem $5 off', exact: true }).waitFor();
    // What she cannot afford says how many points it needs, with no button.
    if (before < 2500) {
      await panel.getByText(`Needs ${(2500 - before).toLocaleString('en')} points more`).waitFor();
      expect(await panel.getByRole('button', { name: 'Redeem Free Merino scarf (Grey)' }).count()).toBe(0);
    }
    await audited(page, '05-panel-cart-customer');

    // A fixed reward: confirmed first, then its code is in the POS cart and the points are spent.
    await panel.getByRole('button', { name: 'Redeem $5 off', exact: true }).click();
    await panel.getByText(`Spend 500 points of Ada Lovelace for $5.00 off?`).waitFor();
    await audited(page, '06-redeem-confirmation');
    expect(await points('1001')).toBe(before);
    await panel.getByRole('button', { name: 'Confirm' }).click();
    await panel.getByText(/^\$5 off: code \S+ added to the cart$/).waitFor();
    const fixedCode = /code (\S+) added/.exec(
      (await panel
        .getByText(/^\$5 off: code/)
        .first()
        .textContent())!,
    )![1]!;
    await expect(cartCodes(page).allTextContents()).resolves.toEqual([`Code ${fixedCode}: −$5.00`]);
    expect(await points('1001')).toBe(before - 500);
    await audited(page, '07-fixed-redeemed');

    // A flexible reward: the points chosen (300 for $3), confirmed, its code added beside the first.
    const flexible = panel
      .locator('s-number-field')
      .filter({ hasText: /Points to spend on/ })
      .first();
    await flexible.locator('input').fill('300');
    await panel.getByText('Gives $3.00 off').waitFor();
    const flexibleName = (await flexible.locator('label').textContent())!.replace('Points to spend on ', '');
    await panel.getByRole('button', { name: `Redeem ${flexibleName}`, exact: true }).click();
    await panel.getByText(`Spend 300 points of Ada Lovelace for $3.00 off?`).waitFor();
    await panel.getByRole('button', { name: 'Confirm' }).click();
    await eventually(() => cartCodes(page).count(), 2);
    const flexibleCode = (await cartCodes(page).nth(1).textContent())!.replace(/^Code (\S+):.*$/, '$1');
    expect(await cartCodes(page).nth(1).textContent()).toBe(`Code ${flexibleCode}: −$3.00`);
    expect(await points('1001')).toBe(before - 800);
    await audited(page, '08-flexible-redeemed');

    // Undo the fixed one: confirmed, its code leaves the cart, its points come back.
    await panel.getByRole('button', { name: `Undo ${fixedCode}` }).click();
    await panel.getByText('Undo $5 off? The code leaves the cart and 500 points go back.').waitFor();
    await panel.getByRole('button', { name: 'Confirm' }).click();
    await panel.getByText('$5 off undone: 500 points given back').waitFor();
    await expect(cartCodes(page).allTextContents()).resolves.toEqual([`Code ${flexibleCode}: −$3.00`]);
    expect(await points('1001')).toBe(before - 300);
    await audited(page, '09-undone');

    // Adjust: a reason is required; then confirmed.
    await panel.getByLabel('Points to add').fill('50');
    await panel.getByRole('button', { name: 'Adjust', exact: true }).click();
    await panel.getByText('A reason is required.').waitFor();
    await audited(page, '10-adjust-needs-reason');
    await panel.getByLabel('Reason').fill('Loyalty card stamped in store');
    await panel.getByRole('button', { name: 'Adjust', exact: true }).click();
    await panel.getByText('Add 50 points to Ada Lovelace? Reason: Loyalty card stamped in store').waitFor();
    await panel.getByRole('button', { name: 'Confirm' }).click();
    await panel
      .getByText(`Ada Lovelace now has ${(before - 250).toLocaleString('en')} points`)
      .first()
      .waitFor();
    expect(await points('1001')).toBe(before - 250);
    await audited(page, '11-adjusted');

    // Every write is staff user 42's: the adjustment's and the undo's entries, the redemptions.
    const earning = (await asStaff('/v1/customers/1001/earning-history?page[size]=50')).data.map((entry: Json) => entry.attributes);
    const adjustment = earning.find(
      (entry: Json) => entry.action === 'manual_adjustment' && entry.note === 'Loyalty card stamped in store',
    );
    expect(adjustment).toMatchObject({ points: 50, actor: { type: 'staff', id: STAFF_USER } });
    expect(earning.find((entry: Json) => entry.action === 'reward_refund')).toMatchObject({
      points: 500,
      actor: { type: 'staff', id: STAFF_USER },
    });
    const rewards = (await asStaff('/v1/customers/1001/reward-history?page[size]=50')).data.map((entry: Json) => entry.attributes);
    for (const code of [fixedCode, flexibleCode]) {
      expect(rewards.find((entry: Json) => entry.discount_code === code)).toMatchObject({ actor: { type: 'staff', id: STAFF_USER } });
    }

    // Charge: the order goes through the simulator with source pos, the till and the cart's code.
    await page.locator('#close-modal').click();
    await page.locator('#charge').click();
    await page.getByText(/^Order #\d+ charged: \$\d+\.\d\d; its webhook answered 200\.$/).waitFor();
    await audited(page, '12-charged');
    const orders = (await (await fetch(`${twin.platformUrl}/_orders?shop=demo`)).json()) as { orders?: Json[] } | Json[];
    const order = (Array.isArray(orders) ? orders : orders.orders!).at(-1);
    expect(order).toMatchObject({
      source_name: 'pos',
      user_id: 42,
      location_id: 1,
      device_id: 1,
      landing_site: null,
      subtotal_price: '110.50',
      discount_codes: [expect.objectContaining({ code: flexibleCode })],
      customer: expect.objectContaining({ id: 1001 }),
    });
    // The member has the order's points, from an entry whose source is pos.
    const entry = (await asStaff('/v1/customers/1001/earning-history?page[size]=50')).data
      .map((item: Json) => item.attributes)
      .find((item: Json) => item.order_number === order.name);
    expect(entry).toMatchObject({ action: 'purchase', order_source_name: 'pos', actor: { type: 'shopify' } });
    expect(entry.points).toBeGreaterThan(0);
    if (entry.status === 'approved') expect(await points('1001')).toBe(before - 250 + entry.points);

    // The panel's recent activity says so.
    await page.getByRole('searchbox', { name: 'Find a customer', exact: true }).fill('1001');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: /^Attach Ada Lovelace/ }).click();
    await tile.getByRole('button').click();
    await modal(page)
      .getByRole('button', { name: /^Ada Lovelace, / })
      .click();
    await modal(page)
      .getByText(`+${entry.points.toLocaleString('en')}: order ${order.name} at the counter`)
      .waitFor();
    await audited(page, '13-history-with-pos-order');
    await page.locator('#close-modal').click();
    await page.close();
  }, 240_000);

  it("shows the member on the customer details screen: the block, and the menu item's action with the panel", async () => {
    const page = await openPos();
    await page.getByRole('searchbox', { name: 'Find a customer', exact: true }).fill('hopper');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await page.getByRole('button', { name: /^Attach Grace Hopper/ }).click();
    await page.getByRole('button', { name: 'Customer details' }).click();
    const screen = page.locator('#customer-screen');
    const block = screen.locator('s-pos-block');
    const balance = await points('1002');
    await block.getByText(`${balance.toLocaleString('en')} points`, { exact: true }).waitFor();
    await audited(page, '14-customer-details-block');
    await screen.getByRole('button', { name: 'Loyalty points' }).click();
    await modal(page).getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await modal(page).getByRole('heading', { name: 'Rewards' }).waitFor();
    await audited(page, '15-customer-action');
    await page.locator('#close-modal').click();
    // The block's own way to the panel.
    await block.getByRole('button', { name: 'Redeem or adjust points' }).click();
    await modal(page).getByRole('heading', { name: 'Grace Hopper' }).waitFor();
    await page.locator('#close-modal').click();
    await page.close();
  }, 120_000);

  it('goes from the tile to a redeemed code in the cart with the keyboard alone', async () => {
    const page = await openPos();
    const before = await points('1005');
    await tabTo(page, /^Loyalty ?Find a member$/);
    await page.keyboard.press('Enter');
    await modal(page).getByRole('searchbox').waitFor();
    await tabTo(page, /^E-mail, name or customer id$/);
    await page.keyboard.type('hamilton');
    await page.keyboard.press('Enter');
    await tabTo(page, /^Margaret Hamilton \(margaret\.hamilton@example\.com\)/);
    await page.keyboard.press('Enter');
    await modal(page).getByRole('heading', { name: 'Margaret Hamilton' }).waitFor();
    await tabTo(page, /^Redeem \$5 off$/);
    await page.keyboard.press('Enter');
    // The confirmation takes the focus: Enter confirms.
    await eventually(() => focused(page), 'Confirm');
    await audited(page, '16-keyboard-confirmation');
    await page.keyboard.press('Enter');
    await modal(page)
      .getByText(/^\$5 off: code \S+ added to the cart$/)
      .waitFor();
    expect(await points('1005')).toBe(before - 500);
    await page.keyboard.press('Escape');
    await eventually(() => page.locator('#pos-modal[open]').count(), 0);
    await expect(cartCodes(page).count()).resolves.toBe(1);
    await audited(page, '17-keyboard-code-in-cart');
    await page.close();
  }, 120_000);
});
