// Each shop its own shopper budget, through the twin with its throttles on (docs/decisions.md, "Each shop its
// own shopper budget"): callers without a shopper identity (no signature, a forged one naming the shop) and
// another shop's verified flood leave a shop's redemption and join answered; the shop's own verified flood past
// its budget gets 429 in the envelope with the CORS headers, for its writes only, until its window passes. The
// estimate, a POST that writes nothing, takes from the reads' budget.
import { readFileSync } from 'node:fs';
import { DEMO_CONFIG, type Twin } from '../../infra/local/twin';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { SHOPPER_REQUESTS, shopperBudgetKey } from '../../shared/data/items/shopper-budget';
import { SHOPPER_BUDGET, SHOPPER_THROTTLE } from '../../shared/runtime/entry-points';
import { bare, DEMO_APP, viaProxy } from '../support/shopper';
import { type ApiResponse, expectError, sendJson, startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

/** A second shop with an app of its own: the demo shop's program under another id, domain and secret. */
const OTHER_APP = { domain: 'other.myshopify.com', clientSecret: 'other-app-client-secret' };

function twoShopConfig(): unknown {
  const config = JSON.parse(readFileSync(DEMO_CONFIG, 'utf8')) as { shops: Array<Record<string, any>> }; // eslint-disable-line @typescript-eslint/no-explicit-any
  const demo = config.shops.find((shop) => shop.id === 'demo')!;
  const other = structuredClone(demo);
  other.id = 'other';
  other.name = 'Other shop';
  other.api_keys = [{ name: 'Backend', scope: 'full', key: 'other_full_key', revoked: false }];
  other.platform = {
    ...other.platform,
    shop_domain: OTHER_APP.domain,
    client_id: 'other-app-client-id',
    client_secret: OTHER_APP.clientSecret,
    webhook_secret: 'other-webhook-secret',
  };
  return { shops: [demo, other] };
}

let twin: Twin;

beforeAll(async () => {
  // Throttling on (the default): the gateway's stage method throttles and the shops' budgets, as deployed.
  twin = await startTestTwin(twoShopConfig());
});
afterAll(async () => {
  await twin?.stop();
});

const BATCH = 50;

/** Sends `request` in concurrent batches until one is answered 429 (or `batches` have gone); every answer. */
async function floodUntilRefused(request: () => Promise<ApiResponse>, batches = 8): Promise<ApiResponse[]> {
  const answers: ApiResponse[] = [];
  for (let batch = 0; batch < batches; batch += 1) {
    answers.push(...(await Promise.all(Array.from({ length: BATCH }, request))));
    if (answers.some((answer) => answer.status === 429)) break;
  }
  return answers;
}

/** A write window's length: burstLimit / rateLimit seconds (2 s), windows aligned on the epoch. */
const WINDOW_MS = (SHOPPER_BUDGET.write.burstLimit / SHOPPER_BUDGET.write.rateLimit) * 1000;

/** Waits for the next window to start, so a flood begins with the whole budget of a window no earlier request spent. */
const nextWindow = () => new Promise((resolve) => setTimeout(resolve, WINDOW_MS - (Date.now() % WINDOW_MS) + 20));

const statuses = (answers: ApiResponse[]) => [...new Set(answers.map((answer) => answer.status))].sort();

/** A guest's join through shop `app`'s proxy: verified, counted, then refused for the missing sign-in (no write). */
const guestJoin = (app: { domain: string; clientSecret: string }) => () =>
  viaProxy(twin.url, 'POST', '/member', { shopDomain: app.domain, secret: app.clientSecret });

describe("each shop's own shopper budget (throttling on)", () => {
  it("leaves shop A's redemption and join answered after floods without an identity and another shop's verified flood", async () => {
    const unsigned = () =>
      Promise.all([
        bare(twin.url, 'POST', '/rewards/five-off/redeem', { 'Content-Type': 'application/json' }),
        bare(twin.url, 'POST', '/member', { 'Content-Type': 'application/json' }),
        // Naming shop A with a signature that is not its app's: refused before its budget is touched.
        sendJson(
          `${twin.url}/shopper/member?shop=${DEMO_APP.domain}&logged_in_customer_id=1001&path_prefix=%2Fapps%2Floyalty&timestamp=${Math.floor(Date.now() / 1000)}&signature=${'0'.repeat(64)}`,
          'POST',
          { 'Content-Type': 'application/json' },
          {},
        ),
      ]);
    const anonymous = (await Promise.all(Array.from({ length: 40 }, unsigned))).flat();
    const otherFlood = await floodUntilRefused(guestJoin(OTHER_APP));
    const [redeemed, joined] = await Promise.all([
      viaProxy(twin.url, 'POST', '/rewards/five-off/redeem', { customerId: '1001', body: {} }),
      viaProxy(twin.url, 'POST', '/member', { customerId: '1010' }),
    ]);

    // 120 POSTs without a shopper identity, each refused by the function, none by a shared limit.
    expect(anonymous).toHaveLength(120);
    expect(statuses(anonymous)).toEqual([401]);
    // The other shop spent its own write budget: its flood was cut at 429, and only its own.
    expect(statuses(otherFlood)).toEqual([401, 429]);
    expectError(
      otherFlood.find((answer) => answer.status === 429)!,
      429,
      'Rate limit exceeded',
    );
    expect(redeemed.status).toBe(201);
    expect(redeemed.body.data.attributes).toMatchObject({ reward_id: 'five-off', discount_code: expect.any(String) });
    expect(joined.status).toBe(201);
  });

  it("refuses shop A's own verified flood past its write budget with 429 and CORS, its reads still answered, until the window passes", async () => {
    await nextWindow();
    const flood = await floodUntilRefused(guestJoin({ domain: DEMO_APP.domain, clientSecret: DEMO_APP.clientSecret }));
    const refused = flood.find((answer) => answer.status === 429)!;
    const read = await viaProxy(twin.url, 'GET', '/member', { customerId: '1001' });

    expect(statuses(flood)).toEqual([401, 429]);
    // At least the window's budget went through before the first refusal.
    expect(flood.filter((answer) => answer.status === 401).length).toBeGreaterThanOrEqual(SHOPPER_BUDGET.write.burstLimit);
    expectError(refused, 429, 'Rate limit exceeded');
    expect(refused.headers.get('access-control-allow-origin')).toBe('*');
    expect(refused.headers.get('cache-control')).toBe('private, no-store');
    // Reads are a budget of their own.
    expect(read.status).toBe(200);
    // The stage's method throttle, all shops together, was never what answered: it holds ten shops' budgets.
    expect(flood.length).toBeLessThan(SHOPPER_THROTTLE.write.burstLimit);

    // The next window holds a fresh budget.
    await nextWindow();
    const again = await viaProxy(twin.url, 'POST', '/rewards/five-off/redeem', { customerId: '1001', body: {} });
    expect(again.status).toBe(201);
  });

  it('counts the estimate, a POST that writes nothing, in the shop’s read budget, never its write budget', async () => {
    const spent = async (routeClass: 'read' | 'write') => {
      const { Items = [] } = await documentClient().send(
        new QueryCommand({
          TableName: tableName(),
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': shopperBudgetKey('other', routeClass, 0).pk },
          ConsistentRead: true,
        }),
      );
      return Items.reduce((sum, item) => sum + Number(item[SHOPPER_REQUESTS] ?? 0), 0);
    };
    const before = { read: await spent('read'), write: await spent('write') };
    const cart = { lines: [{ variant_id: '41002', product_id: '9001', quantity: 1, price: '89.00', gift_card: false }], currency: 'USD' };
    for (let i = 0; i < 3; i += 1) {
      const answer = await viaProxy(twin.url, 'POST', '/estimate', {
        shopDomain: OTHER_APP.domain,
        secret: OTHER_APP.clientSecret,
        customerId: '1001',
        body: cart,
      });
      expect(answer.status).toBe(200);
    }

    expect({ read: await spent('read'), write: await spent('write') }).toEqual({ read: before.read + 3, write: before.write });
  });
});
