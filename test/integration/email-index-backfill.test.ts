// The e-mail index's backfill against DynamoDB Local: members stored before the index existed (profiles
// without postings) are found by the scan until `loyalty email-index backfill` has walked their shop and
// marked it, then by the index with the same answers; a walk stopped half-way is finished by running the
// command again, and a shop applied for the first time is marked complete at once.
import { emailIndexBackfill } from '../../infra/cli/commands';
import { main } from '../../infra/cli/main';
import { type CustomerListQuery, listCustomers } from '../../shared/data/customer-list';
import { backfillShopPostings, markNewShopIndexed } from '../../shared/data/email-index-repository';
import { findByEmailIndex, forgetEmailIndexReadiness } from '../../shared/data/email-search';
import { customerItem } from '../../shared/data/items/customer-profile';
import { emailPostingItems } from '../../shared/data/items/email-gram';
import { batchPut, putShopCatalog, putShopIdentity } from '../../shared/data/shop-repository';
import { parseConfig } from '../../shared/config/schema';
import { applyConfig } from '../../shared/shops/apply-config';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog } from '../fixtures/shop-catalog';
import { createTestTable, scanAll, testEndpoint } from '../support/test-table';

jest.setTimeout(120_000);

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});
afterEach(() => forgetEmailIndexReadiness());

/** A shop as an older release left it: settings, registry entry and member profiles, no postings. */
async function shopBeforeTheIndex(shopId: string, members: number) {
  await putShopCatalog(shopCatalog(shopId));
  await putShopIdentity(shopId, `${shopId}.myshopify.com`);
  const records = Array.from({ length: members }, (_, i) =>
    customerRecord({
      shop_id: shopId,
      platform_customer_id: String(7000 + i),
      email: i % 3 === 0 ? `Old.Member${i}@Example.com` : `someone${i}+tag@shop.io`,
      referral_code: `B${shopId}${i}`,
      created_at: new Date(Date.UTC(2024, 0, 1, 0, 0, i)).toISOString(),
    }),
  );
  await batchPut(records.map((record) => customerItem(record, 1)));
  return records;
}

async function postingsOf(shopId: string) {
  return (await scanAll())
    .filter((item) => String(item.pk).startsWith(`SHOP#${shopId}#EGRAM#`) || item.pk === `SHOP#${shopId}#ELONG`)
    .map((item) => `${String(item.pk)}|${String(item.sk)}|${String(item.email_lc)}`)
    .sort();
}

function recorder() {
  const lines: string[] = [];
  return { print: (line: string) => void lines.push(line), text: () => lines.join('\n') };
}

describe('email-index backfill', () => {
  it('writes every member’s postings, marks the shop, and the search then reads the index with the same answers', async () => {
    const records = await shopBeforeTheIndex('old-shop', 130);
    const query: CustomerListQuery = { sort: 'created_at', descending: false, emailContains: 'old.member1', offset: 0, limit: 25 };
    expect(await findByEmailIndex('old-shop', 'old.member1', async () => 130)).toBeNull();
    const scanned = await listCustomers('old-shop', query);

    const output = recorder();
    await emailIndexBackfill({ shop: 'old-shop' }, output);

    expect(output.text()).toContain('shop old-shop: 130 members');
    expect(await postingsOf('old-shop')).toEqual(
      records
        .flatMap((r) => emailPostingItems('old-shop', r.platform_customer_id, r.email.toLowerCase()))
        .map((i) => `${String(i.pk)}|${String(i.sk)}|${String(i.email_lc)}`)
        .sort(),
    );
    expect(await findByEmailIndex('old-shop', 'old.member1', async () => 130)).not.toBeNull();
    const indexed = await listCustomers('old-shop', query);
    expect(indexed.records.map((r) => r.platform_customer_id)).toEqual(scanned.records.map((r) => r.platform_customer_id));
    expect(indexed.total).toBe(scanned.total);
    expect(scanned.total).toBe(records.filter((r) => r.email.toLowerCase().includes('old.member1')).length);

    const again = recorder();
    await emailIndexBackfill({ shop: 'old-shop' }, again);
    expect(again.text()).toBe('shop old-shop: e-mail index already complete');
  });

  it('finishes a walk stopped half-way when run again, over every registered shop', async () => {
    await shopBeforeTheIndex('stopped', 150);
    await expect(
      backfillShopPostings('stopped', () => {
        throw new Error('process stopped');
      }),
    ).rejects.toThrow('process stopped');
    const half = await postingsOf('stopped');
    expect(half.length).toBeGreaterThan(0);
    expect(await findByEmailIndex('stopped', 'someone1', async () => 150)).toBeNull();

    const output = recorder();
    await emailIndexBackfill({}, output);
    expect(output.text()).toContain('shop stopped: 150 members');
    const all = await postingsOf('stopped');
    expect(all).toEqual(expect.arrayContaining(half));
    expect(new Set(all.map((p) => p.split('|')[1])).size).toBe(150);
    expect(await findByEmailIndex('stopped', 'someone1', async () => 150)).not.toBeNull();
  });

  it('marks a shop applied for the first time at once, and never a shop that existed before', async () => {
    await applyConfig(
      parseConfig({ shops: [{ id: 'fresh', name: 'Fresh', currency: 'USD', referral_base_url: 'https://fresh.example/' }] }),
    );
    expect(await findByEmailIndex('fresh', 'nobody', async () => 0)).toEqual({ ids: [], entriesRead: 0 });
    await putShopCatalog(shopCatalog('existing'));
    expect(await markNewShopIndexed('existing', '2025-01-01T00:00:00.000Z')).toBe(false);
    expect(await findByEmailIndex('existing', 'nobody', async () => 0)).toBeNull();
  });

  it('is a command of the loyalty CLI', async () => {
    const out: string[] = [];
    const err: string[] = [];
    const io = { out: (line: string) => void out.push(line), err: (line: string) => void err.push(line) };
    expect(await main(['email-index', 'backfill', '--shop', 'fresh', '--endpoint', testEndpoint(), '--table', table.tableName], io)).toBe(
      0,
    );
    expect(out.join('\n')).toContain('shop fresh: e-mail index already complete');
    expect(await main(['email-index', 'backfill', '--scope', 'full', '--endpoint', testEndpoint()], io)).toBe(1);
    expect(err.join('\n')).toContain("--scope does not apply to 'email-index backfill'");
  });
});
