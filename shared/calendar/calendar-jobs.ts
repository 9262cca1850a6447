// The clock-driven jobs in the order EARNING-CONTRACT.md fixes for a run (after order reconciliation,
// before the purchase reconciler): approval, points expiry, expiry reminders, reward-code expiry, birthdays.
import { approvePointsJob } from './approve-points';
import { awardBirthdaysJob } from './award-birthdays';
import type { DueJob } from './due-job';
import { expirePointsJob } from './expire-points';
import { expireRewardCodesJob } from './expire-reward-codes';
import { remindExpiryJob } from './remind-expiry';

export const CALENDAR_JOBS: readonly DueJob[] = [
  approvePointsJob,
  expirePointsJob,
  remindExpiryJob,
  expireRewardCodesJob,
  awardBirthdaysJob,
];
