// The app's home without a browser: its script's build and weight, the page's HTML around it (App Bridge
// first, nothing in the script able to close its element, the frame-ancestors policy), and the figures the
// customer page derives from the history it reads.
import { gunzipSync, gzipSync } from 'node:zlib';
import { bundleAdminApp } from '../../infra/admin-ui/admin-app-bundle';
import {
  expiringPoints,
  initialRoute,
  mergeActivity,
  pendingPoints,
  rangeOf,
  refundable,
  type EarningEntry,
  type RewardEntry,
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
      [reward('r', { is_refunded: true })],
    );
    expect(rows.map((row) => [row.kind, row.points, row.status, row.detail, row.note, row.actor?.id ?? null])).toEqual([
      ['Adjustment', -20, 'approved', '', 'Typo', '42'],
      ['Reward', -500, 'refunded', '$5 off (LOYAL-1)', null, null],
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
