// The one e-mail address check for what enters from outside the operator's own file: a referred friend's
// address (POST /v1/referrals), an import file's e-mail column, and a platform's address before it is
// matched against a referred friend. Zod 4's e-mail pattern (`regexes.email`, the one `z.email()` uses by
// default: letters, digits and `_ ' + - .` before the @, no leading, trailing or doubled dot; a domain of
// labels of letters, digits and hyphens ending in a top-level domain of two letters or more), with an
// internationalised domain checked in its ASCII (punycode) form. Markup, quotes other than the apostrophe,
// spaces, NUL and other control characters, bidi controls and any other non-ASCII character before the @
// are refused (docs/decisions.md, "E-mail addresses: zod's pattern").
import { domainToASCII } from 'node:url';
import { regexes } from 'zod/mini';

/** RFC 5321's longest path: 254 characters. */
export const EMAIL_ADDRESS_MAX = 254;

export function isValidEmailAddress(text: string): boolean {
  if (text.length > EMAIL_ADDRESS_MAX) return false;
  // Controls, format characters (bidi), unassigned or private code points and white space, anywhere: the
  // domain's conversion below would quietly drop some of them (a tab, a newline).
  if (/[\p{C}\s]/u.test(text)) return false;
  const at = text.lastIndexOf('@');
  if (at <= 0 || at > 64) return false;
  const domain = text.slice(at + 1);
  // WHATWG's domain-to-ASCII (UTS #46): a Unicode domain becomes its punycode, a forbidden one the empty string.
  const ascii = /^[\x21-\x7e]+$/.test(domain) ? domain : domainToASCII(domain);
  if (ascii === '') return false;
  return regexes.email.test(`${text.slice(0, at)}@${ascii}`);
}
