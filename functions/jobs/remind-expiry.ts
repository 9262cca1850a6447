// Scheduled: points.expiring_soon ahead of each expiry (see shared/calendar/remind-expiry.ts).
import { remindExpiryJob } from '../../shared/calendar/remind-expiry';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(remindExpiryJob);
