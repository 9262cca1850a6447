// Earning by action: which rules a caller may earn through POST /v1/customers/{identifier}/actions, and the
// limit of such a rule. A limit counts awards per member in one period: the whole membership, or a UTC
// calendar day, ISO week (from Monday), month or year. Each period has a key of its own, so a member's count
// for a period is one item that a conditional write increments. Pure: no clock, no I/O.
import type { ActionLimit, EarningRule } from './shop';

/** Actions the earning engine awards by itself (orders, enrolment, the birthday job, referrals): never by request. */
export const ENGINE_ACTIONS: readonly string[] = ['purchase', 'signup', 'birthday', 'referral'];

export const isEngineAction = (action: string): boolean => ENGINE_ACTIONS.includes(action);

/**
 * The earning history's own actions, written by the service itself (adjustments, take-backs, expiry, an undone
 * redemption): no earning rule may take one of these names, or a request could write what looks like them.
 */
export const HISTORY_ACTIONS: readonly string[] = ['manual_adjustment', 'refund', 'expiry', 'reward_refund'];

export const isHistoryAction = (action: string): boolean => HISTORY_ACTIONS.includes(action);

/** A rule without a `limit` is earned once per membership. */
export const DEFAULT_ACTION_LIMIT: ActionLimit = { times: 1, per: 'lifetime' };

export function actionLimitOf(rule: Pick<EarningRule, 'limit'>): ActionLimit {
  return rule.limit ?? DEFAULT_ACTION_LIMIT;
}

export interface LimitPeriod {
  /** The period's name within the rule's counters: `lifetime`, `day#2025-05-17`, `week#2025-W20`, `month#2025-05`, `year#2025`. */
  key: string;
  /** The first instant after the period (ISO), or null for the lifetime. */
  endsAt: string | null;
}

const DAY_MS = 86_400_000;
const dayOf = (time: Date) => time.toISOString().slice(0, 10);
const utcDay = (year: number, month: number, day: number) => new Date(Date.UTC(year, month, day));

/** The ISO week of a UTC instant: its week-numbering year, its week number and the Monday it starts on. */
export function isoWeek(time: Date): { year: number; week: number; monday: Date } {
  const day = utcDay(time.getUTCFullYear(), time.getUTCMonth(), time.getUTCDate());
  const weekday = (day.getUTCDay() + 6) % 7; // Monday 0 ... Sunday 6
  const monday = new Date(day.getTime() - weekday * DAY_MS);
  // The week belongs to the year its Thursday is in.
  const thursday = new Date(monday.getTime() + 3 * DAY_MS);
  const year = thursday.getUTCFullYear();
  const firstThursday = utcDay(year, 0, 1 + ((4 - utcDay(year, 0, 1).getUTCDay() + 7) % 7));
  const week = 1 + Math.round((thursday.getTime() - firstThursday.getTime()) / (7 * DAY_MS));
  return { year, week, monday };
}

/** The period of `limit` that `now` falls in. */
export function limitPeriod(limit: ActionLimit, now: Date): LimitPeriod {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  switch (limit.per) {
    case 'lifetime':
      return { key: 'lifetime', endsAt: null };
    case 'day':
      return { key: `day#${dayOf(now)}`, endsAt: utcDay(year, month, now.getUTCDate() + 1).toISOString() };
    case 'week': {
      const week = isoWeek(now);
      return {
        key: `week#${week.year}-W${String(week.week).padStart(2, '0')}`,
        endsAt: new Date(week.monday.getTime() + 7 * DAY_MS).toISOString(),
      };
    }
    case 'month':
      return { key: `month#${dayOf(now).slice(0, 7)}`, endsAt: utcDay(year, month + 1, 1).toISOString() };
    case 'year':
      return { key: `year#${year}`, endsAt: utcDay(year + 1, 0, 1).toISOString() };
  }
}

const PERIOD_WORDS: Record<ActionLimit['per'], string> = {
  lifetime: 'lifetime',
  day: 'day (UTC)',
  week: 'week (ISO week from Monday, UTC)',
  month: 'month (UTC)',
  year: 'year (UTC)',
};

/** The limit in words: `once per lifetime`, `3 times per day (UTC)`. */
export function describeLimit(limit: ActionLimit): string {
  const times = limit.times === 1 ? 'once' : limit.times === 2 ? 'twice' : `${limit.times} times`;
  return `${times} per ${PERIOD_WORDS[limit.per]}`;
}
