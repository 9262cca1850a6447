// Every entry point is declared in the one manifest: webhooks, queue consumers, scheduled jobs, the
// authorizer and its cache's flusher beside the routes. Each names a handler file that exists, declares its
// table access and grants (least privilege), and the jobs have one name each, run in the contract's order.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import {
  AUTHORIZER,
  AUTHORIZER_CACHE_FLUSHER,
  EVENT_DELIVERY,
  ENTRY_POINTS,
  QUEUE_CONSUMERS,
  ROUTES,
  SCHEDULED_JOBS,
  SHOPPER_ROUTES,
  shopperRouteClass,
  WEBHOOKS,
  ADMIN_PAGES,
} from '../../shared/runtime/entry-points';

const ROOT = join(__dirname, '..', '..');

describe('the entry-point manifest', () => {
  it('holds every entry point once, each naming a handler file that exists', () => {
    const entries = ENTRY_POINTS.map(({ entry }) => entry);
    expect(entries).toHaveLength(
      ROUTES.length + WEBHOOKS.length + SHOPPER_ROUTES.length + ADMIN_PAGES.length + QUEUE_CONSUMERS.length + SCHEDULED_JOBS.length + 3,
    );
    expect(entries).toEqual(expect.arrayContaining([AUTHORIZER, AUTHORIZER_CACHE_FLUSHER, EVENT_DELIVERY]));
    expect(new Set(entries.map((entry) => entry.name)).size).toBe(entries.length);
    expect(entries.map((entry) => entry.handler).filter((file) => !existsSync(join(ROOT, file)))).toEqual([]);
  });

  it('keep the webhook out of the API routes, so it never meets the authorizer or the usage plan', () => {
    expect(ROUTES.map((route) => route.path)).not.toContain(WEBHOOKS[0]!.path);
    expect(WEBHOOKS.map((hook) => [hook.method, hook.path])).toEqual([['POST', '/webhooks/shopify']]);
  });

  it('keeps the shopper routes out of the API routes: outside the authorizer and the usage plan, reads for GETs and read-only POSTs only', () => {
    const apiPaths = new Set(ROUTES.map((route) => route.path));
    expect(SHOPPER_ROUTES.filter((route) => apiPaths.has(route.path) || !route.path.startsWith('/shopper/'))).toEqual([]);
    expect(SHOPPER_ROUTES.filter((route) => route.table !== shopperRouteClass(route)).map((route) => route.name)).toEqual([]);
    // Each verifies the shopper with the shop's app secret, and calls nothing else outside.
    expect(SHOPPER_ROUTES.filter((route) => route.uses?.join() !== 'platform')).toEqual([]);
    // Each takes from its shop's budget: a reader through its one narrow grant, a writer through its table access.
    expect(
      SHOPPER_ROUTES.filter((route) => (route.grants ?? []).join() !== (route.table === 'read' ? 'shopperBudget' : '')).map((r) => r.name),
    ).toEqual([]);
  });

  it('grants read-only routes, the authorizer and the receiver no table writes; the flusher no table at all', () => {
    expect(ROUTES.filter((route) => route.table !== (route.scope === 'full' ? 'write' : 'read')).map((route) => route.name)).toEqual([]);
    expect([AUTHORIZER.table, WEBHOOKS[0]!.table, AUTHORIZER_CACHE_FLUSHER.table]).toEqual(['read', 'read', 'none']);
    // Narrow grants: the customer list's page boundaries, the shopper readers' shop budget, the flusher's key stream and cache flush, and the
    // event delivery's stream (the stream's two readers).
    const granted = ENTRY_POINTS.flatMap(({ entry }) => (entry.grants ?? []).map((grant) => `${entry.name}: ${grant}`));
    expect(granted).toEqual([
      'listCustomers: listPageBoundaries',
      'shopperProgram: shopperBudget',
      'shopperMember: shopperBudget',
      'shopperActivity: shopperBudget',
      'shopperRewards: shopperBudget',
      'shopperEstimate: shopperBudget',
      'authorizerCacheFlusher: keyStream',
      'eventDelivery: eventStream',
    ]);
    expect(EVENT_DELIVERY.table).toBe('none');
    const flushers = ENTRY_POINTS.filter(({ entry }) => entry.uses?.includes('authorizerCache')).map(({ entry }) => entry.name);
    expect(flushers).toEqual(['authorizerCacheFlusher']);
  });

  it("runs the jobs in the contract's order under one name each: the stack's, the logs' and the twin's counts", async () => {
    expect(SCHEDULED_JOBS.map((job) => job.name)).toEqual([
      'order_reconciliation',
      'points_approval',
      'points_expiry',
      'expiry_reminders',
      'reward_code_expiry',
      'birthdays',
      'purchase_reconciler',
    ]);
    for (const entry of SCHEDULED_JOBS) {
      const module = (await import(join(ROOT, entry.handler))) as { handler: unknown; run: unknown; job?: { name: string } };
      expect(typeof module.handler).toBe('function');
      expect(typeof module.run).toBe('function');
      // A clock-driven job logs and counts its metrics under its own name: the manifest's.
      if (module.job) expect(module.job.name).toBe(entry.name);
    }
  });
});
