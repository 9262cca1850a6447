// A purchase whose function is stopped part-way (its promise abandoned after the Idempotency-Key claim and
// the reservation, as Lambda leaves an invocation cut off by its time limit), then retried with the same
// key: before the claim's in-progress expiry the retry answers 409; after it the retry takes the claim
// over and ends with exactly one purchase, one code and the right balance.
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from 'aws-lambda';
import { purchaseHandler } from '../../functions/rewards/purchase';
import { handler as adjustHandler } from '../../functions/points/adjust';
import { once } from '../../shared/data/claims';
import { idempotentWorkId, requestOnce } from '../../shared/data/idempotency-repository';
import { requestHash } from '../../shared/http/idempotency';
import { adjustPoints } from '../../shared/points/adjust-points';
import { parseAdjustPointsBody } from '../../shared/points/points-requests';
import type { PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { queryAll } from '../../shared/data/item-reads';
import { keys } from '../../shared/data/keys';
import type { PurchaseRecord } from '../../shared/domain/history';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import type { PurchaseHooks } from '../../shared/purchases/purchase-reward';
import { purchaseReconcilerJob } from '../../shared/purchases/purchase-reconciler';
import { now, setClock } from '../../shared/runtime/clock';
import { customerRecord } from '../fixtures/customer-record';
import { reward, shopCatalog } from '../fixtures/shop-catalog';
import { shopWithPlatform, type ShopWithPlatform } from '../support/shop-with-platform';

jest.setTimeout(60_000);

const SHOP = 'stopped-shop';
const catalog = shopCatalog(SHOP, { rewards: [reward('five-off')] });
/** The function's time left when the invocation starts, as Lambda reports it. */
const FUNCTION_MS = 10_000;

let table: ShopWithPlatform['table'];
let simulator: PlatformSimulator;
let nextId = 500;

beforeAll(async () => {
  ({ simulator, table } = await shopWithPlatform(catalog));
});
afterAll(() => table.drop());
beforeEach(() => setClock(new Date('2026-11-24T12:00:00.000Z')));
afterEach(() => simulator.setFaults({ discount_codes: 'ok' }));

async function member(points: number): Promise<string> {
  const id = String((nextId += 1));
  await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: id, referral_code: `STOP${id}`, current_points: points }));
  simulator.addCustomer(SHOP, { id, email: `c${id}@example.com`, first_name: 'C', last_name: id, created_at: null });
  return id;
}

function purchaseEvent(customerId: string, idempotencyKey: string): APIGatewayProxyEvent {
  return {
    resource: '/v1/rewards/{id}/purchase',
    path: '/v1/rewards/five-off/purchase',
    httpMethod: 'POST',
    headers: { 'Content-Type': 'application/json', 'Idempotency-Key': idempotencyKey },
    multiValueHeaders: {},
    queryStringParameters: null,
    multiValueQueryStringParameters: null,
    pathParameters: { id: 'five-off' },
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

const invoke = (customerId: string, key: string, hooks?: PurchaseHooks): Promise<APIGatewayProxyResult> =>
  purchaseHandler(hooks)(purchaseEvent(customerId, key), lambdaContext());

/**
 * Starts a purchase and abandons it at `point`: the hook never returns, so nothing after it runs, as if the
 * function had been stopped there. Resolves once the invocation has reached that point.
 */
async function stoppedAt(point: keyof PurchaseHooks, customerId: string, key: string): Promise<PurchaseRecord> {
  let reached!: (purchase: PurchaseRecord) => void;
  const reachedPoint = new Promise<PurchaseRecord>((resolve) => (reached = resolve));
  void invoke(customerId, key, {
    [point]: (purchase: PurchaseRecord) => {
      reached(purchase);
      return new Promise<void>(() => undefined);
    },
  });
  return reachedPoint;
}

/** Moves the domain clock past the stopped invocation's in-progress expiry (its remaining time at the claim). */
const pastTheExpiry = () => setClock(new Date(now().getTime() + FUNCTION_MS + 1));

const profile = async (id: string) => (await getCustomer(SHOP, id, true))!.record;
const purchases = async (id: string) =>
  (await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
    ExpressionAttributeValues: { ':pk': keys.customerPk(SHOP, id), ':r': 'REDEEM#' },
  })) as unknown as PurchaseRecord[];
const codesOf = (id: string) => simulator.discountCodes().filter((code) => code.customer_id === id);
const bodyOf = (response: APIGatewayProxyResult) => JSON.parse(response.body);

describe('a purchase stopped mid-flight and retried with the same Idempotency-Key', () => {
  it('answers 409 while the stopped invocation could still be running', async () => {
    const id = await member(250);
    await stoppedAt('afterReserve', id, 'stopped-409');

    const retry = await invoke(id, 'stopped-409');

    expect(retry.statusCode).toBe(409);
    expect(bodyOf(retry).errors[0].detail).toBe('A request with this Idempotency-Key is still being processed');
    expect((await profile(id)).current_points).toBe(150);
  });

  it('after the expiry, finishes the reserved purchase: one purchase, one code, the right balance', async () => {
    const id = await member(250);
    const reserved = await stoppedAt('afterReserve', id, 'stopped-reserve');
    expect(codesOf(id)).toHaveLength(0);
    pastTheExpiry();

    const retry = await invoke(id, 'stopped-reserve');
    const again = await invoke(id, 'stopped-reserve');

    expect(retry.statusCode).toBe(201);
    expect(bodyOf(retry).data).toMatchObject({ id: reserved.id, attributes: { discount_code: reserved.discount_code, status: 'active' } });
    expect(again.headers?.['Idempotency-Replayed']).toBe('true');
    expect(again.body).toBe(retry.body);
    expect(await purchases(id)).toEqual([expect.objectContaining({ id: reserved.id, status: 'active' })]);
    expect(codesOf(id).map((code) => code.code)).toEqual([reserved.discount_code]);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('after the expiry, finds the code the stopped invocation created instead of creating another', async () => {
    const id = await member(250);
    const reserved = await stoppedAt('afterCode', id, 'stopped-code');
    expect(codesOf(id)).toHaveLength(1);
    pastTheExpiry();

    const retry = await invoke(id, 'stopped-code');

    expect(retry.statusCode).toBe(201);
    expect(bodyOf(retry).data).toMatchObject({ id: reserved.id, attributes: { status: 'active' } });
    expect(codesOf(id).map((code) => code.code)).toEqual([reserved.discount_code]);
    expect(await purchases(id)).toEqual([expect.objectContaining({ id: reserved.id, status: 'active' })]);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('answers with the purchase the reconciler activated meanwhile', async () => {
    const id = await member(250);
    const reserved = await stoppedAt('afterCode', id, 'stopped-activated');
    pastTheExpiry();
    await purchaseReconcilerJob({ platformFor: platformForShop, settleAfterMs: 0 });
    expect(await purchases(id)).toEqual([expect.objectContaining({ id: reserved.id, status: 'active' })]);

    const retry = await invoke(id, 'stopped-activated');

    expect(retry.statusCode).toBe(201);
    expect(bodyOf(retry).data).toMatchObject({ id: reserved.id, attributes: { status: 'active' } });
    expect(codesOf(id)).toHaveLength(1);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('a request that finds its purchase activated by the reconciler keeps the code and answers with it', async () => {
    const id = await member(250);
    const slow: PurchaseHooks = {
      afterCode: async () => {
        pastTheExpiry();
        await purchaseReconcilerJob({ platformFor: platformForShop, settleAfterMs: 0 });
      },
    };

    const answer = await invoke(id, 'slow-request', slow);

    expect(answer.statusCode).toBe(201);
    expect(bodyOf(answer).data.attributes.status).toBe('active');
    expect(codesOf(id).map((code) => code.code)).toEqual([bodyOf(answer).data.attributes.discount_code]);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('buys afresh when the reconciler refunded the stopped purchase: still exactly one', async () => {
    const id = await member(250);
    const reserved = await stoppedAt('afterReserve', id, 'stopped-refunded');
    pastTheExpiry();
    await purchaseReconcilerJob({ platformFor: platformForShop, settleAfterMs: 0 });
    expect(await profile(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });

    const retry = await invoke(id, 'stopped-refunded');

    expect(retry.statusCode).toBe(201);
    const bought = bodyOf(retry).data;
    expect(bought.id).not.toBe(reserved.id);
    const stored = await purchases(id);
    expect(stored.filter((entry) => entry.status === 'active').map((entry) => entry.id)).toEqual([bought.id]);
    expect(stored.find((entry) => entry.id === reserved.id)).toMatchObject({ status: 'refunded' });
    expect(codesOf(id).map((code) => code.code)).toEqual([bought.attributes.discount_code]);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('lets exactly one of several simultaneous retries take the claim over', async () => {
    const id = await member(250);
    await stoppedAt('afterReserve', id, 'stopped-race');
    pastTheExpiry();

    const answers = await Promise.all(Array.from({ length: 5 }, () => invoke(id, 'stopped-race')));

    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(1);
    expect(statuses.filter((status) => status !== 201).every((status) => status === 409)).toBe(true);
    expect(codesOf(id)).toHaveLength(1);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });

  it('after a failed platform call, a retry with the same key buys once; another body with that key is refused', async () => {
    const id = await member(250);
    simulator.setFaults({ discount_codes: 'error' });
    const failed = await invoke(id, 'after-error');
    simulator.setFaults({ discount_codes: 'ok' });

    const otherBody = await purchaseHandler()(
      { ...purchaseEvent(id, 'after-error'), body: JSON.stringify({ customer_identifier: id, points: 100 }) },
      lambdaContext(),
    );
    const retry = await invoke(id, 'after-error');

    expect(failed.statusCode).toBe(500);
    expect(otherBody.statusCode).toBe(422);
    expect(retry.statusCode).toBe(201);
    expect(codesOf(id)).toHaveLength(1);
    expect((await purchases(id)).filter((entry) => entry.status === 'active')).toHaveLength(1);
    expect(await profile(id)).toMatchObject({ current_points: 150, redeemed_points: 100 });
  });
});

describe('a points adjustment stopped after its commit and retried with the same Idempotency-Key', () => {
  const adjustEvent = (customerId: string, key: string): APIGatewayProxyEvent =>
    ({
      ...purchaseEvent(customerId, key),
      resource: '/v1/customers/{identifier}/points',
      path: `/v1/customers/${customerId}/points`,
      pathParameters: { identifier: customerId },
      body: JSON.stringify({ adjustment: 40 }),
    }) as APIGatewayProxyEvent;

  it('answers 409 before the expiry, and after it the adjustment as applied, never applying it twice', async () => {
    const id = await member(250);
    const event = adjustEvent(id, 'stopped-adjust');
    // What the stopped invocation did: claimed the key, then committed the adjustment under the key's work id.
    const scope = { shopId: SHOP, route: 'POST /v1/customers/{identifier}/points', idempotencyKey: 'stopped-adjust' };
    const hash = requestHash(event, { adjustment: 40 });
    let claimed!: () => void;
    const claim = new Promise<void>((resolve) => (claimed = resolve));
    void once(requestOnce(scope, hash), FUNCTION_MS, () => {
      claimed();
      return new Promise<never>(() => undefined);
    });
    await claim;
    await adjustPoints(catalog, id, parseAdjustPointsBody({ adjustment: 40 }), { requestId: idempotentWorkId(scope, hash) });

    const early = await adjustHandler(adjustEvent(id, 'stopped-adjust'), lambdaContext());
    pastTheExpiry();
    const retry = await adjustHandler(adjustEvent(id, 'stopped-adjust'), lambdaContext());

    expect(early.statusCode).toBe(409);
    expect(retry.statusCode).toBe(200);
    expect(bodyOf(retry).data.attributes).toMatchObject({ adjustment: 40, points_before: 250, points_after: 290 });
    expect((await profile(id)).current_points).toBe(290);
    const entries = await queryAll({
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :e)',
      ExpressionAttributeValues: { ':pk': keys.customerPk(SHOP, id), ':e': 'EARN#' },
    });
    expect(entries.filter((entry) => entry.action === 'manual_adjustment')).toHaveLength(1);
  });
});
