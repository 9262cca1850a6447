// Erasure against DynamoDB Local: histories longer than a page, orders with their lookups, a half-done
// erasure finished by a second call, and a shop with more customers than a page of its list index.
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { customerItem } from '../../shared/data/items/customer-profile';
import { eraseCustomer, eraseShop } from '../../shared/data/erasure-repository';
import { batchPut, putShopIdentity, readShopCounters } from '../../shared/data/shop-repository';
import { keys } from '../../shared/data/keys';
import { customerRecord } from '../fixtures/customer-record';
import { createTestTable, scanAll } from '../support/test-table';

let table: Awaited<ReturnType<typeof createTestTable>>;

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

/** A member with `entries` history items and `orders` order items, each order with its lookup. */
async function memberWithHistory(shopId: string, id: string, entries: number, orders: number) {
  await createCustomer(customerRecord({ shop_id: shopId, platform_customer_id: id, referral_code: `R${shopId}${id}`.toUpperCase() }));
  await batchPut([
    ...Array.from({ length: entries }, (_, i) => ({ ...keys.earningEntry(shopId, id, `e${i}`), id: `e${i}`, points: 1 })),
    ...Array.from({ length: orders }, (_, i) => ({ ...keys.order(shopId, id, `${id}0${i}`), order_id: `${id}0${i}` })),
    ...Array.from({ length: orders }, (_, i) => ({ ...keys.orderCustomer(shopId, `${id}0${i}`), customer_id: id })),
    { ...keys.referralAward(shopId, id), referrer_id: 'someone' },
  ]);
}

const itemsOf = async (shopId: string) =>
  (await scanAll()).filter(
    (item) =>
      String(item.pk).startsWith(`SHOP#${shopId}#`) ||
      item.pk === `SHOP#${shopId}` ||
      item.shop_id === shopId ||
      item.sk === `SHOP#${shopId}`,
  );

describe('erasure repository', () => {
  it('erases a member whose history spans several pages, its order lookups, guards and one count', async () => {
    await memberWithHistory('erase-one', '1', 130, 40);
    await memberWithHistory('erase-one', '2', 3, 1);
    const kept = (await itemsOf('erase-one')).filter(
      (item) =>
        String(item.pk).includes('#C#2') ||
        item.customer_id === '2' ||
        item.pk === keys.referralAward('erase-one', '2').pk ||
        // Member 2's e-mail search postings stay; member 1's go with its profile.
        (String(item.pk).includes('#EGRAM#') && item.sk === '2'),
    );

    const erased = await eraseCustomer('erase-one', '1');

    expect(erased).toEqual({ profileDeleted: true, itemsDeleted: 130 + 40 + 40 });
    expect(await getCustomer('erase-one', '1', true)).toBeNull();
    expect((await readShopCounters('erase-one')).member).toBe(1);
    const left = (await itemsOf('erase-one')).filter((item) => item.sk !== 'COUNTERS');
    expect(left.sort((a, b) => `${a.pk}${a.sk}`.localeCompare(`${b.pk}${b.sk}`))).toEqual(
      kept.sort((a, b) => `${a.pk}${a.sk}`.localeCompare(`${b.pk}${b.sk}`)),
    );
  });

  it('a second call changes nothing; a call after a crash between the steps finishes the history', async () => {
    await memberWithHistory('erase-twice', '1', 5, 2);
    await eraseCustomer('erase-twice', '1');

    expect(await eraseCustomer('erase-twice', '1')).toEqual({ profileDeleted: false, itemsDeleted: 0 });
    expect((await readShopCounters('erase-twice')).member).toBe(0);

    // As if the profile's transaction had committed and the process died before the history went.
    await batchPut([
      { ...keys.earningEntry('erase-twice', '1', 'late'), id: 'late' },
      { ...keys.order('erase-twice', '1', '77'), order_id: '77' },
      { ...keys.orderCustomer('erase-twice', '77'), customer_id: '1' },
    ]);
    expect(await eraseCustomer('erase-twice', '1')).toEqual({ profileDeleted: false, itemsDeleted: 3 });
    expect((await itemsOf('erase-twice')).filter((item) => item.sk !== 'COUNTERS')).toEqual([]);
    expect((await readShopCounters('erase-twice')).member).toBe(0);
  });

  it('erases a shop with more customers than a page of its list, and leaves the other shop alone, even its domain named in the payload', async () => {
    await putShopIdentity('erase-shop', 'erase-shop.myshopify.com');
    await putShopIdentity('erase-kept', 'erase-kept.myshopify.com');
    await memberWithHistory('erase-shop', '1', 2, 1);
    // Written directly rather than enrolled one transaction each: only their number matters here.
    const excluded = Array.from({ length: 110 }, (_, i) =>
      customerRecord({ shop_id: 'erase-shop', platform_customer_id: String(2000 + i), referral_code: `X${2000 + i}`, status: 'excluded' }),
    );
    await batchPut(
      excluded.flatMap((record) => [
        customerItem(record, 1),
        { ...keys.referralCode('erase-shop', record.referral_code), customer_id: record.platform_customer_id },
      ]),
    );
    await memberWithHistory('erase-kept', '1', 2, 1);
    await batchPut([
      { ...keys.shopSettings('erase-shop'), id: 'erase-shop' },
      { ...keys.orderWatermark('erase-shop'), watermark: '2026-01-01T00:00:00.000Z' },
      { ...keys.shopApiKey('erase-shop', 'abcdef012345'), key_id: 'abcdef012345', key_hash: 'h-erase-shop' },
      { ...keys.apiKey('h-erase-shop'), shop_id: 'erase-shop' },
    ]);
    const kept = await itemsOf('erase-kept');

    const erased = await eraseShop('erase-shop', ['Erase-Shop.myshopify.com', 'erase-kept.myshopify.com']);

    expect(erased.customersErased).toBe(111);
    expect(await itemsOf('erase-shop')).toEqual([]);
    expect(
      (await scanAll()).filter((item) => item.pk === 'KEY#h-erase-shop' || item.pk === keys.shopDomain('erase-shop.myshopify.com').pk),
    ).toEqual([]);
    expect(await itemsOf('erase-kept')).toEqual(kept);
  });
});
