// Every surface's earning figure is what an order then earns, through the twin. For random shops (their
// purchase rules, tiers and multiplier mode, a campaign running or over) and random prices, seeded so a
// failure replays: the panel's and the account page's answer (GET /shopper/program through the app proxy
// and with a session token: the same figures), the product block's figure (its own script, run on the
// rates that answer carries) and then an order of that price, paid through the platform simulator's
// webhook, which must earn exactly the block's figure. A guest sees what a member without a tier sees.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { THEME_EXTENSION_DIR } from '../../infra/local/simulator/storefront-theme';
import type { PurchaseRate } from '../../shared/domain/earning-offer';
import { platformControls, profileOf } from '../support/orders';
import { random } from '../support/random';
import { sessionToken, viaProxy, withToken } from '../support/shopper';
import { startTestTwin, type TestTwin } from '../support/twin';

jest.setTimeout(120_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const SEED = Number(process.env.FIGURES_SEED ?? 4601);
const SHOPS = 6;
const T = '2027-04-12T15:00:00.000Z';
const DAY = 24 * 3600 * 1000;
const at = (days: number) => new Date(Date.parse(T) + days * DAY).toISOString();

const blockSource = readFileSync(join(THEME_EXTENSION_DIR, 'blocks', 'product-points.liquid'), 'utf8');
/** The product block's arithmetic as the browser runs it (between its markers in blocks/product-points.liquid). */
const blockFigure = new Function(
  `${blockSource.slice(blockSource.indexOf('// figure:start'), blockSource.indexOf('// figure:end'))}; return figure;`,
)() as (rates: PurchaseRate[], cents: number) => number;

const next = random(SEED);
const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
const between = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));

/** One member per tier: none (0 lifetime points), Silver, Gold; and an excluded member with Gold's figures, whose orders earn nothing. */
const MEMBERS = [
  { id: '7001', lifetime: 0, excluded: false },
  { id: '7002', lifetime: 150, excluded: false },
  { id: '7003', lifetime: 1500, excluded: false },
  { id: '7004', lifetime: 1500, excluded: true },
];

const shops = Array.from({ length: SHOPS }, (_, index) => {
  const id = `figures-${index}`;
  const campaign = pick(['running', 'over', 'none'] as const);
  return {
    id,
    name: id,
    currency: 'USD',
    referral_base_url: `https://${id}.example/`,
    vip_settings: { entry_method: 'points', points_multiplier_mode: pick(['all', 'purchase'] as const) },
    api_keys: [{ name: 'Full', scope: 'full', key: `figures_key_${index}_0001` }],
    earning_rules: [
      ...Array.from({ length: between(1, 2) }, (__, rule) => ({
        id: `order-${rule}`,
        name: `Order ${rule}`,
        action: 'purchase',
        category: 'purchase',
        points_to_give: between(1, 20),
        spend_unit: pick([null, 0.5, 1, 1, 5, 10]),
        customer_facing_label: 'base figure',
      })),
      { id: 'join', name: 'Join', action: 'signup', category: 'account', points_to_give: 100, customer_facing_label: '100 points' },
    ],
    vip_tiers: [
      { id: 'silver', name: 'Silver', threshold_points: 100, points_multiplier: pick([1.1, 1.25, 1.5]), position: 1 },
      { id: 'gold', name: 'Gold', threshold_points: 1000, points_multiplier: pick([1.5, 2, 3]), position: 2 },
    ],
    campaigns:
      campaign === 'none'
        ? []
        : [
            campaign === 'running'
              ? { id: 'boost', name: 'Boost week', multiplier: pick([1.15, 1.5, 2, 3]), starts_at: at(-1), ends_at: at(2) }
              : { id: 'boost', name: 'Boost week', multiplier: 2, starts_at: at(-10), ends_at: at(-5) },
          ],
    platform: {
      shop_domain: `${id}.myshopify.com`,
      client_id: `${id}-client`,
      client_secret: `${id}-secret`,
      customers: MEMBERS.map((member) => ({ id: member.id, email: `c${member.id}@${id}.example`, first_name: 'C', last_name: member.id })),
    },
    members: MEMBERS.map((member) => ({
      platform_customer_id: member.id,
      current_points: member.lifetime,
      lifetime_points: member.lifetime,
      redeemed_points: 0,
      enrolled_at: '2025-01-01T00:00:00.000Z',
      excluded: member.excluded,
    })),
  };
});

let twin: TestTwin;

beforeAll(async () => {
  twin = await startTestTwin({ shops }, { throttling: false });
  const clock = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now: T }) });
  expect(clock.status).toBe(200);
});

afterAll(async () => {
  await twin?.stop();
});

const proxy = (shop: (typeof shops)[number], customerId?: string) =>
  viaProxy(twin.url, 'GET', '/program', {
    shopDomain: shop.platform.shop_domain,
    secret: shop.platform.client_secret,
    ...(customerId === undefined ? {} : { customerId }),
  });

describe('every surface shows what an order then earns', () => {
  it(`for ${SHOPS} random shops, each tier and a random price (seed ${SEED})`, async () => {
    const platform = platformControls(twin);
    let checked = 0;
    for (const shop of shops) {
      const guest = (await proxy(shop)).body.data.attributes;
      const running = shop.campaigns.find((campaign) => campaign.starts_at <= T && T < campaign.ends_at) ?? null;
      expect(guest.campaign).toEqual(
        running && { id: running.id, name: running.name, multiplier: running.multiplier, ends_at: running.ends_at },
      );

      for (const member of MEMBERS) {
        // The panel's answer (app proxy) and the account page's (session token) are one and the same.
        const panel = (await proxy(shop, member.id)).body.data.attributes;
        const token = await sessionToken(twin.platformUrl, shop.id, member.id);
        const account = (await withToken(twin.url, token, 'GET', '/program')).body.data.attributes;
        expect(account.earning_rules).toEqual(panel.earning_rules);
        expect(account.purchase_rates).toEqual(panel.purchase_rates);
        expect(account.campaign).toEqual(panel.campaign);
        if (member.excluded) expect(panel.purchase_rates).toEqual([]);
        if (member.lifetime === 0 || member.excluded) {
          // A member without a tier sees what a guest sees (an excluded member's rules too).
          expect(panel.earning_rules).toEqual(guest.earning_rules);
          if (!member.excluded) expect(panel.purchase_rates).toEqual(guest.purchase_rates);
        }

        // A per-spend rule's "N points for every $U" is what U earns under that rule alone.
        for (const rule of member.excluded ? [] : panel.earning_rules.filter((r: Json) => r.action === 'purchase' && r.spend_unit)) {
          const rate = panel.purchase_rates.find((r: Json) => r.rule_id === rule.id);
          expect({ rule: rule.id, points: rule.points }).toEqual({
            rule: rule.id,
            points: blockFigure([rate], Math.round(rule.spend_unit * 100)),
          });
        }

        const cents = between(50, 40_000);
        const shown = blockFigure(panel.purchase_rates, cents);
        const before = (await profileOf(shop.id, member.id)).lifetime_points;
        await platform.order({ shop: shop.id, customer_id: member.id, subtotal_price: (cents / 100).toFixed(2) });
        const earned = (await profileOf(shop.id, member.id)).lifetime_points - before;
        expect({ shop: shop.id, member: member.id, cents, earned }).toEqual({ shop: shop.id, member: member.id, cents, earned: shown });
        checked += 1;
      }
    }
    expect(checked).toBe(SHOPS * MEMBERS.length);
  });
});
