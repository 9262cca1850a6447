// The twin's webhook delivery queue in `queued` mode (as SQS in the stack, `npm start`'s default): the receiver
// answers once the delivery is queued, the processor works it in the background, and POST /_deliveries/drain
// answers once every delivery received so far was processed, after which its effects are visible.
import { drainDeliveries, startTestTwin, apiClient, type TestTwin } from '../support/twin';
import { platformControls } from '../support/orders';
import { LOAD_CONFIG, LOAD_KEY } from '../support/invariants-load';

// One twin at a time: a twin's queue and settings are the process's.
let twin: TestTwin | undefined;
afterEach(async () => {
  await twin?.stop();
  twin = undefined;
});

describe('queued webhook deliveries', () => {
  it('answers each webhook once queued; after POST /_deliveries/drain every order has counted', async () => {
    const queued = (twin = await startTestTwin(LOAD_CONFIG, { deliveries: 'queued' }));
    const api = apiClient(queued.url, LOAD_KEY);
    expect((await api.post('/v1/customers', { platform_customer_id: '9001' })).status).toBe(201);
    const platform = platformControls(queued);
    const webhooks = await Promise.all(
      Array.from({ length: 8 }, () => platform.order({ shop: 'load', customer_id: '9001', subtotal_price: '25.00' })),
    );
    expect(webhooks.map(({ webhook }) => webhook?.status)).toEqual(Array(8).fill(200));
    const drained = await drainDeliveries(queued);
    expect(drained).toEqual({ mode: 'queued', waiting: 0, inFlight: 0, consumed: 8, deadLetters: 0 });
    const member = await api.get('/v1/customers/9001');
    // 50 for joining, 25 for each order.
    expect(member.body.data).toMatchObject({ attributes: { current_points: 50 + 8 * 25 } });
    expect((await fetch(`${queued.url}/_deliveries`)).status).toBe(200);
  });

  it("inline (the tests' default): the webhook is answered after its delivery was processed", async () => {
    const inline = (twin = await startTestTwin(LOAD_CONFIG));
    const api = apiClient(inline.url, LOAD_KEY);
    expect((await api.post('/v1/customers', { platform_customer_id: '9002' })).status).toBe(201);
    const { webhook } = await platformControls(inline).order({ shop: 'load', customer_id: '9002', subtotal_price: '10.00' });
    expect(webhook?.status).toBe(200);
    expect((await api.get('/v1/customers/9002')).body.data).toMatchObject({ attributes: { current_points: 60 } });
    const counts = (await (await fetch(`${inline.url}/_deliveries`)).json()) as Record<string, unknown>;
    expect(counts).toEqual({ mode: 'inline', waiting: 0, inFlight: 0, consumed: 1, deadLetters: 0 });
  });
});
