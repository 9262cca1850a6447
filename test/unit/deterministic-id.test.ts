// The one deterministic-id helper (shared/domain/deterministic-id.ts) and every site that derives an id or a code
// with it: one output pinned per site, as the code before the helper derived it. A changed output would name
// other items than the ones already in a table (entries, codes, import records), so these values never change.
import { idempotentWorkId } from '../../shared/data/idempotency-repository';
import { importShardOf } from '../../shared/data/items/import-record';
import { searchName } from '../../shared/data/email-match-set';
import { hashApiKey, keyIdOf } from '../../shared/domain/api-key';
import { CODE_ALPHABET, deterministicId, deterministicShard } from '../../shared/domain/deterministic-id';
import { importIdOf } from '../../shared/import/import-id';
import { orderEntryId } from '../../shared/orders/order-state';
import { shopSecretOf, type ShopSecret } from '../../shared/platform/shop-secrets';
import { discountCodeFor } from '../../shared/purchases/discount-code';
import { rewardRefundEntryId } from '../../shared/purchases/refund-redemption';
import { friendCodeFor } from '../../shared/referrals/create-referral';
import { deterministicIdSites, ID_HELPER, sources } from '../../scripts/structure';

describe('each site of a deterministic id', () => {
  it('a purchase discount code', () => {
    expect(discountCodeFor('7c9e6679-7425-40de-944b-e07fc1f90ae7')).toBe('LOYAL-3AMQ-5HU8-Y4GA');
  });

  it("a referred friend's code", () => {
    expect(friendCodeFor('0b6f9a2e-5f1c-4d2b-9a51-3e0c7d1f2a44')).toBe('FRIEND-5HY7-7S9G-JU2G');
  });

  it("a redemption refund's entry id", () => {
    expect(rewardRefundEntryId('shop-a', 'entry-1')).toBe('bbb5c539-7d5d-5771-ade9-3eb9d77d319d');
  });

  it("an order effect's entry id", () => {
    expect(orderEntryId('shop-a', '1001', 'rule-1', 2)).toBe('b59f6ca4-ca09-5aa5-ab6e-d0b1eae6d545');
  });

  it("an idempotent request's work id", () => {
    const scope = { shopId: 'shop-a', route: 'POST /v1/customers/{identifier}/points', idempotencyKey: 'key-1' };
    expect(idempotentWorkId(scope, 'abc')).toBe('f1116fec-036a-6fb2-7912-5cadb24a6a21');
  });

  it("a remembered e-mail search's name", () => {
    expect(searchName({ emailContains: 'ann', sort: 'created_at', descending: true })).toBe('q1hRK13xo4_cFqzbBuAz4wNvxeXmi6sy');
    expect(searchName({ emailContains: 'bob', status: 'member', sort: 'points', descending: false })).toBe(
      'V-R8UeZSRCIa5bpnmlUewK8sUZUUqhMj',
    );
  });

  it("an import's id and a member's import record shard", () => {
    expect(importIdOf({ shopId: 'shop-a', from: 'smile', mode: 'add', file: 'a,b\n1,2\n', customers: null })).toBe('f114f397711b11b2');
    expect(importIdOf({ shopId: 'shop-a', from: 'smile', mode: 'add', file: Buffer.from('x'), customers: 'c' })).toBe('78ba7b711c41aaa2');
    expect([importShardOf('1'), importShardOf('42'), importShardOf('gid-7')]).toEqual([6, 7, 7]);
  });

  it("an API key's hash (its item's key) and the key id cut from it", () => {
    const hash = hashApiKey('lk_test_0123456789');
    expect(hash).toBe('e27cde56f26687131681038cc24da2e3b7e8df38a343e90ce652760d020e775e');
    expect(keyIdOf(hash)).toBe('e27cde56f266');
  });

  it("a shop secret's credentials fingerprint", () => {
    const client = shopSecretOf({ client_id: 'cid', client_secret: 'csecret', webhook_secret: 'w' }, 'my-shop.myshopify.com') as ShopSecret;
    const token = shopSecretOf({ access_token: 'shpat_x', webhook_secret: 'w' } as never, null) as ShopSecret;
    expect([client.fingerprint, token.fingerprint]).toEqual(['69568da653384f08', '7b691c2142560737']);
  });
});

describe('deterministicId', () => {
  const input = { text: 'same' };

  it('gives the same id for the same input, and another for other input or another layout of the same parts', () => {
    expect(deterministicId(input, { as: 'hex', length: 64 })).toBe(deterministicId({ text: 'same' }, { as: 'hex', length: 64 }));
    expect(deterministicId({ joined: ['a', 'b'] }, { as: 'uuid' })).not.toBe(deterministicId({ json: ['a', 'b'] }, { as: 'uuid' }));
    expect(deterministicId({ lengthPrefixed: ['ab', 'c'] }, { as: 'hex', length: 16 })).not.toBe(
      deterministicId({ lengthPrefixed: ['a', 'bc'] }, { as: 'hex', length: 16 }),
    );
  });

  it('writes each format', () => {
    expect(deterministicId(input, { as: 'uuid' })).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(deterministicId(input, { as: 'uuid-5' })).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(deterministicId(input, { as: 'hex', length: 10 })).toMatch(/^[0-9a-f]{10}$/);
    expect(deterministicId(input, { as: 'base64url', length: 20 })).toMatch(/^[\w-]{20}$/);
    const code = deterministicId(input, { as: 'code', prefix: 'X', length: 10 });
    expect(code).toMatch(new RegExp(`^X-[${CODE_ALPHABET}]{4}-[${CODE_ALPHABET}]{4}-[${CODE_ALPHABET}]{2}$`));
    expect(() => deterministicId(input, { as: 'code', prefix: 'X', length: 33 })).toThrow(RangeError);
  });

  it('spreads shards over their range', () => {
    const shards = new Set(Array.from({ length: 400 }, (_, i) => deterministicShard({ text: `customer-${i}` }, 16)));
    expect([...shards].sort((a, b) => a - b)).toEqual(Array.from({ length: 16 }, (_, i) => i));
  });
});

describe('the deterministic-id sites of npm run structure', () => {
  it('finds no id hashed by hand in shared/: the one digest left is the request fingerprint of Idempotency-Key', () => {
    const { byHand, helper } = deterministicIdSites(sources('shared'));
    expect(byHand.map((place) => place.file)).toEqual(['shared/http/idempotency.ts']);
    expect(new Set(helper.map((place) => place.file)).size).toBeGreaterThanOrEqual(10);
  });

  it('counts a createHash call as a site by hand and a helper call as one through the helper, nothing else', () => {
    const text = [
      "import { createHash, createHmac } from 'node:crypto';",
      '// createHash(x) in a comment',
      "const a = createHash('sha256').update(id).digest('hex');",
      "const b = createHmac('sha256', key).update(id).digest('hex');",
      "const c = deterministicId({ text: id }, { as: 'uuid' });",
      'const d: typeof createHash = crypto.createHash;',
    ].join('\n');
    const { byHand, helper } = deterministicIdSites([
      { path: 'shared/x/site.ts', text },
      { path: ID_HELPER, text: "const e = createHash('sha256');" },
    ]);
    expect(byHand).toEqual([{ file: 'shared/x/site.ts', line: 3 }]);
    expect(helper).toEqual([{ file: 'shared/x/site.ts', line: 5 }]);
  });
});
