// The app's home without a browser: its script's build and weight, the page's HTML around it (App Bridge
// first, nothing in the script able to close its element, the frame-ancestors policy), and the figures the
// customer page derives from the history it reads.
import { gunzipSync, gzipSync } from 'node:zlib';
import { bundleAdminApp } from '../../infra/admin-ui/admin-app-bundle';
import {
  actorLabel,
  axisTicks,
  adjustmentOutcome,
  deductionPreview,
  formatDate,
  formatMoney,
  formatPoints,
  membersPath,
  statusWord,
  expiringPoints,
  initialRoute,
  mergeActivity,
  pendingPoints,
  rangeOf,
  refundable,
  type EarningEntry,
  type RewardEntry,
  staffLocale,
} from '../../infra/admin-ui/src/model';
import { adminPageHtml, bouncePageHtml, frameAncestors } from '../../shared/http/admin-page';
import { useEnvironment } from '../support/environment';

describe("the app's script", () => {
  it('builds into one script of at most 16 KiB gzip that loads nothing from outside', async () => {
    const bundle = await bundleAdminApp();

    expect(bundle.gzipBytes).toBeLessThanOrEqual(16 * 1024);
    expect(gunzipSync(gzipSync(bundle.code)).toString()).toBe(bundle.code);
    expect(bundle.code).not.toMatch(/https?:\/\/(?!www\.w3\.org)/);
    // The calls go to the page's own /admin/api, which App Bridge signs.
    expect(bundle.code).toContain('admin/api');
  });
});

describe("GET /admin's HTML", () => {
  useEnvironment({ TABLE_NAME: 't', APP_BRIDGE_SCRIPT_URL: undefined });

  it('loads App Bridge from Shopify first, under the shop app key, then the app inlined', () => {
    const html = adminPageHtml('key-"1"', 'run();');
    expect(html.indexOf('<meta name="shopify-api-key" content="key-&quot;1&quot;">')).toBeLessThan(html.indexOf('<script'));
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="https://cdn.shopify.com/shopifycloud/app-bridge.js">', '<script>']);
    expect(html).toContain('<script>run();</script>');
  });

  it('keeps a script that names </script> or <!-- inside its element', () => {
    const html = adminPageHtml('k', 'const a = "</script><script>alert(1)</script>"; const b = "<!--";');
    expect(html.match(/<\/script>/gi)).toHaveLength(2);
    expect(html).toContain('<\\/script><script>alert(1)<\\/script>');
    expect(html).not.toContain('<!--');
  });

  it('answers the bounce with App Bridge alone', () => {
    expect(bouncePageHtml('k').match(/<script/g)).toHaveLength(1);
  });

  it('lets the shop and admin.shopify.com frame the page, plus the origins given', () => {
    expect(frameAncestors('demo.myshopify.com')).toBe('frame-ancestors https://demo.myshopify.com https://admin.shopify.com;');
    expect(frameAncestors('demo.myshopify.com', ['http://127.0.0.1:3001'])).toBe(
      'frame-ancestors https://demo.myshopify.com https://admin.shopify.com http://127.0.0.1:3001;',
    );
  });
});

const earning = (id: string, entry: Partial<EarningEntry>) => ({
  id,
  attributes: {
    action: 'purchase',
    points: 100,
    status: 'approved' as const,
    order_number: null,
    points_due_at: null,
    points_given_at: null,
    points_expiry_at: null,
    created_at: '2026-01-01T00:00:00.000Z',
    ...entry,
  },
});
const reward = (id: string, entry: Partial<RewardEntry>) => ({
  id,
  attributes: {
    reward_name: '$5 off',
    points_spent: 500,
    discount_code: 'LOYAL-1',
    status: 'active' as const,
    is_refunded: false,
    discount_code_redeemed_at: null,
    created_at: '2026-01-02T00:00:00.000Z',
    ...entry,
  },
});

describe("the staff member's locale", () => {
  it('takes what Intl takes, drops a POSIX modifier, and falls back to the default for anything else', () => {
    expect(staffLocale('de-DE')).toBe('de-DE');
    expect(staffLocale('en-US@posix')).toBe('en-US');
    expect(staffLocale('!!')).toBeUndefined();
    expect(staffLocale(undefined)).toBeUndefined();
    expect(() => formatPoints(1100, staffLocale('en-US@posix'))).not.toThrow();
  });
});

describe("a customer's figures from the history", () => {
  it('merges the earning and reward history newest first, with notes and actors', () => {
    const rows = mergeActivity(
      [
        earning('a', { created_at: '2026-01-01T00:00:00.000Z', order_number: '#1001' }),
        earning('b', {
          action: 'manual_adjustment',
          points: -20,
          created_at: '2026-01-03T00:00:00.000Z',
          note: 'Typo',
          actor: { type: 'staff', id: '42' },
        }),
      ],
      [reward('r', { is_refunded: true, actor: { type: 'staff', id: '7' } })],
    );
    expect(
      rows.map((row) => [row.kind, row.points, row.status, row.detail, row.note, row.actor && 'id' in row.actor ? row.actor.id : null]),
    ).toEqual([
      ['Adjustment', -20, 'approved', '', 'Typo', '42'],
      ['Reward', -500, 'refunded', '$5 off (LOYAL-1)', null, '7'],
      ['Order', 100, 'approved', 'Order #1001', null, null],
    ]);
  });

  it('sums the pending points and finds the points that expire first, never more than the balance', () => {
    const now = new Date('2026-06-01T00:00:00.000Z');
    const entries = [
      earning('p', { status: 'pending', points: 40 }).attributes,
      earning('x1', { points: 300, points_expiry_at: '2026-09-01T00:00:00.000Z' }).attributes,
      earning('x2', { points: 200, points_expiry_at: '2026-09-01T00:00:00.000Z' }).attributes,
      earning('x3', { points: 700, points_expiry_at: '2027-01-01T00:00:00.000Z' }).attributes,
      earning('old', { points: 900, points_expiry_at: '2026-05-01T00:00:00.000Z' }).attributes,
    ];
    expect(pendingPoints(entries)).toBe(40);
    expect(expiringPoints(entries, 1000, now)).toEqual({ points: 500, at: '2026-09-01T00:00:00.000Z' });
    expect(expiringPoints(entries, 120, now)).toEqual({ points: 120, at: '2026-09-01T00:00:00.000Z' });
    expect(expiringPoints(entries, 0, now)).toBeNull();
    expect(expiringPoints([entries[0]!], 1000, now)).toBeNull();
  });

  it('offers a refund for an active, unused, unrefunded reward only', () => {
    expect(refundable(reward('a', {}).attributes)).toBe(true);
    expect(refundable(reward('b', { status: 'used' }).attributes)).toBe(false);
    expect(refundable(reward('c', { is_refunded: true }).attributes)).toBe(false);
    expect(refundable(reward('d', { discount_code_redeemed_at: '2026-01-03T00:00:00.000Z' }).attributes)).toBe(false);
  });

  it('offers to undo store credit, used from the start, until it is refunded or past its end, and names it without a code', () => {
    const now = new Date('2026-11-29T00:00:00.000Z');
    const credit = (entry: Partial<RewardEntry>) =>
      reward('s', {
        reward_name: '$5.00 store credit',
        reward_discount_type: 'store_credit',
        discount_code: null,
        status: 'used',
        ...entry,
      });
    expect(refundable(credit({ expires_at: null }).attributes, now)).toBe(true);
    expect(refundable(credit({ expires_at: '2026-12-01T00:00:00.000Z' }).attributes, now)).toBe(true);
    expect(refundable(credit({ expires_at: '2026-11-01T00:00:00.000Z' }).attributes, now)).toBe(false);
    expect(refundable(credit({ is_refunded: true }).attributes, now)).toBe(false);
    expect(mergeActivity([], [credit({})])[0]!.detail).toBe('$5.00 store credit (credited)');
  });

  it("names a range's first and last UTC day", () => {
    expect(rangeOf(30, new Date('2026-11-27T23:59:00.000Z'))).toEqual({ from: '2026-10-29', to: '2026-11-27' });
    expect(rangeOf(366, new Date('2026-11-27T00:00:00.000Z'))).toEqual({ from: '2025-11-27', to: '2026-11-27' });
  });
});

describe("the app's home's first view", () => {
  it("opens the member the admin block's link names (customer=), unless the hash names a view", () => {
    expect(initialRoute('', '?shop=demo.myshopify.com&customer=1001&id_token=x')).toEqual({ view: 'customer', id: '1001' });
    expect(initialRoute('#/', '?customer=1001')).toEqual({ view: 'customer', id: '1001' });
    expect(initialRoute('#/customers?q=ada', '?customer=1001')).toEqual({ view: 'search', query: 'ada' });
    expect(initialRoute('#/customers/1002', '?customer=1001')).toEqual({ view: 'customer', id: '1002' });
    expect(initialRoute('', '?shop=demo.myshopify.com')).toEqual({ view: 'overview' });
    expect(initialRoute('', '?customer=a%26b')).toEqual({ view: 'customer', id: 'a&b' });
  });
});

describe("the staff's words for the service's answers", () => {
  it('says who an entry is by', () => {
    expect(actorLabel({ type: 'staff', id: '42' })).toBe('Staff user 42');
    expect(actorLabel({ type: 'api_key', id: 'abc', name: 'Backend' })).toBe('API key “Backend”');
    expect(actorLabel({ type: 'shopify' })).toBe('Shopify');
    expect(actorLabel({ type: 'system' })).toBe('System');
    expect(actorLabel({ type: 'customer' })).toBe('Customer');
    expect(actorLabel({ type: 'unknown' })).toBe('Not recorded');
    expect(actorLabel(null)).toBe('—');
  });

  it('capitalises status words', () => {
    expect(statusWord('active')).toBe('Active');
    expect(statusWord('excluded')).toBe('Excluded');
    expect(statusWord('not_started')).toBe('Not started');
  });

  it("writes dates, numbers and money in the staff member's locale", () => {
    expect(formatDate('2026-03-12', 'en-GB')).toBe('12 Mar 2026');
    expect(formatDate('2026-03-12', 'en-US')).toBe('Mar 12, 2026');
    expect(formatDate('2026-03-12T10:00:00.000Z', 'de-DE')).toBe('12.03.2026');
    expect(formatDate(null, 'en-US')).toBe('—');
    expect(formatPoints(1100, 'en-US')).toBe('1,100');
    expect(formatPoints(1100, 'de-DE')).toBe('1.100');
    expect(formatMoney('1234.5', 'USD', 'en-US')).toBe('$1,234.50');
    expect(formatMoney('1234.5', 'EUR', 'de-DE')).toBe('1.234,50\u00a0€');
  });

  it('says what an adjustment really did, the balance floor included', () => {
    expect(adjustmentOutcome(250, 250, 800)).toMatch(/^Added 250 points\. The balance is now 800 points\.$/);
    expect(adjustmentOutcome(-100, -100, 700)).toMatch(/^Deducted 100 points\./);
    expect(adjustmentOutcome(-99999, -1100, 0)).toMatch(/^Took 1,100 of -99,999: the balance cannot go below 0\./);
    expect(deductionPreview(100, 800)).toBe('Deduct 100 points: the balance goes from 800 to 700.');
    expect(deductionPreview(99999, 1100)).toMatch(/only 1,100 of the 99,999 points will be taken/);
  });

  it("builds the member list's address, a tier listed by last activity", () => {
    const query = { sort: 'points' as const, descending: true, status: '', tier: '', size: 20 };
    expect(membersPath(query, null)).toBe('/members?sort=-points&page[size]=20');
    expect(membersPath({ ...query, status: 'excluded', descending: false, sort: 'joined' }, 'abc')).toBe(
      '/members?sort=joined&page[size]=20&filter[loyalty_status]=excluded&page[cursor]=abc',
    );
    expect(membersPath({ ...query, tier: 'gold' }, null)).toBe('/members?sort=-last_activity&page[size]=20&filter[tier]=gold');
  });

  it("rounds the chart's axis to a round maximum", () => {
    expect(axisTicks(0)).toEqual([0, 0.5, 1]);
    expect(axisTicks(730)).toEqual([0, 500, 1000]);
    expect(axisTicks(180)).toEqual([0, 100, 200]);
    expect(axisTicks(2400)).toEqual([0, 1250, 2500]);
  });
});
