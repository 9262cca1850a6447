// Referral codes: short, unambiguous, random; uniqueness per shop is enforced by a guard item.
import { randomInt } from 'node:crypto';
import type { PurchaseDiscount } from './history';

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

/**
 * A friend a member referred (POST /v1/referrals): the friend's single-use discount code from the shop's
 * friend reward. `issuing` while the code is being created on the platform (never shown); `active` once it
 * exists; `completed` once the friend's first paid order counted as referred by the member.
 */
export interface FriendReferral {
  id: string;
  shop_id: string;
  referral_code: string;
  referrer_platform_customer_id: string;
  /**
   * The e-mail as given (trimmed); `canonical_email` is the mailbox it reaches (email-identity.ts). Both are
   * null once the friend's data was erased (customers/redact); `email_key` is the mailbox's keyed hash, which
   * names the once-per-mailbox guard and stays.
   */
  email: string | null;
  canonical_email: string | null;
  email_key: string;
  /** When the friend's e-mail was erased (customers/redact), or absent. */
  email_redacted_at?: string;
  discount_code: string;
  reward_id: string;
  discount: PurchaseDiscount;
  status: 'issuing' | 'active' | 'completed';
  platform_discount_id: string | null;
  expires_at: string | null;
  created_at: string;
  /** When the friend's first paid order counted, the friend and that order. */
  completed_at: string | null;
  friend_platform_customer_id: string | null;
  order_id: string | null;
}
