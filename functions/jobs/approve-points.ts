// Scheduled: pending points whose return window has passed become approved (see shared/calendar/approve-points.ts).
import { approvePointsJob } from '../../shared/calendar/approve-points';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(approvePointsJob);
