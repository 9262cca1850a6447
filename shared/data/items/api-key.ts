// API key items, stored only as the SHA-256 hash of the key value: the `KEY#<hash>` item the authorizer
// reads (looked up by hash before the shop is known) and the listing item in the shop's partition
// (`APIKEY#<key id>`, no secret in it) for operators. Keys, the items written and the records read back.
import { keyIdOf, type ApiKeyRecord, type ApiKeySummary } from '../../domain/api-key';
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
