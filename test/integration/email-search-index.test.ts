// The e-mail search postings against DynamoDB Local: enrolment, every change of address (alone, with a
// status change, only its letter case), erasure and both kinds of merge leave exactly the postings the
// profiles' addresses derive, so the index never finds a member by an address it no longer has.
import { mergeMembers } from '../../shared/customers/merge-customers';
import { createCustomer, getCustomer, updateCustomer } from '../../shared/data/customer-repository';
import { eraseCustomer } from '../../shared/data/erasure-repository';
import { emailPostingItems } from '../../shared/data/items/email-gram';
import { putShopCatalog } from '../../shared/data/shop-repository';
import type { MemberChanges } from '../../shared/domain/customer';
import type { Platform, PlatformCustomer } from '../../shared/platform/port';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog } from '../fixtures/shop-catalog';
import { createTestTable, scanAll } from '../support/test-table';

jest.setTimeout(60_000);

let table: Awaited<ReturnType<typeof createTestTable>>;
beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

const LONG = 'a.very.long.address.with.many.distinct.grams+0123456789@subdomain.example.org';

/** Every posting of the shop, and the postings its profiles' addresses derive: the two must be equal. */
async function postingsAndProfiles(shopId: string) {
  const items = await scanAll();
  const key = (item: Record<string, unknown>) => `${String(item.pk)}|${String(item.sk)}|${String(item.email_lc)}`;
  const postings = items.filter((item) => /#(EGRAM#|ELONG$)/.test(String(item.pk)) && String(item.pk).startsWith(`SHOP#${shopId}#`));
  const profiles = items.filter((item) => item.sk === 'PROFILE' && item.shop_id === shopId);
  const derived = profiles.flatMap((item) => emailPostingItems(shopId, String(item.platform_customer_id), String(item.email_lc)));
  return { actual: postings.map(key).sort(), expected: derived.map(key).sort() };
}

async function expectExact(shopId: string) {
  const { actual, expected } = await postingsAndProfiles(shopId);
  expect(actual).toEqual(expected);
  return actual.length;
}

const enrol = (shopId: string, id: string, email: string) =>
  createCustomer(customerRecord({ shop_id: shopId, platform_customer_id: id, email, referral_code: `R${shopId}-${id}` }));

async function change(shopId: string, id: string, changes: MemberChanges) {
  const current = (await getCustomer(shopId, id, true))!;
  const result = await updateCustomer(current, changes, '2025-02-01T00:00:00.000Z');
  expect(result.written).toBe(true);
  return result;
}

function platformWith(...customers: PlatformCustomer[]): Platform {
  const unused = () => Promise.reject(new Error('not used by merges'));
  return {
    getCustomer: async (id) => customers.find((customer) => customer.id === id) ?? null,
    createDiscountCode: unused,
    findDiscountCode: unused,
    deleteDiscountCode: unused,
    listOrdersUpdatedSince: unused,
    creditStoreCredit: unused,
    debitStoreCredit: unused,
    listStoreCreditTransactions: unused,
  };
}

describe('e-mail search postings', () => {
  it('are written on enrolment, for a long address in the long-address partition', async () => {
    await enrol('p1', '1', 'Ada.Lovelace@Example.com');
    await enrol('p1', '2', LONG);
    await enrol('p1', '3', 'x@');
    expect(await expectExact('p1')).toBeGreaterThan(10);
  });

  it('follow a change of address made alone, and answer the profile as written', async () => {
    await enrol('p2', '1', 'first@example.com');
    const result = await change('p2', '1', { email: 'Second@Other.org', first_name: 'Grace' });
    expect(result.written && result.record).toMatchObject({ email: 'Second@Other.org', first_name: 'Grace' });
    await expectExact('p2');
    await change('p2', '1', { email: LONG });
    await expectExact('p2');
    await change('p2', '1', { email: 'short@x.io' });
    await expectExact('p2');
  });

  it('follow a change of address made with a status change', async () => {
    await enrol('p3', '1', 'first@example.com');
    await change('p3', '1', { email: 'moved@example.net', status: 'excluded' });
    await expectExact('p3');
  });

  it('stay as they are when only the letter case changes', async () => {
    await enrol('p4', '1', 'case@example.com');
    const before = await postingsAndProfiles('p4');
    await change('p4', '1', { email: 'CASE@Example.COM' });
    expect((await postingsAndProfiles('p4')).actual).toEqual(before.actual);
    await expectExact('p4');
  });

  it('refuse a change decided on an address another write has replaced since', async () => {
    await enrol('p5', '1', 'first@example.com');
    const stale = (await getCustomer('p5', '1', true))!;
    await change('p5', '1', { email: 'second@example.com' });
    const refused = await updateCustomer(stale, { email: 'third@example.com' }, '2025-02-02T00:00:00.000Z');
    expect(refused.written).toBe(false);
    expect(!refused.written && !refused.conflict && refused.current?.record.email).toBe('second@example.com');
    await expectExact('p5');
  });

  it('go with the profile on erasure', async () => {
    await enrol('p6', '1', 'erase.me@example.com');
    await enrol('p6', '2', LONG);
    await enrol('p6', '3', 'stays@example.com');
    await eraseCustomer('p6', '1');
    await eraseCustomer('p6', '2');
    expect(await expectExact('p6')).toBe(emailPostingItems('p6', '3', 'stays@example.com').length);
  });

  it('follow both members of a merge, and a member moved to a non-member', async () => {
    const shop = shopCatalog('p7');
    await putShopCatalog(shop);
    await enrol('p7', '1', 'kept@example.com');
    await enrol('p7', '2', 'deleted@example.com');
    expect(await mergeMembers(shop, '1', '2', platformWith())).toBe('merged');
    await expectExact('p7');

    await enrol('p7', '3', LONG);
    const kept: PlatformCustomer = { id: '4', email: 'New.Owner@Example.com', firstName: 'New', lastName: 'Owner', createdAt: null };
    expect(await mergeMembers(shop, '4', '3', platformWith(kept))).toBe('moved');
    expect((await getCustomer('p7', '4', true))?.record.email).toBe('New.Owner@Example.com');
    await expectExact('p7');
  });
});
