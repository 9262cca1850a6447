// Money: minor units of a currency, decimal amounts read exactly, and formatting (store-credit shops' point
// amounts are minor currency units).

const digitsCache = new Map<string, number>();

/** Minor-unit digits of an ISO 4217 currency (USD 2, JPY 0, KWD 3), from the runtime's ICU data. */
export function minorDigits(currency: string): number {
  let digits = digitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ?? 2;
    digitsCache.set(currency, digits);
  }
  return digits;
}

/**
 * Minor units as a major-unit decimal string: two decimals as the spec shows ("2.50"), three for
 * currencies with three minor digits so no amount is rounded away. Uses integer arithmetic only.
 */
export function formatMinorUnits(minor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = minor < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(minor));
  const scale = 10 ** digits;
  const whole = Math.floor(abs / scale);
  const fraction = digits === 0 ? '' : String(abs % scale).padStart(digits, '0');
  const shown = Math.max(2, digits);
  return `${sign}${whole}.${fraction.padEnd(shown, '0')}`;
}

/** Major-unit amount with the currency's symbol, e.g. "$3.00" or "€5.00" (names of flexible rewards, messages). */
export function formatMoney(major: number, currency: string): string {
  return new Intl.NumberFormat('en-US', { style: 'currency', currency }).format(major);
}

/** Minor units shown as money ("€5.00"), for store-credit messages. */
export function formatMinorAsMoney(minor: number, currency: string): string {
  return formatMoney(minor / 10 ** minorDigits(currency), currency);
}

/** A decimal amount ("120.5") as minor units of a currency with `digits` decimals, rounded half up. */
export function decimalToMinor(amount: string, digits: number): number {
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const kept = Number(whole) * 10 ** digits + Number(fraction.slice(0, digits).padEnd(digits, '0') || '0');
  const roundUp = fraction.length > digits && Number(fraction[digits]) >= 5 ? 1 : 0;
  const minor = kept + roundUp;
  return negative ? -minor : minor;
}
