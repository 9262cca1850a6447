// The clock-driven jobs against DynamoDB Local: a run stopped half-way is finished by the next run, two
// runs at once approve each entry once, and due work not yet due is not read at all.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pointsApprovalJob } from '../../shared/calendar/points-approval';
import { runDueJob } from '../../shared/calendar/due-job';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { earningEntryItem } from '../../shared/data/items/earning-entry';
import { batchPut, putShopCatalog, putShopIdentity } from '../../shared/data/shop-repository';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';
import type { EarningEntry } from '../../shared/domain/history';
import { setClock } from '../../shared/runtime/clock';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog } from '../fixtures/shop-catalog';
import { committedEvents } from '../support/committed-events';
import { createTestTable } from '../support/test-table';

jest.setTimeout(120_000);

const DUE = '2027-04-01T00:00:00.000Z';
let table: Awaited<ReturnType<typeof createTestTable>>;
let eventsFile: string;

beforeAll(async () => {
  eventsFile = join(mkdtempSync(join(tmpdir(), 'events-')), 'events.jsonl');
  table = await createTestTable({ environment: { EVENTS_LOG_FILE: eventsFile } });
});
afterAll(async () => {
  setClock(null);
  await table.drop();
});

const pending = (id: string, points: number, dueAt: string): EarningEntry => ({
  id,
  earning_rule_id: 'per-order',
  action: 'purchase',
  points,
  base_points: points,
  points_multiplier: 1,
  status: 'pending',
  order_id: id,
  order_number: `#${id}`,
  points_due_at: dueAt,
  points_given_at: null,
  points_expiry_at: null,
  created_at: '2027-03-01T00:00:00.000Z',
  updated_at: '2027-03-01T00:00:00.000Z',
});

/** A shop with `members` members, each holding one entry due at DUE and one due a month later. */
async function seed(shopId: string, members: number): Promise<void> {
  await putShopCatalog(shopCatalog(shopId));
  for (let i = 0; i < members; i += 1) {
    await createCustomer(customerRecord({ shop_id: shopId, platform_customer_id: String(i), referral_code: `${shopId}-${i}` }));
  }
  await batchPut(
    Array.from({ length: members }, (_, i) => [
      earningEntryItem(shopId, String(i), pending(`due-${i}`, 10, DUE)),
      earningEntryItem(shopId, String(i), pending(`later-${i}`, 7, '2027-05-01T00:00:00.000Z')),
    ]).flat(),
  );
}

const balances = async (shopId: string, members: number) =>
  Promise.all(Array.from({ length: members }, async (_, i) => (await getCustomer(shopId, String(i), true))!.record.current_points));

describe('due jobs', () => {
  it('stop half-way and are finished by the next run; a third run finds nothing due', async () => {
    await seed('resume', 12);
    setClock(new Date('2027-04-02T00:00:00.000Z'));

    const first = await runDueJob(pointsApprovalJob, { shopIds: ['resume'], pageSize: 5, maxItems: 5 });
    expect(first).toMatchObject({ due: 5, changed: 5, more: true });
    const second = await runDueJob(pointsApprovalJob, { shopIds: ['resume'], pageSize: 5 });
    expect(second).toMatchObject({ changed: 7, more: false, failed: 0 });
    const third = await runDueJob(pointsApprovalJob, { shopIds: ['resume'] });
    // Only what is due is read: the twelve entries due next month are not.
    expect(third).toMatchObject({ due: 0, changed: 0 });
    expect(await balances('resume', 12)).toEqual(Array(12).fill(10));
  });

  it('approve each entry once when two runs race', async () => {
    await seed('race', 10);
    setClock(new Date('2027-04-02T00:00:00.000Z'));

    const runs = await Promise.all([
      runDueJob(pointsApprovalJob, { shopIds: ['race'], pageSize: 3, concurrency: 4 }),
      runDueJob(pointsApprovalJob, { shopIds: ['race'], pageSize: 3, concurrency: 4 }),
    ]);
    expect(runs[0]!.changed + runs[1]!.changed).toBe(10);
    expect(await balances('race', 10)).toEqual(Array(10).fill(10));
    const approved = (await committedEvents('race')).filter((event) => event.type === 'points.approved');
    expect(approved).toHaveLength(10);
  });

  it('as a scheduled function: every registered shop is visited, and a shop that cannot be processed fails the invocation', async () => {
    await seed('scheduled', 3);
    await putShopIdentity('scheduled', 'scheduled.myshopify.com');
    setClock(new Date('2027-04-02T00:00:00.000Z'));
    const context = { getRemainingTimeInMillis: () => 60_000 };

    const summary = await scheduledJobHandler(pointsApprovalJob)({}, context as never);
    expect(summary).toMatchObject({ changed: 3, failed: 0 });
    expect(await balances('scheduled', 3)).toEqual([10, 10, 10]);

    // A registered shop without its configuration: the run goes on for the others, then fails so the alarm fires.
    await putShopIdentity('ghost', 'ghost.myshopify.com');
    await expect(scheduledJobHandler(pointsApprovalJob)({}, context as never)).rejects.toThrow(
      'points_approval: 1 shops could not be processed',
    );
  });
});
