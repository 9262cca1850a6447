// The bench's flood keys are what it claims: every "malformed" value fails the keys' shape (so the
// authorizer must refuse it unread) and every "unknown" one has it (so it costs exactly the lookup).
import { randomKey } from '../../bench/key-flood';
import { isWellFormedApiKey } from '../../shared/domain/api-key';

describe('the key flood of the bench', () => {
  const sample = (kind: 'malformed' | 'unknown') => Array.from({ length: 2000 }, randomKey[kind]);

  it('sends malformed values that never have the shape of a key', () => {
    expect(sample('malformed').filter(isWellFormedApiKey)).toEqual([]);
  });

  it('sends unknown keys that always have the shape, and never the same one twice', () => {
    const keys = sample('unknown');
    expect(keys.filter((key) => !isWellFormedApiKey(key))).toEqual([]);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
