// Discount codes derived from the purchase id: unguessable (the id is a random UUID, hashed) and
// deterministic, so a retried create, or the reconciler, can look the very same code up.
import { deterministicId } from '../domain/deterministic-id';
import type { PurchaseRecord } from '../domain/history';
import type { RewardKind } from '../domain/shop';
import type { CodeKind, DiscountCodeInput } from '../platform/port';

const LENGTH = 12;

export function discountCodeFor(purchaseId: string): string {
  return deterministicId({ text: `loyalty-purchase:${purchaseId}` }, { as: 'code', prefix: 'LOYAL', length: LENGTH });
}

/** The code kind of a reward that gives a code; a `store_credit` reward gives none (the configuration keeps it from a friend's reward). */
export function codeKindOf(kind: RewardKind): CodeKind {
  if (kind === 'store_credit') throw new Error('A store credit reward gives no discount code');
  return kind;
}

/** A purchase of a reward that gives a code (every kind but `store_credit`): its code is known. */
export type CodePurchase = PurchaseRecord & { discount_code: string; discount: PurchaseRecord['discount'] & { type: CodeKind } };

export function isCodePurchase(purchase: PurchaseRecord): purchase is CodePurchase {
  return purchase.reward_discount_type !== 'store_credit' && purchase.discount_code !== null;
}

/** What the platform is asked to create for a purchase's code: its code, kind, value, customer and dates. */
export function discountCodeInputOf(purchase: CodePurchase, customerId: string = purchase.customer_id): DiscountCodeInput {
  return {
    code: purchase.discount_code,
    title: `Loyalty reward: ${purchase.reward_name}`,
    customerId,
    discountType: purchase.discount.type,
    amount: purchase.discount.value,
    productVariantId: purchase.discount.product_variant_id ?? null,
    minimumSpend: purchase.discount.minimum_spend,
    startsAt: purchase.created_at,
    endsAt: purchase.expires_at,
  };
}
