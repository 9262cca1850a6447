// Each write path of the data layer with its answer lost after DynamoDB committed it (test/support/dynamodb-faults.ts,
// below the SDK's retry middleware): the SDK retries, as it does in AWS, and the write must have its effect once and
// be reported as done. A path that fails here and lives in a file being changed elsewhere is written as
// `it.failing`, naming the defect: it turns red once the defect is fixed, and then becomes an ordinary test.
import type { PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { createCustomer, getCustomer, updateCustomer } from '../../shared/data/customer-repository';
import { once, type OnceKey, type Settled } from '../../shared/data/claims';
import { requestOnce, type StoredResponse } from '../../shared/data/idempotency-repository';
import { queryAll } from '../../shared/data/item-reads';
import { keys } from '../../shared/data/keys';
import { readShopCounters } from '../../shared/data/shop-repository';
import { webhookEventOnce } from '../../shared/data/webhook-event-repository';
import { enrollPlatformCustomer } from '../../shared/customers/customer-service';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import { processQueuedDelivery } from '../../shared/webhooks/process-queued-delivery';
import { adjustPoints } from '../../shared/points/adjust-points';
import { purchaseReward } from '../../shared/purchases/purchase-reward';
import { customerRecord } from '../fixtures/customer-record';
import { reward, shopCatalog } from '../fixtures/shop-catalog';
import { dynamoDbFaults, type DynamoDbFaults } from '../support/dynamodb-faults';
import { shopWithPlatform, type ShopWithPlatform } from '../support/shop-with-platform';

jest.setTimeout(60_000);

/** A delivery's work that applies its event. */
const applied = async (): Promise<Settled<string, string>> => ({ finish: 'applied', result: 'applied' });
/** A request's work answered with `status`. */
const answered = (status: number) => async (): Promise<Settled<StoredResponse, number>> => ({
  finish: { status, body: '{}' },
  result: status,
});

/** Claims `key` and stops there, as a processor that died holding the claim: its work never settles. */
async function claimedAndStopped<A>(key: OnceKey<A>, leaseMs: number): Promise<void> {
  await new Promise<void>((claimed) => {
    void once(key, leaseMs, () => {
      claimed();
      return new Promise<never>(() => undefined);
    });
  });
}

const SHOP = 'lost-answers';
const catalog = shopCatalog(SHOP, {
  rewards: [reward('five-off')],
  earningRules: [
    {
      id: 'join',
      name: 'Join',
      description: null,
      action: 'signup',
      category: 'signup',
      is_active: true,
      points_to_give: 50,
      customer_facing_label: '',
      call_to_action_url: null,
      created_at: '2025-01-01T00:00:00.000Z',
    },
  ],
});

let table: ShopWithPlatform['table'];
let simulator: PlatformSimulator;
let faults: DynamoDbFaults;
let nextId = 100;

beforeAll(async () => {
  ({ simulator, table } = await shopWithPlatform(catalog));
});
afterAll(() => table.drop());
beforeEach(() => {
  faults = dynamoDbFaults({ seed: 1, rates: {} });
  faults.install();
  faults.resume();
});
afterEach(() => {
  faults.uninstall();
  simulator.setFaults({ discount_codes: 'ok' });
});

async function member(points: number): Promise<string> {
  faults.pause();
  const id = String((nextId += 1));
  await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: id, referral_code: `LOST${id}`, current_points: points }));
  simulator.addCustomer(SHOP, { id, email: `c${id}@example.com`, first_name: 'C', last_name: id, created_at: null });
  faults.resume();
  return id;
}
const partition = async (id: string, prefix: string) => {
  faults.pause();
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': keys.customerPk(SHOP, id), ':prefix': prefix },
  });
  faults.resume();
  return items;
};
const profile = async (id: string) => {
  faults.pause();
  const stored = await getCustomer(SHOP, id, true);
  faults.resume();
  return stored!.record;
};
const codesOf = (id: string) => simulator.discountCodes().filter((code) => code.customer_id === id);
const buy = (id: string) => purchaseReward(catalog, 'five-off', { customerIdentifier: id, points: null }, platformForShop(SHOP));
/** The lost answers the layer caused, by command: proves the scripted fault hit a committed write. */
const lost = () => faults.report().injected.dropped_after_commit ?? {};

describe('a write whose answer is lost after it committed, retried by the SDK', () => {
  it('points adjustment (TransactWriteItems with the entry id as token): applied once, reported applied', async () => {
    const id = await member(100);
    faults.script('TransactWriteItems', 'dropped_after_commit');

    const adjusted = await adjustPoints(catalog, id, { adjustment: 40, note: 'once', update_lifetime_points: true, send_email: false });

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    expect(adjusted.change.after).toBe(140);
    expect((await profile(id)).current_points).toBe(140);
    expect((await partition(id, 'EARN#')).map((entry) => entry.note)).toEqual(['once']);
  });

  it('enrolment (TransactWriteItems with a token per call): one member, one signup entry, the shop counted once', async () => {
    faults.pause();
    const before = await readShopCounters(SHOP);
    faults.resume();
    faults.script('TransactWriteItems', 'dropped_after_commit');
    const id = String((nextId += 1));

    const enrolment = await enrollPlatformCustomer(
      SHOP,
      { id, email: `e${id}@example.com`, firstName: 'E', lastName: id, createdAt: null },
      catalog,
    );

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    expect(enrolment.created).toBe(true);
    expect((await profile(id)).current_points).toBe(50);
    expect((await partition(id, 'EARN#')).map((entry) => entry.action)).toEqual(['signup']);
    faults.pause();
    expect((await readShopCounters(SHOP)).member).toBe(before.member + 1);
  });

  it('member update with a status change (TransactWriteItems): written once, the counters moved once', async () => {
    const id = await member(0);
    faults.pause();
    const [current, before] = [(await getCustomer(SHOP, id, true))!, await readShopCounters(SHOP)];
    faults.resume();
    faults.script('TransactWriteItems', 'dropped_after_commit');

    expect(await updateCustomer(current, { status: 'excluded' }, new Date().toISOString())).toMatchObject({ written: true });

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    faults.pause();
    expect(await readShopCounters(SHOP)).toEqual({ member: before.member - 1, excluded: before.excluded + 1 });
  });

  it('purchase reservation (TransactWriteItems with the purchase id as token): points taken once, one entry, one code', async () => {
    const id = await member(300);
    faults.script('TransactWriteItems', 'dropped_after_commit');

    const purchase = await buy(id);

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    expect((await profile(id)).current_points).toBe(200);
    expect((await partition(id, 'REDEEM#')).map((entry) => [entry.id, entry.status])).toEqual([[purchase.id, 'active']]);
    expect(codesOf(id).map((code) => code.code)).toEqual([purchase.discount_code]);
  });

  it('purchase refund after a platform error (TransactWriteItems, the token the SDK draws): the points come back once', async () => {
    const id = await member(300);
    simulator.setFaults({ discount_codes: 'error' });
    // The reservation goes through; the refund's answer is lost.
    faults.script('TransactWriteItems', null, 'dropped_after_commit');

    await expect(buy(id)).rejects.toThrow();

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    expect((await profile(id)).current_points).toBe(300);
    expect((await partition(id, 'REDEEM#')).map((entry) => entry.status)).toEqual(['refunded']);
  });

  it('webhook event claim (PutItem, conditional): the retry finds its own claim and the delivery goes on', async () => {
    faults.script('PutItem', 'dropped_after_commit');
    const event = () => webhookEventOnce(SHOP, 'event-lost-claim');

    const first = await once(event(), 60_000, async () => {
      expect(lost()).toEqual({ PutItem: 1 });
      // Another delivery of the same event, while this one holds the claim, is still told so.
      expect(await once(event(), 60_000, applied)).toEqual({ ran: false, refused: 'in_progress' });
      return applied();
    });

    expect(first).toEqual({ ran: true, result: 'applied' });
    expect(await once(event(), 60_000, applied)).toEqual({ ran: false, refused: 'finished', answer: 'applied' });
  });

  it("webhook event claim left by an earlier receive of the same queue message: the message's retry takes it over", async () => {
    // The first receive claimed the event and stopped before it could finish or release the claim (the database
    // failed under it); the retry of the same message must not take its own claim for another delivery's.
    await claimedAndStopped(webhookEventOnce(SHOP, 'event-retried', 'message-1'), 60_000);

    const retry = await once(webhookEventOnce(SHOP, 'event-retried', 'message-1'), 60_000, async () => {
      expect(await once(webhookEventOnce(SHOP, 'event-retried', 'message-2'), 60_000, applied)).toEqual({
        ran: false,
        refused: 'in_progress',
      });
      return applied();
    });

    expect(retry).toEqual({ ran: true, result: 'applied' });
  });

  it('a queue message whose first receive could not mark its event done is applied by its retry, not acknowledged as a duplicate', async () => {
    const message = JSON.stringify({
      shopId: SHOP,
      topic: 'customers/update',
      webhookId: 'webhook-requeued',
      eventId: 'event-requeued',
      triggeredAt: null,
      body: JSON.stringify({ admin_graphql_api_id: 'gid://shopify/Customer/999999', email: 'someone@example.com' }),
    });
    // The event is claimed and applied; marking it done fails on every attempt the SDK makes.
    faults.script('UpdateItem', 'internal_error', 'internal_error', 'internal_error');
    await expect(processQueuedDelivery(message, 'message-9')).rejects.toThrow('Internal server error');

    expect(await processQueuedDelivery(message, 'message-9')).toEqual({ topic: 'customers/update', outcome: 'not_member' });
    faults.pause();
    expect(await once(webhookEventOnce(SHOP, 'event-requeued'), 60_000, applied)).toMatchObject({ ran: false, refused: 'finished' });
  });

  // The UpdateItem pending -> active commits, its answer is lost, and the SDK's retry is refused by
  // `#status = :pending`: the request reads the entry again, finds it active with its code, and succeeds.
  it('purchase activation (TransactWriteItems with its reward.purchased, conditional on pending): the purchase succeeds with its code', async () => {
    const id = await member(300);
    // The reservation goes through; the activation's answer is lost.
    faults.script('TransactWriteItems', null, 'dropped_after_commit');

    const purchase = await buy(id);

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    expect(codesOf(id).map((code) => code.code)).toEqual([purchase.discount_code]);
  });

  // The claim's PutItem commits, its answer is lost, and the retry is refused by its condition: the record
  // there carries this claim's own id, so the request holds the claim.
  it('idempotency key claim (PutItem, conditional): the request that wrote the claim holds it', async () => {
    faults.script('PutItem', 'dropped_after_commit');
    const scope = { shopId: SHOP, route: 'POST /v1/x', idempotencyKey: 'lost-claim' };

    expect(await once(requestOnce(scope, 'hash-1'), 10_000, answered(201))).toEqual({ ran: true, result: 201 });
    expect(lost()).toEqual({ PutItem: 1 });
  });

  // The UpdateItem in_progress -> completed commits, its answer is lost, and the retry is refused by the
  // claimant's condition: the refusal is not an error, and the stored response is there.
  it('idempotency key completion (UpdateItem, conditional): the response is stored and the call succeeds', async () => {
    const scope = { shopId: SHOP, route: 'POST /v1/x', idempotencyKey: 'lost-complete' };

    const first = await once(requestOnce(scope, 'hash-2'), 10_000, async () => {
      faults.script('UpdateItem', 'dropped_after_commit');
      return answered(201)();
    });

    expect(first).toEqual({ ran: true, result: 201 });
    expect(lost()).toEqual({ UpdateItem: 1 });
    faults.pause();
    expect(await once(requestOnce(scope, 'hash-2'), 10_000, answered(200))).toEqual({
      ran: false,
      refused: 'finished',
      answer: { status: 201, body: '{}' },
    });
  });
});
