// The reward kinds peers give, bought and undone against DynamoDB Local and the platform simulator: free-shipping
// and free-product codes, and store credit credited exactly once whatever the platform does (an error, no
// connection, an answer lost after the credit was made, a function stopped before or after the credit, a retry
// with the same Idempotency-Key, the reconciler), and taken back by an undo only while the account still holds it.
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { purchaseHandler } from '../../functions/rewards/purchase';
import type { PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { queryAll } from '../../shared/data/item-reads';
import { keys } from '../../shared/data/keys';
import { rewardEntryItem } from '../../shared/data/items/reward-entry';
import { batchPut } from '../../shared/data/shop-repository';
import type { PurchaseRecord } from '../../shared/domain/history';
import { toErrorResponse } from '../../shared/http/errors';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import type { PurchaseHooks } from '../../shared/purchases/purchase-reward';
import { purchaseReconcilerJob } from '../../shared/purchases/purchase-reconciler';
import { refundRedemption } from '../../shared/purchases/refund-redemption';
import { now, setClock } from '../../shared/runtime/clock';
import { customerRecord } from '../fixtures/customer-record';
import { reward, shopCatalog } from '../fixtures/shop-catalog';
import { shopWithPlatform, type ShopWithPlatform } from '../support/shop-with-platform';

jest.setTimeout(60_000);

const SHOP = 'kinds-shop';
const catalog = shopCatalog(SHOP, {
  rewards: [
    reward('ship', { name: 'Free shipping', discount_type: 'free_shipping', discount_amount: 0, points_cost: 100 }),
    reward('ship-capped', { name: 'Free shipping', discount_type: 'free_shipping', discount_amount: 12.5, minimum_spend: 30 }),
    reward('scarf', { name: 'Free Merino scarf', discount_type: 'free_product', discount_amount: 35, product_variant_id: '4401' }),
    reward('credit', { name: '$5.00 store credit', discount_type: 'store_credit', discount_amount: 5, expiry_days: 30 }),
  ],
});
const FUNCTION_MS = 10_000;

let table: ShopWithPlatform['table'];
let simulator: PlatformSimulator;
let nextId = 700;

beforeAll(async () => {
  ({ simulator, table } = await shopWithPlatform(catalog));
});
afterAll(() => table.drop());
beforeEach(() => setClock(new Date('2026-11-24T12:00:00.000Z')));
afterEach(() => simulator.setFaults({ discount_codes: 'ok', store_credit: 'ok' }));

async function member(points: number): Promise<string> {
  const id = String((nextId += 1));
  await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: id, referral_code: `KIND${id}`, current_points: points }));
  simulator.addCustomer(SHOP, { id, email: `c${id}@example.com`, first_name: 'C', last_name: id, created_at: null });
  return id;
}

function purchaseEvent(customerId: string, rewardId: string, idempotencyKey: string): APIGatewayProxyEvent {
  return {
    resource: '/v1/rewards/{id}/purchase',
    path: `/v1/rewards/${rewardId}/purchase`,
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { id: rewardId },
    stageVariables: null,
    body: JSON.stringify({ customer_identifier: customerId }),
    isBase64Encoded: false,
    requestContext: { authorizer: { shopId: SHOP, scope: 'full', keyId: 'k1' } },
  } as unknown as APIGatewayProxyEvent;
}

function lambdaContext(): Context {
  const deadline = Date.now() + FUNCTION_MS;
  return {
    awsRequestId: 'test',
    functionName: 'purchaseReward',
    getRemainingTimeInMillis: () => deadline - Date.now(),
  } as unknown as Context;
}

let keyCount = 0;
const buy = (customerId: string, rewardId: string, key = `key-${(keyCount += 1)}`, hooks?: PurchaseHooks): Promise<APIGatewayProxyResult> =>
  purchaseHandler(hooks)(purchaseEvent(customerId, rewardId, key), lambdaContext());

/** Starts a purchase and abandons it at `point`, as a function stopped there; resolves once it got there. */
async function stoppedAt(point: keyof PurchaseHooks, customerId: string, key: string): Promise<PurchaseRecord> {
  let reached!: (purchase: PurchaseRecord) => void;
  const reachedPoint = new Promise<PurchaseRecord>((resolve) => (reached = resolve));
  void buy(customerId, 'credit', key, {
    [point]: (purchase: PurchaseRecord) => {
      reached(purchase);
      return new Promise<void>(() => undefined);
    },
  });
  return reachedPoint;
}

const pastTheExpiry = () => setClock(new Date(now().getTime() + FUNCTION_MS + 1));
const bodyOf = (response: APIGatewayProxyResult) => JSON.parse(response.body);
const profile = async (id: string) => (await getCustomer(SHOP, id, true))!.record;
const purchases = async (id: string) =>
  (await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
    ExpressionAttributeValues: { ':pk': keys.customerPk(SHOP, id), ':r': 'REDEEM#' },
  })) as unknown as PurchaseRecord[];
const codesOf = (id: string) => simulator.discountCodes().filter((code) => code.customer_id === id);
// The domain clock stands still: the reconciler runs a second later, when every unsettled entry is older than it.
const reconcile = () => purchaseReconcilerJob({ platformFor: platformForShop, settleAfterMs: 0, now: new Date(now().getTime() + 1000) });
const undo = (id: string, entryId: string) => refundRedemption(catalog, id, entryId, platformForShop(SHOP));

async function storeCredit(
  id: string,
): Promise<{ balance: string; transactions: Array<{ id: string; amount: string; expires_at: string | null }> }> {
  const response = await fetch(`${simulator.url}/_store_credit?shop=${SHOP}&customer_id=${id}`);
  return (await response.json()) as { balance: string; transactions: Array<{ id: string; amount: string; expires_at: string | null }> };
}

async function failureOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { statusCode, body } = toErrorResponse(error);
    return { statusCode, title: body.errors[0]!.title, detail: body.errors[0]!.detail };
  }
  throw new Error('expected a failure');
}

/** A store credit mutation made on the platform by someone else than the service (Shopify at checkout, the merchant). */
async function onPlatform(kind: 'Credit' | 'Debit', id: string, amount: string): Promise<void> {
  const field = kind === 'Credit' ? 'creditInput' : 'debitInput';
  await fetch(simulator.graphqlEndpoint(SHOP), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', 'X-Shopify-Access-Token': 'local-token' },
    body: JSON.stringify({
      query: `mutation Change($id: ID!, $input: StoreCreditAccount${kind}Input!) {
        storeCreditAccount${kind}(id: $id, ${field}: $input) { userErrors { code } }
      }`,
      variables: { id: `gid://shopify/Customer/${id}`, input: { [`${kind.toLowerCase()}Amount`]: { amount, currencyCode: 'USD' } } },
    }),
  });
}

/** The member spends store credit at checkout: a debit made by Shopify, not by the service. */
const spend = (id: string, amount: string) => onPlatform('Debit', id, amount);

describe('free-shipping and free-product rewards', () => {
  it('give a free-shipping code for the member, uncapped, or capped with its minimum spend', async () => {
    const id = await member(300);

    const any = await buy(id, 'ship');
    const capped = await buy(id, 'ship-capped');

    expect(any.statusCode).toBe(201);
    expect(bodyOf(any).data.attributes).toMatchObject({
      reward_discount_type: 'free_shipping',
      reward_name: 'Free shipping',
      status: 'active',
    });
    const byCode = new Map(codesOf(id).map((code) => [code.code, code]));
    expect(byCode.get(bodyOf(any).data.attributes.discount_code)).toMatchObject({
      kind: 'free_shipping',
      cap: null,
      customer_id: id,
      usage_limit: 1,
    });
    expect(byCode.get(bodyOf(capped).data.attributes.discount_code)).toMatchObject({ kind: 'free_shipping', cap: 12.5, minimum_spend: 30 });
    expect((await profile(id)).current_points).toBe(100);
  });

  it("gives a code on the variant alone worth one unit's price, and an undo deletes it and gives the points back", async () => {
    const id = await member(100);

    const answer = await buy(id, 'scarf');
    const code = bodyOf(answer).data.attributes.discount_code as string;

    expect(answer.statusCode).toBe(201);
    expect(codesOf(id)).toEqual([
      expect.objectContaining({ code, kind: 'free_product', product_variant_id: '4401', type: 'fixed', amount: 35, customer_id: id }),
    ]);
    const refunded = await undo(id, bodyOf(answer).data.id);
    expect(refunded).toMatchObject({ is_refunded: true, status: 'active' });
    expect(codesOf(id)).toEqual([]);
    expect((await profile(id)).current_points).toBe(100);
  });
});

describe('a store credit reward', () => {
  it('credits the account in the shop currency with the reward expiry: no code, used from the start, with its transaction', async () => {
    const id = await member(250);

    const answer = await buy(id, 'credit');

    expect(answer.statusCode).toBe(201);
    const { attributes } = bodyOf(answer).data;
    const account = await storeCredit(id);
    expect(attributes).toMatchObject({
      reward_discount_type: 'store_credit',
      reward_name: '$5.00 store credit',
      discount_code: null,
      status: 'used',
      store_credit_transaction_id: account.transactions[0]!.id,
    });
    expect(account).toMatchObject({ balance: '5.00', transactions: [{ amount: '5.00', expires_at: attributes.expires_at }] });
    expect(codesOf(id)).toEqual([]);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
    const [entry] = await purchases(id);
    expect(entry).toMatchObject({ status: 'used', discount_code: null });
    expect((entry as unknown as Record<string, unknown>).unsettled_pk).toBeUndefined();
  });

  it('is credited once when the answer is lost after the credit: the purchase finds its own transaction', async () => {
    const id = await member(250);
    simulator.setFaults({ store_credit: 'lost_answer' });

    const answer = await buy(id, 'credit');

    expect(answer.statusCode).toBe(201);
    const account = await storeCredit(id);
    expect(account.balance).toBe('5.00');
    expect(account.transactions).toHaveLength(1);
    expect(bodyOf(answer).data.attributes).toMatchObject({ status: 'used', store_credit_transaction_id: account.transactions[0]!.id });
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('tells the two purchases of one member apart when both answers are lost', async () => {
    const id = await member(250);
    simulator.setFaults({ store_credit: 'lost_answer' });

    const first = await buy(id, 'credit');
    const second = await buy(id, 'credit');

    const account = await storeCredit(id);
    expect(account.balance).toBe('10.00');
    expect([first.statusCode, second.statusCode]).toEqual([201, 201]);
    const ids = [bodyOf(first), bodyOf(second)].map((body) => body.data.attributes.store_credit_transaction_id);
    expect(new Set(ids)).toEqual(new Set(account.transactions.map((transaction) => transaction.id)));
    expect((await profile(id)).current_points).toBe(50);
  });

  it.each(['error', 'unreachable'] as const)(
    'on %s: 503, the purchase pending, a retry with the same key never credits again, and the reconciler gives the points back',
    async (fault) => {
      const id = await member(250);
      simulator.setFaults({ store_credit: fault });

      const answer = await buy(id, 'credit', `failing-${fault}`);
      simulator.setFaults({ store_credit: 'ok' });
      const retry = await buy(id, 'credit', `failing-${fault}`);

      expect(answer.statusCode).toBe(503);
      expect(bodyOf(answer).errors[0].detail).toMatch(/did not confirm the store credit/);
      expect(retry.statusCode).toBe(503);
      expect(await storeCredit(id)).toMatchObject({ balance: '0.00', transactions: [] });
      expect((await purchases(id)).map((entry) => entry.status)).toEqual(['pending']);
      expect((await profile(id)).current_points).toBe(150);

      const summary = await reconcile();

      expect(summary.refunded).toBeGreaterThanOrEqual(1);
      expect((await purchases(id)).map((entry) => [entry.status, entry.is_refunded])).toEqual([['refunded', true]]);
      expect(await profile(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
      expect((await storeCredit(id)).transactions).toEqual([]);
    },
  );

  it('a retry with the same key after a lost answer the lookup could not confirm finds the credit: once', async () => {
    const id = await member(250);
    // The credit is made, its answer lost, and the transactions cannot be read either: the purchase stays pending.
    simulator.setFaults({ store_credit: 'lost_answer', customers: 'error' });
    const answer = await buy(id, 'credit', 'lost-then-retried');
    simulator.setFaults({ store_credit: 'ok', customers: 'ok' });

    const retry = await buy(id, 'credit', 'lost-then-retried');

    const account = await storeCredit(id);
    expect(answer.statusCode).toBe(503);
    expect(retry.statusCode).toBe(201);
    expect(account.transactions).toHaveLength(1);
    expect(bodyOf(retry).data.attributes.store_credit_transaction_id).toBe(account.transactions[0]!.id);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('a function stopped before the credit: the reconciler gives the points back and nothing is credited', async () => {
    const id = await member(250);
    await stoppedAt('afterReserve', id, 'stopped-before');

    await reconcile();

    expect(await storeCredit(id)).toMatchObject({ balance: '0.00', transactions: [] });
    expect((await purchases(id)).map((entry) => entry.status)).toEqual(['refunded']);
    expect(await profile(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
  });

  it('a function stopped after the credit: the reconciler records it, credited once and points spent once', async () => {
    const id = await member(250);
    const reserved = await stoppedAt('afterCode', id, 'stopped-after');

    const summary = await reconcile();

    const account = await storeCredit(id);
    expect(summary.activated).toBeGreaterThanOrEqual(1);
    expect(account.transactions).toHaveLength(1);
    expect(await purchases(id)).toEqual([
      expect.objectContaining({ id: reserved.id, status: 'used', store_credit_transaction_id: account.transactions[0]!.id }),
    ]);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('a function stopped after the credit, retried with the same key: the retry finds the credit instead of sending another', async () => {
    const id = await member(250);
    const reserved = await stoppedAt('afterCode', id, 'stopped-retried');
    pastTheExpiry();

    const retry = await buy(id, 'credit', 'stopped-retried');

    const account = await storeCredit(id);
    expect(retry.statusCode).toBe(201);
    expect(bodyOf(retry).data).toMatchObject({
      id: reserved.id,
      attributes: { status: 'used', store_credit_transaction_id: account.transactions[0]!.id },
    });
    expect(account.transactions).toHaveLength(1);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });
});

describe('undoing a store credit reward', () => {
  async function credited(points = 250): Promise<{ id: string; entryId: string }> {
    const id = await member(points);
    const answer = await buy(id, 'credit');
    expect(answer.statusCode).toBe(201);
    return { id, entryId: bodyOf(answer).data.id as string };
  }

  it('debits the same amount first, then gives the points back; a second undo is refused', async () => {
    const { id, entryId } = await credited();

    const refunded = await undo(id, entryId);
    const again = await failureOf(undo(id, entryId));

    expect(refunded).toMatchObject({ is_refunded: true, status: 'used' });
    const account = await storeCredit(id);
    expect(account.balance).toBe('0.00');
    expect(account.transactions.map((transaction) => transaction.amount)).toEqual(['5.00', '-5.00']);
    expect(await profile(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
    expect(again).toMatchObject({ statusCode: 422, title: 'Reward Already Refunded' });
  });

  it('answers 422 saying the customer spent it when the account no longer holds it, and changes nothing', async () => {
    const { id, entryId } = await credited();
    await spend(id, '3.00');
    const [before] = await purchases(id);

    const refused = await failureOf(undo(id, entryId));

    expect(refused.statusCode).toBe(422);
    expect(refused.detail).toMatch(/no longer holds the \$5\.00 it credited \(the customer has spent it\)/);
    expect(await purchases(id)).toEqual([before]);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
    expect((await storeCredit(id)).balance).toBe('2.00');
  });

  it("undoes an entry brought over from a configuration file, which recorded no amount: the reward's", async () => {
    const id = await member(0);
    await onPlatform('Credit', id, '5.00');
    const at = now().toISOString();
    await batchPut([
      rewardEntryItem(SHOP, id, {
        id: `brought-${id}`,
        reward_id: 'credit',
        reward_name: '$5.00 store credit',
        reward_discount_type: 'store_credit',
        points_spent: 100,
        discount_code: null,
        status: 'used',
        is_refunded: false,
        discount_code_redeemed_at: null,
        redeemed_at: at,
        expires_at: null,
        created_at: at,
        updated_at: at,
      }),
    ]);

    const refunded = await undo(id, `brought-${id}`);

    expect(refunded.is_refunded).toBe(true);
    expect((await storeCredit(id)).balance).toBe('0.00');
    expect((await profile(id)).current_points).toBe(100);
  });

  it('debits once when the answer is lost: the undo finds its own debit', async () => {
    const { id, entryId } = await credited();
    simulator.setFaults({ store_credit: 'lost_answer' });

    const refunded = await undo(id, entryId);

    expect(refunded.is_refunded).toBe(true);
    const account = await storeCredit(id);
    expect(account.transactions.map((transaction) => transaction.amount)).toEqual(['5.00', '-5.00']);
    expect(await profile(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
  });

  it('on an error: 503, nothing debited, and the reconciler leaves the entry as it was', async () => {
    const { id, entryId } = await credited();
    simulator.setFaults({ store_credit: 'error' });

    const failed = await failureOf(undo(id, entryId));
    simulator.setFaults({ store_credit: 'ok' });
    await reconcile();

    expect(failed.statusCode).toBe(503);
    const [entry] = await purchases(id);
    expect(entry).toMatchObject({ status: 'used', is_refunded: false });
    expect(entry).not.toHaveProperty('store_credit_debit_sent_at');
    expect((entry as unknown as Record<string, unknown>).unsettled_pk).toBeUndefined();
    expect((await storeCredit(id)).balance).toBe('5.00');
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
    // The undo can be asked again, and goes through.
    expect((await undo(id, entryId)).is_refunded).toBe(true);
    expect((await storeCredit(id)).balance).toBe('0.00');
  });

  it('a debit made whose undo did not finish: the reconciler completes the refund, debited once', async () => {
    const { id, entryId } = await credited();
    // The debit is made, its answer lost, and the transactions cannot be read: the undo stays in doubt.
    simulator.setFaults({ store_credit: 'lost_answer', customers: 'error' });
    const failed = await failureOf(undo(id, entryId));
    simulator.setFaults({ store_credit: 'ok', customers: 'ok' });

    const summary = await reconcile();

    expect(failed.statusCode).toBe(503);
    expect(summary.refundsCompleted).toBeGreaterThanOrEqual(1);
    expect(await purchases(id)).toEqual([expect.objectContaining({ is_refunded: true, status: 'used' })]);
    expect((await storeCredit(id)).transactions.map((transaction) => transaction.amount)).toEqual(['5.00', '-5.00']);
    expect(await profile(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
  });
});
