// The app's home in a real headless Chromium, against the twin's admin (SURFACES-CONTRACT.md, "The twin" >
// "The admin"): the simulator's admin page frames the twin's GET /admin with a fresh ID token and App Bridge's
// stand-in adds `Authorization: Bearer` to the app's calls. Staff search a member by id, by name and by part of
// an e-mail (the hint's examples each find her), open
// them, adjust with a reason and see the entry (its note and its actor) and the new balance, refund an unused
// reward, then see the overview's figures (GET /admin/api/overview, counted from the delivered events) change;
// the same path again with the keyboard alone; the overview without figures (a route double answering 404) and
// with every figure filled in (a route double). axe-core audits every screen (nothing serious or
// critical); each screen is saved as a PNG (ADMIN_SCREENSHOTS, default a temp folder).
import { mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { seriousViolations } from '../support/axe';
import { headlessBrowserUnavailable, launchHeadlessBrowser } from '../support/headless-browser';
import { apiClient, startTestTwin } from '../support/twin';

const unavailable = headlessBrowserUnavailable();
const describeInBrowser = unavailable ? describe.skip : describe;
if (unavailable) console.warn(`The admin browser test is SKIPPED: ${unavailable}.`);

jest.setTimeout(120_000);

const SCREENSHOTS = process.env.ADMIN_SCREENSHOTS ?? join(tmpdir(), 'admin-screenshots');
/** The widths every new screen is saved at: a desktop admin and a phone's. */
const WIDTHS = [1280, 390] as const;
const DEMO_KEY = 'demo_full_key';
const STAFF_USER = '42';

/** The demo configuration, its shop given a Dev Dashboard app (the ID tokens are signed with its secret). */
function demoWithApp(): unknown {
  const config = JSON.parse(readFileSync(DEMO_CONFIG, 'utf8')) as { shops: Array<{ id: string; platform: Record<string, unknown> }> };
  for (const shop of config.shops) {
    shop.platform.client_id ??= `${shop.id}-client-id`;
    shop.platform.client_secret ??= `${shop.id}-client-secret`;
  }
  return config;
}

const OVERVIEW = {
  members: { total: 8, new: 1, excluded: 1 },
  points_outstanding: 8950,
  points_pending: 640,
  liability: { amount: '89.50', currency: 'USD', point_value: '0.01' },
  in_range: {
    issued: { purchase: 1200, signup: 200, birthday: 0, referral: 0, action: 50, manual: 250, import: 0, refund: 500 },
    redeemed: 1500,
    expired: 0,
    clawed_back: 0,
    redemptions: 2,
    codes_used: 1,
    member_orders: 3,
    member_revenue: '182.40',
    loyalty_orders: 1,
    loyalty_revenue: '54.00',
  },
  redemption_rate: 0.3125,
  repeat_purchase_rate: 0.5714,
  daily: Array.from({ length: 30 }, (_, index) => ({
    date: new Date(Date.UTC(2026, 9, 29 + index)).toISOString().slice(0, 10),
    issued: (index * 37) % 220,
    redeemed: index % 7 === 0 ? 500 : 0,
    expired: 0,
    new_members: index === 17 ? 1 : 0,
    member_revenue: '0.00',
  })),
};

describeInBrowser(`the app's home in the twin's admin, in Chromium${unavailable ? ` [SKIPPED: ${unavailable}]` : ''}`, () => {
  let twin: Twin;
  let browser: Browser;
  const api = () => apiClient(twin.url, DEMO_KEY);

  beforeAll(async () => {
    mkdirSync(SCREENSHOTS, { recursive: true });
    [twin, browser] = await Promise.all([startTestTwin(demoWithApp(), { throttling: false }), launchHeadlessBrowser()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await twin?.stop();
  });

  /** The shop's admin with the app open, and the app's frame once its page has rendered. */
  async function openAdmin(route?: (page: Page) => Promise<unknown>): Promise<{ page: Page; app: Frame; calls: string[] }> {
    const page = await browser.newPage({ viewport: { width: 1200, height: 1400 }, locale: 'en-US' });
    const calls: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/admin/api/')) {
        calls.push(`${request.method()} ${new URL(request.url()).pathname} ${request.headers().authorization ? 'bearer' : 'none'}`);
      }
    });
    if (route) await route(page);
    await page.goto(`${twin.simulator.adminUrl('demo')}?user_id=${STAFF_USER}`);
    const app = page.frames().find((frame) => frame.url().startsWith(`${twin.url}/admin`))!;
    expect(app).toBeDefined();
    await app.getByRole('banner').waitFor();
    return { page, app, calls };
  }
  /** Every committed event handed to the bus and counted in the program's figures. */
  const figuresCounted = async () => {
    await twin.eventStream.caughtUp();
    await twin.figures.idle();
  };
  /** A figure of the overview as a number (`8,950` → 8950). */
  const figureOf = async (app: Frame, label: string) =>
    Number(((await app.locator('.figure', { hasText: label }).locator('dd').textContent()) ?? '').replace(/[^0-9-]/g, ''));
  const shoot = (page: Page, name: string) => page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });
  /** The screen at each of WIDTHS (`<name>-1280.png`, `<name>-390.png`), the whole page, then back to the desktop width. */
  const shootWidths = async (page: Page, name: string) => {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 1000 });
      await page.screenshot({ path: join(SCREENSHOTS, `${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 1280, height: 1400 });
  };
  const expectAccessible = async (app: Frame) => expect(await seriousViolations(app, { minimumPasses: 11 })).toEqual([]);

  it('shows the overview without figures when the service has none (a 404), usable and accessible', async () => {
    const { page, app, calls } = await openAdmin((page) =>
      page.route('**/admin/api/overview?*', (route) =>
        route.fulfill({
          status: 404,
          contentType: 'application/json',
          body: JSON.stringify({ errors: [{ status: '404', title: 'Not Found', detail: 'No route matches GET /admin/api/overview' }] }),
        }),
      ),
    );
    await app.getByRole('status').filter({ hasText: 'Figures not available' }).waitFor();
    await expect(app.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('Overview');
    // App Bridge's stand-in added the staff user's fresh ID token to the app's call.
    expect(calls[0]).toMatch(/^GET \/admin\/api\/overview bearer$/);
    await shoot(page, '01-overview-no-figures');
    await expectAccessible(app);
    await page.close();
  });

  it('shows the figures and the chart of the range when the service answers them', async () => {
    const { page, app } = await openAdmin((page) =>
      page.route('**/admin/api/overview?*', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ data: { type: 'program_overview', id: 'demo', attributes: OVERVIEW } }),
        }),
      ),
    );
    await app.getByText('Points outstanding').waitFor();
    await expect(app.locator('.figure', { hasText: 'Liability' }).locator('dd').textContent()).resolves.toBe('$89.50');
    await expect(app.locator('.figure', { hasText: 'Redemption rate' }).locator('dd').textContent()).resolves.toBe('31.3 %');
    await expect(app.locator('.figure', { hasText: 'Points issued in range' }).locator('dd').textContent()).resolves.toBe('2,200');
    await expect(app.locator('svg rect.issued').count()).resolves.toBe(30);
    await shoot(page, '02-overview-figures');
    await expectAccessible(app);
    await page.close();
  });

  it('finds a member by part of an e-mail, adjusts with a reason, shows the entry and the balance, and refunds an unused reward', async () => {
    // Grace (1002, 950 points) buys a reward through the API: an unused code staff will refund.
    const purchase = await api().post('/v1/rewards/five-off/purchase', { customer_identifier: '1002' });
    expect(purchase.status).toBe(201);
    await figuresCounted();
    const { page, app, calls } = await openAdmin();
    // The program's figures as they stand, from the service.
    await app.getByText('Points outstanding').waitFor();
    const outstanding = await figureOf(app, 'Points outstanding');
    const issued = await figureOf(app, 'Points issued in range');

    await app.getByRole('link', { name: 'Customers' }).click();
    // By customer id: Ada's page with her tier, pending points and lifetime points as the service has them.
    await app.getByLabel('Name, e-mail or customer id').fill('1001');
    await app.getByRole('button', { name: 'Search' }).click();
    await app.getByRole('status').filter({ hasText: '1 member matches “1001”.' }).waitFor();
    await app.getByRole('list', { name: 'Search results' }).getByRole('link', { name: /Ada/ }).click();
    await app.getByRole('heading', { level: 1, name: /Ada/ }).waitFor();
    const ada = (await api().get('/v1/customers/1001')).body as {
      data: { attributes: { vip_tier: { name: string }; lifetime_points: number } };
    };
    const pagePoints = (label: string) => app.locator('.figure', { hasText: label }).locator('dd').textContent();
    await expect(pagePoints('Tier')).resolves.toBe(ada.data.attributes.vip_tier.name);
    await expect(pagePoints('Lifetime')).resolves.toBe(`${ada.data.attributes.lifetime_points.toLocaleString('en-US')} points`);
    const history = (await api().get('/v1/customers/1001/earning-history?page%5Bsize%5D=100')).body as {
      data: Array<{ attributes: { status: string; points: number } }>;
    };
    const pending = history.data.filter((one) => one.attributes.status === 'pending').reduce((sum, one) => sum + one.attributes.points, 0);
    expect(pending).toBeGreaterThan(0);
    await expect(pagePoints('Pending')).resolves.toBe(`${pending.toLocaleString('en-US')} points`);
    await app.getByRole('link', { name: 'Back to customers' }).click();

    // By name: a first and last name in any case (no address has a space: the name index found her).
    await app.getByLabel('Name, e-mail or customer id').fill('ada LOVELACE');
    await app.getByRole('button', { name: 'Search' }).click();
    await app.getByRole('status').filter({ hasText: '1 member matches “ada LOVELACE”.' }).waitFor();
    await expect(app.getByRole('list', { name: 'Search results' }).getByRole('link').textContent()).resolves.toContain('Ada Lovelace');
    // The hint's examples find her on the demo configuration.
    const hint = (await app.locator('#search-hint').textContent()) ?? '';
    const examples = [...hint.matchAll(/“([^”]+)”/g)].map((match) => match[1]!);
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) {
      await app.getByLabel('Name, e-mail or customer id').fill(example);
      await app.getByRole('button', { name: 'Search' }).click();
      await app
        .getByRole('status')
        .filter({ hasText: `“${example}”.` })
        .waitFor();
      await expect(
        app
          .getByRole('list', { name: 'Search results' })
          .getByRole('link', { name: /Ada Lovelace/ })
          .count(),
      ).resolves.toBe(1);
    }

    await app.getByLabel('Name, e-mail or customer id').fill('hopper@');
    await app.getByRole('button', { name: 'Search' }).click();
    await app.getByRole('status').filter({ hasText: '1 member matches “hopper@”.' }).waitFor();
    await shoot(page, '03-search-results');
    await expectAccessible(app);

    await app.getByRole('list', { name: 'Search results' }).getByRole('link', { name: /Grace/ }).click();
    await app.getByRole('heading', { level: 1, name: /Grace/ }).waitFor();
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe('450 points');
    await shoot(page, '04-customer');
    await expectAccessible(app);

    await app.getByLabel('Points (negative deducts)').fill('250');
    await app.getByLabel('Reason (internal note)').fill('Parcel arrived late');
    await app.getByRole('button', { name: 'Adjust' }).click();
    await app.getByRole('status').filter({ hasText: 'Added 250 points. The balance is now 700 points.' }).waitFor();
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe('700 points');
    const entry = app.locator('table.activity tbody tr').first();
    await expect(entry.textContent()).resolves.toContain('Adjustment');
    await expect(entry.locator('td').nth(2).textContent()).resolves.toBe('+250');
    await expect(entry.locator('td').nth(4).textContent()).resolves.toBe('Parcel arrived late');
    await expect(entry.locator('td').nth(5).textContent()).resolves.toBe(`Staff user ${STAFF_USER}`);
    await shoot(page, '05-adjusted');

    const code = (purchase.body as { data: { attributes: { discount_code: string } } }).data.attributes.discount_code;
    await app.getByRole('button', { name: `Refund $5 off (${code})` }).click();
    // Undoing a redemption is confirmed first: the dialog says the code is deleted.
    const dialog = app.getByRole('dialog', { name: 'Undo the redemption of $5 off?' });
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain(`discount code ${code} is deleted`);
    await shootWidths(page, '06a-undo-redemption-confirmation');
    await expectAccessible(app);
    await dialog.getByRole('button', { name: 'Undo redemption' }).click();
    await app
      .getByRole('status')
      .filter({ hasText: `Refunded $5 off: 500 points returned, code ${code} deleted.` })
      .waitFor();
    await expect(app.getByRole('dialog').count()).resolves.toBe(0);
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe('1,200 points');
    await expect(app.getByRole('button', { name: `Refund $5 off (${code})` }).count()).resolves.toBe(0);
    // "By" on every row: the redemption by the API key that bought it, its refund by the staff user.
    const row = (what: string) => app.locator('table.activity tbody tr', { hasText: what }).first().locator('td').nth(5).textContent();
    await expect(row(`$5 off (${code})`)).resolves.toBe('API key “Backend”');
    await expect(row('Reward refunded')).resolves.toBe(`Staff user ${STAFF_USER}`);
    const byCells = await app.locator('table.activity tbody tr td:nth-child(6)').allTextContents();
    expect(byCells.filter((by) => by === '' || by === '—')).toEqual([]);
    await shoot(page, '06-refunded');
    await expectAccessible(app);

    // Back on the overview once the changes' events are counted: 250 points adjusted and 500 given back.
    await figuresCounted();
    await app.getByRole('link', { name: 'Overview' }).click();
    await app.getByText('Points outstanding').waitFor();
    await expect(figureOf(app, 'Points outstanding')).resolves.toBe(outstanding + 750);
    await expect(figureOf(app, 'Points issued in range')).resolves.toBe(issued + 750);
    await shoot(page, '07-overview-changed');
    await expectAccessible(app);

    // Every call went to /admin/api with the staff user's ID token; the API agrees with the page.
    expect(calls.length).toBeGreaterThan(5);
    expect(calls.filter((call) => !call.endsWith(' bearer'))).toEqual([]);
    const grace = await api().get('/v1/customers/1002');
    expect((grace.body as { data: { attributes: { current_points: number } } }).data.attributes.current_points).toBe(1200);
    await page.close();
  });

  it('takes the same path with the keyboard alone: search, open, adjust with a reason, exclude and include, set a birthday, refund', async () => {
    // Alan (1003) holds an unused reward staff will refund by keyboard.
    const bought = await api().post('/v1/rewards/five-off/purchase', { customer_identifier: '1003' });
    expect(bought.status).toBe(201);
    const alansCode = (bought.body as { data: { attributes: { discount_code: string } } }).data.attributes.discount_code;
    const { page, app } = await openAdmin();
    const focused = () =>
      app.evaluate(
        'document.activeElement && (document.activeElement.getAttribute("aria-label") || document.activeElement.id || document.activeElement.textContent)',
      );
    // The view's heading has focus when the app opens; before it, the skip link and the two sections.
    await expect(focused()).resolves.toBe('Overview');
    await page.keyboard.press('Shift+Tab');
    await expect(focused()).resolves.toBe('Customers');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    await expect(focused()).resolves.toBe('Skip to content');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Customers');
    await page.keyboard.press('Enter');
    await app.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('search-query');
    // At a person's pace: each key waits for the field to show the one before.
    await page.keyboard.type('turing', { delay: 40 });
    await expect(app.evaluate('document.activeElement.value')).resolves.toBe('turing');
    await page.keyboard.press('Enter');
    await app.getByRole('status').filter({ hasText: '1 member matches “turing”.' }).waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toMatch(/Alan/);
    await page.keyboard.press('Enter');
    await app.getByRole('heading', { level: 1, name: /Alan/ }).waitFor();
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe('200 points');
    // The heading has focus; the form's fields come after the back link's... Tab to the points field.
    for (let tabs = 0; tabs < 10 && (await focused()) !== 'adjust-points'; tabs++) await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('adjust-points');
    await page.keyboard.type('-100');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('adjust-reason');
    await page.keyboard.type('Duplicate award for order #1172');
    await page.keyboard.press('Enter');
    // A deduction is confirmed first: focus is in the dialog, on Cancel; Tab to the deduction and Enter.
    await app.getByRole('dialog', { name: 'Deduct 100 points from Alan Turing?' }).waitFor();
    await expect(focused()).resolves.toBe('Cancel');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Deduct points');
    await page.keyboard.press('Enter');
    await app.getByRole('status').filter({ hasText: 'Deducted 100 points. The balance is now 100 points.' }).waitFor();
    // Focus is back where it was.
    await expect(focused()).resolves.toBe('adjust-reason');
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe('100 points');
    await expect(app.locator('table.activity tbody tr').first().locator('td').nth(4).textContent()).resolves.toBe(
      'Duplicate award for order #1172',
    );
    // Exclude, then include again, by keyboard.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Exclude from the program');
    await page.keyboard.press('Enter');
    await app.getByRole('status').filter({ hasText: 'Excluded from the program.' }).waitFor();
    await shoot(page, '07-keyboard-excluded');
    await expectAccessible(app);
    const tabTo = async (target: string) => {
      for (let tabs = 0; tabs < 15 && (await focused()) !== target; tabs++) await page.keyboard.press('Tab');
      await expect(focused()).resolves.toBe(target);
    };
    await tabTo('Include in the program');
    await page.keyboard.press('Enter');
    await app.getByRole('status').filter({ hasText: 'Included in the program again.' }).waitFor();
    // The birthday, typed into the date field.
    await tabTo('birthday');
    await page.keyboard.type('03121990');
    // Enter in the field submits its form, as in any form.
    await page.keyboard.press('Enter');
    await app.getByRole('status').filter({ hasText: 'Birthday set to 1990-03-12.' }).waitFor();
    // The unused reward, refunded with Tab and Enter.
    await tabTo(`Refund $5 off (${alansCode})`);
    await page.keyboard.press('Enter');
    await app.getByRole('dialog', { name: 'Undo the redemption of $5 off?' }).waitFor();
    await page.keyboard.press('Tab');
    await expect(focused()).resolves.toBe('Undo redemption');
    await page.keyboard.press('Enter');
    await app.getByRole('status').filter({ hasText: 'Refunded $5 off: 500 points returned' }).waitFor();
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe('600 points');
    const alan = await api().get('/v1/customers/1003');
    expect((alan.body as { data: { attributes: Record<string, unknown> } }).data.attributes).toMatchObject({
      current_points: 600,
      loyalty_status: 'member',
      date_of_birth: '1990-03-12',
    });
    await page.close();
  });

  it('browses every member with the keyboard: sorted by points either way, by last activity, filtered by status', async () => {
    const { page, app } = await openAdmin();
    const focused = () =>
      app.evaluate('document.activeElement && (document.activeElement.id || document.activeElement.textContent)') as Promise<string>;
    const tabTo = async (target: RegExp) => {
      for (let tabs = 0; tabs < 30 && !target.test((await focused()) ?? ''); tabs++) await page.keyboard.press('Tab');
      expect(await focused()).toMatch(target);
    };
    const rows = () => app.locator('table.members tbody tr');
    const pointsColumn = async () =>
      (await rows().locator('td.number').allTextContents()).map((text) => Number(text.replace(/[^0-9]/g, '')));
    // The summary is announced as a page starts loading: the rows are read until they are what is expected
    // (for up to 10 s), and then compared.
    const eventually = async <T>(read: () => Promise<T>, expected: T): Promise<T> => {
      let last = await read();
      for (let tries = 0; tries < 100 && JSON.stringify(last) !== JSON.stringify(expected); tries++) {
        await page.waitForTimeout(100);
        last = await read();
      }
      return last;
    };
    const listed = (await api().get('/v1/customers?page%5Bsize%5D=100')).body as {
      data: Array<{ attributes: { current_points: number } }>;
    };
    const balances = listed.data.map((one) => one.attributes.current_points).sort((a, b) => b - a);

    // The Overview's heading has focus; the Customers section is the link just before it.
    await page.keyboard.press('Shift+Tab');
    await expect(focused()).resolves.toBe('Customers');
    await page.keyboard.press('Enter');
    await app.getByRole('heading', { level: 2, name: 'All members' }).waitFor();
    await app
      .getByRole('status')
      .filter({ hasText: `Members 1 to ${balances.length}, by points, most first.` })
      .waitFor();
    // Most points first: the shop's balances in order, each member's status and tier as badges.
    expect(await eventually(pointsColumn, balances)).toEqual(balances);
    await expect(app.locator('th[aria-sort="descending"]').textContent()).resolves.toMatch(/^Points/);
    await expect(rows().first().locator('.badge').allTextContents()).resolves.toEqual(['Gold', 'Member']);
    await shootWidths(page, '08-members-by-points');
    await expectAccessible(app);

    // The Points header is a button: Enter turns the order round.
    await tabTo(/^Points/);
    await page.keyboard.press('Enter');
    await app.getByRole('status').filter({ hasText: 'by points, fewest first.' }).waitFor();
    expect(await eventually(pointsColumn, [...balances].reverse())).toEqual([...balances].reverse());
    await expect(app.locator('th[aria-sort="ascending"]').textContent()).resolves.toMatch(/^Points/);

    // Last activity, newest first: a member just adjusted comes first.
    expect((await api().post('/v1/customers/1004/points', { adjustment: 10, note: 'browse' })).status).toBe(200);
    await tabTo(/^Last activity/);
    await page.keyboard.press('Enter');
    await app.getByRole('status').filter({ hasText: 'by last activity, newest first.' }).waitFor();
    await expect(rows().first().locator('th a').textContent()).resolves.toBe('Katherine Johnson');

    // Excluded members only, chosen with the arrow keys in the status list.
    await tabTo(/^members-status$/);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await app.getByRole('status').filter({ hasText: 'Members 1 to 1,' }).waitFor();
    const excludedBadges = () => rows().locator('.badge.critical').allTextContents();
    expect(await eventually(excludedBadges, ['Excluded'])).toEqual(['Excluded']);
    // And a member opens from the list.
    await tabTo(/^members-status$/);
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await app
      .getByRole('status')
      .filter({ hasText: `Members 1 to ${balances.length},` })
      .waitFor();
    await tabTo(/^Katherine Johnson$/);
    await page.keyboard.press('Enter');
    await app.getByRole('heading', { level: 1, name: 'Katherine Johnson' }).waitFor();
    await expect(app.locator('p.badges .badge').allTextContents()).resolves.toEqual(['Member', 'No tier']);
    await page.close();
  });

  it('confirms a deduction, says when the balance floor took less than asked, and cancels with Escape', async () => {
    const { page, app } = await openAdmin();
    await app.getByRole('link', { name: 'Customers' }).click();
    await app.getByLabel('Name, e-mail or customer id').fill('1008');
    await app.getByRole('button', { name: 'Search' }).click();
    await app.getByRole('list', { name: 'Search results' }).getByRole('link').click();
    await app.getByRole('heading', { level: 1 }).filter({ hasNotText: 'Customer 1008' }).waitFor();
    const balance = (await api().get('/v1/customers/1008')).body.data.attributes.current_points as number;
    expect(balance).toBe(1100);
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe('1,100 points');

    // Escape cancels: nothing is taken.
    await app.getByLabel('Points (negative deducts)').fill('-50');
    await app.getByLabel('Reason (internal note)').fill('Test');
    await app.getByRole('button', { name: 'Adjust' }).click();
    await app.getByRole('dialog').waitFor();
    await page.keyboard.press('Escape');
    await expect(app.getByRole('dialog').count()).resolves.toBe(0);
    expect((await api().get('/v1/customers/1008')).body.data.attributes.current_points).toBe(1100);

    await app.getByLabel('Points (negative deducts)').fill('-99999');
    await app.getByLabel('Reason (internal note)').fill('Fraudulent orders');
    await app.getByRole('button', { name: 'Adjust' }).click();
    const dialog = app.getByRole('dialog', { name: /^Deduct 99,999 points from / });
    await dialog.waitFor();
    await expect(dialog.textContent()).resolves.toContain(
      'The balance is 1,100 points and cannot go below 0: only 1,100 of the 99,999 points will be taken.',
    );
    await shootWidths(page, '09-deduct-confirmation');
    await expectAccessible(app);
    await dialog.getByRole('button', { name: 'Deduct points' }).click();
    await app
      .getByRole('status')
      .filter({ hasText: 'Took 1,100 of -99,999: the balance cannot go below 0. The balance is now 0 points.' })
      .waitFor();
    await expect(app.locator('[data-figure="balance"]').textContent()).resolves.toBe('0 points');
    const entry = app.locator('table.activity tbody tr').first();
    await expect(entry.locator('td').nth(2).textContent()).resolves.toBe('-1,100');
    await expect(entry.locator('td').nth(5).textContent()).resolves.toBe(`Staff user ${STAFF_USER}`);
    await shootWidths(page, '10-deducted-floor');
    await page.close();
  });

  it('shows each day of the chart on keyboard focus and on hover, with axes, a legend and the table behind it', async () => {
    const { page, app } = await openAdmin((page) =>
      page.route('**/admin/api/overview?*', (route) =>
        route.fulfill({
          status: 200,
          contentType: 'application/json',
          body: JSON.stringify({ data: { type: 'program_overview', id: 'demo', attributes: OVERVIEW } }),
        }),
      ),
    );
    await app.getByText('Points outstanding').waitFor();
    await expect(app.getByRole('list', { name: 'Legend' }).textContent()).resolves.toContain('Issued');
    // The axis values: 0 and round steps up to the largest day (500 redeemed).
    await expect(app.locator('svg .tick text').allTextContents()).resolves.toEqual(['0', '250', '500', '250', '500']);
    await expect(app.locator('svg text.x-label').allTextContents()).resolves.toEqual(['Oct 29, 2026', 'Nov 12, 2026', 'Nov 27, 2026']);
    // Tab to the chart: the last day shows; the left arrow moves a day back.
    const chart = app.locator('svg[role="img"]');
    for (let tabs = 0; tabs < 20 && !(await chart.evaluate((node) => node === document.activeElement)); tabs++)
      await page.keyboard.press('Tab');
    const tooltip = app.locator('#chart-tooltip');
    await expect(tooltip.textContent()).resolves.toBe('Nov 27, 2026Issued: 193Redeemed: 0Expired: 0New members: 0');
    for (let day = 0; day < 8; day++) await page.keyboard.press('ArrowLeft');
    await expect(tooltip.textContent()).resolves.toBe('Nov 19, 2026Issued: 117Redeemed: 500Expired: 0New members: 0');
    await expect(tooltip.isVisible()).resolves.toBe(true);
    await shootWidths(page, '11-chart-tooltip-focus');
    await expectAccessible(app);
    // Hover shows the day under the pointer.
    await app.locator('svg g.day').nth(1).hover();
    await expect(tooltip.textContent()).resolves.toContain('Oct 30, 2026');
    // The table behind the chart: one row per day, with its caption.
    await expect(app.locator('table.chart-table tbody tr').count()).resolves.toBe(30);
    await expect(app.locator('table.chart-table caption').textContent()).resolves.toBe('Points per day, Oct 29, 2026 to Nov 27, 2026');
    await page.close();
  });
});
