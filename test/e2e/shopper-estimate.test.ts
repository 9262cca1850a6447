// POST /shopper/estimate through the twin (SURFACES-CONTRACT.md, "Checkout and the shop counter"): what an
// order of a cart would earn for a guest, a signed-in non-member, a member at their tier, an excluded member,
// in a campaign, in a shop that holds points for a return window, one that approves them at once and one whose
// prices include tax; the malformed carts' 400s; nothing written. Then the property the estimate exists for:
// for random carts (lines, quantities, prices, gift cards, a discount, line taxes), members at each tier and
// shops with random programs (rules, tier multipliers and mode, a campaign), seeded so a failure replays, the estimate is exactly what the paid order then earns through the platform
// simulator's orders/paid webhook: its earning-history entries' points, status and due date, and the eligible
// amount the engine recorded.
import { minorDigits, decimalToMinor } from '../../shared/domain/money';
import { customerItems, earningEntries, orderItems, platformControls } from '../support/orders';
import { random } from '../support/random';
import { sessionToken, viaProxy, withToken } from '../support/shopper';
import { expectError, startTestTwin, type TestTwin } from '../support/twin';

jest.setTimeout(180_000);

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = any;

const SEED = Number(process.env.ESTIMATE_SEED ?? 4903);
const CASES = 25;
const T = '2027-03-09T10:00:00.000Z';
const DAY = 24 * 3600 * 1000;
const at = (days: number) => new Date(Date.parse(T) + days * DAY).toISOString();

/**
 * Members at each tier (thresholds far above what the cases earn, so no order moves anyone to another tier),
 * an excluded member with Gold's figures, and a platform customer who never joined.
 */
const SILVER = 100_000_000;
const GOLD = 500_000_000;
const MEMBERS = [
  { id: '8001', lifetime: 0, excluded: false },
  { id: '8002', lifetime: SILVER, excluded: false },
  { id: '8003', lifetime: GOLD, excluded: false },
  { id: '8004', lifetime: GOLD, excluded: true },
];
const NON_MEMBER = '8009';

type ShopKind = 'approved' | 'pending' | 'taxed';

/** What prices a shop's orders: its purchase rules, tier multipliers and mode, and its campaign. */
interface Program {
  rules: Array<{ points_to_give: number; spend_unit: number | null; category: 'purchase' | 'order' }>;
  tiers: [number, number];
  mode: 'all' | 'purchase';
  campaign: { multiplier: number; starts_at: string; ends_at: string } | null;
}

const shop = (id: string, kind: ShopKind, program: Program) => ({
  id,
  name: id,
  currency: 'USD',
  referral_base_url: `https://${id}.example/`,
  vip_settings: { entry_method: 'points', points_multiplier_mode: program.mode },
  api_keys: [{ name: 'Full', scope: 'full', key: `${id.replace(/-/g, '_')}_key_0001` }],
  earning_settings: { pending_days: kind === 'pending' ? 14 : 0, taxes_included: kind === 'taxed' },
  earning_rules: [
    ...program.rules.map((rule, index) => ({
      id: `order-${index}`,
      name: `Order ${index}`,
      action: 'purchase',
      ...rule,
    })),
    { id: 'join', name: 'Join', action: 'signup', category: 'account', points_to_give: 100 },
  ],
  vip_tiers: [
    { id: 'silver', name: 'Silver', threshold_points: SILVER, points_multiplier: program.tiers[0], position: 1 },
    { id: 'gold', name: 'Gold', threshold_points: GOLD, points_multiplier: program.tiers[1], position: 2 },
  ],
  campaigns: program.campaign ? [{ id: 'boost', name: 'Boost week', ...program.campaign }] : [],
  platform: {
    shop_domain: `${id}.myshopify.com`,
    client_id: `${id}-client`,
    client_secret: `${id}-secret`,
    customers: [...MEMBERS.map((member) => member.id), NON_MEMBER].map((customer) => ({
      id: customer,
      email: `c${customer}@${id}.example`,
      first_name: 'C',
      last_name: customer,
    })),
  },
  members: MEMBERS.map((member) => ({
    platform_customer_id: member.id,
    current_points: member.lifetime,
    lifetime_points: member.lifetime,
    redeemed_points: 0,
    enrolled_at: '2025-01-01T00:00:00.000Z',
    excluded: member.excluded,
  })),
});

// The scenario shops: 2 points per dollar ($5 in the pending shop, 3 per dollar in the taxed shop) and 25 per
// order, Silver 1.25×, Gold 1.5×; the pending shop runs a double-points campaign now, the taxed shop's is over.
const fixed = (kind: ShopKind): Program => ({
  rules: [
    { points_to_give: kind === 'taxed' ? 3 : 2, spend_unit: kind === 'pending' ? 5 : 1, category: 'purchase' },
    { points_to_give: 25, spend_unit: null, category: 'purchase' },
  ],
  tiers: [1.25, 1.5],
  mode: 'all',
  campaign:
    kind === 'pending'
      ? { multiplier: 2, starts_at: at(-1), ends_at: at(3) }
      : kind === 'taxed'
        ? { multiplier: 3, starts_at: at(-10), ends_at: at(-3) }
        : null,
});
const SHOPS = {
  approved: shop('estimate-approved', 'approved', fixed('approved')),
  pending: shop('estimate-pending', 'pending', fixed('pending')),
  taxed: shop('estimate-taxed', 'taxed', fixed('taxed')),
};
type Shop = ReturnType<typeof shop>;

// The property's shops: a random program each (rules, tier multipliers and mode, a campaign running, over or
// none), one of each kind, drawn from the seed.
const draw = random(SEED + 1);
const drawn = <T>(values: readonly T[]): T => values[Math.floor(draw() * values.length)]!;
const randomProgram = (): Program => ({
  rules: Array.from({ length: 1 + Math.floor(draw() * 2) }, () => ({
    points_to_give: 1 + Math.floor(draw() * 20),
    spend_unit: drawn([null, 0.5, 1, 1, 2.5, 5, 10]),
    category: drawn(['purchase', 'order'] as const),
  })),
  tiers: [drawn([1.1, 1.15, 1.25, 1.5]), drawn([1.5, 2, 2.5, 3])],
  mode: drawn(['all', 'purchase'] as const),
  campaign: drawn([
    { multiplier: drawn([1.15, 1.5, 2, 3]), starts_at: at(-1), ends_at: at(2) },
    { multiplier: 2, starts_at: at(-10), ends_at: at(-5) },
    null,
  ]),
});
const RANDOM_SHOPS = (['approved', 'pending', 'taxed'] as const).map((kind) => ({
  kind,
  shop: shop(`estimate-random-${kind}`, kind, randomProgram()),
}));

let twin: TestTwin;

beforeAll(async () => {
  twin = await startTestTwin({ shops: [...Object.values(SHOPS), ...RANDOM_SHOPS.map((entry) => entry.shop)] }, { throttling: false });
  const clock = await fetch(`${twin.url}/_clock`, { method: 'PUT', body: JSON.stringify({ now: T }) });
  expect(clock.status).toBe(200);
});

afterAll(async () => {
  await twin?.stop();
});

interface CartLine {
  variant_id: string;
  product_id: string;
  quantity: number;
  price: string;
  gift_card: boolean;
  tax?: string;
}
interface Cart {
  lines: CartLine[];
  discount: string;
  currency: string;
}

const estimate = (target: Shop, cart: unknown, customerId?: string) =>
  viaProxy(twin.url, 'POST', '/estimate', {
    shopDomain: target.platform.shop_domain,
    secret: target.platform.client_secret,
    body: cart,
    ...(customerId === undefined ? {} : { customerId }),
  });
const attributesOf = async (target: Shop, cart: unknown, customerId?: string) => {
  const response = await estimate(target, cart, customerId);
  expect(response.status).toBe(200);
  expect(response.body.data.type).toBe('estimate');
  return response.body.data.attributes;
};

// $178 of products (tax $14.00 in it), a $25 gift card, $10 off the order: $168 eligible, $154 without the tax.
const CART: Cart = {
  lines: [
    { variant_id: '41002', product_id: '9001', quantity: 2, price: '89.00', gift_card: false, tax: '14.00' },
    { variant_id: '41007', product_id: '9004', quantity: 1, price: '25.00', gift_card: true },
  ],
  discount: '10.00',
  currency: 'USD',
};

describe('POST /shopper/estimate', () => {
  it('gives a guest and a signed-in non-member what a new member without a tier earns, without signup points', async () => {
    const guest = await attributesOf(SHOPS.approved, CART);
    const token = await sessionToken(twin.platformUrl, SHOPS.approved.id, NON_MEMBER);
    const nonMember = await withToken(twin.url, token, 'POST', '/estimate', CART);

    expect(guest).toEqual({ points: 168 * 2 + 25, status: 'approved', points_due_at: null, eligible_amount: '168.00' });
    expect(nonMember.status).toBe(200);
    expect(nonMember.headers.get('access-control-allow-origin')).toBe('*');
    expect(nonMember.body.data.attributes).toEqual(guest);
    expect(await attributesOf(SHOPS.approved, CART, '8001')).toEqual(guest);
  });

  it("prices a member's order at their tier, and gives an excluded member nothing", async () => {
    expect((await attributesOf(SHOPS.approved, CART, '8002')).points).toBe(Math.round((168 * 2 + 25) * 1.25));
    expect((await attributesOf(SHOPS.approved, CART, '8003')).points).toBe(Math.round((168 * 2 + 25) * 1.5));
    expect(await attributesOf(SHOPS.pending, CART, '8004')).toEqual({
      points: 0,
      status: 'approved',
      points_due_at: null,
      eligible_amount: '168.00',
    });
  });

  it('applies a running campaign and says when points held for the return window arrive', async () => {
    // $168 is 33 whole $5 units at 2 points, and the order's 25, all doubled by the campaign.
    expect(await attributesOf(SHOPS.pending, CART)).toEqual({
      points: (33 * 2 + 25) * 2,
      status: 'pending',
      points_due_at: at(14),
      eligible_amount: '168.00',
    });
    expect((await attributesOf(SHOPS.pending, CART, '8003')).points).toBe(Math.round((33 * 2 + 25) * 2 * 1.5));
  });

  it("takes the lines' tax out where the shop's prices include tax (and a campaign that is over changes nothing)", async () => {
    expect(await attributesOf(SHOPS.taxed, CART)).toEqual({
      points: 154 * 3 + 25,
      status: 'approved',
      points_due_at: null,
      eligible_amount: '154.00',
    });
  });

  it('refuses a malformed cart with a 400 in the error envelope', async () => {
    const cases: Array<[unknown, string]> = [
      [{ ...CART, lines: [] }, 'lines: must hold at least one line'],
      [{ discount: '0.00', currency: 'USD' }, 'lines: must be a list of cart lines'],
      [{ ...CART, lines: [{ ...CART.lines[0], quantity: 0 }] }, 'lines.0.quantity: must be a positive integer'],
      [{ ...CART, lines: [{ ...CART.lines[0], quantity: 1.5 }] }, 'lines.0.quantity: must be a positive integer'],
      [{ ...CART, lines: [{ ...CART.lines[0], price: '-89.00' }] }, 'lines.0.price: must be a non-negative decimal string'],
      [{ ...CART, lines: [{ ...CART.lines[0], price: 89 }] }, 'lines.0.price: must be a non-negative decimal string'],
      [{ ...CART, discount: '-1.00' }, 'discount: must be a non-negative decimal string'],
      [{ ...CART, discount: 'ten' }, 'discount: must be a non-negative decimal string'],
      [{ ...CART, currency: 'EUR' }, "currency: EUR is not the shop's currency (USD)"],
    ];
    for (const [cart, detail] of cases) {
      const response = await estimate(SHOPS.approved, cart, '8002');
      expectError(response, 400, new RegExp(`^${detail.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`));
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    }
    const notJson = await viaProxy(twin.url, 'POST', '/estimate', {
      shopDomain: SHOPS.approved.platform.shop_domain,
      secret: SHOPS.approved.platform.client_secret,
      body: 'lines',
      headers: { 'Content-Type': 'application/json' },
    });
    expect(notJson.status).toBe(400);
  });

  it("writes nothing: the member's items and the events are the same after estimates", async () => {
    const events = async () => ((await (await fetch(`${twin.url}/_events`)).json()) as { events: unknown[] }).events.length;
    const before = { items: await customerItems(SHOPS.pending.id, '8002'), events: await events() };
    await attributesOf(SHOPS.pending, CART, '8002');
    await attributesOf(SHOPS.pending, CART);

    expect({ items: await customerItems(SHOPS.pending.id, '8002'), events: await events() }).toEqual(before);
  });
});

describe('the estimate is what the paid order earns', () => {
  const next = random(SEED);
  const pick = <T>(values: readonly T[]): T => values[Math.floor(next() * values.length)]!;
  const between = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  const dollars = (cents: number) => (cents / 100).toFixed(2);

  /** A random cart, and the line items the platform's order of it carries: the discount on lines that are no gift card. */
  function randomOrder(taxesIncluded: boolean) {
    const lines = Array.from({ length: between(1, 4) }, (_, index) => ({
      index,
      cents: pick([0, between(1, 99), between(100, 5_000), between(5_000, 40_000)]),
      quantity: between(1, 3),
      giftCard: next() < 0.2,
    }));
    const discountable = lines.filter((line) => !line.giftCard).reduce((sum, line) => sum + line.cents * line.quantity, 0);
    const discount = next() < 0.3 ? 0 : Math.floor(discountable * next() * 0.6);
    // The platform's own allocation: here simply line by line from the first, whatever the estimate's spread.
    let left = discount;
    const items = lines.map((line) => {
      const lineDiscount = line.giftCard ? 0 : Math.min(left, line.cents * line.quantity);
      left -= lineDiscount;
      const paid = line.cents * line.quantity - lineDiscount;
      const tax = next() < 0.3 ? 0 : Math.floor(paid * next() * (taxesIncluded ? 0.2 : 0.25));
      return { ...line, discount: lineDiscount, tax };
    });
    const cart: Cart = {
      lines: items.map((line) => ({
        variant_id: String(41_000 + line.index),
        product_id: String(9_000 + line.index),
        quantity: line.quantity,
        price: dollars(line.cents),
        gift_card: line.giftCard,
        ...(line.tax > 0 ? { tax: dollars(line.tax) } : {}),
      })),
      discount: dollars(discount),
      currency: 'USD',
    };
    const lineItems = items.map((line) => ({
      price: dollars(line.cents),
      quantity: line.quantity,
      gift_card: line.giftCard,
      tax: dollars(line.tax),
      discount: dollars(line.discount),
    }));
    return { cart, lineItems };
  }

  it(`for ${CASES} random carts, shops and members (seed ${SEED}): points, status, due date and eligible amount`, async () => {
    const platform = platformControls(twin);
    const seen = new Set<string>();
    for (let run = 0; run < CASES; run += 1) {
      const { kind, shop: target } = pick(RANDOM_SHOPS);
      const member = pick(MEMBERS);
      const { cart, lineItems } = randomOrder(kind === 'taxed');
      const shown = await attributesOf(target, cart, member.id);

      const { order } = await platform.order({
        shop: target.id,
        customer_id: member.id,
        taxes_included: kind === 'taxed',
        line_items: lineItems,
      });
      const entries = (await earningEntries(target.id, member.id)).filter((entry: Json) => entry.order_id === String(order.id));
      const earned = {
        points: entries.reduce((sum: number, entry: Json) => sum + entry.points, 0),
        statuses: [...new Set(entries.map((entry: Json) => entry.status))],
        due: [...new Set(entries.map((entry: Json) => entry.points_due_at))],
      };
      const context = { run, shop: kind, member: member.id, cart };
      expect({ ...context, points: earned.points }).toEqual({ ...context, points: shown.points });
      if (shown.points > 0) {
        expect({ ...context, statuses: earned.statuses, due: earned.due }).toEqual({
          ...context,
          statuses: [shown.status],
          due: [shown.points_due_at],
        });
      }
      if (!member.excluded) {
        // The eligible amount the engine recorded for the order, and what a guest is shown: a tierless member's figure.
        const item = (await orderItems(target.id, member.id)).find((candidate: Json) => candidate.order_id === String(order.id));
        expect({ ...context, eligible: item.facts.subtotal_minor }).toEqual({
          ...context,
          eligible: decimalToMinor(shown.eligible_amount, minorDigits('USD')),
        });
        if (member.lifetime === 0) expect(await attributesOf(target, cart)).toEqual(shown);
      }
      seen.add(`${kind}:${member.excluded ? 'excluded' : member.lifetime}:${shown.points > 0 ? shown.status : 'none'}`);
    }
    // The seed reaches every shop with points earned, and an excluded member.
    expect([...seen].filter((key) => key.endsWith(':approved') || key.endsWith(':pending')).map((key) => key.split(':')[0])).toEqual(
      expect.arrayContaining(['approved', 'pending', 'taxed']),
    );
    expect([...seen].some((key) => key.includes(':excluded:'))).toBe(true);
  });
});
