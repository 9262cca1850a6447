// API key items, stored only as the SHA-256 hash of the key value: the `KEY#<hash>` item the authorizer
// reads (looked up by hash before the shop is known) and the listing item in the shop's partition
// (`APIKEY#<key id>`, no secret in it) for operators. Keys, the items written and the records read back,
// and the named writes that change a key and its listing together.
import { keyIdOf, type ApiKeyInput, type ApiKeyRecord, type ApiKeySummary, type UsageKey } from '../../domain/api-key';
import { tableName } from '../client';
import { namedWrite, type Write } from '../write';
import { type Item, type ItemKey, type ItemType, shopPk } from './item-type';

export const apiKeyKey = (keyHash: string): ItemKey => ({ pk: `KEY#${keyHash}`, sk: 'KEY' });

export const API_KEY_LISTING_PREFIX = 'APIKEY#';

/** The shop's listing entry of one of its keys. */
export const apiKeyListingKey = (shopId: string, keyId: string): ItemKey => ({
  pk: shopPk(shopId),
  sk: `${API_KEY_LISTING_PREFIX}${keyId}`,
});

export const apiKeyTypes: readonly ItemType[] = [
  { name: 'API key', key: apiKeyKey('<sha256 of key>') },
  { name: 'API key listing (for operators; written with the key item in one transaction)', key: apiKeyListingKey('<shop>', '<key id>') },
];

export function apiKeyItem(record: ApiKeyRecord): Item {
  return { ...apiKeyKey(record.key_hash), ...record };
}

/** The key as the authorizer sees it; the key id follows from the hash when the item predates it. */
export function apiKeyOf(keyHash: string, item: Item): ApiKeyRecord {
  const { pk: _pk, sk: _sk, ...record } = item;
  return { key_id: keyIdOf(keyHash), ...record } as ApiKeyRecord;
}

export function summaryOf(record: ApiKeyRecord): ApiKeySummary {
  return {
    key_id: record.key_id,
    name: record.name,
    scope: record.scope,
    status: record.status,
    created_at: record.created_at,
    usage_key_id: record.usage_key_id ?? null,
  };
}

export function apiKeyListingItem(record: ApiKeyRecord): Item {
  return { ...apiKeyListingKey(record.shop_id, record.key_id), ...summaryOf(record), key_hash: record.key_hash };
}

// ---- named writes: each change writes the key item and its listing together ------------------------------

const createOnly = (name: string, item: Item): Write =>
  namedWrite(name, { Put: { TableName: tableName(), Item: item, ConditionExpression: 'attribute_not_exists(pk)' } });

/** A brand-new key and its listing, each only if nothing is stored there (a clash of ids or of key values). */
export const createApiKeyWrites = (record: ApiKeyRecord): [Write, Write] => [
  createOnly('store the key', apiKeyItem(record)),
  createOnly('list the key', apiKeyListingItem(record)),
];

/**
 * A key written or overwritten with its listing (configuration files, tests): the fields given replace the
 * stored ones, the first `created_at` and an existing usage-plan key are kept unless a usage key is given.
 * The key item only while it is new or the shop's own: a key held by another shop is refused, not moved.
 */
export function putApiKeyWrites(input: ApiKeyInput): [Write, Write] {
  const keyId = keyIdOf(input.key_hash);
  const names = { '#name': 'name', '#status': 'status', '#scope': 'scope' };
  const fields = {
    ':key_hash': input.key_hash,
    ':key_id': keyId,
    ':name': input.name,
    ':scope': input.scope,
    ':status': input.status,
    ':created_at': input.created_at,
  };
  const set =
    'SET key_hash = :key_hash, key_id = :key_id, #name = :name, #scope = :scope, #status = :status, created_at = if_not_exists(created_at, :created_at)';
  const keyItem = keepUnlessGiven(
    { expression: `${set}, shop_id = :shop`, values: { ...fields, ':shop': input.shop_id } },
    { usage_identifier_key: input.usage_identifier_key, usage_key_id: input.usage_key_id ?? null },
  );
  const listingItem = keepUnlessGiven({ expression: set, values: fields }, { usage_key_id: input.usage_key_id ?? null });
  return [
    namedWrite('write the key', {
      Update: {
        TableName: tableName(),
        Key: apiKeyKey(input.key_hash),
        UpdateExpression: keyItem.expression,
        ConditionExpression: 'attribute_not_exists(pk) OR shop_id = :shop',
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: keyItem.values,
      },
    }),
    namedWrite('write the key listing', {
      Update: {
        TableName: tableName(),
        Key: apiKeyListingKey(input.shop_id, keyId),
        UpdateExpression: listingItem.expression,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: listingItem.values,
      },
    }),
  ];
}

/** Adds `attribute = :value` for given values and keeps the stored one (or null) for the rest. */
function keepUnlessGiven(
  update: { expression: string; values: Record<string, unknown> },
  optional: Record<string, string | null>,
): { expression: string; values: Record<string, unknown> } {
  let { expression } = update;
  const values = { ...update.values };
  for (const [attribute, value] of Object.entries(optional)) {
    if (value === null) {
      expression += `, ${attribute} = if_not_exists(${attribute}, :null)`;
      values[':null'] = null;
    } else {
      expression += `, ${attribute} = :${attribute}`;
      values[`:${attribute}`] = value;
    }
  }
  return { expression, values };
}

/** A change of an existing key: revoked, or tied to its API Gateway usage-plan key (or untied: null). */
export type ApiKeyChange = { revoke: true } | { usage: UsageKey | null };

/**
 * A change of an existing key and its listing: the key item only while it still belongs to the shop, the
 * listing only while it exists, so a change never creates half a key.
 */
export function changeApiKeyWrites(shopId: string, keyId: string, keyHash: string, change: ApiKeyChange): [Write, Write] {
  const revoke = 'revoke' in change;
  const usage = revoke ? null : change.usage;
  const key = revoke
    ? { expression: 'SET #status = :revoked', names: { '#status': 'status' }, values: { ':revoked': 'revoked' } }
    : {
        expression: 'SET usage_identifier_key = :value, usage_key_id = :id',
        values: { ':value': usage?.value ?? null, ':id': usage?.id ?? null },
      };
  const listing = revoke
    ? { expression: 'SET #status = :revoked', names: { '#status': 'status' }, values: { ':revoked': 'revoked' } }
    : { expression: 'SET usage_key_id = :id', values: { ':id': usage?.id ?? null } };
  const what = revoke ? 'revoke' : 'set the usage key of';
  return [
    namedWrite(`${what} the key`, {
      Update: {
        TableName: tableName(),
        Key: apiKeyKey(keyHash),
        UpdateExpression: key.expression,
        ConditionExpression: 'shop_id = :shop',
        ...('names' in key ? { ExpressionAttributeNames: key.names } : {}),
        ExpressionAttributeValues: { ...key.values, ':shop': shopId },
      },
    }),
    namedWrite(`${what} the key listing`, {
      Update: {
        TableName: tableName(),
        Key: apiKeyListingKey(shopId, keyId),
        UpdateExpression: listing.expression,
        ConditionExpression: 'attribute_exists(pk)',
        ...('names' in listing ? { ExpressionAttributeNames: listing.names } : {}),
        ExpressionAttributeValues: listing.values,
      },
    }),
  ];
}
