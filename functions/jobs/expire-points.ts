// Scheduled: expired batches and inactive balances lose their points (see shared/calendar/expire-points.ts).
import { expirePointsJob } from '../../shared/calendar/expire-points';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(expirePointsJob);
