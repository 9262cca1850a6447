// The twin's scheduled jobs, once each (POST /_jobs/run), as the tests that move the clock or skip webhooks
// call them: the answer must be 200; it gives each job's counts by the job's name.
import type { Twin } from '../../infra/local/twin';

/** What a clock-driven job did in one run. */
export interface JobCounts {
  shops: number;
  due: number;
  changed: number;
  failed: number;
  more?: boolean;
}

/** Order reconciliation's counts (shared/orders/order-reconciliation.ts). */
export interface OrderReconcileCounts {
  shops: number;
  orders: number;
  current: number;
  applied: number;
  failed: number;
  disconnected: number;
  more: boolean;
}

export type JobRun = Record<string, JobCounts> & { order_reconciliation: OrderReconcileCounts };

export async function runJobs(twin: Pick<Twin, 'url'>): Promise<JobRun> {
  const answer = await fetch(`${twin.url}/_jobs/run`, { method: 'POST' });
  if (answer.status !== 200) throw new Error(`POST /_jobs/run answered ${answer.status}: ${await answer.text()}`);
  return (await answer.json()) as JobRun;
}
