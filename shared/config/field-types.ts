// The configuration file's field types: ids, currencies, dates, timestamps, e-mail addresses, URLs and
// amounts, each a zod schema whose message says what a valid value looks like.
import { z } from 'zod';
import { nonexistentDateReason, parseCalendarDate } from '../domain/dates';

export const SHOP_ID = /^[a-z0-9-]{1,64}$/;
// Catalog and history ids travel in URL paths and sort keys, so they keep to URL-unreserved characters.
export const ITEM_ID = /^[A-Za-z0-9._~-]{1,128}$/;
export const NUMERIC_ID = /^\d{1,32}$/;
export const CURRENCY = /^[A-Z]{3}$/;
export const HEX_COLOUR = /^#(?:[0-9A-Fa-f]{3}|[0-9A-Fa-f]{6})$/;
export const CALENDAR_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?(?:Z|[+-](?:[01]\d|2[0-3]):?[0-5]\d)$/;

// NumberFormat accepts any well-formed three-letter code, so the list of currencies Intl knows decides.
export const KNOWN_CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export function isCurrency(code: string): boolean {
  if (!CURRENCY.test(code) || !KNOWN_CURRENCIES.has(code)) return false;
  try {
    new Intl.NumberFormat('en', { style: 'currency', currency: code });
    return true;
  } catch {
    return false;
  }
}

export function isCalendarDate(text: string): boolean {
  return CALENDAR_DATE.test(text) && parseCalendarDate(text) === text;
}

/** Date.parse rolls 2023-02-30 over into March, so the calendar date is checked on its own. */
export function isTimestamp(text: string): boolean {
  const match = TIMESTAMP.exec(text);
  if (!match) return false;
  return parseCalendarDate(`${match[1]}-${match[2]}-${match[3]}`) !== null && !Number.isNaN(Date.parse(text));
}

/**
 * An e-mail address, internationalised ones included (RFC 6531: Unicode in the local part and the
 * domain, or the domain in punycode), since a shop's customers may have them; checked by shape only.
 */
export const INTERNATIONAL_EMAIL =
  /^(?!\.)(?!.*\.\.)[\p{L}\p{M}\p{N}!#$%&'*+/=?^_`{|}~.-]{1,64}(?<!\.)@(?:[\p{L}\p{M}\p{N}](?:[\p{L}\p{M}\p{N}-]{0,61}[\p{L}\p{M}\p{N}])?\.)+(?:[\p{L}\p{M}]{2,63}|xn--[a-z0-9-]{1,59})$/iu;

export function isEmailAddress(text: string): boolean {
  return text.length <= 254 && INTERNATIONAL_EMAIL.test(text);
}

export function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '';
  } catch {
    return false;
  }
}

export const parseTime = (): string => new Date().toISOString();

export const text = () => z.string().min(1, 'must not be empty');
export const itemId = () => z.string().regex(ITEM_ID, 'must be 1-128 characters from A-Z a-z 0-9 . _ ~ -');
export const count = () => z.int().min(0, 'must be a whole number, 0 or more');
export const positiveCount = () => z.int().min(1, 'must be a whole number, 1 or more');
export const amount = () => z.number().min(0, 'must not be negative');
export const multiplier = () => z.number().positive('must be greater than 0');
export const timestamp = () =>
  z
    .string()
    .refine(isTimestamp, {
      error: (issue) =>
        (TIMESTAMP.test(String(issue.input)) && nonexistentDateReason(String(issue.input))) ||
        'must be an ISO 8601 timestamp with a time zone, e.g. 2025-01-01T00:00:00.000Z',
    })
    .transform((value) => new Date(value).toISOString());
export const calendarDate = () =>
  z.string().refine(isCalendarDate, {
    error: (issue) => nonexistentDateReason(String(issue.input)) ?? 'must be an existing calendar date written YYYY-MM-DD',
  });

export const entryMethod = z.enum(['points', 'spend', 'orders']);
