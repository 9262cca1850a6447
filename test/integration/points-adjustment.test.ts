import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { keys } from '../../shared/data/keys';
import { queryAll } from '../../shared/data/item-reads';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, tableName } from '../../shared/data/client';
import { commitAdjustments, enqueueAdjustment } from '../../shared/data/points-repository';
import { DEFAULT_EARNING_SETTINGS } from '../../shared/domain/shop';
import { commitOfQueue, receiptsOf } from '../../shared/points/points-change';
import { putShopCatalog } from '../../shared/data/shop-repository';
import { adjustPoints } from '../../shared/points/adjust-points';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { committedEvents } from '../support/committed-events';
import { createTestTable } from '../support/test-table';

// Sixty writers racing for one item on DynamoDB Local take seconds, not milliseconds.
jest.setTimeout(60_000);

const SHOP = 'points-shop';
const catalog = shopCatalog(SHOP, {
  tiers: [vipTier('gold', { name: 'Gold', threshold_points: 1000, points_multiplier: 2, badge_color: '#FFD700' })],
});
const NOW = '2026-11-20T10:00:00.000Z';
const settingsOf = (now: string) => ({
  tiers: catalog.tiers,
  vipSettings: catalog.settings.vip_settings,
  earningSettings: catalog.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS,
  staleBefore: new Date(Date.parse(now) - 60_000).toISOString(),
});
const input = (adjustment: number) => ({ adjustment, note: `n${adjustment}`, update_lifetime_points: true, send_email: true });

let table: Awaited<ReturnType<typeof createTestTable>>;
let eventsFile: string;

beforeAll(async () => {
  eventsFile = join(mkdtempSync(join(tmpdir(), 'events-')), 'events.jsonl');
  table = await createTestTable({ environment: { EVENTS_LOG_FILE: eventsFile } });
  await putShopCatalog(catalog);
});
afterAll(async () => {
  await table.drop();
});

/** The events the adjustments committed with their changes. */
const events = () => committedEvents(SHOP);
const auditEntries = (customerId: string) =>
  queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :earn)',
    ExpressionAttributeValues: { ':pk': keys.customerPk(SHOP, customerId), ':earn': 'EARN#' },
  });

describe('points adjustment on DynamoDB', () => {
  it('applies 60 simultaneous adjustments of one customer, none lost, each with exactly one audit entry', async () => {
    await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '1', referral_code: 'CONC0001' }));
    const adjustments = Array.from({ length: 60 }, (_, i) => i + 1);

    const results = await Promise.all(adjustments.map((n) => adjustPoints(catalog, '1', input(n))));

    const expected = adjustments.reduce((sum, n) => sum + n, 0);
    const stored = (await getCustomer(SHOP, '1', true))!;
    expect(stored.record.current_points).toBe(expected);
    expect(stored.record.lifetime_points).toBe(expected);
    expect(stored.record.vip_tier_id).toBe('gold');
    const entries = await auditEntries('1');
    expect(entries).toHaveLength(60);
    expect(entries.map((e) => e.points).sort((a, b) => Number(a) - Number(b))).toEqual(adjustments);
    expect(entries.every((e) => e.status === 'approved' && e.action === 'manual_adjustment')).toBe(true);
    const befores = results.map((r) => r.change.before).sort((a, b) => a - b);
    expect(new Set(befores).size).toBe(60); // each saw a different balance: they were serialised
    expect((await events()).filter((e) => e.type === 'points.adjusted' && e.customer_id === '1')).toHaveLength(60);
  });

  it('keeps the balance exact under simultaneous additions and deductions', async () => {
    await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '2', referral_code: 'CONC0002', current_points: 10_000 }));
    const adjustments = Array.from({ length: 50 }, (_, i) => (i % 2 === 0 ? 7 : -5));

    await Promise.all(adjustments.map((n) => adjustPoints(catalog, '2', input(n))));

    const stored = (await getCustomer(SHOP, '2', true))!;
    expect(stored.record.current_points).toBe(10_000 + 25 * 7 - 25 * 5);
    expect(await auditEntries('2')).toHaveLength(50);
  });

  it('writes neither the balance nor the audit entry when a figure the commit read has changed', async () => {
    await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '3', referral_code: 'CONC0003', current_points: 100 }));
    const request = { id: 'stale-entry', adjustment: 899, update_lifetime_points: true, note: null, send_email: true, at: NOW };
    const queued = await enqueueAdjustment(SHOP, '3', request, 25);
    if (!queued.queued) throw new Error('not queued');
    // Another writer (a purchase) spends a point after the commit's read.
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: keys.customer(SHOP, '3'),
        UpdateExpression: 'SET current_points = current_points - :one ADD version :one',
        ExpressionAttributeValues: { ':one': 1 },
      }),
    );

    const commit = commitOfQueue(queued.current.record, [request], settingsOf(NOW));
    const written = await commitAdjustments({
      read: queued.current,
      next: commit.next,
      removedIds: ['stale-entry'],
      entries: commit.applied.map((applied) => applied.entry),
      receipts: receiptsOf(commit),
    });

    expect(written).toMatchObject({ written: false, conflict: false });
    const stored = (await getCustomer(SHOP, '3', true))!;
    expect(stored.record.current_points).toBe(99);
    expect(stored.record.points_queue?.map((r) => r.id)).toEqual(['stale-entry']);
    expect((await auditEntries('3')).map((e) => e.id)).not.toContain('stale-entry');
  });

  it('publishes tier.changed when an adjustment crosses a threshold', async () => {
    await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '4', referral_code: 'CONC0004', lifetime_points: 990 }));

    await adjustPoints(catalog, '4', input(10));

    expect((await events()).filter((e) => e.type === 'tier.changed' && e.customer_id === '4')).toEqual([
      expect.objectContaining({ from_tier_id: null, to_tier_id: 'gold', send_email: true }),
    ]);
  });
});
