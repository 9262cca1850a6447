// Sums and differences of decimal-string amounts ("120.00" - "40.5") without floating-point error: the
// platform gives money as decimal strings and the earning engine must not lose a cent between them.

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

function format(value: bigint, scale: number): string {
  const negative = value < 0n;
  const digits = (negative ? -value : value).toString().padStart(scale + 1, '0');
  const whole = digits.slice(0, digits.length - scale);
  const fraction = digits.slice(digits.length - scale);
  return `${negative ? '-' : ''}${whole}${scale > 0 ? `.${fraction}` : ''}`;
}

/** The exact sum, written with as many decimals as the most precise term and at least two ("10.50"). */
export function addAmounts(...amounts: string[]): string {
  const scale = Math.max(2, ...amounts.map(fractionDigits));
  return format(
    amounts.reduce((sum, amount) => sum + scaled(amount, scale), 0n),
    scale,
  );
}

/** `minuend - subtrahend`, exact, with at least two decimals; negative when the subtrahend is larger. */
export function subtractAmounts(minuend: string, subtrahend: string): string {
  const scale = Math.max(2, fractionDigits(minuend), fractionDigits(subtrahend));
  return format(scaled(minuend, scale) - scaled(subtrahend, scale), scale);
}

/** `amount × quantity`, exact ("19.99" × 3 = "59.97"). */
export function multiplyAmount(amount: string, quantity: number): string {
  if (!Number.isSafeInteger(quantity)) throw new Error(`'${quantity}' is not a whole quantity`);
  const scale = Math.max(2, fractionDigits(amount));
  return format(scaled(amount, scale) * BigInt(quantity), scale);
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
