// Seeds a shop with N members straight into the table (batch writes of the same items enrolment
// writes, e-mail and name search postings included, and the shops' index markers), for the list-by-shop-size
// and member-list figures. Half the members' addresses are at scale.example, half at other.example.
import { resetEnv } from '../shared/runtime/env';
import { putApiKey } from '../shared/data/api-key-repository';
import { hashApiKey } from '../shared/domain/api-key';
import { resetDocumentClient } from '../shared/data/client';
import { customerItem } from '../shared/data/items/customer-profile';
import { emailIndexMarkerKey, emailPostingItems } from '../shared/data/items/email-gram';
import { nameIndexMarkerItem, namePostingItems } from '../shared/data/items/name-token';
import { keys } from '../shared/data/keys';
import { batchPut, putShopCatalog, setShopCounters } from '../shared/data/shop-repository';
import type { CustomerRecord } from '../shared/domain/customer';

const CONCURRENCY = 16;

/**
 * Returns the API key of the new shop `scale-<n>`. A key to be sent to the twin needs `usage`, a key of its
 * usage plan (twinUsageKey in twin-control.ts): the twin refuses a key without one, as API Gateway does.
 */
export async function seedScaleShop(
  members: number,
  options: { emailIndex?: boolean; nameIndex?: boolean; usage?: { usage_identifier_key: string; usage_key_id: string } } = {},
): Promise<string> {
  resetEnv();
  resetDocumentClient();
  const shopId = `scale-${members}`;
  const key = `scale_${members}_key`;
  await putShopCatalog({
    settings: {
      id: shopId,
      name: `Scale ${members}`,
      loyalty_mode: 'points',
      currency: 'USD',
      referral_base_url: 'https://scale.example/',
      vip_settings: { entry_method: 'points', entry_methods_extra: [], entry_logic: 'OR', points_multiplier_mode: null },
    },
    earningRules: [],
    campaigns: [],
    tiers: [],
    rewards: [],
  });
  await putApiKey({
    key_hash: hashApiKey(key),
    shop_id: shopId,
    name: 'bench',
    scope: 'read',
    status: 'active',
    usage_identifier_key: null,
    ...options.usage,
    created_at: new Date().toISOString(),
  });

  const items = (start: number, end: number) =>
    Array.from({ length: end - start }, (_, offset) => {
      const i = start + offset;
      const record: CustomerRecord = {
        shop_id: shopId,
        platform_customer_id: String(1_000_000 + i),
        email: `member${i}@${i % 2 === 0 ? 'scale' : 'other'}.example`,
        first_name: 'Member',
        last_name: String(i),
        current_points: (i * 7919) % 10_000,
        lifetime_points: (i * 7919) % 20_000,
        redeemed_points: (i * 31) % 500,
        status: 'member',
        date_of_birth: null,
        anniversary_date: null,
        referral_code: `S${i}`,
        total_spend: 0,
        orders_count: 0,
        vip_tier_id: null,
        platform_created_at: null,
        created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
        updated_at: '2025-01-01T00:00:00.000Z',
      };
      return [
        customerItem(record, 1),
        { ...keys.referralCode(shopId, record.referral_code), customer_id: record.platform_customer_id },
        ...(options.emailIndex === false ? [] : emailPostingItems(shopId, record.platform_customer_id, record.email)),
        ...(options.nameIndex === false ? [] : namePostingItems(shopId, record.platform_customer_id, record)),
      ];
    }).flat();

  let next = 0;
  const chunk = 200;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < members) {
        const start = next;
        next += chunk;
        await batchPut(items(start, Math.min(members, start + chunk)));
      }
    }),
  );
  await setShopCounters(shopId, { member: members, excluded: 0 });
  if (options.emailIndex !== false)
    await batchPut([{ ...emailIndexMarkerKey(shopId), completed_at: new Date().toISOString(), by: 'seed' }]);
  if (options.nameIndex !== false) await batchPut([nameIndexMarkerItem(shopId, new Date().toISOString(), 'backfill')]);
  return key;
}
