// Scheduled: active reward codes past their end date become expired (see shared/calendar/reward-code-expiry.ts).
import { rewardCodeExpiryJob } from '../../shared/calendar/reward-code-expiry';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(rewardCodeExpiryJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = rewardCodeExpiryJob;
export const run = () => runDueJob(rewardCodeExpiryJob);
