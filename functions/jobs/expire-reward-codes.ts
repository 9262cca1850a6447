// Scheduled: active reward codes past their end date become expired (see shared/calendar/expire-reward-codes.ts).
import { expireRewardCodesJob } from '../../shared/calendar/expire-reward-codes';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(expireRewardCodesJob);
