// The e-mail search postings of an address (shared/data/items/email-gram.ts): its distinct trigrams by code
// point, the long-address partition past the cap, and the writes that take one address to another.
import { emailGramKey, emailPostingChange, emailPostingKeys, gramsOf, longEmailKey, MAX_GRAMS } from '../../shared/data/items/email-gram';

describe('e-mail grams', () => {
  it('are the distinct trigrams of the address, in order of first appearance', () => {
    expect(gramsOf('aaaa@b')).toEqual(['aaa', 'aa@', 'a@b']);
    expect(gramsOf('ab')).toEqual([]);
    expect(gramsOf('abc')).toEqual(['abc']);
  });

  it('count an astral character as one character, as a substring match does', () => {
    expect(gramsOf('a😀b@c')).toEqual(['a😀b', '😀b@', 'b@c']);
  });

  it('post a long address once, in the long-address partition', () => {
    const long = 'abcdefghijklmnopqrstuvwxyz0123456789.-_+@x.io';
    expect(gramsOf(long).length).toBeGreaterThan(MAX_GRAMS);
    expect(emailPostingKeys('s', '1', long)).toEqual([longEmailKey('s', '1')]);
    const short = 'ab@c.de';
    expect(emailPostingKeys('s', '1', short)).toEqual(gramsOf(short).map((gram) => emailGramKey('s', gram, '1')));
  });
});

describe('a change of address', () => {
  it('writes nothing when the normalised address stays the same', () => {
    expect(emailPostingChange('s', '1', 'Ada@Example.com', ' ada@example.COM')).toEqual({ put: [], delete: [] });
  });

  it('puts every posting of the new address and deletes the old ones it does not have', () => {
    const change = emailPostingChange('s', '1', 'abcd', 'bcde');
    expect(change.put).toEqual([
      { ...emailGramKey('s', 'bcd', '1'), email_lc: 'bcde' },
      { ...emailGramKey('s', 'cde', '1'), email_lc: 'bcde' },
    ]);
    expect(change.delete).toEqual([emailGramKey('s', 'abc', '1')]);
  });

  it('posts a new member and unposts an erased one', () => {
    expect(emailPostingChange('s', '1', null, 'AbC').put).toEqual([{ ...emailGramKey('s', 'abc', '1'), email_lc: 'abc' }]);
    expect(emailPostingChange('s', '1', 'abc', null)).toEqual({ put: [], delete: [emailGramKey('s', 'abc', '1')] });
  });

  it('never needs more writes than a transaction has room for beside the profile', () => {
    const longest = (n: number) => Array.from({ length: n }, (_, i) => String.fromCodePoint(0x4e00 + i)).join('');
    for (const [before, after] of [
      [
        longest(MAX_GRAMS + 2),
        longest(MAX_GRAMS + 2)
          .split('')
          .reverse()
          .join(''),
      ],
      [longest(MAX_GRAMS + 2), longest(MAX_GRAMS + 3)],
      [longest(MAX_GRAMS + 2), `x${longest(MAX_GRAMS + 1)}`],
    ] as const) {
      const change = emailPostingChange('s', '1', before, after);
      expect(change.put.length + change.delete.length).toBeLessThanOrEqual(2 * MAX_GRAMS);
    }
  });
});
