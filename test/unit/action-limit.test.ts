// The limit of an action rule: its periods (UTC calendar days, ISO weeks from Monday, months, years, the
// lifetime), their keys and ends, and the limit in words.
import { actionLimitOf, describeLimit, isEngineAction, isoWeek, limitPeriod } from '../../shared/domain/action-limit';
import type { ActionLimit } from '../../shared/domain/shop';

const at = (iso: string) => new Date(iso);
const per = (period: ActionLimit['per'], times = 1): ActionLimit => ({ times, per: period });

describe('the period of a limit', () => {
  it.each([
    ['lifetime', '2026-05-17T10:00:00.000Z', 'lifetime', null],
    ['day', '2026-05-17T23:59:59.999Z', 'day#2026-05-17', '2026-05-18T00:00:00.000Z'],
    ['day', '2026-12-31T12:00:00.000Z', 'day#2026-12-31', '2027-01-01T00:00:00.000Z'],
    ['month', '2026-02-28T23:00:00.000Z', 'month#2026-02', '2026-03-01T00:00:00.000Z'],
    ['month', '2026-12-01T00:00:00.000Z', 'month#2026-12', '2027-01-01T00:00:00.000Z'],
    ['year', '2026-07-01T00:00:00.000Z', 'year#2026', '2027-01-01T00:00:00.000Z'],
    // ISO weeks start on Monday and belong to the year of their Thursday.
    ['week', '2026-05-17T23:59:59.999Z', 'week#2026-W20', '2026-05-18T00:00:00.000Z'], // a Sunday
    ['week', '2026-05-18T00:00:00.000Z', 'week#2026-W21', '2026-05-25T00:00:00.000Z'], // the Monday after
    ['week', '2025-12-29T00:00:00.000Z', 'week#2026-W01', '2026-01-05T00:00:00.000Z'], // W01 of 2026 starts in 2025
    ['week', '2027-01-01T12:00:00.000Z', 'week#2026-W53', '2027-01-04T00:00:00.000Z'], // 2026 has 53 weeks
    ['week', '2021-01-03T12:00:00.000Z', 'week#2020-W53', '2021-01-04T00:00:00.000Z'],
  ] as const)('%s at %s is %s, ending at %s', (period, now, key, endsAt) => {
    expect(limitPeriod(per(period), at(now))).toEqual({ key, endsAt });
  });

  it('numbers every day of many years into the ISO week whose Monday-to-Sunday span holds it', () => {
    for (let day = Date.UTC(2019, 0, 1); day < Date.UTC(2031, 0, 1); day += 86_400_000) {
      const { year, week, monday } = isoWeek(new Date(day + 43_200_000));
      expect(monday.getUTCDay()).toBe(1);
      expect(day - monday.getTime()).toBeLessThan(7 * 86_400_000);
      expect(day).toBeGreaterThanOrEqual(monday.getTime());
      // Week 1 holds the year's first Thursday.
      const thursday = new Date(monday.getTime() + 3 * 86_400_000);
      expect(thursday.getUTCFullYear()).toBe(year);
      expect(week).toBe(Math.floor((thursday.getTime() - Date.UTC(year, 0, 1)) / (7 * 86_400_000)) + 1);
    }
  });
});

describe('a rule and its limit', () => {
  it('defaults to once per lifetime', () => {
    expect(actionLimitOf({})).toEqual({ times: 1, per: 'lifetime' });
    expect(actionLimitOf({ limit: null })).toEqual({ times: 1, per: 'lifetime' });
    expect(actionLimitOf({ limit: per('day', 3) })).toEqual({ times: 3, per: 'day' });
  });

  it('says the limit in words', () => {
    expect(describeLimit(per('lifetime'))).toBe('once per lifetime');
    expect(describeLimit(per('day', 2))).toBe('twice per day (UTC)');
    expect(describeLimit(per('week', 5))).toBe('5 times per week (ISO week from Monday, UTC)');
    expect(describeLimit(per('month', 3))).toBe('3 times per month (UTC)');
    expect(describeLimit(per('year'))).toBe('once per year (UTC)');
  });

  it('leaves the four engine-driven actions to the engine', () => {
    expect(['purchase', 'signup', 'birthday', 'referral'].every(isEngineAction)).toBe(true);
    expect(['follow_on_instagram', 'leave_a_review', 'subscribe_newsletter'].some(isEngineAction)).toBe(false);
  });
});
