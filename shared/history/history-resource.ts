// JSON:API serialization of earning and reward history entries: exactly the spec's fields for
// history reads, so audit details kept on an entry (notes, request flags) never leave the table.
import type { EarningEntry, EntryActor, PurchaseActor, RewardEntry } from '../domain/history';
import type { ShopSettings } from '../domain/shop';

/**
 * `staff`: the answer is a staff route's (/admin/api), which also says who made an entry by hand (`actor`,
 * on a staff adjustment's entry only) and the internal note of an adjustment (`note`, on entries that have
 * one: staff read it in the app's home, docs/admin.md); the /v1 answer is exactly the spec's.
 */
export function earningHistoryResource(entry: EarningEntry, { staff = false }: { staff?: boolean } = {}) {
  return {
    type: 'earning_history_entry',
    id: entry.id,
    attributes: {
      earning_rule_id: entry.earning_rule_id,
      action: entry.action,
      points: entry.points,
      base_points: entry.base_points,
      points_multiplier: entry.points_multiplier,
      status: entry.status,
      order_id: entry.order_id,
      order_number: entry.order_number,
      points_due_at: entry.points_due_at,
      points_given_at: entry.points_given_at,
      points_expiry_at: entry.points_expiry_at,
      created_at: entry.created_at,
      updated_at: entry.updated_at,
      ...(staff ? { actor: entryActor(entry), order_source_name: entry.order_source_name ?? null } : {}),
      ...(staff && typeof noteOf(entry) === 'string' ? { note: noteOf(entry) } : {}),
    },
  };
}

/** Entries no request makes: an order's or a customer webhook's (Shopify), a job's or an import's (the system). */
const SHOPIFY_ACTIONS = new Set(['purchase', 'refund', 'signup', 'referral']);
const SYSTEM_ACTIONS = new Set(['expiry', 'birthday', 'import']);

/**
 * Who an entry is by, for staff (docs/admin.md, "By"): the staff user or API key recorded on it, else what its
 * action tells (Shopify for an order's, a customer's or a referral's entry; the system for an expiry, a
 * birthday, an import), else `unknown` (an adjustment or refund made before requesters were recorded, an
 * earning rule's action).
 */
export function entryActor(entry: EarningEntry): EntryActor {
  const actor = entry.actor;
  if (actor?.type === 'staff') return { type: 'staff', id: actor.id };
  if (actor?.type === 'api_key') return { type: 'api_key', id: actor.id, name: actor.name };
  if (SHOPIFY_ACTIONS.has(entry.action)) return { type: 'shopify' };
  if (SYSTEM_ACTIONS.has(entry.action)) return { type: 'system' };
  return { type: 'unknown' };
}

/** An adjustment's internal note, kept on its entry's item (read back with the entry; no other entry has one). */
const noteOf = (entry: EarningEntry): unknown => (entry as EarningEntry & { note?: unknown }).note;

/** A `store_credit` entry carries its Shopify store credit transaction (null while none is recorded); the code kinds do not. */
export function storeCreditTransactionOf(entry: Pick<RewardEntry, 'reward_discount_type' | 'store_credit_transaction_id'>) {
  return entry.reward_discount_type === 'store_credit' ? { store_credit_transaction_id: entry.store_credit_transaction_id ?? null } : {};
}

/**
 * `staff`: a staff route's answer, which also says who made the redemption (`actor`: the staff user, the API key
 * by its name, `customer` for the shopper's own, `unknown` for one made before requesters were recorded).
 */
export function rewardHistoryResource(entry: RewardEntry & { actor?: PurchaseActor }, { staff = false }: { staff?: boolean } = {}) {
  return {
    type: 'reward_history_entry',
    id: entry.id,
    attributes: {
      reward_id: entry.reward_id,
      reward_name: entry.reward_name,
      reward_discount_type: entry.reward_discount_type,
      points_spent: entry.points_spent,
      discount_code: entry.discount_code,
      status: entry.status,
      is_refunded: entry.is_refunded,
      discount_code_redeemed_at: entry.discount_code_redeemed_at,
      redeemed_at: entry.redeemed_at,
      expires_at: entry.expires_at,
      created_at: entry.created_at,
      updated_at: entry.updated_at,
      ...storeCreditTransactionOf(entry),
      ...(staff ? { actor: entry.actor ?? { type: 'unknown' as const } } : {}),
    },
  };
}

/** The unit point amounts are in: the meta of single-entry reads and of the reward list. */
export function loyaltyModeMeta(settings: ShopSettings) {
  return { loyalty_mode: settings.loyalty_mode, currency: settings.currency };
}
