// Scheduled: birthday points once a calendar year (see shared/calendar/birthdays.ts).
import { birthdaysJob } from '../../shared/calendar/birthdays';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(birthdaysJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = birthdaysJob;
export const run = () => runDueJob(birthdaysJob);
