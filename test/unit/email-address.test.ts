// The e-mail check for addresses from outside the operator's file (a referred friend, an import file, a
// platform's address before referral matching): zod 4's e-mail pattern, a Unicode domain in punycode.
import { EMAIL_ADDRESS_MAX, isValidEmailAddress } from '../../shared/config/email-address';

describe('isValidEmailAddress', () => {
  it.each([
    'ada@example.com',
    'Ada.Lovelace+promo@Example.CO.uk',
    "o'brien@example.com",
    'jose@exämple.com',
    'jose@xn--exmple-cua.com',
    `${'a'.repeat(64)}@${'b'.repeat(EMAIL_ADDRESS_MAX - 64 - 5)}.com`,
  ])('takes %p', (address) => {
    expect(isValidEmailAddress(address)).toBe(true);
  });

  it.each([
    ['markup after the address', 'v@example.com<svg/onload=alert(1)>'],
    ['markup before it', '<b>v</b>@example.com'],
    ['a right-to-left override', 'rtl\u202egro@example.com'],
    ['a bidi override in the domain', 'a@exa\u202emple.com'],
    ['a NUL', 'nul\u0000@example.com'],
    ['a newline', 'a@example.com\n'],
    ['a tab in the domain', 'a@exam\tple.com'],
    ['a space', 'a b@example.com'],
    ['quotes', '"a"@example.com'],
    ['a Unicode local part', 'josé@example.com'],
    ['no dot in the domain', 'a@localhost'],
    ['a one-letter top-level domain', 'a@b.c'],
    ['a leading dot', '.a@example.com'],
    ['two dots', 'a..b@example.com'],
    ['a hyphen first in the domain', 'a@-example.com'],
    ['no local part', '@example.com'],
    ['a local part over 64 characters', `${'a'.repeat(65)}@example.com`],
    ['over 254 characters', `${'a'.repeat(64)}@${'b'.repeat(EMAIL_ADDRESS_MAX - 64 - 4)}.com`],
  ])('refuses %s', (_case, address) => {
    expect(isValidEmailAddress(address)).toBe(false);
  });
});
