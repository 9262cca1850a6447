// Webhooks, queue consumers and scheduled jobs are declared in the manifest beside the routes: each names a
// handler file that exists, and the jobs run in the contract's order.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { QUEUE_CONSUMERS, ROUTES, SCHEDULED_JOBS, WEBHOOKS } from '../../shared/http/routes';

const ROOT = join(__dirname, '..', '..');

describe('the entry points beside the routes', () => {
  it('name handler files that exist', () => {
    const handlers = [...WEBHOOKS, ...QUEUE_CONSUMERS, ...SCHEDULED_JOBS].map((entry) => entry.handler);
    expect(handlers.filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
  });

  it('keep the webhook out of the API routes, so it never meets the authorizer or the usage plan', () => {
    expect(ROUTES.map((route) => route.path)).not.toContain(WEBHOOKS[0]!.path);
    expect(WEBHOOKS.map((hook) => [hook.method, hook.path])).toEqual([['POST', '/webhooks/shopify']]);
  });

  it('run order reconciliation first and the purchase reconciler last', () => {
    expect(SCHEDULED_JOBS.map((job) => job.name)).toEqual(['reconcileOrders', 'reconcilePurchases']);
  });
});
