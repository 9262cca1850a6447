// API key items, stored only as the SHA-256 hash of the key value: the `KEY#<hash>` item the authorizer
// reads (looked up by hash before the shop is known) and the listing item in the shop's partition
// (`APIKEY#<key id>`, no secret in it) for operators. Keys, the items written and the records read back,
// and the named writes that change a key and its listing together.
import { keyIdOf, type ApiKeyInput, type ApiKeyRecord, type ApiKeySummary, type UsageKey } from '../../domain/api-key';
import type { Write } from '../write';
import { defineItem } from './define-item';
import { type Item, type ItemKey, type ItemType, shopPk } from './item-type';

export const apiKeyKey = (keyHash: string): ItemKey => ({ pk: `KEY#${keyHash}`, sk: 'KEY' });

export const API_KEY_LISTING_PREFIX = 'APIKEY#';

/** The shop's listing entry of one of its keys. */
export const apiKeyListingKey = (shopId: string, keyId: string): ItemKey => ({
  pk: shopPk(shopId),
  sk: `${API_KEY_LISTING_PREFIX}${keyId}`,
});

export const apiKey = defineItem({ name: 'API key', key: apiKeyKey, placeholder: ['<sha256 of key>'] });
export const apiKeyListing = defineItem({
  name: 'API key listing (for operators; written with the key item in one transaction)',
  key: apiKeyListingKey,
  placeholder: ['<shop>', '<key id>'],
});

export const apiKeyTypes: readonly ItemType[] = [apiKey.type, apiKeyListing.type];

export function apiKeyItem(record: ApiKeyRecord): Item {
  return apiKey.item(apiKeyKey(record.key_hash), record);
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

/** What the listing holds of a key: its summary and its hash, never the key. */
const listingOf = (record: ApiKeyRecord) => ({ ...summaryOf(record), key_hash: record.key_hash });

export function apiKeyListingItem(record: ApiKeyRecord): Item {
  return apiKeyListing.item(apiKeyListingKey(record.shop_id, record.key_id), listingOf(record));
}

// ---- named writes: each change writes the key item and its listing together ------------------------------

/** A brand-new key and its listing, each only if nothing is stored there (a clash of ids or of key values). */
export const createApiKeyWrites = (record: ApiKeyRecord): [Write, Write] => [
  apiKey.put('store the key', apiKeyKey(record.key_hash), record, { ifNew: true }),
  apiKeyListing.put('list the key', apiKeyListingKey(record.shop_id, record.key_id), listingOf(record), { ifNew: true }),
];

/**
 * A key written or overwritten with its listing (configuration files, tests): the fields given replace the
 * stored ones, the first `created_at` and an existing usage-plan key are kept unless a usage key is given.
 * The key item only while it is new or the shop's own: a key held by another shop is refused, not moved.
 */
export function putApiKeyWrites(input: ApiKeyInput): [Write, Write] {
  const keyId = keyIdOf(input.key_hash);
  const set = { key_hash: input.key_hash, key_id: keyId, name: input.name, scope: input.scope, status: input.status };
  const keyItem = keepUnlessGiven({ usage_identifier_key: input.usage_identifier_key, usage_key_id: input.usage_key_id ?? null });
  const listingItem = keepUnlessGiven({ usage_key_id: input.usage_key_id ?? null });
  return [
    apiKey.update('write the key', apiKeyKey(input.key_hash), {
      set: { ...set, shop_id: input.shop_id, ...keyItem.set },
      setIfAbsent: { created_at: input.created_at, ...keyItem.setIfAbsent },
      condition: 'attribute_not_exists(pk) OR shop_id = :shop',
      values: { ':shop': input.shop_id },
    }),
    apiKeyListing.update('write the key listing', apiKeyListingKey(input.shop_id, keyId), {
      set: { ...set, ...listingItem.set },
      setIfAbsent: { created_at: input.created_at, ...listingItem.setIfAbsent },
    }),
  ];
}

/** Sets the given values, and keeps the stored one (or null) for the rest. */
function keepUnlessGiven(optional: Record<string, string | null | undefined>): {
  set: Record<string, unknown>;
  setIfAbsent: Record<string, unknown>;
} {
  const set: Record<string, unknown> = {};
  const setIfAbsent: Record<string, unknown> = {};
  for (const [attribute, value] of Object.entries(optional)) {
    if (value === null || value === undefined) setIfAbsent[attribute] = null;
    else set[attribute] = value;
  }
  return { set, setIfAbsent };
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
  const key = revoke ? { status: 'revoked' } : { usage_identifier_key: usage?.value ?? null, usage_key_id: usage?.id ?? null };
  const listing = revoke ? { status: 'revoked' } : { usage_key_id: usage?.id ?? null };
  const what = revoke ? 'revoke' : 'set the usage key of';
  return [
    apiKey.update(`${what} the key`, apiKeyKey(keyHash), { set: key, condition: 'shop_id = :shop', values: { ':shop': shopId } }),
    apiKeyListing.update(`${what} the key listing`, apiKeyListingKey(shopId, keyId), { set: listing, condition: 'attribute_exists(pk)' }),
  ];
}
