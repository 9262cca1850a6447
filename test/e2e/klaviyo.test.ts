// Klaviyo through the twin over HTTP: an order's points and an adjustment reach the simulator's Klaviyo as
// events and as the profile's balance; `send_email: false` moves the balance and sends no event; an event
// delivered twice is recorded once; a throttled
// Klaviyo delays and loses nothing; one that keeps failing leaves the event in the dead-letter list; and the
// API answers as fast and as it did while Klaviyo is down. Delivery is asynchronous: the test polls.
import type { Twin } from '../../infra/local/twin';
import type { KlaviyoRecords } from '../../infra/local/simulator/platform-simulator';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { platformControls } from '../support/orders';
import { eventually } from '../support/twin-process';
import { apiClient, sendJson, startTestTwin } from '../support/twin';

jest.setTimeout(120_000);

const KLAVIYO_KEY = 'pk_e2e_store_0123456789';
let twin: Twin;
let api: ReturnType<typeof apiClient>;

beforeAll(async () => {
  const config = e2eConfig();
  const shop = config.shops[0]! as Record<string, unknown>;
  shop.integrations = { klaviyo: { private_key: KLAVIYO_KEY } };
  shop.earning_rules = [
    {
      id: 'purchase',
      name: 'Place an order',
      action: 'purchase',
      category: 'purchase',
      points_to_give: 2,
      customer_facing_label: '2 points per $1',
      created_at: '2025-01-01T00:00:00.000Z',
    },
  ];
  twin = await startTestTwin(config, { throttling: false, environment: { KLAVIYO_RETRY_BASE_MS: '5' } });
  api = apiClient(twin.url, KEYS.full);
});
afterAll(async () => {
  await twin?.stop();
});
afterEach(async () => {
  await setKlaviyo('ok');
  await settled();
});

/** Delivery is asynchronous: the stream reader has handed every committed event to the bus, and the Klaviyo queue has worked them. */
async function settled(): Promise<void> {
  await twin.eventStream.caughtUp();
  await twin.klaviyo.idle();
}
async function klaviyo(): Promise<KlaviyoRecords> {
  return (await sendJson(`${twin.platformUrl}/_klaviyo`, 'GET', {})).body as KlaviyoRecords;
}
async function setKlaviyo(mode: string): Promise<void> {
  const answer = await sendJson(`${twin.platformUrl}/_faults`, 'PUT', {}, { klaviyo: mode });
  expect(answer.status).toBe(200);
}
const eventsFor = async (customerId: string, metric: string) =>
  (await klaviyo()).events.filter((event) => event.profile.external_id === customerId && event.metric.name === metric);
const profileOf = async (customerId: string) => (await klaviyo()).profiles.find((profile) => profile.external_id === customerId);
const balanceOf = async (customerId: string) =>
  (await api.get(`/v1/customers/${customerId}`)).body.data.attributes.current_points as number;

describe('Klaviyo through the twin', () => {
  it("an order's points reach Klaviyo as a Loyalty Points Earned event and as the profile's balance", async () => {
    const { order, webhook } = await platformControls(twin).order({ shop: 'e2e', customer_id: '1002', subtotal_price: '40.00' });
    expect(webhook?.status).toBe(200);
    const balance = await balanceOf('1002');

    const [earned] = await eventually(
      () => eventsFor('1002', 'Loyalty Points Earned'),
      (found) => found.length > 0,
    );
    expect(earned).toMatchObject({
      profile: { email: 'customer1002@example.com', external_id: '1002' },
      properties: expect.objectContaining({ type: 'points.approved', action: 'purchase', points: 2, order_id: String(order.id) }),
    });
    const profile = await eventually(
      () => profileOf('1002'),
      (found) => found?.properties['Loyalty Points Balance'] === balance,
    );
    expect(profile?.properties['Loyalty Points Balance']).toBe(balance);
  });

  it('an adjustment with send_email false moves the balance and sends no event; with send_email true it sends one', async () => {
    expect((await api.post('/v1/customers/1003/points', { adjustment: 30, send_email: false })).status).toBe(200);
    await settled();

    expect((await profileOf('1003'))?.properties['Loyalty Points Balance']).toBe(await balanceOf('1003'));
    expect(await eventsFor('1003', 'Loyalty Points Adjusted')).toEqual([]);

    expect((await api.post('/v1/customers/1003/points', { adjustment: 12 })).status).toBe(200);
    await settled();
    expect(await eventsFor('1003', 'Loyalty Points Adjusted')).toEqual([
      expect.objectContaining({ properties: expect.objectContaining({ adjustment: 12 }) }),
    ]);
    expect((await profileOf('1003'))?.properties['Loyalty Points Balance']).toBe(await balanceOf('1003'));
  });

  it('an event the bus delivers again is sent again and recorded once by the stand-in, as Klaviyo does for one unique_id', async () => {
    expect((await api.post('/v1/customers/1006/points', { adjustment: 7, note: 'once' })).status).toBe(200);
    await settled();
    const delivered = (await sendJson(`${twin.url}/_events`, 'GET', {})).body.events as Array<{
      id: string;
      type: string;
      customer_id?: string;
    }>;
    const event = delivered.find((candidate) => candidate.type === 'points.adjusted' && candidate.customer_id === '1006')!;
    expect(event).toBeDefined();
    const requestsBefore = (await klaviyo()).requests;

    // At-least-once: a redelivery hands the same event, id and all, to the Klaviyo queue again.
    twin.klaviyo([{ id: event.id, type: event.type, detail: event }]);
    await settled();

    const after = await klaviyo();
    expect(after.requests).toBeGreaterThan(requestsBefore);
    expect(after.events.filter((recorded) => recorded.unique_id === event.id)).toHaveLength(1);
    expect(await eventsFor('1006', 'Loyalty Points Adjusted')).toHaveLength(1);
  });

  it('a Klaviyo throttled for 10 s delays the event and loses nothing, and the API answers as fast meanwhile', async () => {
    await setKlaviyo('throttled');
    const started = Date.now();
    const answer = await api.post('/v1/customers/1004/points', { adjustment: 7 });
    const took = Date.now() - started;
    expect(answer.status).toBe(200);
    expect(took).toBeLessThan(2000);

    await new Promise((resolve) => setTimeout(resolve, 10_000));
    expect(await eventsFor('1004', 'Loyalty Points Adjusted')).toEqual([]);
    await setKlaviyo('ok');

    expect(
      await eventually(
        () => eventsFor('1004', 'Loyalty Points Adjusted'),
        (found) => found.length > 0,
        30_000,
      ),
    ).toHaveLength(1);
    expect(twin.klaviyo.queue.deadLetters()).toEqual([]);
  });

  it('a Klaviyo that keeps answering 503 leaves the event in the dead-letter list, and the API is not slowed', async () => {
    await setKlaviyo('error');
    const answers = [];
    for (let i = 0; i < 3; i += 1) {
      const started = Date.now();
      const answer = await api.post('/v1/customers/1005/points', { adjustment: 1, note: `while down ${i}` });
      answers.push({ status: answer.status, fast: Date.now() - started < 2000 });
    }
    expect(answers).toEqual(Array.from({ length: 3 }, () => ({ status: 200, fast: true })));

    await settled();
    const queue = (await sendJson(`${twin.url}/_klaviyo/queue`, 'GET', {})).body;
    expect(queue.dead_letters).toHaveLength(3);
    expect(queue.dead_letters[0]).toMatchObject({
      'detail-type': 'points.adjusted',
      source: 'loyalty-api',
      detail: { customer_id: '1005' },
    });
    expect(queue.refused).toEqual([]);
    expect(await eventsFor('1005', 'Loyalty Points Adjusted')).toEqual([]);
  });
});
