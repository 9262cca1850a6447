// Money, the one place for it: minor units of a currency, decimal amounts read, summed and multiplied exactly (the
// platform gives money as decimal strings and the earning engine must not lose a cent between them), and
// formatting (store-credit shops' point amounts are minor currency units).

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
  const text = formatScaled(BigInt(Math.trunc(minor)), digits);
  return digits >= 2 ? text : `${text}${digits === 0 ? '.' : ''}${'0'.repeat(2 - digits)}`;
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

// Exact sums and differences of decimal-string amounts ("120.00" - "40.5"), without floating-point error.

/** A non-negative or negative decimal as Shopify writes amounts: digits, an optional fraction. */
export const DECIMAL_AMOUNT = /^-?\d{1,15}(?:\.\d{1,6})?$/;

function scaled(amount: string, scale: number): bigint {
  if (!DECIMAL_AMOUNT.test(amount)) throw new Error(`'${amount}' is not a decimal amount`);
  const negative = amount.startsWith('-');
  const [whole = '0', fraction = ''] = (negative ? amount.slice(1) : amount).split('.');
  const value = BigInt(whole + fraction.padEnd(scale, '0'));
  return negative ? -value : value;
}

function fractionDigits(amount: string): number {
  return amount.split('.')[1]?.length ?? 0;
}

/** An integer count of `10^-scale` units as a decimal string with `scale` decimals (`1050n`, 2: "10.50"). */
export function formatScaled(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** The exact sum, written with as many decimals as the most precise term and at least two ("10.50"). */
export function addAmounts(...amounts: string[]): string {
  const scale = Math.max(2, ...amounts.map(fractionDigits));
  return formatScaled(
    amounts.reduce((sum, amount) => sum + scaled(amount, scale), 0n),
    scale,
  );
}

/** `minuend - subtrahend`, exact, with at least two decimals; negative when the subtrahend is larger. */
export function subtractAmounts(minuend: string, subtrahend: string): string {
  const scale = Math.max(2, fractionDigits(minuend), fractionDigits(subtrahend));
  return formatScaled(scaled(minuend, scale) - scaled(subtrahend, scale), scale);
}

/** `amount × quantity`, exact ("19.99" × 3 = "59.97"). */
export function multiplyAmount(amount: string, quantity: number): string {
  if (!Number.isSafeInteger(quantity)) throw new Error(`'${quantity}' is not a whole quantity`);
  const scale = Math.max(2, fractionDigits(amount));
  return formatScaled(scaled(amount, scale) * BigInt(quantity), scale);
}

/**
 * A JSON number Shopify wrote for money (a refund line's `subtotal: 195.67`) as the decimal string it
 * stands for: JavaScript prints the shortest text that reads back as the same number, which for amounts of
 * up to 15 significant digits is the text Shopify wrote, less trailing zeros.
 */
export function amountFromNumber(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  const text = String(value);
  return DECIMAL_AMOUNT.test(text) ? text : null;
}

/** True when the amount is below zero ("-0.00" is not). */
export function isNegativeAmount(amount: string): boolean {
  return scaled(amount, fractionDigits(amount)) < 0n;
}
