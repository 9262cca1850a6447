import { enrollPlatformCustomer } from '../../shared/customers/customer-service';
import { createCustomer, findCustomerByEmail, getCustomer, updateCustomer } from '../../shared/data/customer-repository';
import { listCustomers, type CustomerSortField } from '../../shared/data/customer-list';
import { readShopCounters } from '../../shared/data/shop-repository';
import type { CustomerRecord } from '../../shared/domain/customer';
import { customerRecord } from '../fixtures/customer-record';
import { dynamoDbFaults } from '../support/dynamodb-faults';
import { createTestTable } from '../support/test-table';

let table: Awaited<ReturnType<typeof createTestTable>>;
const platformCustomer = (id: string) => ({ id, email: `c${id}@example.com`, firstName: 'C', lastName: id, createdAt: null });

beforeAll(async () => {
  table = await createTestTable();
});
afterAll(async () => {
  await table.drop();
});

describe('customer repository', () => {
  it('creates a customer once; a second create of the same customer is refused', async () => {
    const record = customerRecord({ shop_id: 'repo-once', platform_customer_id: '1' });

    const first = await createCustomer(record);
    const second = await createCustomer({ ...record, referral_code: 'OTHER1' });

    expect(first).toBe('created');
    expect(second).toBe('customer_exists');
    expect((await readShopCounters('repo-once')).member).toBe(1);
  });

  it('refuses a referral code already used in the shop, and writes nothing', async () => {
    await createCustomer(customerRecord({ shop_id: 'repo-ref', platform_customer_id: '1', referral_code: 'SAMECODE' }));

    const outcome = await createCustomer(customerRecord({ shop_id: 'repo-ref', platform_customer_id: '2', referral_code: 'SAMECODE' }));

    expect(outcome).toBe('referral_code_taken');
    expect(await getCustomer('repo-ref', '2', true)).toBeNull();
    expect((await readShopCounters('repo-ref')).member).toBe(1);
  });

  it('allows the same referral code in another shop', async () => {
    await createCustomer(customerRecord({ shop_id: 'repo-ref-a', platform_customer_id: '1', referral_code: 'SHARED23' }));

    expect(await createCustomer(customerRecord({ shop_id: 'repo-ref-b', platform_customer_id: '1', referral_code: 'SHARED23' }))).toBe(
      'created',
    );
  });

  it('of many concurrent creates of one customer, exactly one wins', async () => {
    const attempts = Array.from({ length: 20 }, (_, i) =>
      createCustomer(customerRecord({ shop_id: 'repo-race', platform_customer_id: '7', referral_code: `RACE${i}` })),
    );

    const outcomes = await Promise.all(attempts);

    expect(outcomes.filter((o) => o === 'created')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'customer_exists')).toHaveLength(19);
    expect((await readShopCounters('repo-race')).member).toBe(1);
  });

  it('answers conflict, having written nothing, when another transaction holds an item; an enrolment then waits and tries again', async () => {
    const faults = dynamoDbFaults({ seed: 1, rates: {} });
    faults.install();
    faults.resume();
    try {
      faults.script('TransactWriteItems', 'transaction_conflict');
      const outcome = await createCustomer(
        customerRecord({ shop_id: 'repo-conflict', platform_customer_id: '1', referral_code: 'CONFL1' }),
      );
      expect(outcome).toBe('conflict');
      expect(await getCustomer('repo-conflict', '1', true)).toBeNull();

      faults.script('TransactWriteItems', 'transaction_conflict', 'transaction_conflict', 'transaction_conflict');
      const enrolment = await enrollPlatformCustomer('repo-conflict', platformCustomer('2'));
      expect(enrolment.created).toBe(true);
      expect(faults.report().injected.transaction_conflict).toEqual({ TransactWriteItems: 4 });
    } finally {
      faults.uninstall();
    }
    expect((await readShopCounters('repo-conflict')).member).toBe(1);
  });

  it('enrols 50 customers of one shop at once, every one of them', async () => {
    const enrolments = await Promise.all(
      Array.from({ length: 50 }, (_, i) => enrollPlatformCustomer('repo-fifty', platformCustomer(String(500 + i)))),
    );

    expect(enrolments.every((enrolment) => enrolment.created)).toBe(true);
    expect((await readShopCounters('repo-fifty')).member).toBe(50);
  });

  it('finds a customer by e-mail in any letter case, only in its own shop', async () => {
    await createCustomer(customerRecord({ shop_id: 'repo-email', platform_customer_id: '9', email: 'Grace.Hopper@Example.com' }));

    expect((await findCustomerByEmail('repo-email', 'grace.hopper@example.COM'))?.record.platform_customer_id).toBe('9');
    expect(await findCustomerByEmail('repo-email-other', 'grace.hopper@example.com')).toBeNull();
  });

  it('updates with optimistic locking and moves the shop counters on a status change', async () => {
    await createCustomer(customerRecord({ shop_id: 'repo-upd', platform_customer_id: '3' }));
    const current = (await getCustomer('repo-upd', '3', true))!;

    const applied = await updateCustomer(current, { status: 'excluded', date_of_birth: '1990-05-17' }, '2025-06-01T00:00:00.000Z');
    const stale = await updateCustomer(current, { date_of_birth: '2000-01-01' }, '2025-06-02T00:00:00.000Z');

    const stored = (await getCustomer('repo-upd', '3', true))!;
    expect(applied.written).toBe(true);
    expect(stale.written).toBe(false);
    expect(stored.record.status).toBe('excluded');
    expect(stored.record.date_of_birth).toBe('1990-05-17');
    expect(stored.version).toBe(2);
    expect(await readShopCounters('repo-upd')).toEqual({ member: 0, excluded: 1 });
  });
});

describe('customer listing', () => {
  const shop = 'repo-list';
  const records: CustomerRecord[] = Array.from({ length: 23 }, (_, i) =>
    customerRecord({
      shop_id: shop,
      platform_customer_id: String(100 + i),
      email: i % 3 === 0 ? `vip${i}@Shop.example` : `guest${i}@mail.example`,
      current_points: (i * 37) % 101,
      lifetime_points: 1000 - i * 13,
      redeemed_points: (i * 7) % 19,
      status: i % 5 === 0 ? 'excluded' : 'member',
      created_at: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
    }),
  );

  beforeAll(async () => {
    for (const record of records) expect(await createCustomer(record)).toBe('created');
  });

  const attributeOf: Record<CustomerSortField, keyof CustomerRecord> = {
    created_at: 'created_at',
    points: 'current_points',
    lifetime_points: 'lifetime_points',
    redeemed_points: 'redeemed_points',
  };

  async function allPages(
    query: { sort: CustomerSortField; descending: boolean; status?: 'member' | 'excluded'; emailContains?: string },
    size: number,
  ) {
    const seen: CustomerRecord[] = [];
    for (let offset = 0; offset < 40; offset += size) {
      const page = await listCustomers(shop, { ...query, offset, limit: size });
      seen.push(...page.records);
      if (page.records.length < size) break;
    }
    return seen;
  }

  it.each<[CustomerSortField, boolean]>([
    ['created_at', false],
    ['created_at', true],
    ['points', false],
    ['points', true],
    ['lifetime_points', true],
    ['redeemed_points', false],
  ])('pages through every customer sorted by %s (descending: %s) without gaps or repeats', async (sort, descending) => {
    const attribute = attributeOf[sort];

    const seen = await allPages({ sort, descending }, 5);

    expect(seen).toHaveLength(records.length);
    expect(new Set(seen.map((r) => r.platform_customer_id)).size).toBe(records.length);
    const values = seen.map((r) => r[attribute] as number | string);
    const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    expect(values).toEqual(descending ? sorted.reverse() : sorted);
  });

  it('filters by loyalty status', async () => {
    const seen = await allPages({ sort: 'created_at', descending: false, status: 'excluded' }, 2);

    expect(seen.map((r) => r.platform_customer_id)).toEqual(
      records.filter((r) => r.status === 'excluded').map((r) => r.platform_customer_id),
    );
  });

  it('filters by a partial, case-insensitive e-mail and reports the filtered total', async () => {
    const expected = records.filter((r) => r.email.toLowerCase().includes('shop.example'));

    const first = await listCustomers(shop, { sort: 'points', descending: true, emailContains: 'shop.example', offset: 0, limit: 3 });
    const seen = await allPages({ sort: 'points', descending: true, emailContains: 'shop.example' }, 3);

    expect(first.total).toBe(expected.length);
    expect(seen).toHaveLength(expected.length);
    expect(seen.every((r) => r.email.toLowerCase().includes('shop.example'))).toBe(true);
  });

  it('combines the e-mail and status filters', async () => {
    const expected = records.filter((r) => r.status === 'member' && r.email.toLowerCase().includes('vip'));

    const page = await listCustomers(shop, {
      sort: 'created_at',
      descending: false,
      status: 'member',
      emailContains: 'vip',
      offset: 0,
      limit: 100,
    });

    expect(page.total).toBe(expected.length);
    expect(page.records.map((r) => r.platform_customer_id)).toEqual(expected.map((r) => r.platform_customer_id));
  });

  it('returns an empty page beyond the last one', async () => {
    const page = await listCustomers(shop, { sort: 'created_at', descending: true, offset: 100, limit: 20 });

    expect(page.records).toEqual([]);
  });

  it('keeps exact counters per status for the unfiltered totals', async () => {
    expect(await readShopCounters(shop)).toEqual({
      member: records.filter((r) => r.status === 'member').length,
      excluded: records.filter((r) => r.status === 'excluded').length,
    });
  });
});
