// The referred friend's items against DynamoDB Local under erasure and merges: the mailbox guard is keyed by
// a keyed hash; clearing the friend's address keeps the referral and the guard, once; a referrer's erasure
// takes their referrals with both guards; a merge moves referrals, re-points their guards and adds the
// day counts, also when the kept member referred friends that same day.
import { mergeMembers } from '../../shared/customers/merge-customers';
import { createCustomer } from '../../shared/data/customer-repository';
import { eraseCustomer, readCustomerData } from '../../shared/data/erasure-repository';
import { keys } from '../../shared/data/keys';
import {
  findFriendReferralByEmail,
  friendEmailHashKey,
  getFriendReferral,
  redactFriendReferral,
  referralSortKey,
  writeFriendReferral,
} from '../../shared/data/referral-repository';
import { batchPut, putShopCatalog } from '../../shared/data/shop-repository';
import { mailboxKey } from '../../shared/domain/email-identity';
import type { FriendReferral } from '../../shared/domain/referral';
import type { Platform } from '../../shared/platform/port';
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

const DAY = '2030-03-04';

async function referral(shopId: string, referrerId: string, email: string, n: number): Promise<FriendReferral> {
  const id = `ref-${referrerId}-${n}`;
  const record: FriendReferral = {
    id,
    shop_id: shopId,
    referral_code: `CODE${referrerId}`,
    referrer_platform_customer_id: referrerId,
    email,
    canonical_email: email.toLowerCase(),
    email_key: mailboxKey(await friendEmailHashKey(shopId), email),
    discount_code: `FRIEND-${id.toUpperCase()}`,
    reward_id: 'welcome',
    discount: { type: 'fixed', value: 5, minimum_spend: 0 },
    status: 'active',
    platform_discount_id: `gid://shopify/DiscountCodeNode/${id}`,
    expires_at: null,
    created_at: `${DAY}T10:00:0${n}.000Z`,
    completed_at: null,
    friend_platform_customer_id: null,
    order_id: null,
  };
  expect(await writeFriendReferral({ referral: record, day: DAY, maxPerDay: 10 })).toBe('written');
  return record;
}

const enrol = (shopId: string, id: string) =>
  createCustomer(customerRecord({ shop_id: shopId, platform_customer_id: id, referral_code: `CODE${id}`, email: `m${id}@example.com` }));

describe('the mailbox guard and the friend erased', () => {
  it('keys the guard by a keyed hash; clearing the address keeps the referral and the guard, and happens once', async () => {
    await enrol('rp-one', '1');
    const made = await referral('rp-one', '1', 'Friend.One@Example.com', 1);
    const hash = mailboxKey(await friendEmailHashKey('rp-one'), ' friend.one+x@example.com');
    expect(hash).toBe(made.email_key);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    // Another shop's key gives the same mailbox another hash.
    expect(mailboxKey(await friendEmailHashKey('rp-other'), 'friend.one@example.com')).not.toBe(hash);
    const ref = (await findFriendReferralByEmail('rp-one', hash, true))!;
    expect(ref).toMatchObject({ referrer_id: '1', referral_id: made.id, referral_code: 'CODE1' });

    expect(await redactFriendReferral('rp-one', ref, '2030-03-05T00:00:00.000Z')).toBe(true);
    expect(await redactFriendReferral('rp-one', ref, '2030-03-06T00:00:00.000Z')).toBe(false);

    const stored = (await getFriendReferral('rp-one', '1', referralSortKey(made)))!;
    expect(stored.email).toBeUndefined();
    expect(stored.canonical_email).toBeUndefined();
    expect(stored).toMatchObject({ id: made.id, status: 'active', email_key: hash, email_redacted_at: '2030-03-05T00:00:00.000Z' });
    expect(await findFriendReferralByEmail('rp-one', hash, true)).not.toBeNull();
    expect(JSON.stringify(await scanAll()).toLowerCase()).not.toContain('friend.one');
  });

  it('deletes a guard of the earlier layout, keyed by the address, with the address', async () => {
    await enrol('rp-legacy', '1');
    const made = await referral('rp-legacy', '1', 'old.layout@example.com', 1);
    await batchPut([
      {
        ...keys.friendEmail('rp-legacy', 'old.layout@example.com'),
        referrer_id: '1',
        referral_sk: referralSortKey(made),
        referral_id: made.id,
      },
    ]);
    const legacy = (await findFriendReferralByEmail('rp-legacy', 'old.layout@example.com', true))!;

    expect(await redactFriendReferral('rp-legacy', legacy, '2030-03-05T00:00:00.000Z', 'old.layout@example.com')).toBe(true);

    expect(JSON.stringify(await scanAll()).toLowerCase()).not.toContain('old.layout');
  });
});

describe("the referrer's erasure", () => {
  it('deletes the referrals, both guards of each and the day count; another referrer keeps theirs', async () => {
    await enrol('rp-erase', '1');
    await enrol('rp-erase', '2');
    const gone = [await referral('rp-erase', '1', 'a@example.com', 1), await referral('rp-erase', '1', 'b@example.com', 2)];
    const kept = await referral('rp-erase', '2', 'c@example.com', 3);
    const data = await readCustomerData('rp-erase', '1');
    expect(data.referrals.map((item) => item.id)).toEqual([gone[1]!.id, gone[0]!.id]);
    expect(data.referrals[0]).not.toHaveProperty('email_key');

    await eraseCustomer('rp-erase', '1');

    const left = (await scanAll()).filter((item) => String(item.pk).startsWith('SHOP#rp-erase#') && !String(item.pk).includes('EGRAM'));
    const friendItems = left.filter((item) => /FRIEND/.test(`${item.pk}${item.sk}`));
    expect(friendItems.map((item) => item.referral_id ?? item.id).sort()).toEqual([kept.id, kept.id, kept.id]);
    expect(left.some((item) => String(item.pk) === 'SHOP#rp-erase#C#1')).toBe(false);
  });
});

describe('a merge', () => {
  it("moves the deleted member's referrals to the kept member, re-points their guards and adds both day counts", async () => {
    const shop = shopCatalog('rp-merge');
    await putShopCatalog(shop);
    await enrol('rp-merge', '1');
    await enrol('rp-merge', '2');
    await referral('rp-merge', '1', 'kept.friend@example.com', 1);
    const moved = [await referral('rp-merge', '2', 'moved.a@example.com', 2), await referral('rp-merge', '2', 'moved.b@example.com', 3)];
    const unused = () => Promise.reject(new Error('not used by merges'));
    const platform: Platform = {
      getCustomer: async () => null,
      createDiscountCode: unused,
      findDiscountCode: unused,
      deleteDiscountCode: unused,
      listOrdersUpdatedSince: unused,
      creditStoreCredit: unused,
      debitStoreCredit: unused,
      listStoreCreditTransactions: unused,
    };

    expect(await mergeMembers(shop, '1', '2', platform)).toBe('merged');

    const table = await scanAll();
    expect(table.find((item) => item.pk === 'SHOP#rp-merge#C#1' && item.sk === `FRIENDCOUNT#${DAY}`)).toMatchObject({ friends: 3 });
    expect(table.filter((item) => item.pk === 'SHOP#rp-merge#C#2' && item.sk !== 'MERGED')).toEqual([]);
    for (const made of moved) {
      const stored = (await getFriendReferral('rp-merge', '1', referralSortKey(made)))!;
      expect(stored).toMatchObject({ id: made.id, referrer_platform_customer_id: '1', moved_from: '2', email: made.email });
      expect(await findFriendReferralByEmail('rp-merge', made.email_key, true)).toMatchObject({ referrer_id: '1', referral_id: made.id });
      expect(table.find((item) => item.pk === keys.friendCode('rp-merge', made.discount_code).pk)).toMatchObject({ referrer_id: '1' });
    }
  });
});
