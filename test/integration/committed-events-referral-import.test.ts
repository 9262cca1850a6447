// The referral and import write paths commit their events with their change (EVENTS-CONTRACT.md): a referral's
// `referral.created` with its activation (shared/referrals/create-referral.ts, step 4), and an import's
// `customer.enrolled` (source `import`) and `points.earned` with each member's transaction, `notify` false
// (shared/import/apply-import.ts). Each is shown three ways against DynamoDB Local:
// - the transaction's answer lost once after DynamoDB committed it (the SDK retries with the same token): the
//   change and its events are there once;
// - the function stopped right after its commit (stopAfterCommit: nothing after the commit runs): the change is
//   there with exactly its events. Were an event written by a call of its own after the change's write (as
//   publishAfterCommit did), the stopped function would never make it and this test would find the change
//   without its event; were it written by a call before, the stop would come after that call and the test would
//   find the event without its change. For the referral the stop is armed once step 2 is written and comes after
//   the next write of any kind, so an activation written alone (UpdateItem) with its event after is caught too;
// - the transaction never reaching DynamoDB: neither the change nor an event. Were the change written by a call
//   the faults do not hit (the activation as a lone UpdateItem) and its event by a transaction, this test would
//   find the change without its event.
// Checked by moving each event out of its transaction: the event committed by a second transaction right after
// the change's, or right before it, fails the stopped test of both paths; the referral's activation written
// alone with its event committed after fails its stopped and never-committed tests. The answer-lost tests show
// the SDK's retry commits nothing twice; they would not see an event committed apart.
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { setRawClientHook } from '../../shared/data/client';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { getFriendReferral, referralSortKey } from '../../shared/data/referral-repository';
import { referralCreatedEventId } from '../../shared/data/items/friend-referral';
import type { CommittedEvent } from '../../shared/domain/events';
import type { FriendReferral } from '../../shared/domain/referral';
import { applyImport, type ReadRows } from '../../shared/import/apply-import';
import type { MatchedRow } from '../../shared/import/import-row';
import { importEntryId } from '../../shared/import/member-import';
import { platformForShop } from '../../shared/platform/platform-for-shop';
import { createReferral } from '../../shared/referrals/create-referral';
import { customerRecord } from '../fixtures/customer-record';
import { reward, shopCatalog, vipTier } from '../fixtures/shop-catalog';
import { committedEvents, stopAfterCommit, type StopAfterCommit } from '../support/committed-events';
import { dynamoDbFaults, type DynamoDbFaults } from '../support/dynamodb-faults';
import { shopWithPlatform, type ShopWithPlatform } from '../support/shop-with-platform';

jest.setTimeout(90_000);

const SHOP = 'referral-import-events';
const catalog = shopCatalog(SHOP, {
  rewards: [reward('welcome', { name: 'Welcome, friend', expiry_days: 14 })],
  tiers: [vipTier('silver', { name: 'Silver', threshold_points: 500 })],
  settings: { referral_settings: { friend_reward_id: 'welcome', max_friends_per_day: 50 } },
});

/** Lost once after its commit: the SDK's retry (same token) is a no-op. */
const LOST_ONCE = ['dropped_after_commit'] as const;
/** Never reached DynamoDB, every attempt. */
const NEVER_COMMITTED = ['connection_reset', 'connection_reset', 'connection_reset'] as const;

let table: ShopWithPlatform['table'];
let faults: DynamoDbFaults | undefined;
let nextId = 900;

beforeAll(async () => {
  ({ table } = await shopWithPlatform(catalog));
});
afterAll(() => table.drop());
afterEach(() => {
  faults?.uninstall();
  faults = undefined;
});

/** The fault layer, installed and running, with `script` for the TransactWriteItems calls in order. */
function withFaults(...script: Array<(typeof LOST_ONCE)[number] | (typeof NEVER_COMMITTED)[number] | null>): DynamoDbFaults {
  faults = dynamoDbFaults({ seed: 11, rates: {} });
  faults.install();
  faults.resume();
  faults.script('TransactWriteItems', ...script);
  return faults;
}
/** The fault layer off for the test's own reads. */
function faultsOff(): void {
  faults?.uninstall();
  faults = undefined;
}

/** The events committed for a customer, each id once. */
async function eventsOf(customerId: string): Promise<CommittedEvent[]> {
  const events = (await committedEvents(SHOP)).filter((event) => event.customer_id === customerId);
  expect(new Set(events.map((event) => event.id)).size).toBe(events.length);
  return events;
}
const types = (events: CommittedEvent[]) => events.map((event) => event.type).sort();

const WRITES = new Set(['TransactWriteItemsCommand', 'PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'BatchWriteItemCommand']);

/**
 * stopAfterCommit for a write of any kind: the next write DynamoDB accepts never answers, so nothing the
 * function would do after it runs, whether that write is a transaction or a single item's.
 */
function stopAfterNextWrite(): StopAfterCommit {
  let signal!: () => void;
  const stopped = new Promise<void>((resolve) => (signal = resolve));
  let armed = true;
  setRawClientHook((client: DynamoDBClient) =>
    client.middlewareStack.add(
      (next, context) => async (args) => {
        const result = await next(args);
        const status = (result.response as { statusCode?: number }).statusCode ?? 500;
        if (!armed || !WRITES.has(context.commandName ?? '') || status >= 300) return result;
        armed = false;
        signal();
        return new Promise<never>(() => undefined);
      },
      { step: 'deserialize', priority: 'low', name: 'stopAfterNextWrite' },
    ),
  );
  return { stopped, remove: () => setRawClientHook(undefined) };
}

describe('a referral: referral.created commits with its activation', () => {
  async function referrer(): Promise<string> {
    const id = String((nextId += 1));
    await createCustomer(
      customerRecord({
        shop_id: SHOP,
        platform_customer_id: id,
        referral_code: `REF${id}`,
        current_points: 120,
        email: `r${id}@example.com`,
      }),
    );
    return id;
  }
  const refer = (id: string, options: Parameters<typeof createReferral>[3] = {}) =>
    createReferral(catalog, { referral_code: `REF${id}`, email: `friend-${id}@example.com` }, platformForShop(SHOP), options);
  /** The referral the write of step 2 recorded, kept by the hook that runs right after it. */
  const recorder = () => {
    const written: { referral?: FriendReferral } = {};
    return { written, afterWrite: async (referral: FriendReferral) => void (written.referral = referral) };
  };
  const stored = (referral: FriendReferral) => getFriendReferral(SHOP, referral.referrer_platform_customer_id, referralSortKey(referral));

  it("with the activation's answer lost once: the referral active and one referral.created with its code and the referrer's facts", async () => {
    const id = await referrer();
    // The writes of step 2 go through; the activation's answer is lost once.
    const fault = withFaults(null, ...LOST_ONCE);
    const referral = await refer(id);
    expect(fault.report().injected.dropped_after_commit).toEqual({ TransactWriteItems: 1 });
    faultsOff();

    expect(referral.status).toBe('active');
    expect((await stored(referral))?.status).toBe('active');
    expect(await eventsOf(id)).toEqual([
      expect.objectContaining({
        type: 'referral.created',
        id: referralCreatedEventId(referral.id),
        referral_id: referral.id,
        referral_code: `REF${id}`,
        friend_email: `friend-${id}@example.com`,
        discount_code: referral.discount_code,
        reward_id: 'welcome',
        expires_at: referral.expires_at,
        email: `r${id}@example.com`,
        points_balance: 120,
        notify: true,
      }),
    ]);
  });

  it('stopped right after the activation committed: the referral active with exactly its referral.created', async () => {
    const id = await referrer();
    const { written, afterWrite } = recorder();
    // Armed once step 2 is written, so the write it stops after is the activation's.
    let stop: StopAfterCommit | undefined;
    const armed = new Promise<StopAfterCommit>((resolve) => {
      void refer(id, {
        afterWrite: async (referral) => {
          await afterWrite(referral);
          stop = stopAfterNextWrite();
          resolve(stop);
        },
      });
    });
    try {
      await (
        await armed
      ).stopped;
    } finally {
      stop?.remove();
    }

    const referral = written.referral!;
    expect((await stored(referral))?.status).toBe('active');
    const events = await eventsOf(id);
    expect(events).toEqual([
      expect.objectContaining({ type: 'referral.created', id: referralCreatedEventId(referral.id), referral_id: referral.id }),
    ]);
  });

  it('activation never committed: the referral still issuing, and no referral.created', async () => {
    const id = await referrer();
    const { written, afterWrite } = recorder();
    const fault = withFaults(null, ...NEVER_COMMITTED);
    await expect(refer(id, { afterWrite })).rejects.toThrow();
    expect(fault.report().injected.connection_reset).toEqual({ TransactWriteItems: NEVER_COMMITTED.length });
    faultsOff();

    expect((await stored(written.referral!))?.status).toBe('issuing');
    expect(await eventsOf(id)).toEqual([]);
  });
});

describe("an import: each member's customer.enrolled and points.earned commit with it, notify false", () => {
  let imports = 0;
  const matched = (id: string, points: number): MatchedRow => ({
    row: {
      line: 2,
      platformCustomerId: id,
      email: null,
      points,
      pendingPoints: 0,
      redeemedPoints: null,
      dateOfBirth: null,
      excluded: null,
      tierName: null,
      enrolledAt: null,
    },
    customer: { id, email: `i${id}@example.com`, firstName: 'Ida', lastName: id, createdAt: '2024-03-05T08:00:00.000Z' },
    matchedBy: 'id',
  });
  const rows = (id: string, points: number): ReadRows => ({ rowsRead: 1, matched: [matched(id, points)], skipped: [] });
  const run = (importId: string, id: string, points = 700) =>
    applyImport(rows(id, points), {
      shopId: SHOP,
      catalog,
      importId,
      from: 'smile',
      mode: 'add',
      fileName: 'members.csv',
      dryRun: false,
    });
  const fresh = () => ({ id: String((nextId += 1)), importId: `import-${(imports += 1)}` });

  /** The member's import events: the enrolment from the import and the entry it wrote, the member as it leaves it. */
  async function expectImported(id: string, importId: string): Promise<void> {
    expect((await getCustomer(SHOP, id, true))?.record.current_points).toBe(700);
    const events = await eventsOf(id);
    expect(types(events)).toEqual(['customer.enrolled', 'points.earned']);
    for (const event of events) {
      expect(event).toMatchObject({ import_id: importId, notify: false, email: `i${id}@example.com`, points_balance: 700 });
      expect(event.tier).toEqual({ id: 'silver', name: 'Silver' });
    }
    expect(events.find((event) => event.type === 'customer.enrolled')).toMatchObject({ source: 'import' });
    expect(events.find((event) => event.type === 'points.earned')).toMatchObject({
      earning_history_entry_id: importEntryId(importId),
      points: 700,
    });
  }

  it("with the member's answer lost once: the member created once, its two events once", async () => {
    const { id, importId } = fresh();
    const fault = withFaults(...LOST_ONCE);
    const report = await run(importId, id);
    expect(fault.report().injected.dropped_after_commit).toEqual({ TransactWriteItems: 1 });
    faultsOff();

    expect(report).toMatchObject({ created: 1, updated: 0, unchanged: 0 });
    await expectImported(id, importId);
  });

  it('stopped right after the member committed: the member with exactly its events; the run again changes and commits nothing', async () => {
    const { id, importId } = fresh();
    const stop = stopAfterCommit();
    try {
      void run(importId, id);
      await stop.stopped;
    } finally {
      stop.remove();
    }
    await expectImported(id, importId);
    const events = await eventsOf(id);

    // The operator runs the stopped import again: the member is left alone, no event is added.
    expect(await run(importId, id)).toMatchObject({ created: 0, updated: 0, unchanged: 1 });
    expect(await eventsOf(id)).toEqual(events);
  });

  it("the member's transaction never committed: neither the member nor an event; the run again commits them once", async () => {
    const { id, importId } = fresh();
    const fault = withFaults(...NEVER_COMMITTED);
    await expect(run(importId, id)).rejects.toThrow();
    expect(fault.report().injected.connection_reset).toEqual({ TransactWriteItems: NEVER_COMMITTED.length });
    faultsOff();

    expect(await getCustomer(SHOP, id, true)).toBeNull();
    expect(await eventsOf(id)).toEqual([]);

    expect(await run(importId, id)).toMatchObject({ created: 1 });
    await expectImported(id, importId);
  });
});
