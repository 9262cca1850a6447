// The Lambda handler of a clock-driven job: one run within a time budget under the function's timeout,
// a log line and metrics of what it did, and a failed invocation (so the job's error alarm fires) when a
// shop could not be processed. Work left at the budget stays due and the next run goes on.
import { eventHandler } from '../observability/event-handler';
import { countJobMetric, logger } from '../observability/powertools';
import { type DueJob, type JobSummary, runDueJob } from './due-job';

/** Real time kept free for the last page and the log before Lambda's timeout. */
const SAFETY_MS = 15_000;

export function scheduledJobHandler(job: DueJob) {
  return eventHandler(async (_event: unknown, context: { getRemainingTimeInMillis(): number }): Promise<JobSummary> => {
    const budgetMs = Math.max(1_000, context.getRemainingTimeInMillis() - SAFETY_MS);
    const summary = await runDueJob(job, { budgetMs });
    logger.info('Scheduled job run', { job: job.name, ...summary });
    countJobMetric(job.name, 'JobItemsDue', summary.due);
    countJobMetric(job.name, 'JobItemsChanged', summary.changed);
    if (summary.failed > 0) throw new Error(`${job.name}: ${summary.failed} shops could not be processed`);
    return summary;
  });
}
