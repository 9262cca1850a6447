// One name per job: every scheduled job, the queue consumer and the authorizer cache's flusher of the
// entry-point manifest is named the same in the manifest, its handler file and its export
// (`points_approval`: functions/jobs/points-approval.ts importing `pointsApprovalJob` from
// shared/calendar/points-approval.ts). Walks the manifest, so a new job that breaks the rule fails here.
import { fileNameOf, identifierOf, jobNameMismatches, manifestJobs, readFromRoot } from '../../scripts/structure';
import { AUTHORIZER_CACHE_FLUSHER, EVENT_DELIVERY, QUEUE_CONSUMERS, SCHEDULED_JOBS } from '../../shared/runtime/entry-points';

describe('job names', () => {
  it('walks every scheduled job, queue consumer and the cache flusher of the manifest', async () => {
    const names = (await manifestJobs()).map((job) => job.name);
    expect(names.sort()).toEqual(
      [...SCHEDULED_JOBS, ...QUEUE_CONSUMERS, AUTHORIZER_CACHE_FLUSHER, EVENT_DELIVERY].map((entry) => entry.name).sort(),
    );
  });

  it('finds each job named alike in the manifest, its handler file and its export', async () => {
    expect(jobNameMismatches(await manifestJobs(), readFromRoot)).toEqual([]);
  });

  it("loads each scheduled job's handler with the manifest's name on the job it runs", async () => {
    for (const entry of SCHEDULED_JOBS) {
      const module = (await import(`../../${entry.handler}`)) as { handler: unknown; run: unknown; job?: { name: string } };
      expect(typeof module.handler).toBe('function');
      expect(typeof module.run).toBe('function');
      if (module.job) expect(module.job.name).toBe(entry.name);
    }
  });

  it('spells a name as a file name and an identifier', () => {
    expect([fileNameOf('points_approval'), identifierOf('points_approval')]).toEqual(['points-approval', 'pointsApproval']);
    expect([fileNameOf('processWebhookDeliveries'), identifierOf('processWebhookDeliveries')]).toEqual([
      'process-webhook-deliveries',
      'processWebhookDeliveries',
    ]);
  });

  it('names each way a job can differ', () => {
    const files: Record<string, string> = {
      'functions/jobs/approve-points.ts': "import { approvePointsJob } from '../../shared/calendar/approve-points';\n",
      'functions/jobs/points-expiry.ts': "import { pointsExpiryJob as job } from '../../shared/calendar/points-expiry';\n",
      'functions/jobs/birthdays.ts': "import { birthdaysJob } from '../../shared/calendar/birthday-timers';\n",
      'functions/jobs/good.ts': "import { goodJob, type Summary } from '../../shared/orders/good';\n",
      'functions/webhooks/process-webhook-deliveries.ts': 'export const handler = eventHandler(async () => 1);\n',
      'functions/auth/authorizer-cache-flusher.ts': 'export async function authorizerCacheFlusher() {}\nexport const handler = 1;\n',
    };
    const mismatches = jobNameMismatches(
      [
        { kind: 'scheduledJob', name: 'points_approval', handler: 'functions/jobs/approve-points.ts' },
        { kind: 'scheduledJob', name: 'points_expiry', handler: 'functions/jobs/points-expiry.ts' },
        { kind: 'scheduledJob', name: 'birthdays', handler: 'functions/jobs/birthdays.ts' },
        { kind: 'scheduledJob', name: 'good', handler: 'functions/jobs/good.ts' },
        { kind: 'scheduledJob', name: 'missing', handler: 'functions/jobs/missing.ts' },
        { kind: 'queueConsumer', name: 'processWebhookDeliveries', handler: 'functions/webhooks/process-webhook-deliveries.ts' },
        { kind: 'authorizerCacheFlusher', name: 'authorizerCacheFlusher', handler: 'functions/auth/authorizer-cache-flusher.ts' },
      ],
      (path) => files[path],
    );

    expect(mismatches.map(({ name, problem }) => `${name}: ${problem}`)).toEqual([
      'points_approval: handler file is not points-approval.ts',
      'points_approval: does not import pointsApprovalJob from a feature module shared/…/points-approval.ts',
      'points_expiry: does not import pointsExpiryJob from a feature module shared/…/points-expiry.ts',
      'birthdays: does not import birthdaysJob from a feature module shared/…/birthdays.ts',
      'missing: handler file does not exist',
      'processWebhookDeliveries: does not export processWebhookDeliveries',
    ]);
  });
});
