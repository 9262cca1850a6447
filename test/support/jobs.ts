// The twin's scheduled jobs, once each (POST /_jobs/run), as the tests that move the clock or skip webhooks
// call them: the answer must be 200; it gives each job's counts by the job's name.
import type { Twin } from '../../infra/local/twin';
import type { JobSummary } from '../../shared/calendar/due-job';
import type { OrderReconcileSummary } from '../../shared/orders/order-reconciliation';

export type JobRun = Record<string, JobSummary> & { order_reconciliation: OrderReconcileSummary };

export async function runJobs(twin: Pick<Twin, 'url'>): Promise<JobRun> {
  const answer = await fetch(`${twin.url}/_jobs/run`, { method: 'POST' });
  if (answer.status !== 200) throw new Error(`POST /_jobs/run answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as JobRun;
}
