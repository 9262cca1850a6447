// Scheduled: points.expiring_soon ahead of each expiry (see shared/calendar/expiry-reminders.ts).
import { expiryRemindersJob } from '../../shared/calendar/expiry-reminders';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(expiryRemindersJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = expiryRemindersJob;
export const run = () => runDueJob(expiryRemindersJob);
