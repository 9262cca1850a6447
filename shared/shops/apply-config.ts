// Loads a validated configuration file into the table: shop settings and catalog, hashed API keys,
// and imported members with their history. Safe to run again: members that already exist are left
// exactly as they are (their live balances win over the file), everything else is overwritten.
// Members load at the import's pace (docs/performance.md#import): a chunk at a time, many chunks in
// flight, the e-mail postings of the chunk's new members batched before their enrolments.
import { putApiKey } from '../data/api-key-repository';
import { hashApiKey } from '../domain/api-key';
import { createCustomer, enrolledCustomerIds } from '../data/customer-repository';
import { countCustomers } from '../data/customer-list';
import { deleteEmailPostings, markNewShopIndexed, putEmailPostings } from '../data/email-index-repository';
import { erasedCustomerIds } from '../data/erasure-repository';
import { earningEntryItem } from '../data/items/earning-entry';
import { importBatchItem } from '../data/items/import-batch';
import { rewardEntryItem } from '../data/items/reward-entry';
import { batchPut, putShopCatalog, putShopIdentity, setShopCounters } from '../data/shop-repository';
import { addShopFigures } from '../data/figures-repository';
import { addCounts, countsOfFullRead, emptyCounts, type FigureCounts } from '../domain/program-figures';
import type { CustomerRecord } from '../domain/customer';
import { addDays, calendarDateOf } from '../domain/dates';
import { generateReferralCode } from '../domain/referral';
import { DEFAULT_EARNING_SETTINGS, type EarningSettings, type ShopCatalog } from '../domain/shop';
import { type LedgerEntry, withActivity } from '../domain/points-ledger';
import { resolveTier } from '../domain/tiers';
import { DEFAULT_IMPORT_CONCURRENCY, IMPORT_CHUNK } from '../import/apply-import';
import { forEachChunk } from '../runtime/chunks';
import { nowIso } from '../runtime/clock';
import { retryUntil } from '../runtime/retry';
import type { ConfigFile, MemberConfig, PlatformCustomerConfig, ShopConfig } from '../config/schema';

export interface ShopSummary {
  shopId: string;
  keys: Array<{ name: string; scope: string; key: string; revoked: boolean }>;
  membersImported: number;
  membersKept: number;
}

const REFERRAL_ATTEMPTS = 5;

export interface ApplyConfigOptions {
  /** The instant the file is applied at (default: the clock's now). */
  now?: string;
  /** Members' chunks in flight at once (default: the import's). */
  concurrency?: number;
  /** A shop's members loaded so far and its total: at the start (0) and after each chunk. */
  onProgress?: (shopId: string, done: number, total: number) => void;
}

export async function applyConfig(config: ConfigFile, options: ApplyConfigOptions = {}): Promise<ShopSummary[]> {
  const now = options.now ?? nowIso();
  const summaries: ShopSummary[] = [];
  for (const shop of config.shops) summaries.push(await applyShop(shop, now, options));
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
      ...(shop.analytics.point_value !== null ? { analytics: { point_value: shop.analytics.point_value } } : {}),
    },
    earningRules: shop.earning_rules,
    campaigns: shop.campaigns,
    tiers: shop.vip_tiers,
    rewards: shop.rewards,
  };
}

async function applyShop(shop: ShopConfig, now: string, options: ApplyConfigOptions): Promise<ShopSummary> {
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

  const imported = await loadMembers(shop, catalog, now, options);

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

/**
 * The shop's members, as the import loads its rows: a chunk's profiles read at once (one consistent
 * BatchGetItem), the e-mail postings of the chunk's new members put in batches, then each new member's
 * enrolment, which leaves its postings out; the members already there are left as they are. The number
 * of members created.
 */
async function loadMembers(shop: ShopConfig, catalog: ShopCatalog, now: string, options: ApplyConfigOptions): Promise<number> {
  const platformCustomers = new Map(shop.platform.customers.map((customer) => [customer.id, customer]));
  const platformCustomerOf = (member: MemberConfig): PlatformCustomerConfig => {
    const platformCustomer = platformCustomers.get(member.platform_customer_id);
    if (!platformCustomer) throw new Error(`Member ${member.platform_customer_id} has no platform customer`);
    return platformCustomer;
  };
  let imported = 0;
  options.onProgress?.(shop.id, 0, shop.members.length);
  await forEachChunk(
    shop.members,
    {
      size: IMPORT_CHUNK,
      concurrency: options.concurrency ?? DEFAULT_IMPORT_CONCURRENCY,
      onProgress: (done, total) => options.onProgress?.(shop.id, done, total),
    },
    async (chunk) => {
      for (const member of chunk) platformCustomerOf(member);
      const present = await enrolledCustomerIds(
        shop.id,
        chunk.map((member) => member.platform_customer_id),
      );
      const absent = chunk.filter((member) => !present.has(member.platform_customer_id));
      // A customer the platform erased (customers/redact) is not brought back by the file, nor indexed.
      const erased = await erasedCustomerIds(
        shop.id,
        absent.map((member) => member.platform_customer_id),
      );
      const enrolling = absent.filter((member) => !erased.has(member.platform_customer_id));
      await putEmailPostings(
        shop.id,
        enrolling.map((member) => ({ customerId: member.platform_customer_id, email: platformCustomerOf(member).email })),
      );
      // The program's figures of the chunk's new members, as a full read of them gives (docs/admin.md#figures):
      // no event carries a configured member, so the configuration adds what it brought itself.
      const figures = emptyCounts();
      for (const member of enrolling) {
        const created = await importMember(shop, catalog, member, platformCustomerOf(member), now);
        if (!created) continue;
        imported += 1;
        addCounts(figures, created);
      }
      await addShopFigures(shop.id, figures);
    },
  );
  return imported;
}

/**
 * Creates the member with its history, its e-mail postings put already; false when the member already
 * exists (left untouched: enrolled between the chunk's read and this write).
 */
async function importMember(
  shop: ShopConfig,
  catalog: ShopCatalog,
  member: MemberConfig,
  platformCustomer: PlatformCustomerConfig,
  now: string,
): Promise<FigureCounts | false> {
  const figures = {
    lifetime_points: member.lifetime_points,
    total_spend: member.total_spend,
    orders_count: member.orders_count,
  };
  // A referral code already taken, or a transaction in conflict, is tried again; a member already there is left as it is.
  const created = await retryUntil(REFERRAL_ATTEMPTS, null, async (): Promise<FigureCounts | false | undefined> => {
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
    const outcome = await createCustomer(ledger.record, { countInShop: false, emailPostingsWritten: true, unlessErased: true });
    if (outcome === 'customer_exists') return false;
    if (outcome === 'erased') {
      // Erased between the chunk's read and this write: its postings go too.
      await deleteEmailPostings(shop.id, member.platform_customer_id, platformCustomer.email);
      return false;
    }
    if (outcome === 'referral_code_taken' || outcome === 'conflict') return undefined;
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
    return countsOfFullRead({
      members: [ledger.record],
      earning: ledger.entries,
      rewards: member.reward_history,
    });
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
