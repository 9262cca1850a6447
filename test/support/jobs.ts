// The twin's scheduled jobs, once each (POST /_jobs/run), as the tests that move the clock or skip webhooks
// call them: `runJobs` requires a 200 and gives each job's counts by the job's name; `jobRunAnswer` gives the
// answer as it came (status, body, each job's own time from its Server-Timing), for the load runs that count
// refusals and time the jobs.
import type { Twin } from '../../infra/local/twin';
import type { JobSummary } from '../../shared/calendar/due-job';
import type { OrderReconcileSummary } from '../../shared/orders/order-reconciliation';

export type JobRun = Record<string, JobSummary> & { order_reconciliation: OrderReconcileSummary };

export interface JobRunAnswer {
  status: number;
  body: unknown;
  /** Each job's own time in milliseconds, in the order the jobs ran. */
  timing: Record<string, number>;
}

/** A Server-Timing header's durations by name (`queue;dur=12.5, points_expiry;dur=3.1`). */
export function serverTiming(header: string | null): Record<string, number> {
  const timings: Record<string, number> = {};
  for (const metric of (header ?? '').split(',')) {
    const [name, ...params] = metric.trim().split(';');
    const dur = params.map((param) => param.trim()).find((param) => param.startsWith('dur='));
    if (name && dur) timings[name] = Number(dur.slice(4));
  }
  return timings;
}

export async function jobRunAnswer(twin: Pick<Twin, 'url'>): Promise<JobRunAnswer> {
  const answer = await fetch(`${twin.url}/_jobs/run`, { method: 'POST' });
  const text = await answer.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: the body is kept as text.
  }
  return { status: answer.status, body, timing: serverTiming(answer.headers.get('server-timing')) };
}

export async function runJobs(twin: Pick<Twin, 'url'>): Promise<JobRun> {
  const { status, body } = await jobRunAnswer(twin);
  if (status !== 200) throw new Error(`POST /_jobs/run answered ${status}: ${JSON.stringify(body)}`);
  return body as JobRun;
}
