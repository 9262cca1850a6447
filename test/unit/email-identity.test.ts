// One mailbox under its forms: case, spaces, +tags, Gmail's dots and googlemail.com.
import { canonicalEmail } from '../../shared/domain/email-identity';

/** Two addresses reach the same mailbox: the same canonical address. */
const sameMailbox = (a: string, b: string) => canonicalEmail(a) === canonicalEmail(b);

describe('the mailbox an address reaches', () => {
  it.each([
    ['friend@example.com', 'friend@example.com'],
    ['  Friend@Example.COM ', 'friend@example.com'],
    ['friend+loyalty@example.com', 'friend@example.com'],
    ['friend+a+b@example.com', 'friend@example.com'],
    ['f.r.i.e.n.d@example.com', 'f.r.i.e.n.d@example.com'], // dots matter outside Gmail
    ['F.Riend+Spring@Gmail.com', 'friend@gmail.com'],
    ['f.riend@googlemail.com', 'friend@gmail.com'],
    ['FRIEND@GOOGLEMAIL.COM', 'friend@gmail.com'],
    ['+tag@example.com', '+tag@example.com'], // no mailbox name before the tag: kept
    ['...@gmail.com', '...@gmail.com'], // nothing but dots: kept
    ['not-an-address', 'not-an-address'],
    ['trailing@', 'trailing@'],
    ['José@Exämple.com', 'josé@exämple.com'],
  ])('%s reaches %s', (email, canonical) => {
    expect(canonicalEmail(email)).toBe(canonical);
  });

  it('tells one person under two forms from two people', () => {
    expect(sameMailbox('Ada.Lovelace+shop@googlemail.com', ' adalovelace@gmail.com')).toBe(true);
    expect(sameMailbox('ada@example.com', 'ADA+x@example.com')).toBe(true);
    expect(sameMailbox('ada.l@example.com', 'adal@example.com')).toBe(false);
    expect(sameMailbox('ada@gmail.com', 'ada@example.com')).toBe(false);
  });

  it('normalises composed and decomposed accents to one form', () => {
    expect(canonicalEmail('jose\u0301@example.com')).toBe(canonicalEmail('jos\u00e9@example.com'));
  });
});
