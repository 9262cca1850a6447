// The customer write paths of customer-events.test.ts when their transaction never commits: every attempt of
// every TransactWriteItems answers 500, the SDK's retries included. An enrolment, an erasure and a data request
// then leave the table as it was (the erasure's tombstone aside, which is written before the erasure on
// purpose) and commit no DOMAIN_EVENT item: no event of a change that did not happen.
import { enrollPlatformCustomer } from '../../shared/customers/customer-service';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { erasureTombstoneKey } from '../../shared/data/items/erasure-tombstone';
import { putShopCatalog } from '../../shared/data/shop-repository';
import type { ShopCatalog } from '../../shared/domain/shop';
import { processPrivacyRequest } from '../../shared/webhooks/privacy-requests';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { committedEvents } from '../support/committed-events';
import { dynamoDbFaults } from '../support/dynamodb-faults';
import { createTestTable, scanAll } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'never-committed';
const catalog: ShopCatalog = shopCatalog(SHOP, {
  tiers: [vipTier('silver', { threshold_points: 100 })],
  earningRules: [
    {
      id: 'join',
      name: 'Join',
      description: null,
      action: 'signup',
      category: 'signup',
      is_active: true,
      points_to_give: 50,
      customer_facing_label: '',
      call_to_action_url: null,
      created_at: '2025-01-01T00:00:00.000Z',
    },
  ],
});

let table: Awaited<ReturnType<typeof createTestTable>>;

beforeAll(async () => {
  table = await createTestTable();
  await putShopCatalog(catalog);
  await createCustomer(
    customerRecord({
      shop_id: SHOP,
      platform_customer_id: '801',
      email: 'erase-me@example.com',
      current_points: 120,
      lifetime_points: 120,
    }),
  );
  await createCustomer(customerRecord({ shop_id: SHOP, platform_customer_id: '802', email: 'ask-me@example.com', current_points: 10 }));
});
afterAll(async () => {
  await table.drop();
});

/** The whole table but the item `except`, item by item, in one order (the test table holds this file's items alone). */
async function tableItems(except?: { pk: string; sk: string }): Promise<string[]> {
  return (await scanAll())
    .filter((item) => !(except && item.pk === except.pk && item.sk === except.sk))
    .map((item) => JSON.stringify(item, Object.keys(item).sort()))
    .sort();
}

/** Runs `work` with every attempt of every transaction answering 500; resolves to what it threw, if anything. */
async function withEveryTransactionFailing(work: () => Promise<unknown>): Promise<unknown> {
  const faults = dynamoDbFaults({ seed: 5, rates: {} });
  faults.install();
  faults.resume();
  faults.script('TransactWriteItems', ...Array<'internal_error'>(200).fill('internal_error'));
  try {
    const outcome = await work().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(faults.report().injected.internal_error?.TransactWriteItems).toBeGreaterThan(0);
    return outcome;
  } finally {
    faults.uninstall();
  }
}

describe('a customer write whose transaction fails on every attempt', () => {
  it('enrolment: no member, no signup points, no customer.enrolled and no points.earned', async () => {
    const before = await tableItems();
    const customer = { id: '803', email: 'new@example.com', firstName: 'New', lastName: 'Member', createdAt: null };

    const failure = await withEveryTransactionFailing(() => enrollPlatformCustomer(SHOP, customer, catalog));

    expect(failure).toBeInstanceOf(Error);
    expect(await getCustomer(SHOP, '803', true)).toBeNull();
    expect(await tableItems()).toEqual(before);
    expect(await committedEvents(SHOP)).toEqual([]);
  });

  it('erasure: the profile and everything of it still there, no customer.erased', async () => {
    const tombstone = erasureTombstoneKey(SHOP, '801');
    const before = await tableItems();
    const redact = { shop_domain: `${SHOP}.myshopify.com`, customer: { id: 801, email: null }, orders_to_redact: [] };

    const failure = await withEveryTransactionFailing(() => processPrivacyRequest('customers/redact', SHOP, redact));

    expect(failure).toBeInstanceOf(Error);
    expect((await getCustomer(SHOP, '801', true))?.record).toMatchObject({ email: 'erase-me@example.com', current_points: 120 });
    // The tombstone goes first by design (a crash half-way still keeps later imports from enrolling them again).
    expect(await tableItems(tombstone)).toEqual(before);
    expect((await tableItems()).length).toBe(before.length + 1);
    expect(await committedEvents(SHOP)).toEqual([]);
  });

  it('data request: no customer.data_requested, nothing else written', async () => {
    const before = await tableItems();
    const request = {
      shop_domain: `${SHOP}.myshopify.com`,
      customer: { id: 802, email: null },
      orders_requested: [],
      data_request: { id: 43 },
    };

    const failure = await withEveryTransactionFailing(() => processPrivacyRequest('customers/data_request', SHOP, request));

    expect(failure).toBeInstanceOf(Error);
    expect(await tableItems()).toEqual(before);
    expect(await committedEvents(SHOP)).toEqual([]);
  });
});
