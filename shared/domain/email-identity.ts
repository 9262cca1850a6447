// One person's mailbox under the forms an address can take: the referral checks compare e-mails by it.
// Case and surrounding spaces never name another mailbox; a `+tag` after the local part is delivered to
// the same mailbox by Gmail, Outlook, Fastmail, iCloud and most hosts; Gmail ignores dots in the local
// part, and googlemail.com is Gmail under its other name. Pure: no I/O.
import { createHmac } from 'node:crypto';

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address reaches: trimmed, lower case (Unicode NFC), the local part without a `+tag`, and
 * for Gmail without dots and at gmail.com. An address without an `@` is only trimmed and lowered.
 */
export function canonicalEmail(email: string): string {
  const lower = email.trim().normalize('NFC').toLowerCase();
  const at = lower.lastIndexOf('@');
  if (at <= 0 || at === lower.length - 1) return lower;
  let local = lower.slice(0, at);
  let domain = lower.slice(at + 1);
  const plus = local.indexOf('+');
  // A local part that is only a tag ("+tag@host") keeps it: there is no mailbox name before it.
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    domain = 'gmail.com';
    const undotted = local.replace(/\./g, '');
    if (undotted) local = undotted;
  }
  return `${local}@${domain}`;
}

/**
 * A mailbox's keyed hash (HMAC-SHA256 under the shop's key, hex): what the table keeps to recognise a mailbox
 * without holding the address, as the once-per-mailbox referral guard does.
 */
export function mailboxKey(key: Buffer, email: string): string {
  return createHmac('sha256', key).update(canonicalEmail(email)).digest('hex');
}
