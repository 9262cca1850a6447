import { calendarDateOf, latestCalendarDateToday, nonexistentDateReason, parseCalendarDate } from '../../shared/domain/dates';
import { formatMinorUnits, minorDigits } from '../../shared/domain/money';
import { referralUrl } from '../../shared/domain/referral';

describe('calendar dates', () => {
  it.each([
    ['1990-05-17', '1990-05-17'],
    ['2024-02-29', '2024-02-29'],
    ['1990-05-17T00:00:00Z', '1990-05-17'],
    ['1990-05-17T23:30:00.000+02:00', '1990-05-17'],
    ['1990-05-17T23:59:59+2359', '1990-05-17'],
    ['1990-05-17T00:00-00:00', '1990-05-17'],
  ])('reads %p as %p', (input, expected) => {
    expect(parseCalendarDate(input)).toBe(expected);
  });

  it.each([
    '2023-02-29',
    '1990-13-01',
    '17/05/1990',
    '1990-5-17',
    'tomorrow',
    '1990-05-17T10:00:00',
    '1990-01-01T25:00:00Z',
    '1990-01-01T24:00:00Z',
    '1990-01-01T99:99:99Z',
    '1990-01-01T10:60Z',
    '1990-01-01T10:00:60Z',
    '1990-01-01T10:00:00-99:00',
    '1990-01-01T10:00:00+05:75',
  ])('refuses %p', (input) => {
    expect(parseCalendarDate(input)).toBeNull();
  });

  it.each([
    ['2025-02-29', '2025-02-29 does not exist (February 2025 has 28 days)'],
    ['2024-02-30T10:00:00Z', '2024-02-30 does not exist (February 2024 has 29 days)'],
    ['2025-00-10', '2025-00-10 does not exist (months run from 01 to 12)'],
    ['2025-06-31', '2025-06-31 does not exist (June 2025 has 30 days)'],
    ['2025-06-30', null],
    ['30/06/2025', null],
    ['1990-01-01T25:00:00Z', '1990-01-01T25:00:00Z is not a real time (hours run from 00 to 23)'],
    ['1990-01-01T23:99:00Z', '1990-01-01T23:99:00Z is not a real time (minutes run from 00 to 59)'],
    ['1990-01-01T23:59:61Z', '1990-01-01T23:59:61Z is not a real time (seconds run from 00 to 59)'],
    ['1990-01-01T10:00:00-99:00', '1990-01-01T10:00:00-99:00 is not a real time (a time zone offset runs from -23:59 to +23:59)'],
    ['1990-01-01T23:59:59.999-23:59', null],
  ])('says why %p names no day', (input, reason) => {
    expect(nonexistentDateReason(input)).toBe(reason);
  });

  it('takes the latest date that is today somewhere (UTC+14) as today', () => {
    expect(latestCalendarDateToday(new Date('2025-03-01T09:59:59.999Z'))).toBe('2025-03-01');
    expect(latestCalendarDateToday(new Date('2025-03-01T10:00:00.000Z'))).toBe('2025-03-02');
  });

  it('takes the UTC date of a timestamp', () => {
    expect(calendarDateOf('2024-03-01T10:00:00.000Z')).toBe('2024-03-01');
    expect(calendarDateOf(null)).toBeNull();
  });
});

describe('money', () => {
  it('knows the minor digits of currencies', () => {
    expect(minorDigits('USD')).toBe(2);
    expect(minorDigits('JPY')).toBe(0);
    expect(minorDigits('KWD')).toBe(3);
  });

  it('formats minor units as two-decimal major units', () => {
    expect(formatMinorUnits(250, 'USD')).toBe('2.50');
    expect(formatMinorUnits(2500, 'EUR')).toBe('25.00');
    expect(formatMinorUnits(5, 'USD')).toBe('0.05');
    expect(formatMinorUnits(-2000, 'USD')).toBe('-20.00');
    expect(formatMinorUnits(0, 'USD')).toBe('0.00');
  });

  it('keeps two decimals for zero-digit currencies and three where the currency has three', () => {
    expect(formatMinorUnits(500, 'JPY')).toBe('500.00');
    expect(formatMinorUnits(1234, 'KWD')).toBe('1.234');
  });
});

describe('referral url', () => {
  it('adds the code as the ref query parameter', () => {
    expect(referralUrl('https://demo.example/', 'ABC23456')).toBe('https://demo.example/?ref=ABC23456');
    expect(referralUrl('https://demo.example/join?src=x', 'ABC23456')).toBe('https://demo.example/join?src=x&ref=ABC23456');
  });
});
