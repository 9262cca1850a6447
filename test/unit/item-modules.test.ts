// The data layer's item modules (shared/data/items/): what each declares is what the table holds and what
// docs/architecture.md's table of items shows, each key parses back, and the derived attributes are the
// same for a put and for an update.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { cancellationReasons, cancelledItem, isConditionalCheckFailed, isTransactionConflict } from '../../shared/data/dynamodb-errors';
import { KEY_ATTRIBUTES, withoutKeys } from '../../shared/data/item-reads';
import { apiKeyItem, apiKeyListingItem, apiKeyOf } from '../../shared/data/items/api-key';
import { birthdayTimerChange, birthdayTimerKey } from '../../shared/data/items/birthday-timer';
import {
  customerItem,
  customerKey,
  customerOfKey,
  profileDue,
  profileDueUpdate,
  storedCustomerOf,
} from '../../shared/data/items/customer-profile';
import { dueTimeOf, dueUpdate } from '../../shared/data/items/due';
import { earningEntryItem, earningEntryKey, earningEntryOf, entryDue, NOT_GIVEN_YET } from '../../shared/data/items/earning-entry';
import { ITEM_TYPES } from '../../shared/data/items/index';
import { orderIdOf, orderItem, orderKey, orderOf } from '../../shared/data/items/order';
import { incomingMergeKey, incomingMergeOf } from '../../shared/data/items/merge';
import { rewardEntryItem, rewardEntryKey, visibleRewardEntryOf } from '../../shared/data/items/reward-entry';
import { catalogItems, catalogOf } from '../../shared/data/items/shop';
import { GLOBAL_INDEXES, LOCAL_INDEXES, TTL_ATTRIBUTE, type GlobalIndexDefinition } from '../../shared/data/table';
import type { ApiKeyRecord } from '../../shared/domain/api-key';
import type { EarningEntry, RewardEntry } from '../../shared/domain/history';
import type { ShopCatalog } from '../../shared/domain/shop';
import { customerRecord } from '../fixtures/customer-record';

const ARCHITECTURE = join(__dirname, '..', '..', 'docs', 'architecture.md');

/** The table of items as the item modules declare it, one markdown row per item type. */
function declaredTable(): string[] {
  const code = (text: string) => `\`${text}\``;
  return [
    '| item | pk | sk | index attributes |',
    '|---|---|---|---|',
    ...ITEM_TYPES.map((type) => {
      const indexed = (type.indexed ?? []).map(code).join(', ');
      return `| ${type.name} | ${code(type.key.pk)} | ${code(type.key.sk)} |${indexed ? ` ${indexed} |` : ' |'}`;
    }),
  ];
}

/** The rows of the table under `## Table design` in docs/architecture.md. */
function documentedTable(): string[] {
  const lines = readFileSync(ARCHITECTURE, 'utf8').split('\n');
  const start = lines.findIndex((line, index) => index > lines.indexOf('## Table design') && line.startsWith('|'));
  const end = lines.findIndex((line, index) => index > start && !line.startsWith('|'));
  return lines.slice(start, end).map((line) => line.trimEnd());
}

describe("docs/architecture.md's table of items", () => {
  it('is the table the item modules declare (regenerate the rows printed here when an item type changes)', () => {
    expect(documentedTable().join('\n')).toBe(declaredTable().join('\n'));
  });
});

describe('item type declarations', () => {
  const globals = Object.values(GLOBAL_INDEXES) as GlobalIndexDefinition[];
  /** Every attribute an index reads: its keys and projected attributes. */
  const indexAttributes = new Set([
    ...globals.flatMap((index) => [
      index.partitionKey.name,
      ...(index.sortKey ? [index.sortKey.name] : []),
      ...(Array.isArray(index.projection) ? (index.projection as string[]) : []),
    ]),
    ...Object.values(LOCAL_INDEXES).map((index) => index.sortKey.name),
  ]);
  const declaredIndexed = new Set(ITEM_TYPES.flatMap((type) => type.indexed ?? []));

  it('name every attribute the indexes read on some item type, and no attribute no index reads', () => {
    for (const attribute of indexAttributes) expect([attribute, declaredIndexed.has(attribute)]).toEqual([attribute, true]);
    for (const attribute of declaredIndexed) {
      expect([attribute, indexAttributes.has(attribute) || attribute === TTL_ATTRIBUTE]).toEqual([attribute, true]);
    }
  });

  it('give KEY_ATTRIBUTES: the key and every derived attribute, which withoutKeys leaves out', () => {
    expect([...KEY_ATTRIBUTES].sort()).toEqual(
      [
        'pk',
        'sk',
        'list_pk',
        'email_pk',
        'email_lc',
        'version',
        'ttl',
        'earn_created_at',
        'earn_points',
        'earn_given_at',
        'redeem_created_at',
        'redeem_points_spent',
        'unsettled_pk',
        'unsettled_since',
        'due_pk',
        'due_at',
        'tier_list_pk',
        'last_activity_at',
      ].sort(),
    );
    expect(withoutKeys({ pk: 'p', sk: 's', due_pk: 'd', due_at: 'a', version: 3, points: 5 })).toEqual({ points: 5 });
  });

  it('have one key shape per item type', () => {
    const shapes = ITEM_TYPES.map((type) => `${type.key.pk}|${type.key.sk}`);
    expect(new Set(shapes).size).toBe(shapes.length);
  });
});

describe('customer profile', () => {
  const record = customerRecord({
    shop_id: 's1',
    platform_customer_id: '1001',
    email: ' Ada@Example.COM ',
    status: 'member',
    current_points: 120,
    points_expire_at: '2025-03-01T00:00:00.000Z',
  });

  it('parses the customer back out of any key of its partition', () => {
    expect(customerOfKey(customerKey('s1', '1001'))).toBe('1001');
    expect(customerOfKey(earningEntryKey('s1', '1001', 'e1'))).toBe('1001');
    expect(customerOfKey(birthdayTimerKey('s1', '1001'))).toBe('1001');
  });

  it('writes the list, e-mail and due-work attributes, and reads back exactly the record', () => {
    const item = customerItem(record, 4);
    expect(item).toMatchObject({
      pk: 'SHOP#s1#C#1001',
      sk: 'PROFILE',
      list_pk: 'SHOP#s1#LIST#member',
      email_lc: 'ada@example.com',
      email_pk: 'SHOP#s1#EMAIL#ada@example.com',
      due_pk: 'SHOP#s1#DUE#inactivity-remind',
      due_at: '2025-03-01T00:00:00.000Z#1001',
      version: 4,
    });
    expect(storedCustomerOf(item)).toEqual({ record, version: 4 });
  });

  it('leaves a customer without an e-mail out of the e-mail index', () => {
    expect(customerItem({ ...record, email: '' }, 1)).not.toHaveProperty('email_pk');
  });

  it('has its inactivity deadline due only while it has points, reminded first, then expiring', () => {
    expect(profileDue(record)?.due_pk).toBe('SHOP#s1#DUE#inactivity-remind');
    expect(profileDue({ ...record, points_expiry_reminded_for: record.points_expire_at })?.due_pk).toBe('SHOP#s1#DUE#inactivity-expire');
    expect(profileDue({ ...record, current_points: 0 })).toBeNull();
    expect(profileDue({ ...record, status: 'excluded' })).toBeNull();
    expect(profileDue({ ...record, points_expire_at: null })).toBeNull();
  });

  it('derives the same due work for an update as for a put', () => {
    const put = customerItem(record, 1);
    expect(profileDueUpdate(record)).toEqual({
      set: 'due_pk = :duePk, due_at = :dueAt',
      remove: null,
      values: { ':duePk': put.due_pk, ':dueAt': put.due_at },
    });
    expect(profileDueUpdate({ ...record, current_points: 0 })).toEqual(dueUpdate(null));
    expect(dueUpdate(null)).toEqual({ set: null, remove: 'due_pk, due_at', values: {} });
  });
});

describe('history entries', () => {
  const entry = {
    id: 'e1',
    status: 'pending',
    points: 50,
    created_at: '2025-01-01T00:00:00.000Z',
    points_given_at: null,
    points_due_at: '2025-01-15T00:00:00.000Z',
    points_expiry_at: null,
  } as unknown as EarningEntry;

  it('an earning entry: its local-index attributes and its approval due, and the entry read back', () => {
    const item = earningEntryItem('s1', '1001', entry);
    expect(item).toMatchObject({
      sk: 'EARN#e1',
      earn_created_at: entry.created_at,
      earn_points: 50,
      earn_given_at: NOT_GIVEN_YET,
      due_pk: 'SHOP#s1#DUE#approval',
    });
    expect(dueTimeOf(String(item.due_at))).toBe(entry.points_due_at);
    expect(earningEntryOf(item)).toEqual(entry);
  });

  it('an approved batch waits for its reminder, then its expiry, and leaves once closed', () => {
    const batch = { ...entry, status: 'approved', points_expiry_at: '2026-01-01T00:00:00.000Z' } as unknown as EarningEntry;
    expect(entryDue('s1', batch)?.due_pk).toBe('SHOP#s1#DUE#batch-remind');
    expect(entryDue('s1', { ...batch, expiry_reminded: true })?.due_pk).toBe('SHOP#s1#DUE#batch-expire');
    expect(entryDue('s1', { ...batch, batch_closed: true })).toBeNull();
  });

  it('a reward entry: an active code with an end date is due; entries in internal statuses are not read back', () => {
    const reward = {
      id: 'r1',
      status: 'active',
      points_spent: 500,
      created_at: '2025-01-01T00:00:00.000Z',
      expires_at: '2025-02-01T00:00:00.000Z',
    } as unknown as RewardEntry;
    const item = rewardEntryItem('s1', '1001', reward);
    expect(item).toMatchObject({ ...rewardEntryKey('s1', '1001', 'r1'), redeem_points_spent: 500, due_pk: 'SHOP#s1#DUE#code' });
    expect(visibleRewardEntryOf(item)).toEqual(reward);
    expect(visibleRewardEntryOf({ ...item, status: 'pending' })).toBeNull();
  });
});

describe('other item types', () => {
  it('the birthday timer follows the date of birth: kept, deleted, or put at the next day to look', () => {
    const member = customerRecord({ shop_id: 's1', platform_customer_id: '1001', date_of_birth: '1990-05-17' });
    expect(birthdayTimerChange(member, '1990-05-17', '2025-01-01')).toBeNull();
    expect(birthdayTimerChange({ ...member, date_of_birth: null }, '1990-05-17', '2025-01-01')).toEqual({
      delete: birthdayTimerKey('s1', '1001'),
    });
    const put = birthdayTimerChange(member, null, '2025-01-01');
    expect(put && 'put' in put ? put.put : null).toMatchObject({ due_pk: 'SHOP#s1#DUE#birthday', due_at: '2025-05-17#1001' });
  });

  it('an order carries its version apart from its record, and its id parses back from its key', () => {
    const item = orderItem('s1', '1001', 'o9', { state: 'paid' }, 2);
    expect(orderOf(item)).toEqual({ record: { state: 'paid' }, version: 2 });
    expect(orderIdOf(orderKey('s1', '1001', 'o9').sk)).toBe('o9');
    expect(incomingMergeOf(incomingMergeKey('s1', '1001', '1002').sk)).toBe('1002');
  });

  it('a shop configuration is written as items and read back whole', () => {
    const catalog = {
      settings: { id: 's1', name: 'Shop' },
      earningRules: [{ id: 'r1' }],
      campaigns: [{ id: 'c1' }],
      tiers: [{ id: 't1' }],
      rewards: [{ id: 'w1' }],
    } as unknown as ShopCatalog;
    expect(catalogOf(catalogItems(catalog))).toEqual(catalog);
    expect(catalogOf(catalogItems(catalog).slice(1))).toBeNull();
  });

  it('an API key and its listing: the listing holds no secret beyond the hash, the key reads back', () => {
    const record = {
      key_hash: 'abc',
      key_id: 'k1',
      shop_id: 's1',
      name: 'n',
      scope: 'admin',
      status: 'active',
      created_at: 'c',
      usage_key_id: null,
    } as unknown as ApiKeyRecord;
    expect(apiKeyItem(record)).toMatchObject({ pk: 'KEY#abc', sk: 'KEY' });
    expect(apiKeyListingItem(record)).toMatchObject({ pk: 'SHOP#s1', sk: 'APIKEY#k1', key_hash: 'abc' });
    expect(apiKeyOf('abc', apiKeyItem(record))).toEqual(record);
  });
});

describe('DynamoDB errors', () => {
  const cancelled = (codes: string[], item?: Record<string, unknown>) =>
    new TransactionCanceledException({
      message: 'cancelled',
      $metadata: {},
      CancellationReasons: codes.map((Code, index) => ({ Code, ...(index === 0 && item ? { Item: marshall(item) } : {}) })),
    });
  const named = (name: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(name), { name, ...extra });

  it('read the reasons of a cancelled transaction, and nothing from other errors', () => {
    expect(cancellationReasons(cancelled(['ConditionalCheckFailed', 'None']))).toEqual(['ConditionalCheckFailed', 'None']);
    expect(cancellationReasons(named('TransactionCanceledException', { CancellationReasons: [{ Code: 'None' }] }))).toEqual(['None']);
    expect(cancellationReasons(new Error('other'))).toBeNull();
  });

  it('tell a conflict with another transaction, in a single write or a cancelled transaction', () => {
    expect(isTransactionConflict(named('TransactionConflictException'))).toBe(true);
    expect(isTransactionConflict(cancelled(['None', 'TransactionConflict']))).toBe(true);
    expect(isTransactionConflict(cancelled(['ConditionalCheckFailed']))).toBe(false);
    expect(isConditionalCheckFailed(named('ConditionalCheckFailedException'))).toBe(true);
    expect(isConditionalCheckFailed(named('TransactionConflictException'))).toBe(false);
  });

  it('return the item DynamoDB answered a refusal with', () => {
    expect(cancelledItem(cancelled(['ConditionalCheckFailed'], { pk: 'p', version: 2 }), 0)).toEqual({ pk: 'p', version: 2 });
    expect(cancelledItem(cancelled(['ConditionalCheckFailed']), 0)).toBeNull();
  });
});
