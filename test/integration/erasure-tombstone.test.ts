// An erasure (customers/redact) holds against every later import of the same customer: `config apply`
// (and the twin's start, which applies the file) and `loyalty import` never bring them back, through a
// tombstone that holds the platform's customer id and a time, nothing else; an enrolment of the customer
// anew clears it. A shop erasure takes the tombstones with the shop.
import { enrollPlatformCustomer } from '../../shared/customers/customer-service';
import { parseConfig } from '../../shared/config/schema';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { erasureTombstonesPartition } from '../../shared/data/items/erasure-tombstone';
import { applyImport, type ReadRows } from '../../shared/import/apply-import';
import type { MatchedRow } from '../../shared/import/import-row';
import { applyConfig } from '../../shared/shops/apply-config';
import { clearShopCatalogCache } from '../../shared/shops/shop-catalog';
import { processPrivacyRequest } from '../../shared/webhooks/privacy-requests';
import { customerRecord } from '../fixtures/customer-record';
import { shopConfig } from '../fixtures/shop-config';
import { createTestTable, scanAll } from '../support/test-table';
import { readShopCatalog } from '../../shared/data/shop-repository';

jest.setTimeout(120_000);

const SHOP = 'erased-shop';
const config = parseConfig({ shops: [shopConfig(SHOP, 'erased_full_key_001', {}, ['7001', '7002', '7003'])] });

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
  await applyConfig(config);
});
afterAll(async () => {
  clearShopCatalogCache();
  await table.drop();
});

const redact = (id: string) =>
  processPrivacyRequest('customers/redact', SHOP, {
    shop_id: 954889,
    shop_domain: `${SHOP}.myshopify.com`,
    customer: { id: Number(id), email: `c${id}@example.com`, phone: null },
    orders_to_redact: [],
  });
const profile = async (id: string) => (await getCustomer(SHOP, id, true))?.record ?? null;
/** Every item naming the customer or their address, outside the tombstones. */
const traces = async (id: string) =>
  (await scanAll()).filter(
    (item) =>
      item.pk !== erasureTombstonesPartition(SHOP) &&
      (String(item.pk).includes(`#C#${id}`) || item.sk === id || JSON.stringify(item).includes(`c${id}@example.com`)),
  );
const tombstones = async () => (await scanAll()).filter((item) => item.pk === erasureTombstonesPartition(SHOP));

function matched(id: string): MatchedRow {
  return {
    row: {
      line: Number(id),
      platformCustomerId: id,
      email: null,
      points: 40,
      pendingPoints: 0,
      redeemedPoints: null,
      dateOfBirth: null,
      excluded: null,
      tierName: null,
      enrolledAt: null,
    },
    customer: { id, email: `c${id}@example.com`, firstName: 'C', lastName: id, createdAt: null },
    matchedBy: 'id',
  };
}
const rows = (matchedRows: MatchedRow[]): ReadRows => ({ rowsRead: matchedRows.length, matched: matchedRows, skipped: [] });
const importOptions = async (importId: string, dryRun = false) => ({
  shopId: SHOP,
  catalog: (await readShopCatalog(SHOP))!,
  importId,
  from: 'smile' as const,
  mode: 'add' as const,
  fileName: 'members.csv',
  dryRun,
});

describe('an erasure against later imports', () => {
  it('keeps `config apply` from bringing back a member the file still lists, with a tombstone of no personal data', async () => {
    expect(await profile('7001')).not.toBeNull();

    await redact('7001');
    const [summary] = await applyConfig(config);

    expect(await profile('7001')).toBeNull();
    expect(await traces('7001')).toEqual([]);
    expect(summary).toMatchObject({ membersImported: 0, membersKept: 3 });
    // The tombstone: the platform's id in its key and when; no name, e-mail or figure.
    const [tombstone, ...others] = await tombstones();
    expect(others).toEqual([]);
    expect(Object.keys(tombstone!).sort()).toEqual(['erased_at', 'pk', 'sk']);
    expect(tombstone!.sk).toBe('CUSTOMER#7001');
  });

  it('keeps `loyalty import` from enrolling the customer, dry run or not, and writes nothing of them', async () => {
    const dry = await applyImport(rows([matched('7001')]), await importOptions('eeee000000000001', true));
    const report = await applyImport(rows([matched('7001')]), await importOptions('eeee000000000002'));

    for (const run of [dry, report]) {
      expect(run).toMatchObject({ created: 0, updated: 0, unchanged: 0 });
      expect(run.skipped).toEqual([{ line: 7001, reason: 'erased', detail: expect.stringContaining('customers/redact') }]);
    }
    expect(await profile('7001')).toBeNull();
    expect(await traces('7001')).toEqual([]);
  });

  it('refuses the import paths in the write itself, should the erasure land after the read', async () => {
    await redact('7002');

    const outcome = await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '7002' }), {
      countInShop: false,
      unlessErased: true,
    });

    expect(outcome).toBe('erased');
    expect(await profile('7002')).toBeNull();
  });

  it('lets an enrolment anew clear the tombstone; the file and the import then find a member like any other', async () => {
    const enrolment = await enrollPlatformCustomer(SHOP, {
      id: '7001',
      email: 'c7001@example.com',
      firstName: 'C',
      lastName: '7001',
      createdAt: null,
    });
    const [summary] = await applyConfig(config);
    const report = await applyImport(rows([matched('7001')]), await importOptions('eeee000000000003'));

    expect(enrolment.created).toBe(true);
    expect((await tombstones()).map((item) => item.sk)).toEqual(['CUSTOMER#7002']);
    expect(summary!.membersImported).toBe(0);
    expect(report).toMatchObject({ created: 0, updated: 1, skipped: [] });
    expect((await profile('7001'))?.current_points).toBe(40);
  });

  it('goes with the shop on shop/redact', async () => {
    await processPrivacyRequest('shop/redact', SHOP, { shop_id: 954889, shop_domain: `${SHOP}.myshopify.com` });

    expect(await tombstones()).toEqual([]);
  });
});
