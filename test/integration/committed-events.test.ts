// The events of a purchase, a redemption's refund and an action's award are committed with their change
// (shared/data/commit.ts, `events`), against DynamoDB Local through the suite's fault layer: with the
// transaction's answer lost once (the SDK's retry carries the same token), the change and its events are
// there once; with the function stopped right after its commit (the answer lost and every retry of it
// failing, so nothing after the commit runs), the change is there with exactly its events; and with the
// transaction never reaching DynamoDB, neither is.
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { earnAction } from '../../shared/actions/earn-action';
import { documentClient, tableName } from '../../shared/data/client';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { queryAll } from '../../shared/data/item-reads';
import { DOMAIN_EVENT_PREFIX, eventOfItem } from '../../shared/data/items/domain-event';
import { keys } from '../../shared/data/keys';
import type { CommittedEvent } from '../../shared/domain/events';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import { purchaseReward } from '../../shared/purchases/purchase-reward';
import { refundRedemption } from '../../shared/purchases/refund-redemption';
import { customerRecord } from '../fixtures/customer-record';
import { reward, shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { dynamoDbFaults, type DynamoDbFaults } from '../support/dynamodb-faults';
import { shopWithPlatform, type ShopWithPlatform } from '../support/shop-with-platform';

jest.setTimeout(90_000);

const SHOP = 'committed-events';
const catalog = shopCatalog(SHOP, {
  rewards: [reward('five-off')],
  tiers: [vipTier('bronze', { name: 'Bronze' })],
  earningRules: [
    {
      id: 'follow',
      name: 'Follow',
      description: null,
      action: 'follow_on_instagram',
      category: 'social',
      is_active: true,
      points_to_give: 25,
      customer_facing_label: '',
      call_to_action_url: null,
      created_at: '2025-01-01T00:00:00.000Z',
    },
  ],
});

let table: ShopWithPlatform['table'];
let simulator: PlatformSimulator;
let faults: DynamoDbFaults;
let nextId = 700;

beforeAll(async () => {
  ({ simulator, table } = await shopWithPlatform(catalog));
});
afterAll(() => table.drop());
beforeEach(() => {
  faults = dynamoDbFaults({ seed: 7, rates: {} });
  faults.install();
  faults.resume();
});
afterEach(() => faults.uninstall());

/** Lost once after its commit: the SDK's retry (same token) is a no-op. */
const LOST_ONCE = ['dropped_after_commit'] as const;
/** Committed, then its answer and every retry lost: the function stops right after its commit. */
const STOPPED_AFTER_COMMIT = ['dropped_after_commit', 'connection_reset', 'connection_reset'] as const;
/** Never reached DynamoDB, every attempt. */
const NEVER_COMMITTED = ['connection_reset', 'connection_reset', 'connection_reset'] as const;

async function member(points: number): Promise<string> {
  faults.pause();
  const id = String((nextId += 1));
  await createCustomer(
    customerRecord({
      shop_id: SHOP,
      platform_customer_id: id,
      referral_code: `EVT${id}`,
      current_points: points,
      email: `m${id}@example.com`,
    }),
  );
  simulator.addCustomer(SHOP, { id, email: `m${id}@example.com`, first_name: 'M', last_name: id, created_at: null });
  faults.resume();
  return id;
}

/** Every committed event of the member, read from the table's DOMAIN_EVENT items. */
async function committedEvents(customerId: string): Promise<Array<CommittedEvent & Record<string, unknown>>> {
  faults.pause();
  const events: Array<CommittedEvent & Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await documentClient().send(
      new ScanCommand({
        TableName: tableName(),
        FilterExpression: 'begins_with(pk, :prefix)',
        ExpressionAttributeValues: { ':prefix': `${DOMAIN_EVENT_PREFIX}${SHOP}#` },
        ExclusiveStartKey: start,
        ConsistentRead: true,
      }),
    );
    for (const item of page.Items ?? []) {
      const event = eventOfItem(item);
      if (event?.customer_id === customerId) events.push(event as CommittedEvent & Record<string, unknown>);
    }
    start = page.LastEvaluatedKey;
  } while (start);
  faults.resume();
  return events;
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
const balance = async (id: string) => {
  faults.pause();
  const stored = await getCustomer(SHOP, id, true);
  faults.resume();
  return stored!.record.current_points;
};
const buy = (id: string) => purchaseReward(catalog, 'five-off', { customerIdentifier: id, points: null }, platformForShop(SHOP));
/** The faults the layer injected, by kind: proves the script hit the transaction. */
const injected = () => faults.report().injected;

const ids = (events: CommittedEvent[]) => events.map((event) => event.id);
const once = (events: CommittedEvent[]) => expect(new Set(ids(events)).size).toBe(events.length);

describe('an action award', () => {
  const earn = (id: string) => earnAction(catalog, id, 'follow_on_instagram');

  it('with its answer lost once: the award and its points.earned are there once, with the member after it', async () => {
    const id = await member(10);
    faults.script('TransactWriteItems', ...LOST_ONCE);
    const award = await earn(id);
    expect(injected().dropped_after_commit).toEqual({ TransactWriteItems: 1 });
    const events = await committedEvents(id);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'points.earned',
        earning_history_entry_id: award.entry.id,
        points: 25,
        email: `m${id}@example.com`,
        points_balance: 35,
        notify: true,
      }),
    ]);
    expect(await balance(id)).toBe(35);
  });

  it('stopped right after its commit: the award is there with exactly its event', async () => {
    const id = await member(10);
    faults.script('TransactWriteItems', ...STOPPED_AFTER_COMMIT);
    await expect(earn(id)).rejects.toThrow();
    const entries = await partition(id, 'EARN#');
    expect(entries).toHaveLength(1);
    const events = await committedEvents(id);
    expect(events.map((event) => [event.type, event.earning_history_entry_id])).toEqual([['points.earned', entries[0]!.id]]);
    expect(await balance(id)).toBe(35);
  });

  it('never committed: neither the award nor an event', async () => {
    const id = await member(10);
    faults.script('TransactWriteItems', ...NEVER_COMMITTED);
    await expect(earn(id)).rejects.toThrow();
    expect(await partition(id, 'EARN#')).toEqual([]);
    expect(await committedEvents(id)).toEqual([]);
    expect(await balance(id)).toBe(10);
  });
});

describe('a purchase', () => {
  it('with the activation answer lost once: one active entry and one reward.purchased with the balance it left', async () => {
    const id = await member(300);
    // The reservation goes through; the activation's answer is lost once.
    faults.script('TransactWriteItems', null, ...LOST_ONCE);
    const purchase = await buy(id);
    expect(injected().dropped_after_commit).toEqual({ TransactWriteItems: 1 });
    expect((await partition(id, 'REDEEM#')).map((entry) => [entry.id, entry.status])).toEqual([[purchase.id, 'active']]);
    const events = await committedEvents(id);
    expect(events).toEqual([
      expect.objectContaining({
        type: 'reward.purchased',
        reward_history_entry_id: purchase.id,
        reward_id: 'five-off',
        points_spent: 100,
        discount_code: purchase.discount_code,
        expires_at: purchase.expires_at,
        email: `m${id}@example.com`,
        first_name: 'Test',
        points_balance: 200,
        tier: null,
      }),
    ]);
  });

  it('stopped right after the activation committed: the entry is active with exactly one reward.purchased', async () => {
    const id = await member(300);
    faults.script('TransactWriteItems', null, ...STOPPED_AFTER_COMMIT);
    await expect(buy(id)).rejects.toThrow();
    const entries = await partition(id, 'REDEEM#');
    expect(entries.map((entry) => entry.status)).toEqual(['active']);
    const events = await committedEvents(id);
    expect(events.map((event) => [event.type, event.reward_history_entry_id])).toEqual([['reward.purchased', entries[0]!.id]]);
  });

  it('activation never committed: the entry stays pending for the reconciler, and no reward.purchased', async () => {
    const id = await member(300);
    faults.script('TransactWriteItems', null, ...NEVER_COMMITTED);
    await expect(buy(id)).rejects.toThrow();
    expect((await partition(id, 'REDEEM#')).map((entry) => entry.status)).toEqual(['pending']);
    expect(await committedEvents(id)).toEqual([]);
  });
});

describe("a redemption's refund", () => {
  const refund = (id: string, entryId: string) => refundRedemption(catalog, id, entryId, platformForShop(SHOP));

  it('with its answer lost once: the points back once and one reward.refunded', async () => {
    const id = await member(300);
    const purchase = await buy(id);
    const before = (await committedEvents(id)).length;
    faults.script('TransactWriteItems', ...LOST_ONCE);
    await refund(id, purchase.id);
    expect(injected().dropped_after_commit).toEqual({ TransactWriteItems: 1 });
    expect(await balance(id)).toBe(300);
    const events = (await committedEvents(id)).filter((event) => event.type === 'reward.refunded');
    expect(events).toEqual([
      expect.objectContaining({ reward_history_entry_id: purchase.id, points: 100, points_balance: 300, email: `m${id}@example.com` }),
    ]);
    expect((await committedEvents(id)).length).toBe(before + 1);
  });

  it('stopped right after its commit: refunded with exactly one reward.refunded; never committed: neither', async () => {
    const id = await member(300);
    const purchase = await buy(id);
    faults.script('TransactWriteItems', ...NEVER_COMMITTED);
    await expect(refund(id, purchase.id)).rejects.toThrow();
    expect(await balance(id)).toBe(200);
    expect((await committedEvents(id)).filter((event) => event.type === 'reward.refunded')).toEqual([]);

    faults.script('TransactWriteItems', ...STOPPED_AFTER_COMMIT);
    await expect(refund(id, purchase.id)).rejects.toThrow();
    expect(await balance(id)).toBe(300);
    const all = await committedEvents(id);
    once(all);
    expect(all.filter((event) => event.type === 'reward.refunded').map((event) => event.reward_history_entry_id)).toEqual([purchase.id]);
  });
});
