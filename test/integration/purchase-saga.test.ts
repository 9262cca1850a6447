import type { PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { queryAll } from '../../shared/data/item-reads';
import { keys } from '../../shared/data/keys';
import { toErrorResponse } from '../../shared/http/errors';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import { type Platform, PlatformError } from '../../shared/platform/port';
import { purchaseReward, type PurchaseHooks } from '../../shared/purchases/purchase-reward';
import { purchaseReconcilerJob } from '../../shared/purchases/purchase-reconciler';
import { customerRecord } from '../fixtures/customer-record';
import { reward, shopCatalog } from '../fixtures/shop-catalog';
import { responseFailureOf } from '../support/failure';
import { shopWithPlatform, type ShopWithPlatform } from '../support/shop-with-platform';

jest.setTimeout(60_000);

const SHOP = 'saga-shop';
const catalog = shopCatalog(SHOP, { rewards: [reward('five-off'), reward('once', { max_redemptions: 1 })] });

let table: ShopWithPlatform['table'];
let simulator: PlatformSimulator;
let nextId = 100;

beforeAll(async () => {
  ({ simulator, table } = await shopWithPlatform(catalog));
});
afterAll(() => table.drop());
afterEach(() => simulator.setFaults({ customers: 'ok', discount_codes: 'ok' }));

async function member(points: number): Promise<string> {
  const id = String((nextId += 1));
  await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: id, referral_code: `SAGA${id}`, current_points: points }));
  simulator.addCustomer(SHOP, { id, email: `c${id}@example.com`, first_name: 'C', last_name: id, created_at: null });
  return id;
}
const balance = async (id: string) => (await getCustomer(SHOP, id, true))!.record;
const entries = (id: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :r)',
    ExpressionAttributeValues: { ':pk': keys.customerPk(SHOP, id), ':r': 'REDEEM#' },
  });
const codesOf = (id: string) => simulator.discountCodes().filter((code) => code.customer_id === id);
const buy = (id: string, rewardId = 'five-off', hooks?: PurchaseHooks) =>
  purchaseReward(catalog, rewardId, { customerIdentifier: id, points: null }, platformForShop(SHOP), hooks);
const reconcile = () => purchaseReconcilerJob({ platformFor: platformForShop, settleAfterMs: 0 });
const failure = (promise: Promise<unknown>) => responseFailureOf(promise);

describe('purchase saga', () => {
  it('of 50 simultaneous purchases against a balance covering 10, exactly 10 succeed', async () => {
    const id = await member(1000);

    const results = await Promise.allSettled(Array.from({ length: 50 }, () => buy(id)));

    const ok = results.filter((r) => r.status === 'fulfilled');
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(ok).toHaveLength(10);
    expect(
      refused.every(
        (r) => toErrorResponse(r.reason).statusCode === 422 && toErrorResponse(r.reason).body.errors[0]!.title === 'Insufficient Points',
      ),
    ).toBe(true);
    expect(codesOf(id)).toHaveLength(10);
    const stored = await balance(id);
    expect(stored.current_points).toBe(0);
    expect(stored.redeemed_points).toBe(1000);
    const history = await entries(id);
    expect(history).toHaveLength(10);
    expect(history.every((e) => e.status === 'active')).toBe(true);
    expect(new Set(history.map((e) => e.discount_code)).size).toBe(10);
  });

  it('creates a single-use code limited to the customer, with the reward value and expiry', async () => {
    const id = await member(100);

    const purchase = await buy(id);

    const [code] = codesOf(id);
    expect(code).toMatchObject({ code: purchase.discount_code, customer_id: id, amount: 5, type: 'fixed' });
    expect(code!.ends_at).toBe(purchase.expires_at);
    expect(purchase.discount_code).toMatch(/^LOYAL-[A-Z0-9]{4}-[A-Z0-9]{4}-[A-Z0-9]{4}$/);
  });

  it('refunds exactly when the platform answers with an error, and leaves no active entry', async () => {
    const id = await member(250);
    simulator.setFaults({ discount_codes: 'error' });

    const error = await failure(buy(id));

    expect(error.statusCode).toBe(500);
    expect(error.detail).toBe('Failed to create discount code. Points have not been deducted.');
    expect(await balance(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
    expect((await entries(id)).filter((e) => e.status === 'active')).toHaveLength(0);
    expect(codesOf(id)).toHaveLength(0);
  });

  it('refunds exactly when the platform cannot be reached, and answers 503', async () => {
    const id = await member(250);
    simulator.setFaults({ discount_codes: 'unreachable' });

    const error = await failure(buy(id));

    expect(error.statusCode).toBe(503);
    expect(await balance(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
    const [entry] = await entries(id);
    expect(entry).toMatchObject({ status: 'refunded', is_refunded: true, code_cleanup: true });

    simulator.setFaults({ discount_codes: 'ok' });
    await reconcile();
    const [cleaned] = await entries(id);
    expect(cleaned).toMatchObject({ status: 'refunded', code_cleanup: false });
    expect(cleaned!.unsettled_pk).toBeUndefined();
  });

  it('refunds exactly when the platform hangs, answers 503, and leaves the code to the reconciler until the platform answers', async () => {
    const id = await member(250);
    simulator.setFaults({ discount_codes: 'hang' });

    const error = await failure(buy(id));
    // Still hanging: the reconciler cannot tell whether the code exists, so the entry stays to be settled.
    await reconcile();
    const [waiting] = await entries(id);

    expect(error).toMatchObject({ statusCode: 503, detail: 'Unable to connect to the platform. Please try again.' });
    expect(await balance(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
    expect(waiting).toMatchObject({ status: 'refunded', is_refunded: true, code_cleanup: true });
    expect(codesOf(id)).toHaveLength(0);

    simulator.setFaults({ discount_codes: 'ok' });
    await reconcile();
    const [cleaned] = await entries(id);
    expect(cleaned).toMatchObject({ status: 'refunded', code_cleanup: false });
    expect(cleaned!.unsettled_pk).toBeUndefined();
  });

  it('keeps the code for the reconciler to delete when the platform said no after an attempt that timed out', async () => {
    const id = await member(250);
    const real = platformForShop(SHOP);
    // What the adapter reports when a first attempt created the code but its answer was lost, and the retry was refused.
    const lostAnswer: Platform = {
      ...real,
      createDiscountCode: async (input) => {
        await real.createDiscountCode(input);
        throw new PlatformError('Shopify refused the discount code: Internal error', { earlierAttemptMayHaveApplied: true });
      },
    };

    const error = await failure(purchaseReward(catalog, 'five-off', { customerIdentifier: id, points: null }, lostAnswer));
    const [refunded] = await entries(id);
    const codesBefore = codesOf(id).length;
    await reconcile();

    expect(error.statusCode).toBe(500);
    expect(await balance(id)).toMatchObject({ current_points: 250, redeemed_points: 0 });
    expect(refunded).toMatchObject({ status: 'refunded', code_cleanup: true });
    expect(codesBefore).toBe(1);
    expect(codesOf(id)).toHaveLength(0);
  });

  it('settles a crash after the deduction and before the code: refunded by the reconciler', async () => {
    const id = await member(300);
    const crash: PurchaseHooks = {
      afterReserve: async () => {
        throw new Error('crash');
      },
    };

    await expect(buy(id, 'five-off', crash)).rejects.toThrow('crash');
    expect((await balance(id)).current_points).toBe(200);
    expect((await entries(id))[0]!.status).toBe('pending');

    const summary = await reconcile();

    expect(summary.refunded).toBeGreaterThanOrEqual(1);
    expect(await balance(id)).toMatchObject({ current_points: 300, redeemed_points: 0 });
    expect((await entries(id))[0]).toMatchObject({ status: 'refunded', is_refunded: true });
    expect(codesOf(id)).toHaveLength(0);
  });

  it('settles a crash after the code and before activation: activated by the reconciler', async () => {
    const id = await member(300);
    const crash: PurchaseHooks = {
      afterCode: async () => {
        throw new Error('crash');
      },
    };

    await expect(buy(id, 'five-off', crash)).rejects.toThrow('crash');
    const summary = await reconcile();

    expect(summary.activated).toBeGreaterThanOrEqual(1);
    expect((await balance(id)).current_points).toBe(200);
    const [entry] = await entries(id);
    expect(entry).toMatchObject({ status: 'active' });
    expect(codesOf(id)).toHaveLength(1);
  });

  it('is safe to run the reconciler twice at once: a pending purchase is refunded once', async () => {
    const id = await member(500);
    await expect(
      buy(id, 'five-off', {
        afterReserve: async () => {
          throw new Error('crash');
        },
      }),
    ).rejects.toThrow();

    await Promise.all([reconcile(), reconcile(), reconcile()]);

    expect(await balance(id)).toMatchObject({ current_points: 500, redeemed_points: 0 });
  });

  it('enforces max_redemptions per customer, and a refund gives the redemption back', async () => {
    const id = await member(1000);
    simulator.setFaults({ discount_codes: 'error' });
    await failure(buy(id, 'once'));
    simulator.setFaults({ discount_codes: 'ok' });

    await buy(id, 'once');
    const error = await failure(buy(id, 'once'));

    expect(error.statusCode).toBe(422);
    expect(error.title).toBe('Redemption Limit Reached');
    expect((await balance(id)).current_points).toBe(900);
  });
});
