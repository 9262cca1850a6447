// A member's Klaviyo profile ends on the member's latest state whatever the order, retries or concurrency of
// its deliveries (docs/decisions.md#klaviyo-profiles-end-on-the-members-latest-state). Klaviyo applies
// whatever comes last and has no conditional write, so the interleavings that once left a stale balance are
// forced here: a delivery whose profile import Klaviyo answers only after a newer delivery's, six deliveries
// answered newest first, and a delivery that read the member, met Klaviyo down, and retried after Klaviyo came
// back and a newer delivery went through (member 8108: 116 points on its profile, 137 in the program); and a
// member that moves at every send, whose delivery is left to the queue after MAX_PROFILE_SENDS imports. The
// member is on DynamoDB Local and moves through real points adjustments; Klaviyo is the simulator's. Nothing
// sleeps: the client waits on a test clock, and the held requests wait on promises the test resolves.
import { startPlatformSimulator, type PlatformSimulator } from '../../infra/local/simulator/platform-simulator';
import { createCustomer, getCustomer } from '../../shared/data/customer-repository';
import { putShopCatalog } from '../../shared/data/shop-repository';
import { DEFAULT_EARNING_SETTINGS, type ShopCatalog } from '../../shared/domain/shop';
import { accountRateLimiter, klaviyoClient, type KlaviyoClient, type Waiter } from '../../shared/outbound/klaviyo-client';
import { klaviyoDeliveryDeps, processKlaviyoMessage, setKlaviyoRefusals } from '../../shared/klaviyo/klaviyo-consumer';
import { KlaviyoProfileMoving, MAX_PROFILE_SENDS, profileProperties } from '../../shared/klaviyo/klaviyo-delivery';
import type { LoyaltyEvent } from '../../shared/klaviyo/loyalty-event';
import { registerLocalShopSecrets } from '../../shared/platform/shop-secrets';
import { adjustPoints } from '../../shared/points/adjust-points';
import { customerRecord } from '../fixtures/customer-record';
import { shopCatalog } from '../fixtures/shop-catalog';
import { createTestTable } from '../support/test-table';

jest.setTimeout(60_000);

const SHOP = 'krace';
const KEY = 'pk_test_krace_0123456789abcdef';
let simulator: PlatformSimulator;
let table: Awaited<ReturnType<typeof createTestTable>>;
let shop: ShopCatalog;

beforeAll(async () => {
  simulator = await startPlatformSimulator({ shops: {}, klaviyoKeys: [KEY] });
  table = await createTestTable({ environment: { KLAVIYO_BASE_URL: simulator.klaviyoUrl } });
  // Points expire by batch: each adjustment moves the points expiring next as well as the balance.
  shop = shopCatalog(SHOP, {
    settings: { earning_settings: { ...DEFAULT_EARNING_SETTINGS, points_expiry: { mode: 'batch', days: 365 } } },
  });
  await putShopCatalog(shop);
  for (const id of ['8108', '8109', '8110', '8111']) {
    await createCustomer(
      customerRecord({ shop_id: SHOP, platform_customer_id: id, current_points: 96, lifetime_points: 96, points_batch_total: 96 }),
    );
  }
});
afterAll(async () => {
  registerLocalShopSecrets(null);
  setKlaviyoRefusals(undefined);
  await simulator.stop();
  await table.drop();
});
beforeEach(() => {
  registerLocalShopSecrets({ [SHOP]: { webhook_secret: 'whsec', klaviyo_private_key: KEY } });
  setKlaviyoRefusals({ send: async () => undefined });
  simulator.setFaults({ klaviyo: 'ok' });
});

/** A clock that moves only when the client waits; `onSleep` runs (and is awaited) at each wait. */
function testClock(onSleep: (sleeps: number) => Promise<void> = async () => undefined): Waiter {
  let now = Date.parse('2026-11-27T10:00:00.000Z');
  let sleeps = 0;
  return {
    now: () => now,
    sleep: async (ms) => {
      now += ms;
      sleeps += 1;
      await onSleep(sleeps);
    },
  };
}

function simulatorClient(waiter: Waiter): KlaviyoClient {
  return klaviyoClient({
    baseUrl: simulator.klaviyoUrl,
    waiter,
    limiter: accountRateLimiter({ waiter, share: 0.5 }),
    backoff: { baseMs: 250, capMs: 8000, jitter: 'none' },
  });
}

/** The client of one consumer invocation, on its own clock. */
const deps = (waiter: Waiter = testClock(), client: KlaviyoClient = simulatorClient(waiter)) => klaviyoDeliveryDeps({ waiter, client });

/**
 * A client whose first profile import waits, after the member was read and the body built, until the test
 * releases it (as a slow network or a slow Klaviyo answers one consumer's request after another's). `reached`
 * resolves when the request is held.
 */
function heldClient() {
  const inner = simulatorClient(testClock());
  let reach!: () => void;
  let release!: () => void;
  const reached = new Promise<void>((resolve) => (reach = resolve));
  const released = new Promise<void>((resolve) => (release = resolve));
  let held = false;
  const client: KlaviyoClient = {
    post: async (key, path, body, deadline) => {
      if (path === '/api/profile-import' && !held) {
        held = true;
        reach();
        await released;
      }
      return inner.post(key, path, body, deadline);
    },
    requests: () => inner.requests(),
  };
  return { client, reached, release };
}

let sequence = 0;
function event(customerId: string, points: number): LoyaltyEvent {
  sequence += 1;
  return {
    id: `race-${sequence}-${Date.now()}`,
    type: 'points.adjusted',
    shop_id: SHOP,
    customer_id: customerId,
    occurred_at: '2026-11-27T10:00:00.000Z',
    notify: true,
    email: `customer${customerId}@example.com`,
    first_name: 'Test',
    points_balance: null,
    tier: null,
    points,
  };
}
const message = (detail: unknown) => JSON.stringify({ version: '0', id: 'eb-1', 'detail-type': 'x', source: 'loyalty-api', detail });

async function adjust(customerId: string, adjustment: number): Promise<LoyaltyEvent> {
  await adjustPoints(shop, customerId, { adjustment, note: null, update_lifetime_points: true, send_email: true });
  return event(customerId, adjustment);
}

const profileOf = (customerId: string) => simulator.klaviyo().profiles.find((profile) => profile.external_id === customerId)?.properties;

/** The properties the member's latest state gives, read now. */
async function latestProperties(customerId: string): Promise<Record<string, unknown>> {
  const member = await getCustomer(SHOP, customerId, true);
  return profileProperties(shop, member!.record, { consistent: true });
}

describe("a member's Klaviyo profile under racing deliveries", () => {
  it("ends on the newest read when an older read's profile import is taken after a newer one's", async () => {
    const first = await adjust('8108', 20);
    const held = heldClient();
    // Delivery A reads the member at 116 points; its profile import is held.
    const slow = processKlaviyoMessage(message(first), deps(testClock(), held.client));
    await held.reached;
    // Meanwhile the member reaches 137 and delivery B sends that, all of it taken.
    const second = await adjust('8108', 21);
    expect(await processKlaviyoMessage(message(second), deps())).toEqual({ sent: 'profile and event' });
    expect(profileOf('8108')?.['Loyalty Points Balance']).toBe(137);

    // A's import of 116 now reaches Klaviyo, last.
    held.release();
    expect(await slow).toEqual({ sent: 'profile and event' });

    expect(profileOf('8108')).toEqual(await latestProperties('8108'));
    expect(profileOf('8108')?.['Loyalty Points Balance']).toBe(137);
  });

  it('ends on the newest of six concurrent deliveries answered newest first', async () => {
    const deliveries: Array<Promise<unknown>> = [];
    const holds: Array<ReturnType<typeof heldClient>> = [];
    for (let i = 1; i <= 6; i += 1) {
      const change = await adjust('8110', i);
      const held = heldClient();
      deliveries.push(processKlaviyoMessage(message(change), deps(testClock(), held.client)));
      await held.reached;
      holds.push(held);
    }
    // Klaviyo takes them newest first: the oldest read's import comes last.
    for (let i = holds.length - 1; i >= 0; i -= 1) {
      holds[i]!.release();
      await deliveries[i];
    }

    expect(profileOf('8110')).toEqual(await latestProperties('8110'));
    expect(profileOf('8110')?.['Loyalty Points Balance']).toBe(96 + 21);
  });

  it('ends on the newest read when a delivery retries after Klaviyo comes back and a newer delivery got through first', async () => {
    const first = await adjust('8109', 20);
    simulator.setFaults({ klaviyo: 'unreachable' });
    let newer: Promise<unknown> | undefined;
    // Delivery A read the member at 116 and met Klaviyo down; while it backs off, Klaviyo comes back, the member
    // reaches 137 and delivery B sends that; then A's retry sends what it read.
    const retrying = testClock(async (sleeps) => {
      if (sleeps !== 1) return;
      simulator.setFaults({ klaviyo: 'ok' });
      const second = await adjust('8109', 21);
      newer = processKlaviyoMessage(message(second), deps());
      expect(await newer).toEqual({ sent: 'profile and event' });
      expect(profileOf('8109')?.['Loyalty Points Balance']).toBe(137);
    });

    expect(await processKlaviyoMessage(message(first), deps(retrying))).toEqual({ sent: 'profile and event' });

    expect(newer).toBeDefined();
    expect(profileOf('8109')).toEqual(await latestProperties('8109'));
    expect(profileOf('8109')?.['Loyalty Points Balance']).toBe(137);
  });

  it('leaves the event to the queue when the member moves at every send, and its next delivery ends on the latest state', async () => {
    const first = await adjust('8111', 20);
    const inner = simulatorClient(testClock());
    let imports = 0;
    // Each import Klaviyo takes is followed by another change of the member before it is read again.
    const moving: KlaviyoClient = {
      post: async (key, path, body, deadline) => {
        const answer = await inner.post(key, path, body, deadline);
        if (path === '/api/profile-import') {
          imports += 1;
          await adjustPoints(shop, '8111', { adjustment: 1, note: null, update_lifetime_points: true, send_email: false });
        }
        return answer;
      },
      requests: () => inner.requests(),
    };

    await expect(processKlaviyoMessage(message(first), deps(testClock(), moving))).rejects.toThrow(KlaviyoProfileMoving);
    expect(imports).toBe(MAX_PROFILE_SENDS);

    // The queue delivers it again once the member is still: the profile is the member's as it is.
    expect(await processKlaviyoMessage(message(first), deps())).toEqual({ sent: 'profile and event' });
    expect(profileOf('8111')).toEqual(await latestProperties('8111'));
    expect(profileOf('8111')?.['Loyalty Points Balance']).toBe(116 + MAX_PROFILE_SENDS);
  });
});
