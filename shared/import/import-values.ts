// The values of an export's cells, each parsed or refused with a sentence naming the column and the value:
// points (whole numbers, thousands separators), birthdays (Smile's year 1004 for "no year"), ids (a leading
// apostrophe, a Shopify global id), e-mails, exclusion states and flags, tiers and enrolment dates.
import { isValidEmailAddress } from '../config/email-address';

/** A value that cannot be read: the detail becomes the skipped row's. */
export class UnreadableValue extends Error {
  constructor(column: string, value: unknown, why: string) {
    super(`${column}: ${quote(value)} ${why}`);
    this.name = 'UnreadableValue';
  }
}

function quote(value: unknown): string {
  // Control and format characters (NUL, bidi overrides) are shown escaped: the report is read on a terminal.
  const text = (typeof value === 'string' ? value : JSON.stringify(value)).replace(
    /[\p{Cc}\p{Cf}]/gu,
    (character) => `\\u${character.codePointAt(0)!.toString(16).padStart(4, '0')}`,
  );
  return `'${text.length > 60 ? `${text.slice(0, 60)}...` : text}'`;
}

/** A cell as text, trimmed; null when empty (not given). */
export function cellText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value.trim() === '' ? null : value.trim();
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return null;
}

// One to three digits, then groups of three behind one kind of separator: 1,250 1.250 1 250 1'250 1,250,000.
const GROUPED = /^\d{1,3}(?:([,. '\u00a0\u202f])\d{3})(?:\1\d{3})*$/;

/**
 * A whole number of points >= 0. "1,250" and "1.250" are 1250: a balance is a whole number, so a dot or
 * comma before exactly three digits can only separate thousands; "12.5", "1,25" or "-3" are refused.
 */
export function parsePoints(column: string, value: unknown): number {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value)) throw new UnreadableValue(column, value, 'is not a whole number of points');
    if (value < 0) throw new UnreadableValue(column, value, 'is negative');
    return value;
  }
  const text = cellText(value);
  if (text === null) throw new UnreadableValue(column, value ?? '', 'is empty');
  let digits: string;
  if (/^\d+$/.test(text)) digits = text;
  else if (GROUPED.test(text)) digits = text.replace(/\D/g, '');
  else if (/^[-\u2212]\s*\d/.test(text)) throw new UnreadableValue(column, text, 'is negative');
  else if (/^\d+(?:[.,]\d+)?$/.test(text) || /^[\d.,' ]+$/.test(text))
    throw new UnreadableValue(column, text, 'is not a whole number of points');
  else throw new UnreadableValue(column, text, 'is not a number');
  const points = Number(digits);
  if (!Number.isSafeInteger(points)) throw new UnreadableValue(column, text, 'is too large');
  return points;
}

/** Points where the cell may be empty (pending, spent): null when not given. */
export function parseOptionalPoints(column: string, value: unknown): number | null {
  return cellText(value) === null ? null : parsePoints(column, value);
}

const NO_YEAR = 1004;

function twoDigits(n: number): string {
  return String(n).padStart(2, '0');
}

function dateOf(column: string, raw: unknown, year: number, month: number, day: number): string {
  if (year !== NO_YEAR && (year < 1900 || year > 2999)) throw new UnreadableValue(column, raw, 'has an impossible year');
  const date = new Date(Date.UTC(year, month - 1, day));
  // Date.UTC maps years 0-99 to 1900-1999; setUTCFullYear keeps the year as given (1004).
  date.setUTCFullYear(year);
  if (month < 1 || month > 12 || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day) {
    throw new UnreadableValue(column, raw, 'is not a date');
  }
  return `${String(year).padStart(4, '0')}-${twoDigits(month)}-${twoDigits(day)}`;
}

/**
 * A birthday as `YYYY-MM-DD`: from `YYYY-MM-DD` (a time after it ignored), `MM/DD/YYYY`, `MM/DD` or
 * `MM-DD`; without a year it is kept as year 1004 (Smile's convention, a leap year, so 02/29 is one).
 * LoyaltyLion's headless API gives `{ month, day }`.
 */
export function parseBirthday(column: string, value: unknown): string | null {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const { month, day, year } = value as { month?: unknown; day?: unknown; year?: unknown };
    if (typeof month === 'number' && typeof day === 'number' && (year === undefined || year === null || typeof year === 'number')) {
      return dateOf(column, value, typeof year === 'number' ? year : NO_YEAR, month, day);
    }
    throw new UnreadableValue(column, value, 'is not a birthday');
  }
  const text = cellText(value);
  if (text === null) return null;
  let match = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:[T ].*)?$/.exec(text);
  if (match) return dateOf(column, text, Number(match[1]), Number(match[2]), Number(match[3]));
  match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (match) return dateOf(column, text, Number(match[3]), Number(match[1]), Number(match[2]));
  match = /^(\d{1,2})[/-](\d{1,2})$/.exec(text);
  if (match) return dateOf(column, text, NO_YEAR, Number(match[1]), Number(match[2]));
  throw new UnreadableValue(column, text, 'is not a birthday (YYYY-MM-DD, MM/DD/YYYY, MM/DD or MM-DD)');
}

const CUSTOMER_GID = /^gid:\/\/shopify\/Customer\/(\d{1,20})$/;

/** A platform customer id: digits, after a leading apostrophe (spreadsheets) or inside a Shopify global id. */
export function parseCustomerId(column: string, value: unknown): string | null {
  if (typeof value === 'number') {
    if (Number.isSafeInteger(value) && value > 0) return String(value);
    throw new UnreadableValue(column, value, 'is not a customer id');
  }
  const text = cellText(value);
  if (text === null) return null;
  const bare = text.replace(/^'/, '').trim();
  if (/^\d{1,20}$/.test(bare) && !/^0+$/.test(bare)) return bare.replace(/^0+/, '');
  const gid = CUSTOMER_GID.exec(bare);
  if (gid) return gid[1]!;
  throw new UnreadableValue(column, text, 'is not a customer id (digits or gid://shopify/Customer/...)');
}

/** An e-mail, trimmed; one `@` with something on each side. */
export function parseEmail(column: string, value: unknown): string | null {
  const text = cellText(value);
  if (text === null) return null;
  if (!isValidEmailAddress(text)) throw new UnreadableValue(column, text, 'is not an e-mail address');
  return text;
}

const TRUE = new Set(['true', 'yes', 'y', '1', 't']);
const FALSE = new Set(['false', 'no', 'n', '0', 'f']);

export function parseFlag(column: string, value: unknown): boolean | null {
  if (typeof value === 'boolean') return value;
  const text = cellText(value)?.toLowerCase() ?? null;
  if (text === null) return null;
  if (TRUE.has(text)) return true;
  if (FALSE.has(text)) return false;
  throw new UnreadableValue(column, value, 'is not yes or no');
}

const EXCLUDED_STATES = new Set(['excluded', 'blocked', 'disabled', 'banned', 'optedout', 'unsubscribed', 'blacklisted']);
const MEMBER_STATES = new Set([
  'member',
  'enrolled',
  'active',
  'enabled',
  'guest',
  'notenrolled',
  'notamember',
  'nonmember',
  'invited',
  'optedin',
  'pending',
  'candidate',
  'yes',
  'no',
  'true',
  'false',
]);

/**
 * A state or member status: true for an excluded, blocked or disabled member; false for the states of a
 * member or a customer who has not joined. An opt-in column (`Opted In`: yes/no) is no exclusion either way.
 */
export function parseState(column: string, value: unknown): boolean | null {
  const text = cellText(value);
  if (text === null) return null;
  const state = text.toLowerCase().replace(/[\s_-]+/g, '');
  if (EXCLUDED_STATES.has(state)) return true;
  if (MEMBER_STATES.has(state)) return false;
  throw new UnreadableValue(column, text, 'is not a member status (member, guest, excluded, blocked, disabled, ...)');
}

/** A tier's name as the other app gives it; null when empty. */
export function parseTierName(value: unknown): string | null {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const name = (value as { name?: unknown }).name;
    return typeof name === 'string' && name.trim() !== '' ? name.trim() : null;
  }
  return cellText(value);
}

/** An enrolment date or timestamp as ISO 8601 (a date alone is its midnight UTC). */
export function parseTimestamp(column: string, value: unknown): string | null {
  const text = cellText(value);
  if (text === null) return null;
  let match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (match) return `${dateOf(column, text, Number(match[1]), Number(match[2]), Number(match[3]))}T00:00:00.000Z`;
  match = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (match) return `${dateOf(column, text, Number(match[3]), Number(match[1]), Number(match[2]))}T00:00:00.000Z`;
  match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)\s*(Z|[+-]\d{2}:?\d{2}|UTC)?$/i.exec(text);
  if (match) {
    dateOf(column, text, ...(match[1]!.split('-').map(Number) as [number, number, number]));
    const zone = !match[3] || match[3].toUpperCase() === 'UTC' ? 'Z' : match[3];
    const parsed = Date.parse(`${match[1]}T${match[2]}${zone}`);
    if (!Number.isNaN(parsed)) return new Date(parsed).toISOString();
  }
  throw new UnreadableValue(column, text, 'is not a date (YYYY-MM-DD, MM/DD/YYYY or an ISO 8601 timestamp)');
}
