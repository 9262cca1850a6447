// The customer write paths commit their events with their change (shared/data/commit.ts, `events`): enrolment
// (`customer.enrolled`, the signup award's `points.earned`), a merge (`customer.merged`, `tier.changed`, the moved
// member's `customer.enrolled`), an erasure (`customer.erased`, no personal data) and a data request
// (`customer.data_requested`, alone); a merge record the earlier code left moving with its events inside gets
// them committed by the call that finishes it. For each, the transaction's answer is lost once after DynamoDB committed it
// (the SDK retries with the same token), and the function is stopped right after its commit and the work delivered
// again: afterwards the change is there with exactly its events, each id once, or neither is.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { mergeMembers } from '../../shared/customers/merge-customers';
import { enrollPlatformCustomer } from '../../shared/customers/customer-service';
import { DeleteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { documentClient, setRawClientHook, tableName } from '../../shared/data/client';
import { domainEventKey } from '../../shared/data/items/domain-event';
import { mergedIntoKey } from '../../shared/data/items/merge';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { putShopCatalog } from '../../shared/data/shop-repository';
import type { CommittedEvent } from '../../shared/domain/events';
import type { ShopCatalog } from '../../shared/domain/shop';
import type { Platform } from '../../shared/platform/port';
import { processPrivacyRequest } from '../../shared/webhooks/privacy-requests';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { committedEvents } from '../support/committed-events';
import { dynamoDbFaults, type DynamoDbFaults } from '../support/dynamodb-faults';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'customer-events';
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
/** Both customers of a merge are members here: the platform is never asked. */
const noPlatform = { getCustomer: () => Promise.reject(new Error('not asked')) } as unknown as Platform;

let table: Awaited<ReturnType<typeof createTestTable>>;
let nextId = 700;

beforeAll(async () => {
  table = await createTestTable();
  await putShopCatalog(catalog);
});
afterAll(async () => {
  setRawClientHook(undefined);
  await table.drop();
});

/** The events committed for a customer, each with its id counted: none may appear twice. */
async function eventsOf(customerId: string): Promise<CommittedEvent[]> {
  const events = (await committedEvents(SHOP)).filter((event) => event.customer_id === customerId);
  expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  return events;
}
/** Takes a customer's event items away, as if they had never been written. */
async function deleteEventItems(customerId: string): Promise<void> {
  for (const event of await eventsOf(customerId)) {
    await documentClient().send(new DeleteCommand({ TableName: tableName(), Key: domainEventKey(SHOP, event.id) }));
  }
}
const types = (events: CommittedEvent[]) => events.map((event) => event.type).sort();

async function member(points: number, email?: string): Promise<string> {
  const id = String((nextId += 1));
  await createCustomer(
    customerRecord({
      shop_id: SHOP,
      platform_customer_id: id,
      referral_code: `EV${id}`,
      current_points: points,
      lifetime_points: points,
      email: email ?? `m${id}@example.com`,
    }),
  );
  return id;
}
const platformCustomer = (id: string) => ({ id, email: `e${id}@example.com`, firstName: 'Eve', lastName: id, createdAt: null });
const redact = (id: string) => ({ shop_domain: `${SHOP}.myshopify.com`, customer: { id: Number(id), email: null }, orders_to_redact: [] });

/**
 * Stops the function right after DynamoDB answered its next TransactWriteItems (the write committed): the
 * call throws as a Lambda cut off there would never go on, above the SDK's retries so none repeats it.
 */
function stopAfterNextCommit(): { stopped: () => number } {
  let armed = true;
  let stopped = 0;
  setRawClientHook((raw: DynamoDBClient) => {
    raw.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        if (armed && context.commandName === 'TransactWriteItemsCommand') {
          armed = false;
          stopped += 1;
          throw new Error('The function stopped right after its commit');
        }
        return result;
      },
      { step: 'initialize', name: 'stopAfterCommit' },
    );
  });
  return { stopped: () => stopped };
}

describe('the answer of the transaction lost after it committed (the SDK retries with the same token)', () => {
  let faults: DynamoDbFaults;
  beforeEach(() => {
    faults = dynamoDbFaults({ seed: 1, rates: {} });
    faults.install();
    faults.resume();
  });
  afterEach(() => faults.uninstall());
  const lost = () => faults.report().injected.dropped_after_commit ?? {};

  it('enrolment: one member, one customer.enrolled and one points.earned with the new member facts', async () => {
    const id = String((nextId += 1));
    faults.script('TransactWriteItems', 'dropped_after_commit');

    const enrolment = await enrollPlatformCustomer(SHOP, platformCustomer(id), catalog);

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    expect(enrolment.created).toBe(true);
    faults.pause();
    const events = await eventsOf(id);
    expect(types(events)).toEqual(['customer.enrolled', 'points.earned']);
    expect(events.find((event) => event.type === 'customer.enrolled')).toMatchObject({
      source: 'signup',
      email: `e${id}@example.com`,
      first_name: 'Eve',
      points_balance: 50,
      tier: null,
      notify: true,
    });
    expect(events.find((event) => event.type === 'points.earned')).toMatchObject({ action: 'signup', points: 50, points_balance: 50 });
  });

  it('merge: the merge marked done once, its customer.merged and tier.changed once, with the kept member facts', async () => {
    const [kept, deleted] = [await member(60), await member(70)];
    // The merge's transaction and each item's move go through; the one after the last page marks it done: its answer is lost.
    const done = await mergeMembers(catalog, kept, deleted, noPlatform, {
      afterPage: async () => faults.script('TransactWriteItems', 'dropped_after_commit'),
    });

    expect(done).toBe('merged');
    expect(lost()).toEqual({ TransactWriteItems: 1 });
    faults.pause();
    const events = await eventsOf(kept);
    expect(types(events)).toEqual(['customer.merged', 'tier.changed']);
    expect(events.find((event) => event.type === 'customer.merged')).toMatchObject({
      deleted_customer_id: deleted,
      merge: 'merged',
      points_balance: 130,
      tier: { id: 'silver', name: 'silver' },
    });
    expect(await mergeMembers(catalog, kept, deleted, noPlatform)).toBe('already_merged');
    expect(types(await eventsOf(kept))).toEqual(['customer.merged', 'tier.changed']);
  });

  it('erasure: the profile gone and one customer.erased without the e-mail or the name', async () => {
    const id = await member(10, 'secret-person@example.com');
    faults.script('TransactWriteItems', 'dropped_after_commit');

    expect(await processPrivacyRequest('customers/redact', SHOP, redact(id))).toBe('customer_erased');

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    faults.pause();
    expect(await getCustomer(SHOP, id, true)).toBeNull();
    const events = await eventsOf(id);
    expect(events).toEqual([
      { type: 'customer.erased', shop_id: SHOP, customer_id: id, occurred_at: expect.any(String), notify: false, id: expect.any(String) },
    ]);
    expect(JSON.stringify(events)).not.toContain('secret-person');
  });

  it('data request: one customer.data_requested, committed alone', async () => {
    const id = await member(10);
    faults.script('TransactWriteItems', 'dropped_after_commit');
    const request = {
      shop_domain: `${SHOP}.myshopify.com`,
      customer: { id: Number(id), email: null },
      orders_requested: [],
      data_request: { id: 42 },
    };

    expect(await processPrivacyRequest('customers/data_request', SHOP, request)).toBe('data_published');

    expect(lost()).toEqual({ TransactWriteItems: 1 });
    faults.pause();
    expect(await eventsOf(id)).toEqual([
      expect.objectContaining({ type: 'customer.data_requested', data_request_id: '42', email: `m${id}@example.com`, points_balance: 10 }),
    ]);
  });
});

describe('the function stopped right after its commit, then the work delivered again', () => {
  afterEach(() => setRawClientHook(undefined));

  it('enrolment: the member with exactly its events; the retry enrols no one and commits nothing more', async () => {
    const id = String((nextId += 1));
    const stop = stopAfterNextCommit();

    await expect(enrollPlatformCustomer(SHOP, platformCustomer(id), catalog)).rejects.toThrow('stopped right after its commit');
    setRawClientHook(undefined);

    expect(stop.stopped()).toBe(1);
    expect((await getCustomer(SHOP, id, true))?.record.current_points).toBe(50);
    const events = await eventsOf(id);
    expect(types(events)).toEqual(['customer.enrolled', 'points.earned']);
    expect((await enrollPlatformCustomer(SHOP, platformCustomer(id), catalog)).created).toBe(false);
    expect(await eventsOf(id)).toEqual(events);
  });

  it('merge: stopped after the transaction that marks it done, the merge and its events are there once; a redelivery adds none', async () => {
    const [kept, deleted] = [await member(20), await member(30)];
    let stop: { stopped: () => number } | undefined;
    // The moves run first; the transaction after the last page is the one that marks the merge done.
    await expect(
      mergeMembers(catalog, kept, deleted, noPlatform, {
        afterPage: async () => {
          stop = stopAfterNextCommit();
        },
      }),
    ).rejects.toThrow('stopped right after its commit');
    setRawClientHook(undefined);

    expect(stop?.stopped()).toBe(1);
    const events = await eventsOf(kept);
    expect(types(events)).toEqual(['customer.merged']);
    expect(events[0]).toMatchObject({ merge: 'merged', points_balance: 50 });
    expect(await mergeMembers(catalog, kept, deleted, noPlatform)).toBe('already_merged');
    expect(await eventsOf(kept)).toEqual(events);
  });

  it('merge: stopped after the merge transaction itself, the change and its events are there; the redelivery finishes the move and commits none again', async () => {
    const [kept, deleted] = [await member(20), await member(30)];
    const stop = stopAfterNextCommit();

    await expect(mergeMembers(catalog, kept, deleted, noPlatform)).rejects.toThrow('stopped right after its commit');
    setRawClientHook(undefined);

    expect(stop.stopped()).toBe(1);
    expect((await getCustomer(SHOP, kept, true))?.record.current_points).toBe(50);
    const events = await eventsOf(kept);
    expect(types(events)).toEqual(['customer.merged']);
    expect(events[0]).toMatchObject({ merge: 'merged', points_balance: 50 });
    expect(await mergeMembers(catalog, kept, deleted, noPlatform)).toBe('already_merged');
    expect(await eventsOf(kept)).toEqual(events);
  });

  it('merge: a record left moving by the code that kept its events in it gets them committed once by the call that finishes it', async () => {
    const [kept, deleted] = [await member(20), await member(30)];
    const stop = stopAfterNextCommit();
    await expect(mergeMembers(catalog, kept, deleted, noPlatform)).rejects.toThrow('stopped right after its commit');
    setRawClientHook(undefined);
    expect(stop.stopped()).toBe(1);
    // As the earlier code left it: no event items yet, the events inside the record.
    const committedEvents = await eventsOf(kept);
    await deleteEventItems(kept);
    const legacy = committedEvents.map(({ id: _id, notify: _notify, ...event }) => event);
    await documentClient().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: mergedIntoKey(SHOP, deleted),
        UpdateExpression: 'SET #events = :events',
        ExpressionAttributeNames: { '#events': 'events' },
        ExpressionAttributeValues: { ':events': legacy },
      }),
    );
    expect(await eventsOf(kept)).toEqual([]);

    expect(await mergeMembers(catalog, kept, deleted, noPlatform)).toBe('already_merged');
    const events = await eventsOf(kept);
    expect(types(events)).toEqual(['customer.merged']);
    expect(await mergeMembers(catalog, kept, deleted, noPlatform)).toBe('already_merged');
    expect(await eventsOf(kept)).toEqual(events);
  });

  it('erasure: the profile gone with its one customer.erased; the redelivery erases the rest and commits no second one', async () => {
    const id = await member(10);
    const stop = stopAfterNextCommit();

    await expect(processPrivacyRequest('customers/redact', SHOP, redact(id))).rejects.toThrow('stopped right after its commit');
    setRawClientHook(undefined);

    expect(stop.stopped()).toBe(1);
    expect(await getCustomer(SHOP, id, true)).toBeNull();
    expect(types(await eventsOf(id))).toEqual(['customer.erased']);
    await processPrivacyRequest('customers/redact', SHOP, redact(id));
    expect(types(await eventsOf(id))).toEqual(['customer.erased']);
  });
});
