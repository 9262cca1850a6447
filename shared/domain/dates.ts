// Calendar dates (birthday, anniversary) and timestamps as the API writes them.

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
// ISO 8601 date-time with a time zone, e.g. 1990-05-17T00:00:00Z or 1990-05-17T10:00:00.000+02:00: date,
// hour, minute, second (optional), zone hour and minute (absent for Z).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d{1,9})?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;

/**
 * Why a date-time's time of day or zone offset names no instant (`25:00` is no hour, `-99:00` no zone),
 * or null when they are real. Hours run 00-23, minutes and seconds 00-59 (no 24:00, no leap second), a
 * zone offset at most 23:59 either way, as RFC 3339 writes them.
 */
function impossibleTimeReason(match: RegExpExecArray): string | null {
  const [hour, minute, second, zoneHour, zoneMinute] = [match[4], match[5], match[6], match[7], match[8]].map((part) =>
    part === undefined ? 0 : Number(part),
  ) as [number, number, number, number, number];
  if (hour > 23) return 'hours run from 00 to 23';
  if (minute > 59) return 'minutes run from 00 to 59';
  if (second > 59) return 'seconds run from 00 to 59';
  if (zoneHour > 23 || zoneMinute > 59) return 'a time zone offset runs from -23:59 to +23:59';
  return null;
}

/** True for a calendar date that exists (2024-02-29 yes, 2023-02-29 no). */
function isRealDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

/**
 * Reads an ISO 8601 calendar date (`YYYY-MM-DD`) or date-time and returns the calendar date it names,
 * or null when the text is not one. A date-time keeps its own calendar date (no time-zone shift).
 */
export function parseCalendarDate(text: string): string | null {
  const match = DATE.exec(text) ?? DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (!isRealDate(year, month, day) || impossibleTimeReason(match) !== null) return null;
  return `${match[1]}-${match[2]}-${match[3]}`;
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/**
 * Why a text written like a date names no day, e.g. `2025-02-30 does not exist (February 2025 has
 * 28 days)`, or like a date-time no time (`1990-01-01T25:00:00Z is not a real time (hours run from 00
 * to 23)`); null when the text is not written like either, or names a day and time that exist.
 */
export function nonexistentDateReason(text: string): string | null {
  const match = DATE.exec(text) ?? DATE_TIME.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const time = match.length > 4 ? impossibleTimeReason(match) : null;
  if (isRealDate(year, month, day)) return time === null ? null : `${text} is not a real time (${time})`;
  const date = `${match[1]}-${match[2]}-${match[3]}`;
  if (month < 1 || month > 12) return `${date} does not exist (months run from 01 to 12)`;
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return `${date} does not exist (${MONTHS[month - 1]} ${match[1]} has ${days} days)`;
}

/**
 * The latest calendar date that is today somewhere: the date in UTC+14, the earliest time zone, so
 * a birthday entered today by a customer anywhere is never "in the future".
 */
export function latestCalendarDateToday(now: Date = new Date()): string {
  return new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
}

/** The UTC calendar date of a timestamp, or null. */
export function calendarDateOf(timestamp: string | null): string | null {
  if (!timestamp) return null;
  const time = Date.parse(timestamp);
  return Number.isNaN(time) ? null : new Date(time).toISOString().slice(0, 10);
}

export const DAY_MS = 24 * 60 * 60 * 1000;

/** The ISO timestamp `days` × 24 h after `iso` (the contract's day arithmetic: due dates, expiries). */
export const addDays = (iso: string, days: number): string => new Date(Date.parse(iso) + days * DAY_MS).toISOString();

/** The longest range an overview answers, in days, both ends included. */
export const MAX_RANGE_DAYS = 366;

/** A calendar date `YYYY-MM-DD` that exists, as its UTC midnight in ms, else null. */
function utcMidnightOf(value: string): number | null {
  if (!DATE.test(value)) return null;
  const time = Date.parse(`${value}T00:00:00.000Z`);
  if (Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value) return null;
  return time;
}

const dayOf = (time: number) => new Date(time).toISOString().slice(0, 10);

/**
 * The days of a query's range `from`..`to` (defaults: `to` today, `from` 29 days before), at most MAX_RANGE_DAYS,
 * or what is wrong with it (the program's overview reads its `?from=&to=` with it).
 */
export function overviewRange(
  query: { from?: string | undefined; to?: string | undefined },
  today: string,
): { from: string; to: string; days: string[] } | { error: string } {
  const to = query.to === undefined ? utcMidnightOf(today) : utcMidnightOf(query.to);
  if (to === null) return { error: "'to' must be a date YYYY-MM-DD" };
  const from = query.from === undefined ? to - 29 * DAY_MS : utcMidnightOf(query.from);
  if (from === null) return { error: "'from' must be a date YYYY-MM-DD" };
  if (from > to) return { error: "'from' must not be after 'to'" };
  const count = (to - from) / DAY_MS + 1;
  if (count > MAX_RANGE_DAYS) return { error: `The range covers ${count} days; at most ${MAX_RANGE_DAYS} (both ends included)` };
  const days: string[] = [];
  for (let time = from; time <= to; time += DAY_MS) days.push(dayOf(time));
  return { from: dayOf(from), to: dayOf(to), days };
}
