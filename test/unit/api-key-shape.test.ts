// The shape every stored key has, which the authorizer checks before any table read: every key the
// product issues or loads passes it, and values that cannot be keys do not.
import { generateLoyaltyKey } from '../../infra/cli/commands';
import { API_KEY_SHAPE, isWellFormedApiKey } from '../../shared/domain/api-key';
import { KEYS } from '../fixtures/e2e-config';

describe('the shape of an API key', () => {
  it('holds every key the CLI issues', () => {
    // Arrange
    const issued = Array.from({ length: 200 }, generateLoyaltyKey);

    // Assert
    expect(issued.filter((key) => !isWellFormedApiKey(key))).toEqual([]);
    expect(new Set(issued.map((key) => key.length))).toEqual(new Set([46]));
  });

  it('holds the keys of the demo and test configuration files', () => {
    const keys = ['demo_full_key', 'demo_read_key', 'demo_revoked_key', 'credit_full_key', ...Object.values(KEYS)];

    expect(keys.filter((key) => !isWellFormedApiKey(key))).toEqual([]);
  });

  it('holds both length bounds exactly', () => {
    expect(isWellFormedApiKey('k'.repeat(API_KEY_SHAPE.minLength))).toBe(true);
    expect(isWellFormedApiKey('k'.repeat(API_KEY_SHAPE.maxLength))).toBe(true);
    expect(isWellFormedApiKey('k'.repeat(API_KEY_SHAPE.minLength - 1))).toBe(false);
    expect(isWellFormedApiKey('k'.repeat(API_KEY_SHAPE.maxLength + 1))).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['a Bearer prefix', `Bearer ${'a'.repeat(43)}`],
    ['standard base64 padding', 'YWJjZGVmZ2hpams='],
    ['a plus and a slash', 'abc+def/ghi'],
    ['a trailing newline', 'demo_full_key\n'],
    ['a non-ASCII letter', 'démo_full_key'],
    ['a quote (injection probe)', "demo' OR '1'='1"],
    ['a JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.sig'],
    ['10 kB of letters', 'a'.repeat(10_000)],
  ])('refuses %s', (_, value) => {
    expect(isWellFormedApiKey(value)).toBe(false);
  });
});
