// Scheduled: active reward codes past their end date become expired (see shared/calendar/expire-reward-codes.ts).
import { expireRewardCodesJob } from '../../shared/calendar/expire-reward-codes';
import { runDueJob } from '../../shared/calendar/due-job';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(expireRewardCodesJob);

/** The job (named as in the manifest), and one run of it without Lambda's time budget: the twin's POST /_jobs/run. */
export const job = expireRewardCodesJob;
export const run = () => runDueJob(expireRewardCodesJob);
