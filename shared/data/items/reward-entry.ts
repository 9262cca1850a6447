// The reward history entry item (`REDEEM#<id>` in the customer's partition), which is also the purchase the
// saga writes: its sparse local-index attributes (created, points spent), its due work (an active code's
// expiry), its place in the unsettled purchases index while the saga has not settled it, all derived by one
// `deriveRewardEntry` that puts and updates share; the item written for an entry, the entry read back, and
// the saga's named writes of it (record the pending purchase, activate, refund, leave the reconciler's index).
import type { PurchaseRecord, RewardEntry, RewardStatus } from '../../domain/history';
import type { Write } from '../write';
import { defineItem } from './define-item';
import { customerPk } from './customer-profile';
import { dueAttributes, DUE_ATTRIBUTES, dueChange, STILL_DUE, stillDueValues } from './due';
import { type Item, type ItemKey, recordOf } from './item-type';

export const REWARD_ENTRY_PREFIX = 'REDEEM#';

export const rewardEntryKey = (shopId: string, customerId: string, id: string): ItemKey => ({
  pk: customerPk(shopId, customerId),
  sk: `${REWARD_ENTRY_PREFIX}${id}`,
});

/** Partition of the unsettled purchases index the reconciler reads (sparse: only unsettled purchases). */
export const UNSETTLED_PURCHASES = 'PENDING_PURCHASES';

const UNSETTLED_ATTRIBUTES = ['unsettled_pk', 'unsettled_since'] as const;

export const rewardEntry = defineItem({
  name: 'reward history entry (a purchase)',
  key: rewardEntryKey,
  placeholder: ['<shop>', '<platform id>', '<id>'],
  indexed: ['redeem_created_at', 'redeem_points_spent', ...UNSETTLED_ATTRIBUTES, ...DUE_ATTRIBUTES],
  derived: ['redeem_created_at', 'redeem_points_spent', ...UNSETTLED_ATTRIBUTES, ...DUE_ATTRIBUTES],
});

export const rewardEntryType = rewardEntry.type;

/**
 * The reward statuses callers may see. The purchase saga parks entries in internal statuses (such as
 * `pending`) while the discount code is created; those are never listed, counted or fetched.
 */
export const VISIBLE_REWARD_STATUSES: readonly RewardStatus[] = ['active', 'used', 'expired'];

/** An entry as far as its derived attributes go: a visible entry, or a purchase of the saga. */
type DerivedFrom = Pick<RewardEntry, 'id' | 'expires_at' | 'created_at' | 'updated_at' | 'points_spent' | 'is_refunded'> & {
  status: PurchaseRecord['status'];
  code_cleanup?: boolean;
  refund_started_at?: string | null;
  store_credit_debit_sent_at?: string | null;
};

/** The attributes an update may change: the index places that follow the status. */
const PLACES = [...DUE_ATTRIBUTES, ...UNSETTLED_ATTRIBUTES] as const;

/**
 * Every derived attribute of an entry, from its own fields: its place in the local indexes, its due work (an
 * active, unrefunded code with an end date waits for the code-expiry job) and its place in the reconciler's
 * index (a pending purchase since it was made; a refunded one whose code may still exist since its refund).
 * An absent place is `undefined`: a put leaves it out, an update removes it.
 */
export function deriveRewardEntry(shopId: string, entry: DerivedFrom): Record<string, string | number | undefined> {
  const due =
    entry.status === 'active' && !entry.is_refunded && entry.expires_at ? dueAttributes(shopId, 'code', entry.expires_at, entry.id) : null;
  const unsettledSince =
    entry.status === 'pending'
      ? entry.created_at
      : entry.status === 'refunded' && entry.code_cleanup
        ? entry.updated_at
        : entry.status === 'active' && !entry.is_refunded && entry.refund_started_at
          ? entry.refund_started_at
          : entry.status === 'used' && !entry.is_refunded && entry.store_credit_debit_sent_at
            ? entry.store_credit_debit_sent_at
            : undefined;
  return {
    redeem_created_at: entry.created_at,
    redeem_points_spent: entry.points_spent,
    due_pk: due?.due_pk,
    due_at: due?.due_at,
    unsettled_pk: unsettledSince === undefined ? undefined : UNSETTLED_PURCHASES,
    unsettled_since: unsettledSince,
  };
}

export function rewardEntryItem(shopId: string, customerId: string, entry: RewardEntry | PurchaseRecord): Item {
  const derived = Object.entries(deriveRewardEntry(shopId, entry)).filter(([, value]) => value !== undefined);
  return { ...rewardEntryKey(shopId, customerId, entry.id), ...entry, ...Object.fromEntries(derived) };
}

export const rewardEntryOf = (item: Item): RewardEntry => recordOf<RewardEntry>(item, rewardEntryType);

/** A visible entry read back; null for an entry still in an internal status. */
export function visibleRewardEntryOf(item: Item): RewardEntry | null {
  return (VISIBLE_REWARD_STATUSES as readonly unknown[]).includes(item.status) ? rewardEntryOf(item) : null;
}

// ---- named writes of the order and the code-expiry job -----------------------------------------------
// A used or expired code has nothing due (deriveRewardEntry): these writes take it out of the due work.

/**
 * An order used the entry's code: it becomes `used`, only while active and not refunded (the condition a
 * redemption's refund writes under: of an order using the code and its refund, only one commits).
 */
export function useRewardCode(shopId: string, customerId: string, id: string, redeemedAt: string, now: string): Write {
  const due = dueChange(null);
  return rewardEntry.update('use a reward code', rewardEntryKey(shopId, customerId, id), {
    set: { status: 'used', discount_code_redeemed_at: redeemedAt, updated_at: now, ...due.set },
    remove: due.remove,
    condition: '#status = :active AND (attribute_not_exists(#is_refunded) OR #is_refunded = :false)',
    values: { ':active': 'active', ':false': false },
  });
}

/** The code's end date passed: the entry becomes `expired`, if it is still active and in the code-expiry work. */
export function expireRewardCode(shopId: string, key: ItemKey, now: string): Write {
  const due = dueChange(null);
  return rewardEntry.update('expire a reward code', key, {
    set: { status: 'expired', updated_at: now, ...due.set },
    remove: due.remove,
    condition: `${STILL_DUE} AND #status = :active`,
    values: { ...stillDueValues(shopId, 'code'), ':active': 'active' },
  });
}

/** A code used or refunded meanwhile only leaves the code-expiry work, if it is still there. */
export function leaveCodeExpiryWork(shopId: string, key: ItemKey): Write {
  const due = dueChange(null);
  return rewardEntry.update('leave the code expiry work', key, {
    set: due.set,
    remove: due.remove,
    condition: STILL_DUE,
    values: stillDueValues(shopId, 'code'),
  });
}

// ---- the saga's writes ------------------------------------------------------------------------------

/** A purchase's new pending entry, in the reconciler's index from its creation; only if it does not exist. */
export function recordPendingPurchase(purchase: PurchaseRecord): Write {
  const { pk, sk, ...fields } = rewardEntryItem(purchase.shop_id, purchase.customer_id, purchase);
  return rewardEntry.put('record the pending purchase', { pk: String(pk), sk: String(sk) }, fields, { ifNew: true });
}

/** pending -> active with the platform's discount id: it leaves the reconciler's index and waits for its code's expiry. */
export function activateRewardEntry(purchase: PurchaseRecord, platformDiscountId: string, now: string): Write {
  return entryUpdate(
    'activate a reward entry',
    purchase.shop_id,
    purchase.customer_id,
    purchase,
    { status: 'active', platform_discount_id: platformDiscountId, updated_at: now },
    { status: 'pending' },
  );
}

/**
 * A `store_credit` purchase is about to send its one credit: recorded first, only while the purchase is pending
 * and no credit was sent for it, so that whoever settles it later looks for the credit instead of sending another.
 */
export function recordStoreCreditSent(purchase: PurchaseRecord, sentAt: string): Write {
  return rewardEntry.update('record a store credit sent', rewardEntryKey(purchase.shop_id, purchase.customer_id, purchase.id), {
    set: { store_credit_sent_at: sentAt },
    condition: '#status = :pending AND attribute_not_exists(#store_credit_sent_at)',
    values: { ':pending': 'pending' },
  });
}

/**
 * pending -> used for a `store_credit` purchase whose credit the platform made: it records the transaction and
 * leaves the reconciler's index (a used entry has no code to expire).
 */
export function creditRewardEntry(purchase: PurchaseRecord, transactionId: string, now: string): Write {
  return entryUpdate(
    'record a reward entry credit',
    purchase.shop_id,
    purchase.customer_id,
    purchase,
    { status: 'used', store_credit_transaction_id: transactionId, updated_at: now },
    { status: 'pending' },
  );
}

/**
 * The undo of a `store_credit` entry is about to send its one debit: recorded first (the entry enters the
 * reconciler's index), only while the entry is unrefunded and no debit was sent for it.
 */
export function startStoreCreditDebit(shopId: string, customerId: string, entry: DerivedFrom, sentAt: string): Write {
  return entryUpdate(
    'start a store credit debit',
    shopId,
    customerId,
    entry,
    { store_credit_debit_sent_at: sentAt },
    { status: 'used' },
    { notRefunded: true, absent: ['store_credit_debit_sent_at'] },
  );
}

/** The debit an undo recorded as sent was refused, or is known never to have been made: the undo did not happen. */
export function clearStoreCreditDebit(shopId: string, customerId: string, entry: DerivedFrom, sentAt: string): Write {
  // A used entry without an undo in doubt has no place in any index (deriveRewardEntry): the marker and the
  // reconciler's index attributes go, and the entry is as it was before the undo.
  return rewardEntry.update('clear a store credit debit', rewardEntryKey(shopId, customerId, entry.id), {
    remove: ['store_credit_debit_sent_at', ...UNSETTLED_ATTRIBUTES],
    condition: '#status = :used AND #store_credit_debit_sent_at = :sent AND (attribute_not_exists(#is_refunded) OR #is_refunded = :no)',
    values: { ':used': 'used', ':sent': sentAt, ':no': false },
  });
}

/**
 * An undo of an active, unrefunded entry starts: recorded before its code is deleted, so that an undo that
 * deletes the code and then fails, and cannot issue it again, leaves the entry in the reconciler's index.
 */
export function startRewardEntryRefund(shopId: string, customerId: string, purchase: PurchaseRecord, now: string): Write {
  return entryUpdate(
    'start a reward entry refund',
    shopId,
    customerId,
    purchase,
    { refund_started_at: now },
    { status: 'active' },
    { notRefunded: true },
  );
}

/**
 * An active, unrefunded entry's code issued again on the platform (a refund deleted it, then could not
 * commit): the entry keeps its code and status and records the platform's new id.
 */
export function reissueRewardEntryCode(
  shopId: string,
  customerId: string,
  purchase: PurchaseRecord,
  platformDiscountId: string,
  now: string,
  settled: boolean,
): Write {
  return entryUpdate(
    'reissue a reward entry code',
    shopId,
    customerId,
    purchase,
    { platform_discount_id: platformDiscountId, ...(settled ? { refund_started_at: null } : {}), updated_at: now },
    { status: 'active' },
    { notRefunded: true },
  );
}

/**
 * pending -> refunded. With `codeMayExist` the entry stays in the reconciler's index (since now) until the
 * code is known to be gone.
 */
export function refundPendingPurchase(purchase: PurchaseRecord, reason: string, codeMayExist: boolean, now: string): Write {
  return entryUpdate(
    'refund a pending purchase',
    purchase.shop_id,
    purchase.customer_id,
    purchase,
    {
      status: 'refunded',
      is_refunded: true,
      refund_reason: reason,
      updated_at: now,
      ...(codeMayExist ? { code_cleanup: true } : {}),
    },
    // A store credit purchase is refunded only as read: a credit sent since (its marker recorded) is looked for first.
    purchase.store_credit_sent_at ? { status: 'pending', store_credit_sent_at: purchase.store_credit_sent_at } : { status: 'pending' },
    purchase.reward_discount_type === 'store_credit' && !purchase.store_credit_sent_at ? { absent: ['store_credit_sent_at'] } : {},
  );
}

/** The code of a refunded purchase is confirmed gone from the platform: it leaves the reconciler's index. */
export function leaveUnsettledPurchases(purchase: PurchaseRecord, now: string): Write {
  return entryUpdate(
    'leave the unsettled purchases',
    purchase.shop_id,
    purchase.customer_id,
    { ...purchase, status: 'refunded' },
    { code_cleanup: false, updated_at: now },
    { status: 'refunded', code_cleanup: true },
  );
}

/**
 * An active, unused and unrefunded entry is refunded (`is_refunded`; its status stays): it leaves the
 * code-expiry job's due work. The condition is the one the order that uses its code writes under (`active`,
 * never refunded): of the two, only one commits. A refusal answers the entry as it is now.
 */
export function refundActiveRewardEntry(
  shopId: string,
  customerId: string,
  entry: DerivedFrom,
  now: string,
  debitTransactionId?: string,
): Write {
  // A `store_credit` entry is `used` from the start: its undo writes under that status, with its debit's transaction.
  const storeCredit = debitTransactionId !== undefined;
  return entryUpdate(
    'refund an active reward entry',
    shopId,
    customerId,
    entry,
    {
      is_refunded: true,
      refund_reason: 'refunded_by_request',
      updated_at: now,
      ...(storeCredit ? { store_credit_debit_transaction_id: debitTransactionId } : {}),
    },
    { status: storeCredit ? 'used' : 'active' },
    { notRefunded: true, returnOld: true },
  );
}

/**
 * An update of the entry from `entry` (as read) to `entry` with `changes`: the changed fields and the
 * derived places that follow (set, or removed), conditional on the fields `expected` (and, with
 * `notRefunded`, on the entry not being refunded).
 */
function entryUpdate(
  writeName: string,
  shopId: string,
  customerId: string,
  entry: DerivedFrom,
  changes: Record<string, unknown>,
  expected: Record<string, unknown>,
  options: { notRefunded?: boolean; returnOld?: boolean; absent?: readonly string[] } = {},
): Write {
  const derived = deriveRewardEntry(shopId, { ...entry, ...changes } as DerivedFrom);
  const values: Record<string, unknown> = {};
  const name = (attribute: string) => `#${attribute}`;
  const set = {
    ...changes,
    ...Object.fromEntries(PLACES.flatMap((place) => (derived[place] === undefined ? [] : [[place, derived[place]]]))),
  };
  const remove = PLACES.filter((place) => derived[place] === undefined);
  const conditions = Object.entries(expected).map(([attribute, value]) => {
    values[`:was_${attribute}`] = value;
    return `${name(attribute)} = :was_${attribute}`;
  });
  if (options.notRefunded) {
    values[':no'] = false;
    conditions.push(`(attribute_not_exists(${name('is_refunded')}) OR ${name('is_refunded')} = :no)`);
  }
  // An attribute absent, or left null by an earlier clearing (store_credit_debit_sent_at).
  for (const attribute of options.absent ?? []) {
    values[':null'] = null;
    conditions.push(`(attribute_not_exists(${name(attribute)}) OR ${name(attribute)} = :null)`);
  }
  return rewardEntry.update(writeName, rewardEntryKey(shopId, customerId, entry.id), {
    set,
    remove,
    condition: conditions.join(' AND '),
    values,
    returnOld: options.returnOld,
  });
}
