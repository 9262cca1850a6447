// The platform simulator's `hang` fault seen from the API: order reconciliation gives up on a shop whose
// orders never come, and the twin stops at once while a request of a handler is hung at the platform.
import { getCustomer } from '../../shared/data/customer-repository';
import { KEYS, e2eConfig } from '../fixtures/e2e-config';
import { eventually } from '../support/twin-process';
import { runJobs } from '../support/jobs';
import { startTestTwin } from '../support/twin';

describe('the hang fault through the twin', () => {
  it('leaves a shop unreconciled when its orders never come, and reconciles it once they do', async () => {
    // One attempt per call: each shop's orders query gives up after the test twin's 1 s.
    const twin = await startTestTwin(e2eConfig(), { environment: { PLATFORM_MAX_ATTEMPTS: '1' } });
    try {
      twin.simulator.setFaults({ orders: 'hang' });
      const reconcile = async () => (await runJobs(twin)).order_reconciliation;

      const hung = await reconcile();
      twin.simulator.setFaults({ orders: 'ok' });
      const healed = await reconcile();

      expect(hung.shops).toBeGreaterThan(0);
      expect(hung.failed).toBe(hung.shops);
      expect(healed).toMatchObject({ shops: hung.shops, failed: 0 });
    } finally {
      await twin.stop();
    }
  });

  it('stops at once with an API request hung at the platform, without waiting for the adapter to give up', async () => {
    // The adapter would wait a minute per attempt: only dropping the hung connection can end the request soon.
    const twin = await startTestTwin(e2eConfig(), { environment: { PLATFORM_TIMEOUT_MS: '60000' } });
    twin.simulator.setFaults({ customers: 'hang' });
    const enrolment = fetch(`${twin.url}/v1/customers`, {
      method: 'POST',
      headers: { Authorization: KEYS.full, 'Content-Type': 'application/json' },
      body: JSON.stringify({ platform_customer_id: '1028' }),
      signal: AbortSignal.timeout(30_000),
    }).then(
      (response) => `answered ${response.status}`,
      (error: Error) => error.name,
    );
    await eventually(twin.simulator.hungRequests, (count) => count === 1);

    const started = Date.now();
    await twin.stop({ keepTable: true });
    const stopTook = Date.now() - started;

    expect(stopTook).toBeLessThan(5_000);
    // The caller's connection went with the gateway: no answer, and no timeout of its own either.
    expect(await enrolment).toBe('TypeError');
    expect(twin.simulator.hungRequests()).toBe(0);
    expect(await getCustomer('e2e', '1028', true)).toBeNull();
  });
});
