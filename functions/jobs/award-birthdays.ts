// Scheduled: birthday points once a calendar year (see shared/calendar/award-birthdays.ts).
import { awardBirthdaysJob } from '../../shared/calendar/award-birthdays';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(awardBirthdaysJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = awardBirthdaysJob;
export const run = () => runDueJob(awardBirthdaysJob);
