// The staff's search by name against DynamoDB Local (docs/admin.md#search-by-name): a member is found by the
// start of any word of their first or last name, in any case and without accents, a page at a time with a
// cursor, reading at most a page and one of postings; the postings follow every write of the names (enrolment,
// an update of the names alone or with other items, an erasure), exactly; a shop from before the index answers
// 503 until `loyalty name-index backfill` has walked it.
import { nameIndexBackfill } from '../../infra/cli/commands';
import { createCustomer, getCustomer, updateCustomer } from '../../shared/data/customer-repository';
import { markNewShopIndexed } from '../../shared/data/email-index-repository';
import { eraseCustomer } from '../../shared/data/erasure-repository';
import { customerItem } from '../../shared/data/items/customer-profile';
import { nameWordsOf, wordsOf } from '../../shared/data/items/name-token';
import { forgetNameIndexReadiness, NameIndexIncomplete, NameSearchRefusal, searchByName } from '../../shared/data/name-search';
import { batchPut, putShopCatalog, putShopIdentity } from '../../shared/data/shop-repository';
import type { CustomerRecord } from '../../shared/domain/customer';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog } from '../fixtures/shop-catalog';
import { createTestTable, scanAll } from '../support/test-table';

jest.setTimeout(120_000);

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});
afterEach(() => forgetNameIndexReadiness());

const NOW = '2026-03-01T00:00:00.000Z';

const PEOPLE: Array<[string, string]> = [
  ['Ada', 'Lovelace'],
  ['Grace', 'Hopper'],
  ['Alan', 'Turing'],
  ['José-María', 'Ñúñez'],
  ['Adam', 'Smith'],
  ['Ann', 'Annabel'],
  ['Mary Ann', "O'Neil"],
];

const member = (shopId: string, index: number, [first, last]: [string, string]): CustomerRecord =>
  customerRecord({
    shop_id: shopId,
    platform_customer_id: String(1001 + index),
    email: `person${index}@example.com`,
    first_name: first,
    last_name: last,
    referral_code: `R${shopId}${index}`,
  });

async function newShopWith(shopId: string, people: Array<[string, string]>): Promise<CustomerRecord[]> {
  await markNewShopIndexed(shopId, NOW);
  await putShopCatalog(shopCatalog(shopId));
  const records = people.map((names, index) => member(shopId, index, names));
  for (const record of records) expect(await createCustomer(record)).toBe('created');
  return records;
}

const found = async (shopId: string, name: string, size = 20) =>
  (await searchByName(shopId, { name, size })).records.map((record) => `${record.first_name} ${record.last_name}`);

/** The shop's name postings as stored, and as its profiles' names say they should be. */
async function postingsAndNames(shopId: string) {
  const items = await scanAll();
  const stored = items
    .filter((item) => String(item.pk).startsWith(`SHOP#${shopId}#NAME#`))
    .map((item) => String(item.sk))
    .sort();
  const expected = items
    .filter((item) => String(item.pk).startsWith(`SHOP#${shopId}#C#`) && item.sk === 'PROFILE')
    .flatMap((item) =>
      nameWordsOf(item as { first_name: string; last_name: string }).map((word) => `${word}#${String(item.platform_customer_id)}`),
    )
    .sort();
  return { stored, expected };
}

describe('the words of a name', () => {
  it('are runs of letters and digits, lower case, without accents, each once', () => {
    expect(wordsOf("  José-María  O'Neil 2nd ")).toEqual(['jose', 'maria', 'o', 'neil', '2nd']);
    expect(nameWordsOf({ first_name: 'Ann', last_name: 'ANN' })).toEqual(['ann']);
    expect(nameWordsOf({ first_name: null, last_name: '' })).toEqual([]);
  });
});

describe('search by name', () => {
  beforeAll(async () => {
    await newShopWith('names', PEOPLE);
  });

  it('finds a member by the start of their first or last name, in any case, accents or not', async () => {
    expect(await found('names', 'ada')).toEqual(['Ada Lovelace', 'Adam Smith']);
    expect(await found('names', 'LOVE')).toEqual(['Ada Lovelace']);
    expect(await found('names', 'hopper')).toEqual(['Grace Hopper']);
    expect(await found('names', 'nunez')).toEqual(['José-María Ñúñez']);
    expect(await found('names', 'María')).toEqual(['José-María Ñúñez']);
    expect(await found('names', 'neil')).toEqual(["Mary Ann O'Neil"]);
  });

  it('needs every word of the query to start a word of the name', async () => {
    expect(await found('names', 'Ada Lovelace')).toEqual(['Ada Lovelace']);
    expect(await found('names', 'lovelace ada')).toEqual(['Ada Lovelace']);
    expect(await found('names', 'ada smith')).toEqual(['Adam Smith']);
    expect(await found('names', 'ada hopper')).toEqual([]);
    expect(await found('names', 'velace')).toEqual([]);
  });

  it('lists a member whose several words start with the query once', async () => {
    expect(await found('names', 'ann')).toEqual(['Ann Annabel', "Mary Ann O'Neil"]);
  });

  it('pages with a cursor, each page reading at most its size and one of postings', async () => {
    const first = await searchByName('names', { name: 'a', size: 2 });
    expect(first.records).toHaveLength(2);
    expect(first.entriesRead).toBe(3);
    expect(first.nextCursor).not.toBeNull();
    const seen = first.records.map((record) => record.platform_customer_id);
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await searchByName('names', { name: 'a', size: 2, cursor });
      expect(page.entriesRead).toBeLessThanOrEqual(3);
      seen.push(...page.records.map((record) => record.platform_customer_id));
      cursor = page.nextCursor;
    }
    // Ada, Adam, Alan, Ann (once), Annabel's member already listed, Mary Ann: every member with a word starting with "a".
    expect(seen.sort()).toEqual(['1001', '1003', '1005', '1006', '1007']);
  });

  it('refuses a query without a word and a cursor of another search', async () => {
    await expect(searchByName('names', { name: ' -- ', size: 5 })).rejects.toBeInstanceOf(NameSearchRefusal);
    const page = await searchByName('names', { name: 'a', size: 1 });
    await expect(searchByName('names', { name: 'ad', size: 1, cursor: page.nextCursor! })).rejects.toThrow(/another list/);
    await expect(searchByName('names', { name: 'a', size: 1, cursor: 'x' })).rejects.toThrow(/not a cursor/);
  });
});

describe('the name postings follow the names', () => {
  it('on an update of the names alone, with other items, and on an erasure: exactly what the profiles say', async () => {
    const [ada, grace, alan] = await newShopWith('follow', PEOPLE.slice(0, 3));
    const stored = async (id: string) => (await getCustomer('follow', id, true))!;

    // The names alone (a customers/update): one transaction with the postings.
    expect((await updateCustomer(await stored(ada!.platform_customer_id), { first_name: 'Augusta', last_name: 'King' }, NOW)).written).toBe(
      true,
    );
    expect(await found('follow', 'ada')).toEqual([]);
    expect(await found('follow', 'augusta king')).toEqual(['Augusta King']);
    // With another item (an exclusion moves the shop counters): the postings follow in the same transaction.
    expect(
      (await updateCustomer(await stored(grace!.platform_customer_id), { status: 'excluded', last_name: 'Brewster Hopper' }, NOW)).written,
    ).toBe(true);
    expect(await found('follow', 'brewster')).toEqual(['Grace Brewster Hopper']);
    // Another field only: nothing of the postings changes.
    expect((await updateCustomer(await stored(alan!.platform_customer_id), { date_of_birth: '1912-06-23' }, NOW)).written).toBe(true);
    await eraseCustomer('follow', alan!.platform_customer_id);
    expect(await found('follow', 'alan')).toEqual([]);

    const { stored: postings, expected } = await postingsAndNames('follow');
    expect(postings).toEqual(expected);
    expect(postings).toEqual(['augusta#1001', 'brewster#1002', 'grace#1002', 'hopper#1002', 'king#1001']);
  });

  it('refuses a names update that lost to another (the postings deleted are the names as read)', async () => {
    const [ada] = await newShopWith('race', PEOPLE.slice(0, 1));
    const read = (await getCustomer('race', ada!.platform_customer_id, true))!;
    expect((await updateCustomer(read, { first_name: 'Augusta' }, NOW)).written).toBe(true);
    // A second writer with the profile as it read it before: refused, the index stays exact.
    expect((await updateCustomer(read, { first_name: 'Countess' }, NOW)).written).toBe(false);
    const { stored, expected } = await postingsAndNames('race');
    expect(stored).toEqual(expected);
  });
});

describe('name-index backfill', () => {
  it('answers 503 on a shop from before the index, then finds its members once the backfill marked it', async () => {
    await putShopCatalog(shopCatalog('old-names'));
    await putShopIdentity('old-names', 'old-names.myshopify.com');
    const records = PEOPLE.map((names, index) => member('old-names', index, names));
    await batchPut(records.map((record) => customerItem(record, 1)));

    await expect(searchByName('old-names', { name: 'ada', size: 5 })).rejects.toBeInstanceOf(NameIndexIncomplete);
    const lines: string[] = [];
    await nameIndexBackfill({ shop: 'old-names' }, { print: (line) => void lines.push(line) });

    expect(lines.join('\n')).toContain(`shop old-names: ${records.length} members`);
    expect(await found('old-names', 'ada')).toEqual(['Ada Lovelace', 'Adam Smith']);
    const { stored, expected } = await postingsAndNames('old-names');
    expect(stored).toEqual(expected);
    // Run again: the shop is complete and skipped.
    await nameIndexBackfill({ shop: 'old-names' }, { print: (line) => void lines.push(line) });
    expect(lines.at(-1)).toBe('shop old-names: name index already complete');
  });
});
