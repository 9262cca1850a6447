// The points write paths commit their events with their change (EVENTS-CONTRACT.md): an adjustment, an order
// (pending and approved), an order's refund, the approval, expiry, reminder, code-expiry and birthday jobs, and a
// referral award. Each runs twice: once with the transaction's answer lost after DynamoDB committed it (the SDK
// retries with the same token), once stopped right after its commit (nothing after it runs). Either way the change
// is there with exactly its events, each once, by id, carrying the member's facts after the change.
import { pointsApprovalJob as approvePointsJob } from '../../shared/calendar/points-approval';
import { birthdaysJob as awardBirthdaysJob } from '../../shared/calendar/birthdays';
import { runDueJob } from '../../shared/calendar/due-job';
import { pointsExpiryJob as expirePointsJob } from '../../shared/calendar/points-expiry';
import { rewardCodeExpiryJob as expireRewardCodesJob } from '../../shared/calendar/reward-code-expiry';
import { expiryRemindersJob as remindExpiryJob } from '../../shared/calendar/expiry-reminders';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { queryAll, readItem } from '../../shared/data/item-reads';
import { keys } from '../../shared/data/keys';
import { birthdayTimerItem } from '../../shared/data/items/birthday-timer';
import { earningEntryItem } from '../../shared/data/items/earning-entry';
import { rewardEntryItem, rewardEntryKey } from '../../shared/data/items/reward-entry';
import { batchPut, putShopCatalog } from '../../shared/data/shop-repository';
import type { CustomerRecord } from '../../shared/domain/customer';
import type { CommittedEvent } from '../../shared/domain/events';
import type { EarningEntry, RewardEntry } from '../../shared/domain/history';
import type { EarningRule, EarningSettings, ShopCatalog } from '../../shared/domain/shop';
import { applyOrder, applyRefund } from '../../shared/orders/apply-order';
import { awardReferrer } from '../../shared/orders/referral-award';
import type { PlatformOrder } from '../../shared/platform/port';
import { adjustPoints } from '../../shared/points/adjust-points';
import { setClock } from '../../shared/runtime/clock';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { committedEvents, stopAfterCommit } from '../support/committed-events';
import { dynamoDbFaults } from '../support/dynamodb-faults';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const NOW = '2027-04-10T12:00:00.000Z';
const CUSTOMER = '7001';
let table: Awaited<ReturnType<typeof createTestTable>>;
let shops = 0;

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  setClock(null);
  await table.drop();
});
beforeEach(() => setClock(new Date(NOW)));

const rule = (action: string, points: number, overrides: Partial<EarningRule> = {}): EarningRule => ({
  id: `${action}-rule`,
  name: action,
  description: null,
  action,
  category: action,
  is_active: true,
  points_to_give: points,
  customer_facing_label: '',
  call_to_action_url: null,
  created_at: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

async function shopWith(earning: Partial<EarningSettings>, rules: EarningRule[] = []): Promise<ShopCatalog> {
  const shop = shopCatalog(`events-${(shops += 1)}`, {
    settings: { earning_settings: { pending_days: 0, points_expiry: null, expiry_reminder_days: 7, ...earning } },
    earningRules: rules,
    tiers: [vipTier('silver', { name: 'Silver', threshold_points: 1 })],
  });
  await putShopCatalog(shop);
  return shop;
}

const enrol = (shop: ShopCatalog, overrides: Partial<CustomerRecord> = {}, id = CUSTOMER) =>
  createCustomer(
    customerRecord({
      shop_id: shop.settings.id,
      platform_customer_id: id,
      first_name: 'Ada',
      referral_code: `R-${shop.settings.id}-${id}`,
      ...overrides,
    }),
  );

const profile = async (shop: ShopCatalog, id = CUSTOMER) => (await getCustomer(shop.settings.id, id, true))!.record;

const paidOrder = (id: string, subtotal: string): PlatformOrder => ({
  id,
  name: `#${id}`,
  customerId: CUSTOMER,
  eligibleSubtotal: subtotal,
  refundedEligible: '0.00',
  refunds: [],
  taxesIncluded: false,
  currency: 'USD',
  processedAt: NOW,
  updatedAt: NOW,
  cancelledAt: null,
  discountCodes: [],
  landingSite: null,
  referralCode: null,
  noteAttributes: [],
  financialStatus: 'paid',
  test: false,
});

const entry = (overrides: Partial<EarningEntry>): EarningEntry => ({
  id: 'entry-1',
  earning_rule_id: 'purchase-rule',
  action: 'purchase',
  points: 30,
  base_points: 30,
  points_multiplier: 1,
  status: 'approved',
  order_id: null,
  order_number: null,
  points_due_at: null,
  points_given_at: '2027-01-01T00:00:00.000Z',
  points_expiry_at: null,
  created_at: '2027-01-01T00:00:00.000Z',
  updated_at: '2027-01-01T00:00:00.000Z',
  ...overrides,
});

interface Path {
  /** Prepares the shop and the member (outside the fault layer); answers what `run` changes. */
  setup(): Promise<ShopCatalog>;
  run(shop: ShopCatalog): Promise<unknown>;
  /** The event types the change commits, in any order. */
  events: string[];
  /** Asserts the change is there. */
  changed(shop: ShopCatalog): Promise<void>;
}

const PATHS: Record<string, Path> = {
  adjustment: {
    setup: async () => {
      const shop = await shopWith({});
      await enrol(shop, { current_points: 100 });
      return shop;
    },
    run: (shop) => adjustPoints(shop, CUSTOMER, { adjustment: 40, note: 'once', update_lifetime_points: true, send_email: false }),
    events: ['points.adjusted', 'tier.changed'],
    changed: async (shop) => expect((await profile(shop)).current_points).toBe(140),
  },
  'order (approved at once)': {
    setup: async () => {
      const shop = await shopWith({}, [rule('purchase', 1, { spend_unit: 1 })]);
      await enrol(shop);
      return shop;
    },
    run: (shop) => applyOrder(shop, paidOrder('9001', '50.00')),
    events: ['points.approved', 'order.counted', 'tier.changed'],
    changed: async (shop) => expect((await profile(shop)).current_points).toBe(50),
  },
  'order (pending)': {
    setup: async () => {
      const shop = await shopWith({ pending_days: 14 }, [rule('purchase', 1, { spend_unit: 1 })]);
      await enrol(shop);
      return shop;
    },
    run: (shop) => applyOrder(shop, paidOrder('9002', '50.00')),
    events: ['points.pending', 'order.counted'],
    changed: async (shop) => expect((await profile(shop)).orders_count).toBe(1),
  },
  'refund of an order': {
    setup: async () => {
      const shop = await shopWith({}, [rule('purchase', 1, { spend_unit: 1 })]);
      await enrol(shop, { vip_tier_id: 'silver' });
      await applyOrder(shop, paidOrder('9003', '50.00'));
      return shop;
    },
    run: (shop) =>
      applyRefund(shop, {
        id: 'refund-1',
        orderId: '9003',
        lines: [{ giftCard: false, subtotal: '20.00', tax: '0.00' }],
        discrepancies: [],
        createdAt: NOW,
      }),
    events: ['points.removed', 'order.counted'],
    changed: async (shop) => expect((await profile(shop)).current_points).toBe(30),
  },
  approval: {
    setup: async () => {
      const shop = await shopWith({});
      await enrol(shop);
      const due = entry({ status: 'pending', points_given_at: null, points_due_at: '2027-04-01T00:00:00.000Z' });
      await batchPut([earningEntryItem(shop.settings.id, CUSTOMER, due)]);
      return shop;
    },
    run: (shop) => runDueJob(approvePointsJob, { shopIds: [shop.settings.id] }),
    events: ['points.approved', 'tier.changed'],
    changed: async (shop) => expect((await profile(shop)).current_points).toBe(30),
  },
  'expiry (inactivity)': {
    setup: async () => {
      const shop = await shopWith({ points_expiry: { mode: 'inactivity', days: 30 } });
      await enrol(shop, {
        current_points: 80,
        lifetime_points: 80,
        vip_tier_id: 'silver',
        points_last_activity_at: '2027-03-01T00:00:00.000Z',
        points_expire_at: '2027-03-31T00:00:00.000Z',
        points_expiry_reminded_for: '2027-03-31T00:00:00.000Z',
      });
      return shop;
    },
    run: (shop) => runDueJob(expirePointsJob, { shopIds: [shop.settings.id] }),
    events: ['points.expired'],
    changed: async (shop) => expect((await profile(shop)).current_points).toBe(0),
  },
  reminder: {
    setup: async () => {
      const shop = await shopWith({ points_expiry: { mode: 'inactivity', days: 30 } });
      await enrol(shop, {
        current_points: 80,
        lifetime_points: 80,
        vip_tier_id: 'silver',
        points_last_activity_at: '2027-03-15T00:00:00.000Z',
        points_expire_at: '2027-04-14T00:00:00.000Z',
      });
      return shop;
    },
    run: (shop) => runDueJob(remindExpiryJob, { shopIds: [shop.settings.id] }),
    events: ['points.expiring_soon'],
    changed: async (shop) => expect((await profile(shop)).points_expiry_reminded_for).toBe('2027-04-14T00:00:00.000Z'),
  },
  'code expiry': {
    setup: async () => {
      const shop = await shopWith({});
      await enrol(shop, { current_points: 5, lifetime_points: 5, vip_tier_id: 'silver' });
      const code: RewardEntry = {
        id: 'redeem-1',
        reward_id: 'five-off',
        reward_name: '$5 off',
        reward_discount_type: 'fixed',
        points_spent: 100,
        discount_code: 'CODE-1',
        status: 'active',
        is_refunded: false,
        discount_code_redeemed_at: null,
        redeemed_at: '2027-03-01T00:00:00.000Z',
        expires_at: '2027-04-01T00:00:00.000Z',
        created_at: '2027-03-01T00:00:00.000Z',
        updated_at: '2027-03-01T00:00:00.000Z',
      };
      await batchPut([rewardEntryItem(shop.settings.id, CUSTOMER, code)]);
      return shop;
    },
    run: (shop) => runDueJob(expireRewardCodesJob, { shopIds: [shop.settings.id] }),
    events: ['reward.expired'],
    changed: async (shop) => expect((await readItem(rewardEntryKey(shop.settings.id, CUSTOMER, 'redeem-1')))?.status).toBe('expired'),
  },
  birthday: {
    setup: async () => {
      const shop = await shopWith({}, [rule('birthday', 25)]);
      await enrol(shop, { date_of_birth: '1990-04-10' });
      await batchPut([birthdayTimerItem(shop.settings.id, CUSTOMER, '2027-04-10')]);
      return shop;
    },
    run: (shop) => runDueJob(awardBirthdaysJob, { shopIds: [shop.settings.id] }),
    events: ['points.earned', 'tier.changed'],
    changed: async (shop) => expect((await profile(shop)).current_points).toBe(25),
  },
  'referral award': {
    setup: async () => {
      const shop = await shopWith({}, [rule('referral', 60)]);
      await enrol(shop);
      await enrol(shop, {}, '7002');
      return shop;
    },
    run: (shop) => awardReferrer(shop, '7002', CUSTOMER, '9004'),
    events: ['points.earned', 'referral.completed', 'tier.changed'],
    changed: async (shop) => expect((await profile(shop)).current_points).toBe(60),
  },
};

/**
 * Every item of the member's partition (the profile, entries, orders, codes, timers), without the adjustment
 * queue's bookkeeping: a request that joins the queue and is withdrawn again leaves the queue empty and a new
 * version, and no change of the member.
 */
const memberItems = async (shop: ShopCatalog) =>
  (
    await queryAll({
      KeyConditionExpression: 'pk = :pk',
      ExpressionAttributeValues: { ':pk': keys.customerPk(shop.settings.id, CUSTOMER) },
    })
  ).map(({ points_queue: _queue, version: _version, ...item }) => item);

const eventIds = async (shop: ShopCatalog) => new Set((await committedEvents(shop.settings.id)).map((event) => event.id));

/** The events the change committed for the member: each once by id, with the member's facts after the change. */
async function expectEventsOnce(shop: ShopCatalog, before: Set<string>, types: string[]): Promise<CommittedEvent[]> {
  const events = (await committedEvents(shop.settings.id)).filter((event) => event.customer_id === CUSTOMER && !before.has(event.id));
  expect(events.map((event) => event.type).sort()).toEqual([...types].sort());
  expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  const after = await profile(shop);
  for (const event of events) {
    expect(event).toMatchObject({ email: after.email, first_name: 'Ada', points_balance: after.current_points });
    expect(event.tier).toEqual(after.vip_tier_id === 'silver' ? { id: 'silver', name: 'Silver' } : null);
    expect(typeof event.notify).toBe('boolean');
  }
  return events;
}

describe.each(Object.entries(PATHS))('%s: the change and its events commit together', (_name, path) => {
  it('its answer lost after the commit: the SDK retry is a no-op, the change is there once with its events once', async () => {
    const shop = await path.setup();
    const before = await eventIds(shop);
    const faults = dynamoDbFaults({ seed: 3, rates: {} });
    faults.install();
    faults.resume();
    faults.script('TransactWriteItems', 'dropped_after_commit');
    try {
      await path.run(shop);
      expect(faults.report().injected.dropped_after_commit).toEqual({ TransactWriteItems: 1 });
    } finally {
      faults.uninstall();
    }
    await path.changed(shop);
    await expectEventsOnce(shop, before, path.events);
  });

  it('stopped right after its commit: the change is there with its events, although nothing after the commit ran', async () => {
    const shop = await path.setup();
    const before = await eventIds(shop);
    const stop = stopAfterCommit();
    try {
      void path.run(shop);
      await stop.stopped;
    } finally {
      stop.remove();
    }
    await path.changed(shop);
    await expectEventsOnce(shop, before, path.events);
  });

  it('its transaction failing on every attempt: neither the change nor any event', async () => {
    const shop = await path.setup();
    const [before, items] = [await eventIds(shop), await memberItems(shop)];
    const faults = dynamoDbFaults({ seed: 3, rates: {} });
    faults.install();
    faults.resume();
    // Every attempt of every transaction answers 500, the SDK's retries included.
    faults.script('TransactWriteItems', ...Array<'internal_error'>(200).fill('internal_error'));
    try {
      await path.run(shop).catch(() => undefined);
      expect(faults.report().injected.internal_error?.TransactWriteItems).toBeGreaterThan(0);
    } finally {
      faults.uninstall();
    }
    expect(await memberItems(shop)).toEqual(items);
    expect([...(await eventIds(shop))].filter((id) => !before.has(id))).toEqual([]);
  });
});
