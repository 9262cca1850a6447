import { ITEM_TYPES } from '../../shared/data/items/index';
import { keys, LIST_MEMORY_PARTITIONS, SHOPPER_BUDGET_PARTITIONS } from '../../shared/data/keys';
import { createTableInput, GLOBAL_INDEXES, LOCAL_INDEXES } from '../../shared/data/table';

describe('key builders', () => {
  it('start every shop-owned key with the shop, so no query can cross tenants', () => {
    const all = [
      keys.shopSettings('s1').pk,
      keys.shopCounters('s1').pk,
      keys.earningRule('s1', 'r').pk,
      keys.vipTier('s1', 't').pk,
      keys.reward('s1', 'r').pk,
      keys.campaign('s1', 'c').pk,
      keys.customer('s1', '1001').pk,
      keys.earningEntry('s1', '1001', 'e1').pk,
      keys.rewardEntry('s1', '1001', 'h1').pk,
      keys.referralCode('s1', 'ABC').pk,
      keys.customerList('s1', 'member'),
      keys.customerEmail('s1', 'a@b.c'),
      keys.emailGram('s1', 'abc', '1001').pk,
      keys.longEmail('s1', '1001').pk,
      keys.emailIndexMarker('s1').pk,
      keys.emailMatchChunk('s1', 'search', 0).pk,
    ];

    for (const key of all) expect(key.startsWith('SHOP#s1')).toBe(true);
  });

  it("hold the shopper readers' one write to their shop budget: the IAM pattern matches no other item type", () => {
    const pattern = new RegExp(
      `^${SHOPPER_BUDGET_PARTITIONS.split('*')
        .map((part) => part.replace(/[#$]/g, '\\$&'))
        .join('.*')}$`,
    );
    const writable = ITEM_TYPES.filter((type) => pattern.test(type.key.pk)).map((type) => type.name);

    expect(writable).toEqual(['shopper budget window (TTL)']);
    expect(pattern.test(keys.shopperBudget('s1', 'read', 1_700_000_000).pk)).toBe(true);
    expect(pattern.test(keys.customer('s1', '1001').pk)).toBe(false);
  });

  it("hold the list function's writes to its remembered boundaries and searches: the IAM patterns match no other item type", () => {
    // IAM's StringLike: `*` is any run of characters.
    const patterns = LIST_MEMORY_PARTITIONS.map(
      (pattern) =>
        new RegExp(
          `^${pattern
            .split('*')
            .map((part) => part.replace(/[#$]/g, '\\$&'))
            .join('.*')}$`,
        ),
    );
    const writable = ITEM_TYPES.filter((type) => patterns.some((pattern) => pattern.test(type.key.pk))).map((type) => type.name);

    expect(writable.sort()).toEqual([
      'customer list boundary (TTL)',
      'remembered e-mail search: its evaluation and total (TTL)',
      'remembered e-mail search: one chunk of its ordered ids (TTL)',
    ]);
    expect(patterns.some((pattern) => pattern.test(keys.emailMatchChunk('s1', 'x', 3).pk))).toBe(true);
    expect(patterns.some((pattern) => pattern.test(keys.emailGram('s1', 'abc', '1').pk))).toBe(false);
  });

  it('keep a customer and its history in one partition, apart from other customers', () => {
    const profile = keys.customer('s1', '1001');
    const entry = keys.earningEntry('s1', '1001', 'e1');

    expect(entry.pk).toBe(profile.pk);
    expect(keys.customer('s1', '1002').pk).not.toBe(profile.pk);
    expect(keys.customer('s2', '1001').pk).not.toBe(profile.pk);
  });

  it('normalise e-mail keys to lower case', () => {
    expect(keys.customerEmail('s1', ' Ada@Example.COM ')).toBe(keys.customerEmail('s1', 'ada@example.com'));
  });

  it('separate the customer list by loyalty status', () => {
    expect(keys.customerList('s1', 'member')).not.toBe(keys.customerList('s1', 'excluded'));
  });

  it('look API keys up by hash alone', () => {
    expect(keys.apiKey('abc')).toEqual({ pk: 'KEY#abc', sk: 'KEY' });
  });
});

describe('table definition', () => {
  it('declares every index with its key attributes', () => {
    const input = createTableInput('t');
    const attributes = new Set(input.AttributeDefinitions?.map((a) => a.AttributeName));

    expect(input.GlobalSecondaryIndexes).toHaveLength(Object.keys(GLOBAL_INDEXES).length);
    expect(input.LocalSecondaryIndexes).toHaveLength(Object.keys(LOCAL_INDEXES).length);
    for (const index of [...(input.GlobalSecondaryIndexes ?? []), ...(input.LocalSecondaryIndexes ?? [])]) {
      for (const key of index.KeySchema ?? []) expect(attributes.has(key.AttributeName)).toBe(true);
    }
  });

  it('uses numeric sort keys for the point sorts, so DynamoDB orders them as numbers', () => {
    const types = Object.fromEntries(createTableInput('t').AttributeDefinitions!.map((a) => [a.AttributeName, a.AttributeType]));

    expect(types.current_points).toBe('N');
    expect(types.lifetime_points).toBe('N');
    expect(types.redeemed_points).toBe('N');
    expect(types.created_at).toBe('S');
  });
});
