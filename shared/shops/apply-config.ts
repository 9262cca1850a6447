// Loads a validated configuration file into the table: shop settings and catalog, hashed API keys,
// and imported members with their history. Safe to run again: members that already exist are left
// exactly as they are (their live balances win over the file), everything else is overwritten.
import { putApiKey } from '../data/api-key-repository';
import { hashApiKey } from '../domain/api-key';
import { countCustomers, createCustomer } from '../data/customer-repository';
import { markNewShopIndexed } from '../data/email-index-repository';
import { earningEntryItem } from '../data/items/earning-entry';
import { importBatchItem } from '../data/items/import-batch';
import { rewardEntryItem } from '../data/items/reward-entry';
import { batchPut, putShopCatalog, putShopIdentity, setShopCounters } from '../data/shop-repository';
import type { CustomerRecord } from '../domain/customer';
import { addDays, calendarDateOf } from '../domain/dates';
import { generateReferralCode } from '../domain/referral';
import { DEFAULT_EARNING_SETTINGS, type EarningSettings, type ShopCatalog } from '../domain/shop';
import { type LedgerEntry, withActivity } from '../domain/points-ledger';
import { resolveTier } from '../domain/tiers';
import { nowIso } from '../runtime/clock';
import { retryUntil } from '../runtime/retry';
import type { ConfigFile, MemberConfig, ShopConfig } from '../config/schema';

export interface ShopSummary {
  shopId: string;
  keys: Array<{ name: string; scope: string; key: string; revoked: boolean }>;
  membersImported: number;
  membersKept: number;
}

const IMPORT_CONCURRENCY = 8;
const REFERRAL_ATTEMPTS = 5;

export async function applyConfig(config: ConfigFile, now = nowIso()): Promise<ShopSummary[]> {
  const summaries: ShopSummary[] = [];
  for (const shop of config.shops) summaries.push(await applyShop(shop, now));
  return summaries;
}

function catalogOf(shop: ShopConfig): ShopCatalog {
  return {
    settings: {
      id: shop.id,
      name: shop.name,
      loyalty_mode: shop.loyalty_mode,
      currency: shop.currency,
      referral_base_url: shop.referral_base_url,
      vip_settings: shop.vip_settings,
      earning_settings: shop.earning_settings,
      referral_settings: shop.referral_settings,
      read_all_orders: shop.platform.read_all_orders,
    },
    earningRules: shop.earning_rules,
    campaigns: shop.campaigns,
    tiers: shop.vip_tiers,
    rewards: shop.rewards,
  };
}

async function applyShop(shop: ShopConfig, now: string): Promise<ShopSummary> {
  const catalog = catalogOf(shop);
  // A shop applied for the first time has no member without e-mail search postings: its index is complete.
  await markNewShopIndexed(shop.id, now);
  await putShopCatalog(catalog);
  await putShopIdentity(shop.id, shop.platform.shop_domain);
  for (const key of shop.api_keys) {
    await putApiKey({
      key_hash: hashApiKey(key.key),
      shop_id: shop.id,
      name: key.name,
      scope: key.scope,
      status: key.revoked ? 'revoked' : 'active',
      usage_identifier_key: null,
      created_at: now,
    });
  }

  let imported = 0;
  const queue = [...shop.members];
  const worker = async () => {
    for (let member = queue.shift(); member; member = queue.shift()) {
      if (await importMember(shop, catalog, member, now)) imported += 1;
    }
  };
  await Promise.all(Array.from({ length: IMPORT_CONCURRENCY }, worker));

  // Counters are recounted rather than incremented, so applying the file twice cannot skew them.
  const counts = await countCustomers(shop.id);
  await setShopCounters(shop.id, counts);

  return {
    shopId: shop.id,
    keys: shop.api_keys.map((key) => ({ name: key.name, scope: key.scope, key: key.key, revoked: key.revoked })),
    membersImported: imported,
    membersKept: shop.members.length - imported,
  };
}

/** Creates the member with its history; false when the member already exists (left untouched). */
async function importMember(shop: ShopConfig, catalog: ShopCatalog, member: MemberConfig, now: string): Promise<boolean> {
  const platformCustomer = shop.platform.customers.find((customer) => customer.id === member.platform_customer_id);
  if (!platformCustomer) throw new Error(`Member ${member.platform_customer_id} has no platform customer`);
  const figures = {
    lifetime_points: member.lifetime_points,
    total_spend: member.total_spend,
    orders_count: member.orders_count,
  };
  // A referral code already taken is drawn again; a member already there is left as it is.
  const created = await retryUntil(REFERRAL_ATTEMPTS, null, async (): Promise<boolean | undefined> => {
    const record: CustomerRecord = {
      shop_id: shop.id,
      platform_customer_id: member.platform_customer_id,
      email: platformCustomer.email,
      first_name: platformCustomer.first_name,
      last_name: platformCustomer.last_name,
      current_points: member.current_points,
      lifetime_points: member.lifetime_points,
      redeemed_points: member.redeemed_points,
      status: member.excluded ? 'excluded' : 'member',
      date_of_birth: member.date_of_birth,
      anniversary_date: member.anniversary_date ?? calendarDateOf(platformCustomer.created_at),
      referral_code: generateReferralCode(),
      total_spend: member.total_spend,
      orders_count: member.orders_count,
      vip_tier_id: resolveTier(figures, catalog.tiers, catalog.settings.vip_settings)?.id ?? null,
      platform_created_at: platformCustomer.created_at,
      created_at: member.enrolled_at,
      updated_at: member.enrolled_at,
    };
    const ledger = importedBatches(record, member, catalog.settings.earning_settings ?? DEFAULT_EARNING_SETTINGS, now);
    // Not counted here: the shop's counters are recounted once every member is in.
    // A customer the platform erased (customers/redact) is not brought back by the file.
    const outcome = await createCustomer(ledger.record, { countInShop: false, unlessErased: true });
    if (outcome === 'customer_exists' || outcome === 'erased') return false;
    if (outcome === 'referral_code_taken') return undefined;
    await batchPut([
      ...ledger.entries.map((entry) => earningEntryItem(shop.id, member.platform_customer_id, entry)),
      ...(ledger.rest ? [importBatchItem(shop.id, member.platform_customer_id, ledger.rest)] : []),
      ...member.reward_history.map((entry) =>
        rewardEntryItem(shop.id, member.platform_customer_id, {
          ...entry,
          created_at: entry.redeemed_at,
          updated_at: entry.discount_code_redeemed_at ?? entry.redeemed_at,
        }),
      ),
    ]);
    return true;
  });
  if (created !== undefined) return created;
  throw new Error(`Could not draw a unique referral code for member ${member.platform_customer_id}`);
}

/**
 * An imported member's batches (EARNING-CONTRACT.md): its approved positive entries in the order they were
 * given, then the balance they do not cover as one batch given at the import. Imported entries keep the
 * expiry dates the file gives them; the uncovered rest expires `days` after the import in `batch` mode.
 */
function importedBatches(record: CustomerRecord, member: MemberConfig, settings: EarningSettings, now: string) {
  const entries: LedgerEntry[] = member.earning_history.map((entry) => ({ ...entry, updated_at: entry.created_at }));
  const batches = entries
    .filter((entry) => entry.status === 'approved' && entry.points > 0)
    .sort((a, b) => (a.points_given_at ?? a.created_at).localeCompare(b.points_given_at ?? b.created_at));
  let total = 0;
  for (const batch of batches) {
    batch.batch_offset = total;
    total += batch.points;
  }
  const restPoints = record.current_points - total;
  const expiry = settings.points_expiry;
  const rest =
    restPoints > 0
      ? {
          batch_offset: total,
          points: restPoints,
          points_given_at: now,
          points_expiry_at: expiry?.mode === 'batch' ? addDays(now, expiry.days) : null,
        }
      : null;
  const withTotal = { ...record, points_batch_total: Math.max(total, record.current_points) };
  return { record: withActivity(withTotal, settings, now), entries, rest };
}
