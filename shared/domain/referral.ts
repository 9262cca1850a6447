// Referral codes: short, unambiguous, random; uniqueness per shop is enforced by a guard item.
import { randomInt } from 'node:crypto';

// No 0/O, 1/I/L: codes are read aloud and typed by hand.
const ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
const LENGTH = 8;

export function generateReferralCode(): string {
  let code = '';
  for (let i = 0; i < LENGTH; i += 1) code += ALPHABET[randomInt(ALPHABET.length)];
  return code;
}

/** The shop's referral base URL with `ref=<code>` added to its query. */
export function referralUrl(baseUrl: string, code: string): string {
  const url = new URL(baseUrl);
  url.searchParams.set('ref', code);
  return url.toString();
}
