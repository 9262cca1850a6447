// Scheduled: expired batches and inactive balances lose their points (see shared/calendar/expire-points.ts).
import { expirePointsJob } from '../../shared/calendar/expire-points';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(expirePointsJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = expirePointsJob;
export const run = () => runDueJob(expirePointsJob);
