// One hot customer on DynamoDB Local (docs/architecture.md#one-hot-customer): twenty adjustments and
// updates of one member at once all succeed, and what they wrote is exactly what one-at-a-time writes
// would have written in some order: balance, lifetime points, tier and its events, one audit entry per
// adjustment, the batch line, the inactivity deadline and its due work, the updated fields.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { profileDue } from '../../shared/data/items/customer-profile';
import { queryAll } from '../../shared/data/item-reads';
import { keys } from '../../shared/data/keys';
import { commitAdjustments, enqueueAdjustment } from '../../shared/data/points-repository';
import { putShopCatalog } from '../../shared/data/shop-repository';
import { updateCustomer } from '../../shared/customers/customer-service';
import { addDays } from '../../shared/domain/dates';
import type { EarningSettings, ShopCatalog } from '../../shared/domain/shop';
import { resolveTier } from '../../shared/domain/tiers';
import { adjustPoints, type PointsAdjustment } from '../../shared/points/adjust-points';
import { commitOfQueue, receiptsOf } from '../../shared/points/points-change';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';
import type { PointsAdjustedEvent, TierChangedEvent } from '../../shared/domain/events';
import { committedEvents } from '../support/committed-events';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const tiers = [
  vipTier('bronze', { threshold_points: 500, position: 1 }),
  vipTier('silver', { threshold_points: 1000, position: 2 }),
  vipTier('gold', { threshold_points: 2000, position: 3 }),
];
const shopWith = (id: string, earning: Partial<EarningSettings>): ShopCatalog =>
  shopCatalog(id, {
    tiers,
    settings: { earning_settings: { pending_days: 0, points_expiry: null, expiry_reminder_days: 30, ...earning } },
  });
const BATCH_SHOP = shopWith('hot-batch', { points_expiry: { mode: 'batch', days: 365 } });
const INACTIVITY_SHOP = shopWith('hot-inactivity', { points_expiry: { mode: 'inactivity', days: 90 } });

let table: Awaited<ReturnType<typeof createTestTable>>;
let eventsFile: string;

beforeAll(async () => {
  eventsFile = join(mkdtempSync(join(tmpdir(), 'hot-events-')), 'events.jsonl');
  table = await createTestTable({ environment: { EVENTS_LOG_FILE: eventsFile } });
  await putShopCatalog(BATCH_SHOP);
  await putShopCatalog(INACTIVITY_SHOP);
});
afterAll(async () => {
  await table.drop();
});

type AdjustedEvent = PointsAdjustedEvent;
type TierEvent = TierChangedEvent;

/** The events the member's changes committed with them. */
const eventsOf = async (shopId: string, customerId: string) =>
  (await committedEvents(shopId)).filter((event) => event.customer_id === customerId) as Array<AdjustedEvent | TierEvent>;

const entriesOf = (shopId: string, customerId: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :earn)',
    ExpressionAttributeValues: { ':pk': keys.customerPk(shopId, customerId), ':earn': 'EARN#' },
  });

/**
 * An order of the adjustment events in which each starts from the balance and lifetime points the one
 * before left (floor at zero; lifetime points from additions that count), from `start`; null when none
 * exists. Depth-first over the events, which the figures prune to a handful of branches.
 */
function chainOf(
  events: readonly AdjustedEvent[],
  start: { points: number; lifetime: number },
  countsForLifetime: (event: AdjustedEvent) => boolean,
): AdjustedEvent[] | null {
  const used = new Set<number>();
  const order: AdjustedEvent[] = [];
  const walk = (points: number, lifetime: number): boolean => {
    if (order.length === events.length) return true;
    for (const [index, event] of events.entries()) {
      if (used.has(index) || event.points_before !== points) continue;
      const after = Math.max(0, points + event.requested_adjustment);
      const nextLifetime = lifetime + (after > points && countsForLifetime(event) ? after - points : 0);
      if (event.points_after !== after || event.adjustment !== after - points || event.lifetime_points !== nextLifetime) continue;
      used.add(index);
      order.push(event);
      if (walk(after, nextLifetime)) return true;
      used.delete(index);
      order.pop();
    }
    return false;
  };
  return walk(start.points, start.lifetime) ? order : null;
}

describe.each([
  ['batch expiry', BATCH_SHOP],
  ['inactivity expiry', INACTIVITY_SHOP],
])('one customer written from 20 requests at once (%s)', (_mode, shop) => {
  const shopId = shop.settings.id;
  const customerId = '7001';

  it('answers every request and writes exactly what the requests asked, in one order', async () => {
    await createCustomer(
      customerRecord({
        shop_id: shopId,
        platform_customer_id: customerId,
        referral_code: `HOT${shopId}`,
        current_points: 300,
        lifetime_points: 300,
      }),
    );
    // Additions that each raise lifetime points by a different power of two (one does not count), two
    // deductions larger than any balance (each floors the balance at zero), and updates of the profile.
    const additions = Array.from({ length: 12 }, (_, i) => 2 ** i);
    const notCounted = 4096;
    const deductions = [-1_000_000, -10_000_000];
    const anniversaries = ['2020-01-01', '2020-01-02', '2020-01-03', '2020-01-04'];
    const adjust = (adjustment: number, countsForLifetime = true) =>
      adjustPoints(shop, customerId, { adjustment, note: `n${adjustment}`, update_lifetime_points: countsForLifetime, send_email: true });

    const [adjusted, updated] = await Promise.all([
      Promise.all([...deductions.map((n) => adjust(n)), ...additions.map((n) => adjust(n)), adjust(notCounted, false)]),
      Promise.all([
        ...anniversaries.map((date) => updateCustomer(shopId, customerId, { anniversary_date: date })),
        updateCustomer(shopId, customerId, { date_of_birth: '1990-05-17' }),
      ]),
    ]);

    const requested = [...deductions, ...additions, notCounted];
    const stored = (await getCustomer(shopId, customerId, true))!.record;
    const events = await eventsOf(shopId, customerId);
    const adjustedEvents = events.filter((event): event is AdjustedEvent => event.type === 'points.adjusted');

    // One event per request; an order exists in which every before/after and lifetime follows from the last.
    expect(adjustedEvents.map((e) => e.requested_adjustment).sort((a, b) => a - b)).toEqual([...requested].sort((a, b) => a - b));
    const chain = chainOf(adjustedEvents, { points: 300, lifetime: 300 }, (event) => event.requested_adjustment !== notCounted);
    expect(chain).not.toBeNull();
    const last = chain![chain!.length - 1]!;
    expect(stored.current_points).toBe(last.points_after);
    expect(stored.current_points).toBe(300 + adjustedEvents.reduce((sum, e) => sum + e.adjustment, 0));
    expect(stored.lifetime_points).toBe(last.lifetime_points);
    expect(stored.lifetime_points).toBe(300 + additions.reduce((sum, n) => sum + n, 0));

    // Each request was answered with what its event says.
    adjusted.forEach((result: PointsAdjustment, index) => {
      const event = adjustedEvents.find((e) => e.requested_adjustment === requested[index])!;
      expect(result.change).toEqual({ applied: event.adjustment, before: event.points_before, after: event.points_after });
    });

    // The tier follows lifetime points: one tier.changed per threshold crossed, in the chain's order.
    const crossings = chain!.flatMap((event) => {
      const before = resolveTier(
        { ...stored, lifetime_points: event.lifetime_points - Math.max(0, event.adjustment) },
        tiers,
        shop.settings.vip_settings,
      );
      const after = resolveTier({ ...stored, lifetime_points: event.lifetime_points }, tiers, shop.settings.vip_settings);
      return event.requested_adjustment !== notCounted && before?.id !== after?.id ? [[before?.id ?? null, after?.id ?? null]] : [];
    });
    const tierEvents = events.filter((event): event is TierEvent => event.type === 'tier.changed');
    expect(tierEvents.map((e) => [e.from_tier_id, e.to_tier_id])).toEqual(expect.arrayContaining(crossings));
    expect(tierEvents).toHaveLength(crossings.length);
    // From no tier to gold, each change starting where the one before ended (which tiers lie between
    // depends on the order the additions came in).
    expect(crossings[0]![0]).toBeNull();
    crossings.slice(1).forEach(([from], index) => expect(from).toBe(crossings[index]![1]));
    expect(crossings[crossings.length - 1]![1]).toBe('gold');
    expect(stored.vip_tier_id).toBe('gold');

    // Exactly one audit entry per request, the one its event names, with the applied points.
    const entries = await entriesOf(shopId, customerId);
    expect(entries).toHaveLength(requested.length);
    expect(entries.map((e) => e.id).sort()).toEqual(adjustedEvents.map((e) => e.earning_history_entry_id).sort());
    for (const entry of entries) {
      const event = adjustedEvents.find((e) => e.earning_history_entry_id === entry.id)!;
      expect(entry).toMatchObject({
        action: 'manual_adjustment',
        status: 'approved',
        points: event.adjustment,
        note: `n${event.requested_adjustment}`,
      });
    }

    // The batch line: every addition a batch right after the one before, in the chain's order. The profile
    // starts without a batch total, so its whole balance counts as given before any batch (points-ledger.ts).
    let total: number | undefined;
    for (const event of chain!) {
      if (event.adjustment <= 0) continue;
      const batch = entries.find((e) => e.id === event.earning_history_entry_id)!;
      expect(batch.batch_offset).toBe(total ?? event.points_before);
      total = Number(batch.batch_offset) + Number(batch.points);
      const expiry = shop.settings.earning_settings!.points_expiry!;
      expect(batch.points_expiry_at).toBe(expiry.mode === 'batch' ? addDays(String(batch.created_at), expiry.days) : null);
    }
    expect(stored.points_batch_total).toBe(total);

    // The updates: each answered with its own change, the last one kept, the birthday timer written.
    expect(updated.slice(0, anniversaries.length).map((record) => record.anniversary_date)).toEqual(anniversaries);
    expect(anniversaries).toContain(stored.anniversary_date);
    expect(stored.date_of_birth).toBe('1990-05-17');
    const timer = await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.birthdayTimer(shopId, customerId) }));
    expect(timer.Item).toBeDefined();

    expect(stored.points_queue ?? []).toEqual([]);

    // The inactivity deadline follows the last activity, and the profile waits in the due-work index for it
    // (one more adjustment, so that the last write of the profile is a commit of the queue).
    await adjust(1);
    const profile = (
      await documentClient().send(new GetCommand({ TableName: tableName(), Key: keys.customer(shopId, customerId), ConsistentRead: true }))
    ).Item!;
    const latest = (await getCustomer(shopId, customerId, true))!.record;
    const due = profileDue(latest);
    expect({ due_pk: profile.due_pk, due_at: profile.due_at }).toEqual(due ?? { due_pk: undefined, due_at: undefined });
    if (shop === INACTIVITY_SHOP) {
      expect(due).not.toBeNull();
      expect(latest.points_expire_at).toBe(addDays(latest.points_last_activity_at!, 90));
    }
  });
});

describe('the queue commit and the writes around it', () => {
  const shop = BATCH_SHOP;
  const shopId = shop.settings.id;
  const settings = (now: string) => ({
    tiers,
    vipSettings: shop.settings.vip_settings,
    earningSettings: shop.settings.earning_settings!,
    staleBefore: new Date(Date.parse(now) - 60_000).toISOString(),
  });
  const NOW = '2026-11-20T10:00:00.000Z';
  const request = (id: string, adjustment: number) => ({
    id,
    adjustment,
    update_lifetime_points: true,
    note: null,
    send_email: false,
    at: NOW,
  });

  it('is not refused by an update of the profile fields that came in between, and keeps it', async () => {
    await createCustomer(customerRecord({ shop_id: shopId, platform_customer_id: '7101', referral_code: 'HOT7101', current_points: 10 }));
    const queued = await enqueueAdjustment(shopId, '7101', request('between-1', 5), 25);
    if (!queued.queued) throw new Error('not queued');

    await updateCustomer(shopId, '7101', { anniversary_date: '2021-02-03' });
    const commit = commitOfQueue(queued.current.record, queued.current.record.points_queue!, settings(NOW));
    const written = await commitAdjustments({
      read: queued.current,
      next: commit.next,
      removedIds: ['between-1'],
      entries: commit.applied.map((applied) => applied.entry),
      receipts: receiptsOf(commit),
    });

    expect(written).toEqual({ written: true });
    const stored = (await getCustomer(shopId, '7101', true))!.record;
    expect(stored).toMatchObject({ current_points: 15, anniversary_date: '2021-02-03', points_queue: [] });
    expect(stored.points_receipts).toEqual([{ id: 'between-1', applied: 5, before: 10, after: 15 }]);
  });

  it('never applies a request twice: a copy left in the queue is dropped once its entry exists', async () => {
    await createCustomer(customerRecord({ shop_id: shopId, platform_customer_id: '7102', referral_code: 'HOT7102', current_points: 0 }));
    const first = await adjustPoints(shop, '7102', { adjustment: 7, note: null, update_lifetime_points: true, send_email: false });
    const [entry] = await entriesOf(shopId, '7102');
    // A copy of the applied request back at the head of the queue (as a lost answer's resend could leave it).
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.customer(shopId, '7102'),
        UpdateExpression: 'SET points_queue = :queue',
        ExpressionAttributeValues: { ':queue': [{ ...request(String(entry!.id), 7), at: String(entry!.created_at) }] },
      }),
    );

    const second = await adjustPoints(shop, '7102', { adjustment: 3, note: null, update_lifetime_points: true, send_email: false });

    expect(first.change).toEqual({ applied: 7, before: 0, after: 7 });
    expect(second.change).toEqual({ applied: 3, before: 7, after: 10 });
    const stored = (await getCustomer(shopId, '7102', true))!.record;
    expect(stored.current_points).toBe(10);
    expect(stored.points_queue).toEqual([]);
    expect((await entriesOf(shopId, '7102')).map((e) => e.points).sort()).toEqual([3, 7]);
  });

  it('drops a request nobody waits for any more instead of applying it', async () => {
    await createCustomer(customerRecord({ shop_id: shopId, platform_customer_id: '7103', referral_code: 'HOT7103', current_points: 0 }));
    const abandoned = { ...request('abandoned-1', 1000), at: '2020-01-01T00:00:00.000Z' };
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.customer(shopId, '7103'),
        UpdateExpression: 'SET points_queue = :queue',
        ExpressionAttributeValues: { ':queue': [abandoned] },
      }),
    );

    const result = await adjustPoints(shop, '7103', { adjustment: 2, note: null, update_lifetime_points: true, send_email: false });

    expect(result.change).toEqual({ applied: 2, before: 0, after: 2 });
    const stored = (await getCustomer(shopId, '7103', true))!.record;
    expect(stored.current_points).toBe(2);
    expect(stored.points_queue).toEqual([]);
    expect((await entriesOf(shopId, '7103')).map((e) => e.id)).not.toContain('abandoned-1');
  });
});
