// Scheduled: expired batches and inactive balances lose their points (see shared/calendar/points-expiry.ts).
import { pointsExpiryJob } from '../../shared/calendar/points-expiry';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(pointsExpiryJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = pointsExpiryJob;
export const run = () => runDueJob(pointsExpiryJob);
