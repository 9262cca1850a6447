// Webhooks, queue consumers and scheduled jobs are declared in the manifest beside the routes: each names a
// handler file that exists, and the jobs run in the contract's order.
import { CALENDAR_JOBS } from '../../shared/calendar/calendar-jobs';
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

  it("run in the contract's order: order reconciliation, the clock-driven jobs, the purchase reconciler last", () => {
    expect(SCHEDULED_JOBS.map((job) => job.name)).toEqual([
      'reconcileOrders',
      'approvePoints',
      'expirePoints',
      'remindExpiry',
      'expireRewardCodes',
      'awardBirthdays',
      'reconcilePurchases',
    ]);
    // The twin's POST /_jobs/run runs the clock-driven jobs in the same order.
    expect(CALENDAR_JOBS.map((job) => job.name)).toEqual([
      'points_approval',
      'points_expiry',
      'expiry_reminders',
      'reward_code_expiry',
      'birthdays',
    ]);
  });
});
