// Scheduled: points.expiring_soon ahead of each expiry (see shared/calendar/remind-expiry.ts).
import { remindExpiryJob } from '../../shared/calendar/remind-expiry';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(remindExpiryJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = remindExpiryJob;
export const run = () => runDueJob(remindExpiryJob);
