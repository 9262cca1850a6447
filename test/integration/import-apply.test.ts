// The import's effects against DynamoDB Local: members created as enrolment creates them and updated,
// `add` against `set`, a second run that changes nothing, a run stopped half-way and run again, the dry
// run, the undo (spent points reported, values changed since kept), and a live adjustment of a member
// racing the import.
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { setRawClientHook } from '../../shared/data/client';
import { getEarningEntry } from '../../shared/data/history-repository';
import { readItem } from '../../shared/data/item-reads';
import { emailGramKey } from '../../shared/data/items/email-gram';
import { birthdayTimerKey } from '../../shared/data/items/birthday-timer';
import { keys } from '../../shared/data/keys';
import { putShopCatalog, readShopCounters } from '../../shared/data/shop-repository';
import { applyImport, type ReadRows } from '../../shared/import/apply-import';
import type { ImportRow, MatchedRow } from '../../shared/import/import-row';
import { importEntryId } from '../../shared/import/member-import';
import { undoImport } from '../../shared/import/undo-import';
import { adjustPoints } from '../../shared/points/adjust-points';
import { setClock } from '../../shared/runtime/clock';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { createTestTable, scanAll } from '../support/test-table';

jest.setTimeout(120_000);

const SHOP = 'import-shop';
const catalog = shopCatalog(SHOP, {
  settings: { earning_settings: { pending_days: 0, points_expiry: { mode: 'batch', days: 365 }, expiry_reminder_days: 30 } },
  tiers: [
    vipTier('silver', { name: 'Silver', threshold_points: 500, position: 1 }),
    vipTier('gold', { name: 'Gold', threshold_points: 2000, position: 2 }),
  ],
});
const NOW = '2026-11-20T10:00:00.000Z';

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
  await putShopCatalog(catalog);
});
beforeEach(() => setClock(new Date(NOW)));
afterEach(() => {
  setClock(null);
  setRawClientHook(undefined);
});
afterAll(async () => {
  await table.drop();
});

function row(line: number, overrides: Partial<ImportRow> = {}): ImportRow {
  return {
    line,
    platformCustomerId: null,
    email: null,
    points: 0,
    pendingPoints: 0,
    redeemedPoints: null,
    dateOfBirth: null,
    excluded: null,
    tierName: null,
    enrolledAt: null,
    ...overrides,
  };
}

function matched(id: string, overrides: Partial<ImportRow> = {}, by: 'id' | 'email' = 'id'): MatchedRow {
  return {
    row: row(Number(id.replace(/\D/g, '')) % 100_000, { platformCustomerId: id, ...overrides }),
    customer: { id, email: `m${id}@example.com`, firstName: 'First', lastName: `Last ${id}`, createdAt: '2024-03-05T08:00:00.000Z' },
    matchedBy: by,
  };
}

const rows = (matchedRows: MatchedRow[], extra: Partial<ReadRows> = {}): ReadRows => ({
  rowsRead: matchedRows.length,
  matched: matchedRows,
  skipped: [],
  ...extra,
});

const options = (importId: string, overrides: Partial<Parameters<typeof applyImport>[1]> = {}) => ({
  shopId: SHOP,
  catalog,
  importId,
  from: 'smile' as const,
  mode: 'add' as const,
  fileName: 'members.csv',
  dryRun: false,
  ...overrides,
});

const profile = async (id: string) => (await getCustomer(SHOP, id, true))?.record;
const tableItems = async () =>
  (await scanAll())
    .filter((item) => String(item.pk).startsWith(`SHOP#${SHOP}`))
    .map((item) => JSON.stringify(item))
    .sort();

describe('import on DynamoDB', () => {
  it('creates members as enrolment does: profile, import entry as a batch, referral code, postings, birthday timer, counters; tiers computed', async () => {
    const report = await applyImport(
      rows([
        matched('1001', { points: 2500, pendingPoints: 300, redeemedPoints: 400, dateOfBirth: '1004-07-14', tierName: 'Gold' }),
        matched('1002', { points: 600, excluded: true, tierName: 'Platinum' }, 'email'),
      ]),
      options('aaaa000000000001'),
    );
    expect(report).toMatchObject({ created: 2, updated: 0, unchanged: 0, matchedById: 1, matchedByEmail: 1, pendingPoints: 300 });
    expect(report.pointsBefore).toBe(0);
    expect(report.pointsAfter).toBe(3100);
    expect(report.tierMismatches).toEqual([{ line: 1002, customerId: '1002', named: 'Platinum', computed: 'Silver' }]);

    const first = await profile('1001');
    expect(first).toMatchObject({
      current_points: 2500,
      lifetime_points: 2900,
      redeemed_points: 400,
      date_of_birth: '1004-07-14',
      status: 'member',
      vip_tier_id: 'gold',
      email: 'm1001@example.com',
      anniversary_date: '2024-03-05',
      points_batch_total: 2500,
    });
    expect((await profile('1002'))?.status).toBe('excluded');
    const entry = await getEarningEntry(SHOP, '1001', importEntryId('aaaa000000000001'), true);
    expect(entry).toMatchObject({
      action: 'import',
      status: 'approved',
      points: 2500,
      points_given_at: NOW,
      points_expiry_at: '2027-11-20T10:00:00.000Z',
    });
    expect(await readItem(keys.referralCode(SHOP, first!.referral_code))).toMatchObject({ customer_id: '1001' });
    expect(await readItem(emailGramKey(SHOP, '100', '1001'))).toMatchObject({ email_lc: 'm1001@example.com' });
    expect(await readItem(birthdayTimerKey(SHOP, '1001'))).not.toBeNull();
    expect(await readShopCounters(SHOP)).toEqual({ member: 1, excluded: 1 });
  });

  it('updates an existing member: add adds the balance, set makes it the file’s and the entry records the difference', async () => {
    await createCustomer(
      customerRecord({ shop_id: SHOP, platform_customer_id: '2001', current_points: 100, lifetime_points: 100, redeemed_points: 5 }),
    );
    await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '2002', current_points: 900, lifetime_points: 900 }));
    const added = await applyImport(rows([matched('2001', { points: 50, redeemedPoints: 10 })]), options('bbbb000000000001'));
    expect(added).toMatchObject({ created: 0, updated: 1, pointsBefore: 100, pointsAfter: 150 });
    expect(await profile('2001')).toMatchObject({ current_points: 150, lifetime_points: 160, redeemed_points: 15 });
    expect((await getEarningEntry(SHOP, '2001', importEntryId('bbbb000000000001'), true))?.points).toBe(50);

    const set = await applyImport(
      rows([matched('2002', { points: 300, redeemedPoints: 40 }), matched('2001', { points: 150 })]),
      options('bbbb000000000002', { mode: 'set' }),
    );
    expect(set).toMatchObject({ updated: 2, pointsBefore: 1050, pointsAfter: 450 });
    expect(await profile('2002')).toMatchObject({ current_points: 300, lifetime_points: 940, redeemed_points: 40, vip_tier_id: 'silver' });
    expect((await getEarningEntry(SHOP, '2002', importEntryId('bbbb000000000002'), true))?.points).toBe(-600);
    // The balance already was the file's: no entry.
    expect(await getEarningEntry(SHOP, '2001', importEntryId('bbbb000000000002'), true)).toBeNull();
    expect((await profile('2001'))?.current_points).toBe(150);
  });

  it('changes nothing when the same import runs again, and reports the members as unchanged', async () => {
    const batch = ['3001', '3002', '3003'].map((id) => matched(id, { points: 100 }));
    await applyImport(rows(batch), options('cccc000000000001'));
    const before = await tableItems();
    setClock(new Date('2026-11-21T10:00:00.000Z'));
    const again = await applyImport(rows(batch), options('cccc000000000001'));
    expect(again).toMatchObject({ created: 0, updated: 0, unchanged: 3, pointsBefore: 300, pointsAfter: 300 });
    expect(await tableItems()).toEqual(before);
  });

  it('writes nothing on a dry run and reports what would happen', async () => {
    await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '4001', current_points: 10 }));
    const before = await tableItems();
    const report = await applyImport(
      rows([matched('4001', { points: 5 }), matched('4002', { points: 7, tierName: 'Gold' })]),
      options('dddd000000000001', { dryRun: true }),
    );
    expect(report).toMatchObject({ dryRun: true, created: 1, updated: 1, pointsBefore: 10, pointsAfter: 22 });
    expect(report.tierMismatches).toHaveLength(1);
    expect(await tableItems()).toEqual(before);
  });

  it('continues a run stopped half-way: the members written are not written twice', async () => {
    const batch = Array.from({ length: 30 }, (_, index) => matched(String(5000 + index), { points: 10 }));
    let transactions = 0;
    setRawClientHook((raw) =>
      raw.middlewareStack.add(
        (next, context) => async (args) => {
          if (context.commandName === 'TransactWriteItemsCommand' && ++transactions > 12) throw new Error('process stopped');
          return next(args);
        },
        { step: 'initialize', name: 'stopAfterTwelve' },
      ),
    );
    await expect(applyImport(rows(batch), options('eeee000000000001', { concurrency: 1 }))).rejects.toThrow('process stopped');
    setRawClientHook(undefined);
    const resumed = await applyImport(rows(batch), options('eeee000000000001', { concurrency: 4 }));
    expect(resumed).toMatchObject({ created: 18, unchanged: 12, pointsAfter: 300 });
    for (const item of batch) expect((await profile(item.customer.id))?.current_points).toBe(10);
  });

  it('keeps a live adjustment of a member the import is writing: both land', async () => {
    await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '6001', current_points: 100, lifetime_points: 100 }));
    const adjustment = { adjustment: 25, note: 'live', update_lifetime_points: true, send_email: false };
    const [report] = await Promise.all([
      applyImport(rows([matched('6001', { points: 1000 })]), options('ffff000000000001')),
      ...Array.from({ length: 5 }, () => adjustPoints(catalog, '6001', adjustment)),
    ]);
    expect(report.updated).toBe(1);
    expect((await profile('6001'))?.current_points).toBe(100 + 1000 + 5 * 25);
  });

  it('undoes an import: created members removed, balances restored, spent points reported, values changed since kept; twice is once', async () => {
    await createCustomer(
      customerRecord({ shop_id: SHOP, platform_customer_id: '7001', current_points: 40, lifetime_points: 40, date_of_birth: '1990-01-02' }),
    );
    const importId = '7777000000000001';
    await applyImport(
      rows([
        matched('7001', { points: 500, dateOfBirth: '1990-05-06', redeemedPoints: 20 }),
        matched('7002', { points: 300, dateOfBirth: '1004-02-03' }),
        matched('7003', { points: 200 }),
      ]),
      options(importId),
    );
    // 7001 spends most of the imported points; 7003 is written since (its redeemed points) and so kept.
    await adjustPoints(catalog, '7001', { adjustment: -480, note: 'spent', update_lifetime_points: false, send_email: false });
    await adjustPoints(catalog, '7003', { adjustment: -50, note: 'spent', update_lifetime_points: false, send_email: false });
    const code7002 = (await profile('7002'))!.referral_code;

    const report = await undoImport({ shopId: SHOP, catalog, importId });
    expect(report).toMatchObject({ removed: 1, restored: 2, keptCreated: ['7003'] });
    expect(report.shortfalls).toEqual([
      { customerId: '7001', points: 440 },
      { customerId: '7003', points: 50 },
    ]);
    expect(await profile('7001')).toMatchObject({ current_points: 0, redeemed_points: 0, date_of_birth: '1990-01-02' });
    expect(await getEarningEntry(SHOP, '7001', importEntryId(importId), true)).toBeNull();
    expect(await profile('7002')).toBeUndefined();
    expect(await readItem(keys.referralCode(SHOP, code7002))).toBeNull();
    expect(await readItem(emailGramKey(SHOP, '700', '7002'))).toBeNull();
    expect(await readItem(birthdayTimerKey(SHOP, '7002'))).toBeNull();
    expect(await profile('7003')).toMatchObject({ current_points: 0 });

    const before = await tableItems();
    const again = await undoImport({ shopId: SHOP, catalog, importId });
    expect(again).toMatchObject({ removed: 0, restored: 0, pointsTakenBack: 0 });
    expect((await tableItems()).filter((item) => !item.includes('"sk":"IMPORT"'))).toEqual(
      before.filter((item) => !item.includes('"sk":"IMPORT"')),
    );
    await expect(undoImport({ shopId: SHOP, catalog, importId: '0000000000000000' })).rejects.toThrow('No import 0000000000000000');
  });
});
