// Scheduled: birthday points once a calendar year (see shared/calendar/award-birthdays.ts).
import { awardBirthdaysJob } from '../../shared/calendar/award-birthdays';
import { scheduledJobHandler } from '../../shared/calendar/scheduled-job-handler';

export const handler = scheduledJobHandler(awardBirthdaysJob);
