// The twin's checkout (infra/local/simulator/simulated-checkout.ts) without a browser: the cart priced from the
// storefront's products and the shop's codes as checkout prices them, the codes it refuses in Shopify's words,
// Pay placing the order with its codes and line discounts and delivering orders/paid, the session tokens it mints
// (a guest's without a customer), and the pages' refusals.
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { sessionToken, withToken } from '../support/shopper';
import { startTestTwin } from '../support/twin';

let twin: Twin;
const at = (path: string) => `${twin.platformUrl}/checkout/demo${path}`;
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests inspect arbitrary JSON
type Json = Record<string, any>;
const post = async (path: string, body: unknown) => {
  const response = await fetch(at(path), { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Json };
};
/** A JWT's claims, unverified: the service's answer below is what verifies the signature. */
const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8')) as Record<string, unknown>;
const ITEMS = [{ variant_id: '41002', quantity: 2 }];

beforeAll(async () => {
  twin = await startTestTwin(DEMO_CONFIG, { throttling: false });
});
afterAll(async () => {
  await twin?.stop();
});

async function codeFor(customerId: string): Promise<string> {
  const token = await sessionToken(twin.platformUrl, 'demo', customerId);
  const redeemed = await withToken(twin.url, token, 'POST', '/rewards/five-off/redeem', {});
  expect(redeemed.status).toBe(201);
  return redeemed.body.data.attributes.discount_code as string;
}

describe("the twin's checkout", () => {
  it('serves the checkout page of a cart of the storefront’s products, and refuses an unknown variant, quantity, customer or shop', async () => {
    const page = await fetch(at('/?variant=41002&quantity=2&customer_id=1001'));
    const html = await page.text();
    expect(page.status).toBe(200);
    expect(html).toContain('data-target="purchase.checkout.reductions.render-after"');
    expect(html).toContain('Merino scarf (Grey) × 2');
    expect(html).toContain('Signed in as');
    expect((await fetch(at('/?variant=999'))).status).toBe(400);
    expect((await fetch(at('/?variant=41002&quantity=0'))).status).toBe(400);
    expect((await fetch(at('/?customer_id=424242'))).status).toBe(404);
    expect((await fetch(`${twin.platformUrl}/checkout/nope/`)).status).toBe(404);
  });

  it('prices the member’s code onto the lines, and refuses an unknown code and another customer’s code', async () => {
    const code = await codeFor('1001');
    const priced = await post('/cart?customer_id=1001', { items: ITEMS, codes: [code.toLowerCase()] });
    expect(priced.status).toBe(200);
    expect(priced.body.cart).toMatchObject({ subtotal: 17800, discount: 500, total: 17300, codes: [{ code, label: '$5.00 off' }] });
    expect(priced.body.cart.lines[0].allocations).toEqual([{ code, amount: 500 }]);

    expect(await post('/cart?customer_id=1001', { items: ITEMS, codes: ['NOT-A-CODE'] })).toEqual({
      status: 422,
      body: { error: 'Enter a valid discount code (NOT-A-CODE is not one)' },
    });
    expect(await post('/cart?customer_id=1002', { items: ITEMS, codes: [code] })).toEqual({
      status: 422,
      body: { error: `${code} is not valid for your account` },
    });
    expect((await post('/cart', { items: [], codes: [] })).status).toBe(400);
  });

  it('pays: the order placed with its codes and line discounts, orders/paid delivered before the answer', async () => {
    const code = await codeFor('1002');
    const paid = await post('/pay?customer_id=1002', { items: ITEMS, codes: [code] });
    expect(paid.status).toBe(201);
    expect(paid.body.webhook).toMatchObject({ status: 200 });
    expect(twin.simulator.webhooks().at(-1)).toMatchObject({ topic: 'orders/paid' });
    expect(paid.body.thank_you_url).toBe(`/checkout/demo/thank-you/${paid.body.order_id}?customer_id=1002`);
    const orders = (await (await fetch(`${twin.platformUrl}/_orders?shop=demo`)).json()) as { orders: Json[] };
    const order = orders.orders.find((entry) => String(entry.id) === paid.body.order_id)!;
    expect(order.customer.id).toBe(1002);
    expect(order.discount_codes.map((entry: { code: string }) => entry.code)).toEqual([code]);
    expect(order.line_items[0]).toMatchObject({ price: '89.00', quantity: 2, variant_id: 41002 });
    expect(order.total_discounts).toBe('5.00');
    const thankYou = await fetch(`${twin.platformUrl}${paid.body.thank_you_url}`);
    expect(thankYou.status).toBe(200);
    expect(await thankYou.text()).toContain('data-target="purchase.thank-you.block.render"');
    const status = await fetch(at(`/orders/${paid.body.order_id}`));
    expect(await status.text()).toContain('data-target="customer-account.order-status.block.render"');
    expect((await fetch(at('/orders/1'))).status).toBe(404);
  });

  it('mints checkout session tokens as Shopify does: the customer’s gid as sub, none for a guest', async () => {
    const member = (await post('/session-token?customer_id=1001', {})).body.token as string;
    const guest = (await post('/session-token', {})).body.token as string;
    expect(claimsOf(member)).toMatchObject({ sub: 'gid://shopify/Customer/1001', dest: 'demo.myshopify.com' });
    expect(claimsOf(guest)).not.toHaveProperty('sub');
    // The service accepts both.
    expect((await withToken(twin.url, member, 'GET', '/member')).body.meta).toEqual({ logged_in: true, member: true });
    expect((await withToken(twin.url, guest, 'GET', '/member')).body.meta).toEqual({ logged_in: false, member: false });
  });
});
