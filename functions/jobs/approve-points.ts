// Scheduled: pending points whose return window has passed become approved (see shared/calendar/approve-points.ts).
import { approvePointsJob } from '../../shared/calendar/approve-points';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(approvePointsJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = approvePointsJob;
export const run = () => runDueJob(approvePointsJob);
