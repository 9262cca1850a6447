// Scheduled: pending points whose return window has passed become approved (see shared/calendar/points-approval.ts).
import { pointsApprovalJob } from '../../shared/calendar/points-approval';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(pointsApprovalJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = pointsApprovalJob;
export const run = () => runDueJob(pointsApprovalJob);
